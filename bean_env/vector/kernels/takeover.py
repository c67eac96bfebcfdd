"""`hostile_takeover` (HT-*, TXT-*, 2-5 players) as array kernels over N games.

The rules of ``engine.takeover.TakeoverRules`` from the first decision of a game to its end, the legal
mask of ``ActionCatalogue`` and the observation of ``ObservationEncoder``, on the arrays of
``kernels.common`` with these additions (terms of ``engine.takeover.rules``):
- list rows PILE + i (field ``i = 3 seat + field``, bottom to top), TDECK and TDISC (the text deck and its
  discard pile, top last), CMODS (the text cards committed to the composite being built);
- columns: the Jokerbohne's field, each field's defence card, each seat's text cards as a bit set (each
  text card exists once, and held ones are kept sorted), bonus coins, and the turn's, copying round's,
  final harvest's and composite's state; the copying round's queue and the final-harvest order are
  runs of seats clockwise (the next seat and how many are left);
- generators: the engine draws a new generator for every shuffle (``State.rng``; text-deck rebuilds and
  TXT-15 make their number unbounded), so ``M[g]`` is a ring of ``RING`` pre-seeded generators that
  ``reserve`` refills between steps (SHUFFLED: the shuffles made, counted as the engine counts them;
  GEN_END: the generators loaded so far; a step that used more raises in ``check``).
A new game's set-up is the engine's (``load``). Golden tests hold both to the same games, masks,
observations and rewards.
"""
from __future__ import annotations

import numpy as np

from ...cards import BLACK_EYED, CUTTING, DECKS, GARDEN, NUM_TYPES, RED, handicap
from ...engine.actions import Action, Kind
from ...engine.takeover.textcards import (JOKER_TYPES, MUTATION_ORDER, NUM_TEXTS, bohnbastica, bohnotoni, calzbohne,
                                          cutting_final, cutting_in_play, diabohno)
from ..._numba import njit
from .common import (ACTIVE, ACTOR, ASIDE, COIN, COIN_TABLE, COLUMNS, DECISION, DECK, DISC, END_PENDING, FACE, F_COUNT,
                     F_TYPE, HAND, KNOWN, LIMIT, LISTS, MAX_LISTS, NFIELDS, OVER, PAID, P_MODE, RUNOUTS, R_DENSE,
                     R_MARGIN, R_SCORE, R_WIN, SEATS, SHUFFLED, TURN, Arrays, begin_row, count_in, draw_from,
                     env_params, in_list, load_common, load_generator, move_all, next_generator, pop_at, push,
                     shuffle_list, type_slots)

COMPOSITION = dict(DECKS["HT"])
CARDS = sum(COMPOSITION.values())
TYPE_OF, TSLOT = type_slots(COMPOSITION)
T = len(TYPE_OF)
TEXTS = NUM_TEXTS
K_TAKEOVER = 3

DECISIONS = ("turn", "copy", "play", "place", "harvest", "attack", "defend", "override", "show", "seed_coin",
             "seed_keep", "final", "final_play", "game_over")
(D_TURN, D_COPY, D_PLAY, D_PLACE, D_HARVEST, D_ATTACK, D_DEFEND, D_OVERRIDE, D_SHOW, D_SEED_COIN, D_SEED_KEEP,
 D_FINAL, D_FINAL_PLAY, D_GAME_OVER) = range(14)
COPY_KINDS = "abcde"
HARVEST_KINDS = ("d", "t18", "final")
H_D, H_T18, H_FINAL = range(3)
(TXT_SWAP_FIELDS, TXT_CHEMIEKEULE, TXT_EXTRAKARTE, TXT_PLAY_AT_END, TXT_SWAP_HANDS, TXT_JOKER, TXT_MIGHTY,
 TXT_MUTA, TXT_PIRATE, TXT_BOHNBASTICA, TXT_BOHNOTONI, TXT_CALZBOHNE, TXT_DIABOHNO, TXT_SAMENHANDEL,
 TXT_SEVEN, TXT_STRONG, TXT_VARIABLE, TXT_EXTRA_HARVEST) = range(18)
TIED_BITS = sum(1 << c for c in (TXT_CHEMIEKEULE, TXT_MIGHTY, TXT_MUTA, TXT_STRONG, TXT_VARIABLE, TXT_BOHNBASTICA,
                                 TXT_BOHNOTONI, TXT_CALZBOHNE, TXT_DIABOHNO, TXT_PLAY_AT_END))
ALL_BITS = (1 << 16) - 1
HAND_LIMIT = 5
MUTA_FLAG = 16
RUNS = 3
RING, FILL = 16, 8      # generators held per game; ``reserve`` tops a game up when fewer than FILL are left

# strength (HT-11): size * 32 - handicap; tables by type code
HANDICAP = np.array([handicap(t) if t in COMPOSITION else 0 for t in range(NUM_TYPES)], np.int64)
NEXT_TYPE = np.full(NUM_TYPES, -1, np.int64)
for _i, _t in enumerate(MUTATION_ORDER[:-1]):
    NEXT_TYPE[_t] = MUTATION_ORDER[_i + 1]
IS_JOKER_TYPE = np.array([t in JOKER_TYPES for t in range(NUM_TYPES)], np.bool_)
IS_DIABOHNO = np.array([t in (CUTTING, GARDEN, RED, BLACK_EYED) for t in range(NUM_TYPES)], np.bool_)
CUT_PLAY = np.array([cutting_in_play(n) for n in range(CARDS + 2)], np.int64)   # [n] = (coins, text cards)
CUT_FINAL = np.array([cutting_final(n) for n in range(CARDS + 2)], np.int64)
BOHNBASTICA = np.array([bohnbastica(n) for n in range(3 * CARDS + 4)], np.int64)
DIABOHNO = np.array([diabohno(n) for n in range(CARDS + 2)], np.int64)
# [meter][size][final]: TXT-11's value; [two players][lowest size]: TXT-12's
BOHNOTONI = np.array([[[bohnotoni(m, n, bool(f)) if m in COMPOSITION else 0 for f in range(2)]
                       for n in range(CARDS + 2)] for m in range(NUM_TYPES)], np.int64)
CALZBOHNE = np.array([[calzbohne([n], bool(two)) for n in range(CARDS + 2)] for two in range(2)], np.int64)

# list rows and columns beyond the common ones
PILE = LISTS                       # + field index
TDECK = PILE + 3 * 5
TDISC = TDECK + 1
CMODS = TDISC + 1
HT_LISTS = CMODS + 1
assert HT_LISTS <= MAX_LISTS  # the list lengths' columns come before the scalars
JOKER = COLUMNS
GUARD = JOKER + 1                  # + field index
TXT = GUARD + 3 * 5                # + seat: the text cards held, as bits
BONUS = TXT + SEATS                # + seat
(HARVESTED, ACTS, FINAL, FIN_LEFT, FIN_OPEN, CTX, OWNER, CF, CTYPE, CCOUNT, CMUTA, CTARGET, CKIND, CCHEM, SHOWN_N,
 SHOWN) = range(BONUS + SEATS, BONUS + SEATS + 16)
(CP_LEADER, CP_KIND, CP_QUOTA, CP_TOOK, CPQ_NEXT, CPQ_LEFT, CP_RET, TRUNC, GEN_END) = range(SHOWN + 5, SHOWN + 14)
HT_COLUMNS = GEN_END + 1

# params beside the env's options: players, the turn budget, the turn limit, where action kinds start
(P_N, P_MAXACT, P_MAXTURNS) = range(5, 8)
KINDS = ("END_TURN", "PASS", "DONE", "PLAY", "ADD", "CONFIRM", "MERGE", "MERGE_MUTA", "TURN_UP", "PLACE",
         "HARVEST", "ATTACK", "MODIFY", "CHEM", "DEFEND", "NO_DEFENCE", "OVERRIDE", "GIVE_UP", "T_SWAP_FIELDS",
         "T_SIMPLE", "T_SWAP_HANDS", "T_FIELD", "SHOW", "COIN", "REDRAW", "KEEP_SHOWN", "FINAL")
(A_END_TURN, A_PASS, A_DONE, A_PLAY, A_ADD, A_CONFIRM, A_MERGE, A_MERGE_MUTA, A_TURN_UP, A_PLACE, A_HARVEST,
 A_ATTACK, A_MODIFY, A_CHEM, A_DEFEND, A_NO_DEFENCE, A_OVERRIDE, A_GIVE_UP, A_T_SWAP_FIELDS, A_T_SIMPLE,
 A_T_SWAP_HANDS, A_T_FIELD, A_SHOW, A_COIN, A_REDRAW, A_KEEP_SHOWN, A_FINAL) = range(8, 8 + len(KINDS))
SIMPLE_TEXTS = (TXT_EXTRAKARTE, TXT_PLAY_AT_END, TXT_SAMENHANDEL, TXT_SEVEN)   # HT_TEXT without a parameter
FIELD_TEXTS = (TXT_JOKER, TXT_PIRATE, TXT_EXTRA_HARVEST)                       # HT_TEXT with a field
SIMPLE_AT = np.array([SIMPLE_TEXTS.index(c) if c in SIMPLE_TEXTS else -1 for c in range(TEXTS)], np.int64)
SIMPLE_TEXTS_A, FIELD_TEXTS_A = np.array(SIMPLE_TEXTS, np.int64), np.array(FIELD_TEXTS, np.int64)
FIELD_AT = np.array([FIELD_TEXTS.index(c) if c in FIELD_TEXTS else -1 for c in range(TEXTS)], np.int64)

BLOCKS = ("decision", "actor_active", "hand", "hand_sizes", "known_hands", "fields", "coins", "face_up",
          "to_plant", "discard", "deck", "unseen", "ht_fields", "ht_texts", "ht_turn", "ht_composite")
PLACED = ("decision", "actor_active", "hand", "hand_sizes", "fields", "coins", "face_up", "discard", "deck",
          "discard_runs", "unseen", "known_hands", "ht_fields", "ht_texts", "ht_turn", "ht_composite")


def action_index(params, action: Action, actor: int) -> int:
    """The catalogue index of ``action`` by the kernels' formulas (``prepare`` checks it against the
    catalogue for every action)."""
    n, k, a, b = int(params[P_N]), action.kind, action.a, action.b
    if k == Kind.HT_PLAY:
        return params[A_PLAY] + a * 2 * T + TSLOT[b % MUTA_FLAG] + (T if b >= MUTA_FLAG else 0)
    if k in (Kind.HT_ADD, Kind.HT_SHOW, Kind.HT_COIN):
        return params[{Kind.HT_ADD: A_ADD, Kind.HT_SHOW: A_SHOW, Kind.HT_COIN: A_COIN}[k]] + TSLOT[a]
    if k in (Kind.HT_MERGE, Kind.HT_MERGE_MUTA):
        return params[A_MERGE if k == Kind.HT_MERGE else A_MERGE_MUTA] + 3 * a + b
    if k in (Kind.HT_PLACE, Kind.HT_HARVEST, Kind.HT_FINAL):
        return params[{Kind.HT_PLACE: A_PLACE, Kind.HT_HARVEST: A_HARVEST, Kind.HT_FINAL: A_FINAL}[k]] + a
    if k == Kind.HT_ATTACK:
        return params[A_ATTACK] + ((a - actor) % n - 1) * 9 + b
    if k == Kind.HT_MODIFY:
        return params[A_CHEM] + b if a == TXT_CHEMIEKEULE else params[A_MODIFY] + a - (a > TXT_CHEMIEKEULE)
    if k == Kind.HT_DEFEND:
        return params[A_DEFEND] + a
    if k == Kind.HT_TEXT:
        if a == TXT_SWAP_FIELDS:
            return params[A_T_SWAP_FIELDS] + b
        if a == TXT_SWAP_HANDS:
            return params[A_T_SWAP_HANDS] + b
        if FIELD_AT[a] >= 0:
            return params[A_T_FIELD] + 3 * FIELD_AT[a] + b
        return params[A_T_SIMPLE] + SIMPLE_AT[a]
    single = {Kind.HT_END_TURN: A_END_TURN, Kind.PASS: A_PASS, Kind.DONE: A_DONE, Kind.HT_CONFIRM: A_CONFIRM,
              Kind.HT_TURN_UP: A_TURN_UP, Kind.HT_NO_DEFENCE: A_NO_DEFENCE, Kind.HT_OVERRIDE: A_OVERRIDE,
              Kind.HT_GIVE_UP: A_GIVE_UP, Kind.HT_REDRAW: A_REDRAW, Kind.HT_KEEP_SHOWN: A_KEEP_SHOWN}
    return params[single[k]]


def prepare(variant: str, num_envs: int, env) -> tuple[Arrays, np.ndarray]:
    """The arrays of ``num_envs`` games and the kernels' ``params`` for the AEC env ``env``'s options."""
    from ...engine.game import new_game
    rules = new_game(variant, seed=0, **env.config).rules
    n = len(env.possible_agents)
    cat = env.catalogue
    spans = [start for start, _, _, _ in cat.layout()]  # in KINDS' order (checked below, action by action)
    if len(spans) != len(KINDS):
        raise RuntimeError(f"the array kernels do not match the action layout of {variant!r}")
    params = env_params(env, K_TAKEOVER, [n, rules.max_actions, rules.max_turns] + spans)
    for actor in range(min(n, 2)):
        for i in range(cat.size):
            if action_index(params, cat.decode(i, actor), actor) != i:
                raise RuntimeError(f"the array kernels do not match the action layout of {variant!r}")
    arrays = Arrays(num_envs, CARDS, reshuffles=RING, lists=HT_LISTS, columns=HT_COLUMNS)
    arrays.seeds = [0] * num_envs  # each game's engine seed (its generators' names)
    return arrays, params


def reserve(arrays: Arrays, seats: int) -> None:
    """Top up the generators of every game with fewer than FILL left, to a full ring (before a step)."""
    S = arrays.S
    low = np.flatnonzero(S[:, GEN_END] - S[:, SHUFFLED] < FILL)
    for g in low.tolist():
        upto = int(S[g, SHUFFLED]) + RING
        for k in range(int(S[g, GEN_END]), upto):
            load_generator(arrays.M, g, k % RING, arrays.seeds[g], k)
        S[g, GEN_END] = upto


def check(arrays: Arrays) -> None:
    """Raise if a step needed more generators than the ring held (it cannot have played the engine's game)."""
    if (arrays.S[:, SHUFFLED] > arrays.S[:, GEN_END]).any():
        raise RuntimeError("a hostile_takeover step shuffled more often than the kernels' ring of generators holds")


def load(arrays: Arrays, g: int, s) -> None:
    """Copy the engine state ``s`` (a `hostile_takeover` game) into row ``g``."""
    if s.variant != "hostile_takeover":
        raise ValueError(f"not a hostile_takeover state: {s.variant!r}")
    load_common(arrays, g, s, DECISIONS, FILL)
    L, S = arrays.L[g], arrays.S[g]
    for k, cards in [(PILE + i, s.piles[i]) for i in range(3 * s.n)] + [(TDECK, s.tdeck), (TDISC, s.tdiscard),
                                                                         (CMODS, s.cmods)]:
        S[k] = len(cards)
        L[k, :len(cards)] = cards
    S[JOKER] = s.joker
    S[GUARD:GUARD + 15] = -1
    S[GUARD:GUARD + 3 * s.n] = s.guard
    for p in range(s.n):
        S[TXT + p] = sum(1 << c for c in s.texts[p])
        S[BONUS + p] = s.bonus[p]
    S[HARVESTED], S[ACTS], S[FINAL], S[FIN_OPEN] = s.harvested, s.acts, s.final, s.fin_open
    S[FIN_LEFT] = len(s.fin_order)
    if s.fin_order and s.fin_order[0] != (s.active + s.n - len(s.fin_order)) % s.n:
        raise ValueError("a final-harvest order the array kernels do not hold")
    S[CTX], S[OWNER] = DECISIONS.index(s.ctx), s.owner
    S[CF], S[CTYPE], S[CCOUNT], S[CMUTA], S[CTARGET] = s.cf, s.ctype, s.ccount, s.cmuta, s.ctarget
    S[CKIND] = HARVEST_KINDS.index(s.ckind) if s.ckind else -1
    S[CCHEM] = s.cchem_type
    S[SHOWN_N] = len(s.shown)
    S[SHOWN:SHOWN + len(s.shown)] = s.shown
    S[CP_LEADER], S[CP_QUOTA] = s.cp_leader, s.cp_quota
    S[CP_RET] = DECISIONS.index(s.cp_ret) if s.cp_ret else -1
    S[CP_KIND] = COPY_KINDS.index(s.cp_kind) if s.cp_kind else -1
    S[CP_TOOK] = sum(1 << q for q in s.cp_took)
    S[CPQ_LEFT] = len(s.cp_queue)
    S[CPQ_NEXT] = s.cp_queue[0] if s.cp_queue else 0
    if any(q != (S[CPQ_NEXT] + k) % s.n for k, q in enumerate(s.cp_queue)):
        raise ValueError("a copying-round queue the array kernels do not hold")
    S[TRUNC] = int(bool(s.ext.get("truncated")))
    S[GEN_END] = s.shuffles + FILL
    arrays.seeds[g] = s.seed


def scores(arrays: Arrays, g: int, n: int) -> list[int]:
    """The engine's scores of game ``g`` (HT-14, hundredths)."""
    return [int(_score(arrays.S, g, p)) for p in range(n)]


def result(arrays: Arrays, g: int, params: np.ndarray) -> tuple[list[int], list[int]]:
    """The scores (hundredths) and winners of the finished game ``g``: the best score, shared on a tie
    (nobody after a truncation)."""
    sc = scores(arrays, g, int(params[P_N]))
    if arrays.S[g, TRUNC]:
        return sc, []
    return sc, [p for p in range(len(sc)) if sc[p] == max(sc)]


def card_counts(arrays: Arrays, g: int, players: int) -> np.ndarray:
    """Bean cards of each type in game ``g`` wherever they are (deck, discard pile, turned up, under the
    deck, hands, coin stacks, piles): the deck's composition at every step (card conservation)."""
    L, S = arrays.L[g], arrays.S[g]
    rows = [DECK, DISC, FACE, ASIDE] + [k + p for k in (HAND, COIN) for p in range(players)]
    rows += [PILE + i for i in range(3 * players)]
    counts = np.zeros(NUM_TYPES, np.int64)
    for k in rows:
        counts += np.bincount(L[k, :S[k]], minlength=NUM_TYPES)
    return counts


def text_counts(arrays: Arrays, g: int, players: int) -> np.ndarray:
    """Text cards of each kind in game ``g`` wherever they are (text deck and discard pile, committed,
    held, laid as defence, the Jokerbohne on a field): one each at every step."""
    L, S = arrays.L[g], arrays.S[g]
    counts = np.zeros(TEXTS, np.int64)
    for k in (TDECK, TDISC, CMODS):
        counts += np.bincount(L[k, :S[k]], minlength=TEXTS)
    for p in range(players):
        counts += [(int(S[TXT + p]) >> c) & 1 for c in range(TEXTS)]
    for i in range(3 * players):
        if S[GUARD + i] >= 0:
            counts[S[GUARD + i]] += 1
    if S[JOKER] >= 0:
        counts[TXT_JOKER] += 1
    return counts


def truncated(arrays: Arrays, g: int) -> bool:
    """Whether the finished game ``g`` was cut at the turn limit (HT-17)."""
    return bool(arrays.S[g, TRUNC])


# -- small pieces --------------------------------------------------------------------------------------------
@njit(cache=True)
def _bits(x):
    m = 0
    while x:
        x &= x - 1
        m += 1
    return m


@njit(cache=True)
def _insert(L, S, g, k, i, value):
    for j in range(S[g, k], i, -1):
        L[g, k, j] = L[g, k, j - 1]
    L[g, k, i] = value
    S[g, k] += 1


@njit(cache=True)
def _first_at_least(L, S, g, k, value):
    """bisect_left on the sorted list ``k``."""
    i = 0
    while i < S[g, k] and L[g, k, i] < value:
        i += 1
    return i


@njit(cache=True)
def _hand_add(L, S, g, p, card, known):
    i = _first_at_least(L, S, g, HAND + p, card)
    _insert(L, S, g, HAND + p, i, card)
    _insert(L, S, g, KNOWN + p, i, known)


@njit(cache=True)
def _hand_take(L, S, g, p, card):
    """Remove one card of type ``card``: the copy known to the most players."""
    k = _first_at_least(L, S, g, HAND + p, card)
    best = k
    while k < S[g, HAND + p] and L[g, HAND + p, k] == card:
        if _bits(L[g, KNOWN + p, k]) > _bits(L[g, KNOWN + p, best]):
            best = k
        k += 1
    pop_at(L, S, g, HAND + p, best)
    pop_at(L, S, g, KNOWN + p, best)


@njit(cache=True)
def _hand_types(L, S, g, p):
    """The types in seat ``p``'s hand, as bits by type code."""
    bits = 0
    for i in range(S[g, HAND + p]):
        bits |= 1 << L[g, HAND + p, i]
    return bits


@njit(cache=True)
def _take_text(S, g, p, code):
    S[g, TXT + p] &= ~(1 << code)


@njit(cache=True)
def _held(S, g, p, code):
    return (S[g, TXT + p] >> code) & 1 == 1


@njit(cache=True)
def _sync(L, S, g, i):
    n = S[g, PILE + i]
    S[g, F_TYPE + i] = L[g, PILE + i, n - 1] if n else -1
    S[g, F_COUNT + i] = n


@njit(cache=True)
def _put(L, S, g, i, card):
    push(L, S, g, PILE + i, card)
    _sync(L, S, g, i)


@njit(cache=True)
def _size(S, g, i):
    """Field size: real beans plus the Jokerbohne (TXT-6)."""
    return S[g, PILE + i] + (1 if S[g, JOKER] == i else 0)


@njit(cache=True)
def _key(S, g, i, extra):
    """Field ``i``'s strength (HT-11) with ``extra`` beans more: size first, then the lower handicap."""
    return (_size(S, g, i) + extra) * 32 - HANDICAP[S[g, F_TYPE + i]]


@njit(cache=True)
def _emptied(L, S, g, i):
    """Field ``i`` has no bean left: the Jokerbohne and a defence card go to the text discard pile."""
    _sync(L, S, g, i)
    if S[g, JOKER] == i:
        S[g, JOKER] = -1
        push(L, S, g, TDISC, TXT_JOKER)
    if S[g, GUARD + i] >= 0:
        push(L, S, g, TDISC, S[g, GUARD + i])
        S[g, GUARD + i] = -1


@njit(cache=True)
def _tdraw(L, S, M, g, p):
    """Draw a text card (HT-6: the text discard pile becomes the text deck when it is empty)."""
    if S[g, TDECK] == 0 and S[g, TDISC]:
        move_all(L, S, g, TDISC, TDECK)
        shuffle_list(L, S, g, TDECK, next_generator(S, M, g))
    if S[g, TDECK]:
        S[g, TDECK] -= 1
        S[g, TXT + p] |= 1 << L[g, TDECK, S[g, TDECK]]


@njit(cache=True)
def _draw_up(L, S, M, g, p, count):
    for _ in range(count):
        if S[g, RUNOUTS] >= S[g, LIMIT] and not S[g, DECK]:
            break
        card = draw_from(L, S, M, g, False)
        if card < 0:
            break
        _hand_add(L, S, g, p, card, 1 << p)
        if S[g, RUNOUTS] >= S[g, LIMIT]:
            S[g, END_PENDING] = 1
            if not S[g, DECK]:
                break


@njit(cache=True)
def _commit(L, S, g, p, code):
    """Text card ``code`` of seat ``p`` goes into the composite being built."""
    _take_text(S, g, p, code)
    push(L, S, g, CMODS, code)


# -- flow (HT-4, HT-5, HT-13, HT-14, HT-17, HT-19) ------------------------------------------------------------
@njit(cache=True)
def _set(S, g, d, p):
    S[g, DECISION] = d
    S[g, ACTOR] = p


@njit(cache=True)
def _top(S, g, d, p):
    """Seat ``p`` decides at the top-level point ``d``, which is also where its composites return to."""
    _set(S, g, d, p)
    S[g, CTX] = d
    S[g, OWNER] = p


@njit(cache=True)
def _fin_first(S, g, n):
    return (S[g, ACTIVE] + n - S[g, FIN_LEFT]) % n


@njit(cache=True)
def _back(L, S, M, g, n):
    """Return to the top-level point where the finished composite or text card was started."""
    S[g, CMODS] = 0
    if S[g, CTX] == D_FINAL:
        _final_point(L, S, M, g, n)
    else:
        _set(S, g, S[g, CTX], S[g, OWNER])


@njit(cache=True)
def _done_regular(L, S, M, g, n, kind):
    """A regular action (kind 0..4 for a-e) of the composite's owner was carried out (HT-13)."""
    move_all(L, S, g, CMODS, TDISC)
    ctx, p = S[g, CTX], S[g, OWNER]
    if ctx == D_TURN:
        S[g, ACTS] += 1
        _open_copy(L, S, g, n, p, kind, (p + 1) % n, n - 1, D_TURN)
    elif ctx == D_COPY:
        S[g, CP_QUOTA] -= 1
        if kind == 4:
            S[g, CP_TOOK] |= 1 << p
        _next_copier(L, S, g, n)
    else:  # final_play: the players after this one in the final-harvest order
        _open_copy(L, S, g, n, p, kind, (p + 1) % n, S[g, FIN_LEFT] - 1, D_FINAL_PLAY)


@njit(cache=True)
def _open_copy(L, S, g, n, leader, kind, first, left, ret):
    S[g, CP_LEADER], S[g, CP_KIND], S[g, CPQ_NEXT], S[g, CPQ_LEFT] = leader, kind, first, left
    S[g, CP_RET] = ret
    if n == 2:
        S[g, CP_QUOTA] = 0 if kind == 4 else 1
    elif S[g, TURN] == 0 and not S[g, FINAL]:
        S[g, CP_QUOTA] = n - 1
    else:
        S[g, CP_QUOTA] = 2 if n == 5 else 1
    S[g, CP_TOOK] = (1 << leader) if kind == 4 else 0
    _next_copier(L, S, g, n)


@njit(cache=True)
def _may_be_asked(S, g, n, q):
    """Whether seat ``q`` has a start of the copying round's kind (``copy_starts`` is not empty)."""
    kind = S[g, CP_KIND]
    if kind == 0:
        return S[g, HAND + q] > 0
    scratch = np.empty(1, np.int64)
    if kind == 1:
        return _merge_starts(S, g, q, 0, 0, scratch, 0, True) > 0
    if kind == 2:
        return _can_turn_up(S, g, q)
    if kind == 3:
        return _has_beans(S, g, q)
    return _attack_starts(S, g, n, q, 0, scratch, 0, True) > 0


@njit(cache=True)
def _next_copier(L, S, g, n):
    """Ask the next passive player who has something to decide (HT-13); else end the round."""
    while S[g, CPQ_LEFT]:
        q = S[g, CPQ_NEXT]
        S[g, CPQ_NEXT] = (q + 1) % n
        S[g, CPQ_LEFT] -= 1
        if S[g, TXT + q] or (S[g, CP_QUOTA] > 0 and _may_be_asked(S, g, n, q)):
            _top(S, g, D_COPY, q)
            return
    S[g, CP_KIND] = -1
    S[g, CP_QUOTA] = 0
    S[g, CP_TOOK] = 0
    leader, ret = S[g, CP_LEADER], S[g, CP_RET]
    S[g, CP_LEADER] = -1
    _top(S, g, ret, leader)


@njit(cache=True)
def _discard_guards(L, S, g, n):
    for i in range(3 * n):
        if S[g, GUARD + i] >= 0:
            push(L, S, g, TDISC, S[g, GUARD + i])
            S[g, GUARD + i] = -1


@njit(cache=True)
def _end_turn(L, S, M, g, n, params):
    if S[g, END_PENDING]:  # HT-14
        _start_final(L, S, M, g, n)
        return
    _discard_guards(L, S, g, n)  # HT-12: protection ends
    old = S[g, ACTIVE]
    S[g, ACTIVE] = (old + 1) % n
    S[g, TURN] += 1
    S[g, HARVESTED] = 0
    S[g, ACTS] = 0
    if S[g, TURN] >= params[P_MAXTURNS]:  # HT-17
        S[g, TRUNC] = 1
        S[g, OVER] = 1
        _set(S, g, D_GAME_OVER, -1)
        return
    for k in range(n):  # HT-5: the old active player first, then clockwise
        if S[g, END_PENDING]:
            break
        p = (old + k) % n
        need = HAND_LIMIT - S[g, HAND + p]
        if need > 0:
            _draw_up(L, S, M, g, p, need)
    _top(S, g, D_TURN, S[g, ACTIVE])


@njit(cache=True)
def _start_final(L, S, M, g, n):
    S[g, FINAL] = 1
    _discard_guards(L, S, g, n)
    S[g, FIN_LEFT] = n
    S[g, FIN_OPEN] = 1
    _final_point(L, S, M, g, n)


@njit(cache=True)
def _final_point(L, S, M, g, n):
    """The current final-harvest player decides, or harvests automatically without text cards (HT-19)."""
    while S[g, FIN_LEFT]:
        p = _fin_first(S, g, n)
        S[g, CTX] = D_FINAL
        S[g, OWNER] = p
        if S[g, TXT + p]:
            _set(S, g, D_FINAL, p)
            return
        for i in range(3 * p, 3 * p + S[g, NFIELDS + p]):
            if S[g, PILE + i]:
                _harvest(L, S, M, g, n, p, i, -1, 0, True)
        _next_final(S, g)
    S[g, OVER] = 1
    _set(S, g, D_GAME_OVER, -1)


@njit(cache=True)
def _next_final(S, g):
    S[g, FIN_LEFT] -= 1
    S[g, FIN_OPEN] = 1


# -- regular actions and their composites (HT-7 .. HT-12, HT-16) ----------------------------------------------
@njit(cache=True)
def _add_card(L, S, g, p):
    """One more card of the chosen type goes into the play; it is shown to everybody (INFO-2)."""
    t = S[g, CTYPE]
    k = _first_at_least(L, S, g, HAND + p, t)
    shown = 0
    hidden = -1
    while k < S[g, HAND + p] and L[g, HAND + p, k] == t:
        if L[g, KNOWN + p, k] == ALL_BITS:
            shown += 1
        elif hidden < 0:
            hidden = k
        k += 1
    if shown <= S[g, CCOUNT]:
        L[g, KNOWN + p, hidden] = ALL_BITS
    S[g, CCOUNT] += 1


@njit(cache=True)
def _merge(L, S, g, i, j):
    """Field ``i`` onto field ``j`` (HT-8): the Jokerbohne moves, i's protection ends."""
    move_all(L, S, g, PILE + i, PILE + j)
    if S[g, JOKER] == i:
        S[g, JOKER] = j
    _sync(L, S, g, j)
    _emptied(L, S, g, i)


@njit(cache=True)
def _meter_value(meter, size, final):
    """(coins, text cards) a harvest of ``size`` cards pays by the beanometer of ``meter`` (CARD-3)."""
    if meter == CUTTING:
        if final:
            return CUT_FINAL[size], 0
        return CUT_PLAY[size, 0], CUT_PLAY[size, 1]
    return COIN_TABLE[meter, size], 0


@njit(cache=True)
def _pizza_bonus(L, S, g, n, p, i, code, meter, final):
    """The tier a pizza reaches for harvesting field ``i`` now (TXT-10..13); 0 = not met."""
    first, stop = 3 * p, 3 * p + S[g, NFIELDS + p]
    if code == TXT_BOHNBASTICA:
        total = 0
        for j in range(first, stop):
            total += _size(S, g, j)
        return BOHNBASTICA[total]
    if code == TXT_BOHNOTONI:
        return BOHNOTONI[meter, _size(S, g, i), 1 if final else 0]
    if code == TXT_CALZBOHNE:
        low = 1 << 30
        for j in range(first, stop):
            low = min(low, _size(S, g, j))
        return CALZBOHNE[1 if n == 2 else 0, low]
    count = 0
    for j in range(first, stop):
        for k in range(S[g, PILE + j]):
            if IS_DIABOHNO[L[g, PILE + j, k]]:
                count += 1
        if S[g, JOKER] == j and S[g, F_TYPE + j] >= 0 and IS_DIABOHNO[S[g, F_TYPE + j]]:
            count += 1
    return DIABOHNO[count]


@njit(cache=True)
def _harvest(L, S, M, g, n, p, i, meter, pizzas, final):
    """Harvest and sell field ``i`` of seat ``p`` (COM-5, CARD-3, TXT-2, TXT-6, TXT-10..13); ``pizzas``: the
    pizza text cards played, as bits."""
    size = _size(S, g, i)
    if meter < 0:
        meter = S[g, F_TYPE + i]
    coins, texts = _meter_value(meter, size, final)
    if pizzas:
        extra = 0
        for code in (TXT_BOHNBASTICA, TXT_CALZBOHNE, TXT_DIABOHNO):
            if pizzas >> code & 1:
                extra += _pizza_bonus(L, S, g, n, p, i, code, meter, final)
        if pizzas >> TXT_BOHNOTONI & 1:
            coins = _pizza_bonus(L, S, g, n, p, i, TXT_BOHNOTONI, meter, final)
        coins += extra
    pile = PILE + i
    take = min(coins, S[g, pile])
    for _ in range(take):  # coins from the top of the pile down
        push(L, S, g, COIN + p, L[g, pile, S[g, pile] - 1])
        S[g, pile] -= 1
    S[g, BONUS + p] += coins - take
    while S[g, pile]:
        push(L, S, g, DISC, L[g, pile, S[g, pile] - 1])
        S[g, pile] -= 1
    _emptied(L, S, g, i)
    for _ in range(texts):
        _tdraw(L, S, M, g, p)


@njit(cache=True)
def _begin_harvest(L, S, M, g, n, p, i, ckind):
    S[g, CF], S[g, CKIND], S[g, CCHEM] = i, ckind, -1
    if S[g, TXT + p]:
        _set(S, g, D_HARVEST, p)
    else:
        _finish_harvest(L, S, M, g, n, p)


@njit(cache=True)
def _finish_harvest(L, S, M, g, n, p):
    ckind = S[g, CKIND]
    pizzas = 0
    for k in range(S[g, CMODS]):
        c = L[g, CMODS, k]
        if TXT_BOHNBASTICA <= c <= TXT_DIABOHNO:
            pizzas |= 1 << c
    _harvest(L, S, M, g, n, p, S[g, CF], S[g, CCHEM], pizzas, ckind == H_FINAL)
    if ckind == H_D:
        if S[g, CTX] == D_TURN:
            S[g, HARVESTED] = 1
        _done_regular(L, S, M, g, n, 3)
        return
    move_all(L, S, g, CMODS, TDISC)
    if ckind == H_FINAL and not S[g, TXT + p] and not _has_beans(S, g, p):
        _next_final(S, g)
    _back(L, S, M, g, n)


@njit(cache=True)
def _swap_lists(L, S, g, a, b):
    for k in range(max(S[g, a], S[g, b])):
        c = L[g, a, k]
        L[g, a, k] = L[g, b, k]
        L[g, b, k] = c
    S[g, a], S[g, b] = S[g, b], S[g, a]


@njit(cache=True)
def _swap_fields(L, S, g, i, j):
    """Exchange the contents of fields ``i`` and ``j`` with their Jokerbohne and protection."""
    _swap_lists(L, S, g, PILE + i, PILE + j)
    S[g, GUARD + i], S[g, GUARD + j] = S[g, GUARD + j], S[g, GUARD + i]
    if S[g, JOKER] == i:
        S[g, JOKER] = j
    elif S[g, JOKER] == j:
        S[g, JOKER] = i
    _sync(L, S, g, i)
    _sync(L, S, g, j)


@njit(cache=True)
def _swap_owners(L, S, M, g, n):
    _swap_fields(L, S, g, S[g, CF], S[g, CTARGET])
    _done_regular(L, S, M, g, n, 4)


@njit(cache=True)
def _strong_takeover(L, S, M, g, n):
    """TXT-16: the defence card goes to the attacker, the defender draws a text card, the fields swap."""
    j = S[g, CTARGET]
    S[g, TXT + S[g, OWNER]] |= 1 << S[g, GUARD + j]
    S[g, GUARD + j] = -1
    _tdraw(L, S, M, g, j // 3)
    _swap_owners(L, S, M, g, n)


@njit(cache=True)
def _launch_attack(L, S, M, g, n, p):
    """HT-16 steps 2-4 after the attacker confirmed the takeover."""
    own, j = S[g, CF], S[g, CTARGET]
    if S[g, GUARD + own] >= 0:  # HT-12: attacking with it ends protection
        push(L, S, g, TDISC, S[g, GUARD + own])
        S[g, GUARD + own] = -1
    if in_list(L, S, g, CMODS, TXT_STRONG):
        _strong_takeover(L, S, M, g, n)
    elif in_list(L, S, g, CMODS, TXT_MIGHTY) or in_list(L, S, g, CMODS, TXT_VARIABLE) or not S[g, TXT + j // 3]:
        _swap_owners(L, S, M, g, n)
    else:
        _set(S, g, D_DEFEND, j // 3)


@njit(cache=True)
def _attack_ok(L, S, g, own, target, mods):
    """Whether an attack of field ``own`` on ``target`` with the text cards ``mods`` (bits) is legal."""
    if not S[g, PILE + own] or not S[g, PILE + target]:
        return False
    strong, mighty, variable = mods >> TXT_STRONG & 1, mods >> TXT_MIGHTY & 1, mods >> TXT_VARIABLE & 1
    if S[g, GUARD + target] != -1:
        if not strong or mighty or variable:
            return False
    elif strong:
        return False
    if own % 3 != target % 3 and not variable:
        return False
    return _key(S, g, own, mighty) > _key(S, g, target, 0)


@njit(cache=True)
def _start_attack(L, S, M, g, n, p, own, target):
    """HT_ATTACK: the text cards the attack cannot do without are played at once (TXT-7, TXT-16, TXT-17)."""
    S[g, CF], S[g, CTARGET] = own, target
    if not S[g, TXT + p]:
        _launch_attack(L, S, M, g, n, p)
        return
    if S[g, GUARD + target] != -1:
        _commit(L, S, g, p, TXT_STRONG)
    else:
        need = (1 << TXT_VARIABLE) if own % 3 != target % 3 else 0
        if need:
            _commit(L, S, g, p, TXT_VARIABLE)
        if not _attack_ok(L, S, g, own, target, need):
            _commit(L, S, g, p, TXT_MIGHTY)
    if S[g, TXT + p]:
        S[g, DECISION] = D_ATTACK
    else:
        _launch_attack(L, S, M, g, n, p)


# -- text cards on their own (TXT-1, 3, 4, 5, 6, 9, 14, 15, 18) ----------------------------------------------
@njit(cache=True)
def _pirate_victim(S, g, n, p, i, q):
    """Whether seat ``q``'s field in ``i``'s position grows ``i``'s type (TXT-9)."""
    f = i % 3
    j = q * 3 + f
    return q != p and f < S[g, NFIELDS + q] and S[g, PILE + j] > 0 and S[g, F_TYPE + j] == S[g, F_TYPE + i]


@njit(cache=True)
def _play_text(L, S, M, g, n, p, code, b):
    _take_text(S, g, p, code)
    if code == TXT_PLAY_AT_END:
        push(L, S, g, TDISC, code)
        S[g, FIN_OPEN] = 0
        S[g, DECISION] = D_FINAL_PLAY
        S[g, CTX] = D_FINAL_PLAY
        return
    if code == TXT_SAMENHANDEL:
        S[g, CMODS] = 0
        push(L, S, g, CMODS, code)
        S[g, SHOWN_N] = 0
        S[g, DECISION] = D_SHOW
        return
    if code == TXT_EXTRA_HARVEST:
        push(L, S, g, TDISC, code)
        _begin_harvest(L, S, M, g, n, p, 3 * p + b, H_T18)
        return
    if code == TXT_JOKER:
        S[g, JOKER] = 3 * p + b
        _back(L, S, M, g, n)
        return
    push(L, S, g, TDISC, code)
    if code == TXT_SWAP_FIELDS:
        q = b // 9
        _swap_fields(L, S, g, 3 * q + b // 3 % 3, 3 * q + b % 3)
    elif code == TXT_EXTRAKARTE:
        _hand_add(L, S, g, p, pop_at(L, S, g, DISC, S[g, DISC] - 1), ALL_BITS)
    elif code == TXT_SWAP_HANDS:
        _swap_lists(L, S, g, HAND + p, HAND + b)
        _swap_lists(L, S, g, KNOWN + p, KNOWN + b)
        both = (1 << p) | (1 << b)  # both players now know both hands
        for q in (p, b):
            for k in range(S[g, KNOWN + q]):
                L[g, KNOWN + q, k] |= both
    elif code == TXT_PIRATE:
        i = 3 * p + b
        for k in range(1, n):  # clockwise; a bean taken never changes who else is a victim
            q = (p + k) % n
            if _pirate_victim(S, g, n, p, i, q):
                j = 3 * q + b
                S[g, PILE + j] -= 1
                _put(L, S, g, i, L[g, PILE + j, S[g, PILE + j]])
                if S[g, PILE + j]:
                    _sync(L, S, g, j)
                else:
                    _emptied(L, S, g, j)
    elif code == TXT_SEVEN:
        move_all(L, S, g, HAND + p, DECK)
        S[g, KNOWN + p] = 0
        shuffle_list(L, S, g, DECK, next_generator(S, M, g))
        _draw_up(L, S, M, g, p, 7)
    _back(L, S, M, g, n)


@njit(cache=True)
def _reveal(L, S, g, p, t):
    """Mark one card of type ``t`` in ``p``'s hand as known to everybody (TXT-14)."""
    k = _first_at_least(L, S, g, HAND + p, t)
    while L[g, KNOWN + p, k] == ALL_BITS and k + 1 < S[g, HAND + p] and L[g, HAND + p, k + 1] == t:
        k += 1
    L[g, KNOWN + p, k] = ALL_BITS


# -- legal actions (AGT-1; as a set: the mask) ------------------------------------------------------------
@njit(cache=True)
def _has_beans(S, g, p):
    for i in range(3 * p, 3 * p + S[g, NFIELDS + p]):
        if S[g, PILE + i]:
            return True
    return False


@njit(cache=True)
def _can_turn_up(S, g, p):
    if S[g, DECK]:
        for i in range(3 * p, 3 * p + S[g, NFIELDS + p]):
            if not S[g, PILE + i]:
                return True
    return False


@njit(cache=True)
def _play_starts(L, S, g, p, params, out, k):
    """HT_PLAY (field, first card's type; with Mutabohne) for every legal first card (HT-7, TXT-8)."""
    nh = S[g, HAND + p]
    if not nh:
        return k
    muta = _held(S, g, p, TXT_MUTA)
    types = _hand_types(L, S, g, p)
    for f in range(S[g, NFIELDS + p]):
        i = 3 * p + f
        at = params[A_PLAY] + f * 2 * T
        if not S[g, PILE + i]:
            for slot in range(T):
                if types >> TYPE_OF[slot] & 1:
                    out[k] = at + slot
                    k += 1
            continue
        top = S[g, F_TYPE + i]
        if types >> top & 1:
            out[k] = at + TSLOT[top]
            k += 1
        if muta:
            nxt = NEXT_TYPE[top]
            if nxt >= 0 and types >> nxt & 1:
                out[k] = at + T + TSLOT[nxt]
                k += 1
    return k


@njit(cache=True)
def _merge_starts(S, g, p, base, base_muta, out, k, first):
    """HT_MERGE (HT-8) and HT_MERGE_MUTA (TXT-8) among the own non-empty fields; ``first``: stop at one."""
    muta = _held(S, g, p, TXT_MUTA)
    nf = S[g, NFIELDS + p]
    for i in range(nf):
        if not S[g, PILE + 3 * p + i]:
            continue
        ti = S[g, F_TYPE + 3 * p + i]
        for j in range(nf):
            if i == j or not S[g, PILE + 3 * p + j]:
                continue
            tj = S[g, F_TYPE + 3 * p + j]
            if ti == tj:
                out[k] = base + 3 * i + j
                k += 1
            elif muta and ti == NEXT_TYPE[tj]:
                out[k] = base_muta + 3 * i + j
                k += 1
            else:
                continue
            if first:
                return k
    return k


@njit(cache=True)
def _harvest_starts(S, g, p, base, out, k):
    """COM-6 with the Jokerbohne counting: one-card fields only when no field has two or more."""
    big = False
    for i in range(3 * p, 3 * p + S[g, NFIELDS + p]):
        if S[g, PILE + i] and _size(S, g, i) >= 2:
            big = True
    for f in range(S[g, NFIELDS + p]):
        i = 3 * p + f
        if S[g, PILE + i] and (not big or _size(S, g, i) >= 2):
            out[k] = base + f
            k += 1
    return k


@njit(cache=True)
def _attack_starts(S, g, n, p, base, out, k, first):
    """Every (own field, target field) attack of seat ``p`` with a legal completion (HT-11, HT-12, HT-13,
    TXT-7, TXT-16, TXT-17); ``first``: stop at one."""
    held = S[g, TXT + p]
    h16, h17 = held >> TXT_STRONG & 1, held >> TXT_VARIABLE & 1
    bonus = 32 if held >> TXT_MIGHTY & 1 else 0
    keys = np.zeros(3, np.int64)
    mask = 0
    for f in range(S[g, NFIELDS + p]):
        if S[g, PILE + 3 * p + f]:
            keys[f] = _key(S, g, 3 * p + f, 0)
            mask |= 1 << f
    if not mask:
        return k
    banned = 0
    if S[g, CP_LEADER] >= 0:  # inside a copying round (HT-13)
        banned = (1 << S[g, CP_LEADER]) | S[g, CP_TOOK]
    for off in range(1, n):
        q = (p + off) % n
        if banned >> q & 1:
            continue
        for tf in range(S[g, NFIELDS + q]):
            j = 3 * q + tf
            if not S[g, PILE + j]:
                continue
            tkey = _key(S, g, j, 0)
            guarded = S[g, GUARD + j] != -1
            for f in range(3):
                if not mask >> f & 1:
                    continue
                if f == tf:
                    ok = tkey < keys[f] + bonus and (not guarded or (h16 == 1 and keys[f] > tkey))
                else:
                    ok = h17 == 1 and not guarded and keys[f] + bonus > tkey
                if ok:
                    out[k] = base + (off - 1) * 9 + 3 * f + tf
                    k += 1
                    if first:
                        return k
    return k


@njit(cache=True)
def _text_plays(L, S, g, n, p, params, out, k):
    """Text cards played on their own (TXT-1, 3, 5, 6, 9, 14, 15, 18)."""
    held = S[g, TXT + p] & ~TIED_BITS
    final = S[g, FINAL] != 0
    nf = S[g, NFIELDS + p]
    if held >> TXT_SWAP_FIELDS & 1:
        for q in range(n):
            m = S[g, NFIELDS + q]
            for f1 in range(m):
                for f2 in range(f1 + 1, m):
                    if S[g, PILE + 3 * q + f1] or S[g, PILE + 3 * q + f2]:
                        out[k] = params[A_T_SWAP_FIELDS] + 9 * q + 3 * f1 + f2
                        k += 1
    if held >> TXT_EXTRAKARTE & 1 and S[g, DISC]:
        out[k] = params[A_T_SIMPLE] + SIMPLE_AT[TXT_EXTRAKARTE]
        k += 1
    if held >> TXT_SWAP_HANDS & 1 and 1 <= S[g, HAND + p] <= 5:
        for q in range(n):
            if q != p:
                out[k] = params[A_T_SWAP_HANDS] + q
                k += 1
    for code in (TXT_JOKER, TXT_PIRATE, TXT_EXTRA_HARVEST):
        if not held >> code & 1 or (code == TXT_EXTRA_HARVEST and final):
            continue
        for f in range(nf):
            i = 3 * p + f
            if not S[g, PILE + i]:
                continue
            if code == TXT_JOKER and not IS_JOKER_TYPE[S[g, F_TYPE + i]]:
                continue
            if code == TXT_PIRATE:
                found = False
                for q in range(n):
                    if _pirate_victim(S, g, n, p, i, q):
                        found = True
                if not found:
                    continue
            out[k] = params[A_T_FIELD] + 3 * FIELD_AT[code] + f
            k += 1
    if held >> TXT_SAMENHANDEL & 1 and _bits(_hand_types(L, S, g, p)) >= 5:
        out[k] = params[A_T_SIMPLE] + SIMPLE_AT[TXT_SAMENHANDEL]
        k += 1
    if held >> TXT_SEVEN & 1 and not final and p != S[g, ACTIVE]:
        out[k] = params[A_T_SIMPLE] + SIMPLE_AT[TXT_SEVEN]
        k += 1
    return k


@njit(cache=True)
def _modify(params, code):
    return params[A_MODIFY] + code - (1 if code > TXT_CHEMIEKEULE else 0)


@njit(cache=True)
def _harvest_options(L, S, g, n, p, params, out, k):
    """Pizzas that pay now (TXT-10..13), Chemiekeule with another field's beanometer (TXT-2), confirm."""
    i = S[g, CF]
    meter = S[g, CCHEM] if S[g, CCHEM] >= 0 else S[g, F_TYPE + i]
    final = S[g, CKIND] == H_FINAL
    for code in (TXT_BOHNBASTICA, TXT_BOHNOTONI, TXT_CALZBOHNE, TXT_DIABOHNO):
        if (_held(S, g, p, code) and not in_list(L, S, g, CMODS, code)
                and _pizza_bonus(L, S, g, n, p, i, code, meter, final)):
            out[k] = _modify(params, code)
            k += 1
    if S[g, CKIND] == H_D and _held(S, g, p, TXT_CHEMIEKEULE) and S[g, CCHEM] < 0:
        tonight = in_list(L, S, g, CMODS, TXT_BOHNOTONI)
        for f in range(S[g, NFIELDS + p]):
            j = 3 * p + f
            t = S[g, F_TYPE + j]
            if j != i and S[g, PILE + j] and t != GARDEN and t != RED and t != S[g, F_TYPE + i]:
                if tonight and not BOHNOTONI[t, _size(S, g, i), 0]:
                    continue
                out[k] = params[A_CHEM] + f
                k += 1
    out[k] = params[A_CONFIRM]
    return k + 1


@njit(cache=True)
def legal(L, S, X, g, params, out, where):
    """The legal action indices of game ``g`` into ``out``; returns how many."""
    d = S[g, DECISION]
    if d == D_GAME_OVER:
        return 0
    p = S[g, ACTOR]
    n = params[P_N]
    k = 0
    if d == D_TURN:
        out[0] = params[A_END_TURN]
        if S[g, ACTS] >= params[P_MAXACT]:
            return 1
        k = _play_starts(L, S, g, p, params, out, 1)
        k = _merge_starts(S, g, p, params[A_MERGE], params[A_MERGE_MUTA], out, k, False)
        if _can_turn_up(S, g, p):
            out[k] = params[A_TURN_UP]
            k += 1
        if not S[g, HARVESTED]:
            k = _harvest_starts(S, g, p, params[A_HARVEST], out, k)
        k = _attack_starts(S, g, n, p, params[A_ATTACK], out, k, False)
        return _text_plays(L, S, g, n, p, params, out, k)
    if d == D_COPY:
        out[0] = params[A_PASS]
        k = _text_plays(L, S, g, n, p, params, out, 1)
        if S[g, CP_QUOTA] > 0:
            kind = S[g, CP_KIND]
            if kind == 0:
                k = _play_starts(L, S, g, p, params, out, k)
            elif kind == 1:
                k = _merge_starts(S, g, p, params[A_MERGE], params[A_MERGE_MUTA], out, k, False)
            elif kind == 2:
                if _can_turn_up(S, g, p):
                    out[k] = params[A_TURN_UP]
                    k += 1
            elif kind == 3:
                k = _harvest_starts(S, g, p, params[A_HARVEST], out, k)
            else:
                k = _attack_starts(S, g, n, p, params[A_ATTACK], out, k, False)
        return k
    if d == D_PLAY:
        t = S[g, CTYPE]
        if count_in(L, S, g, HAND + p, t) > S[g, CCOUNT]:
            out[k] = params[A_ADD] + TSLOT[t]
            k += 1
        out[k] = params[A_CONFIRM]
        return k + 1
    if d == D_PLACE:
        for f in range(S[g, NFIELDS + p]):
            if not S[g, PILE + 3 * p + f]:
                out[k] = params[A_PLACE] + f
                k += 1
        return k
    if d == D_HARVEST:
        return _harvest_options(L, S, g, n, p, params, out, 0)
    if d == D_ATTACK:
        if S[g, GUARD + S[g, CTARGET]] == -1:
            for code in (TXT_MIGHTY, TXT_VARIABLE):
                if _held(S, g, p, code) and not in_list(L, S, g, CMODS, code):
                    out[k] = _modify(params, code)
                    k += 1
        out[k] = params[A_CONFIRM]
        return k + 1
    if d == D_DEFEND:
        for code in range(TEXTS):
            if _held(S, g, p, code):
                out[k] = params[A_DEFEND] + code
                k += 1
        out[k] = params[A_NO_DEFENCE]
        return k + 1
    if d == D_OVERRIDE:
        if _held(S, g, p, TXT_STRONG):
            out[k] = params[A_OVERRIDE]
            k += 1
        out[k] = params[A_GIVE_UP]
        return k + 1
    if d == D_SHOW:
        types = _hand_types(L, S, g, p)
        for i in range(S[g, SHOWN_N]):
            types &= ~(1 << S[g, SHOWN + i])
        for slot in range(T):
            if types >> TYPE_OF[slot] & 1:
                out[k] = params[A_SHOW] + slot
                k += 1
        return k
    if d == D_SEED_COIN:
        for i in range(S[g, SHOWN_N]):
            out[k] = params[A_COIN] + TSLOT[S[g, SHOWN + i]]
            k += 1
        return k
    if d == D_SEED_KEEP:
        out[0] = params[A_REDRAW]
        out[1] = params[A_KEEP_SHOWN]
        return 2
    if d == D_FINAL:
        for f in range(S[g, NFIELDS + p]):
            if S[g, PILE + 3 * p + f]:
                out[k] = params[A_FINAL] + f
                k += 1
        if not k:
            out[0] = params[A_DONE]
            k = 1
        if S[g, FIN_OPEN] and _held(S, g, p, TXT_PLAY_AT_END):
            out[k] = params[A_T_SIMPLE] + SIMPLE_AT[TXT_PLAY_AT_END]
            k += 1
        return _text_plays(L, S, g, n, p, params, out, k)
    k = _play_starts(L, S, g, p, params, out, 0)  # final_play (TXT-4)
    out[k] = params[A_DONE]
    return k + 1


# -- applying (the move, then every automatic step up to the next decision) --------------------------------
@njit(cache=True)
def apply(L, S, C, M, X, g, params, a):
    """Apply the legal action index ``a`` (not checked) to `hostile_takeover` game ``g``."""
    d, p, n = S[g, DECISION], S[g, ACTOR], params[P_N]
    if d == D_TURN or d == D_COPY or d == D_FINAL or d == D_FINAL_PLAY:
        S[g, CTX] = d
        S[g, OWNER] = p
        at_end = params[A_T_SIMPLE] + SIMPLE_AT[TXT_PLAY_AT_END]
        if d == D_FINAL and a != at_end:
            S[g, FIN_OPEN] = 0
        if a == params[A_PASS]:
            _next_copier(L, S, g, n)
        elif a == params[A_END_TURN]:
            _end_turn(L, S, M, g, n, params)
        elif a == params[A_DONE]:
            if d == D_FINAL_PLAY:
                S[g, DECISION] = D_FINAL
            else:
                _next_final(S, g)
                _final_point(L, S, M, g, n)
        elif a == params[A_TURN_UP]:
            card = draw_from(L, S, M, g, False)
            if S[g, RUNOUTS] >= S[g, LIMIT]:
                S[g, END_PENDING] = 1
            push(L, S, g, FACE, card)
            S[g, DECISION] = D_PLACE
        elif params[A_PLAY] <= a < params[A_PLAY] + 6 * T:
            r = a - params[A_PLAY]
            rest = r % (2 * T)
            S[g, CF], S[g, CTYPE], S[g, CCOUNT], S[g, CMUTA] = 3 * p + r // (2 * T), TYPE_OF[rest % T], 0, 0
            if rest >= T:
                _commit(L, S, g, p, TXT_MUTA)
                S[g, CMUTA] = 1
            _add_card(L, S, g, p)
            S[g, DECISION] = D_PLAY
        elif params[A_ATTACK] <= a < params[A_ATTACK] + 9 * (n - 1):
            r = a - params[A_ATTACK]
            q = (p + r // 9 + 1) % n
            _start_attack(L, S, M, g, n, p, 3 * p + r % 9 // 3, 3 * q + r % 3)
        elif params[A_HARVEST] <= a < params[A_HARVEST] + 3:
            _begin_harvest(L, S, M, g, n, p, 3 * p + a - params[A_HARVEST], H_D)
        elif params[A_FINAL] <= a < params[A_FINAL] + 3:
            _begin_harvest(L, S, M, g, n, p, 3 * p + a - params[A_FINAL], H_FINAL)
        elif params[A_MERGE] <= a < params[A_MERGE] + 18:
            r = a - params[A_MERGE]
            if r >= 9:
                _commit(L, S, g, p, TXT_MUTA)
                r -= 9
            _merge(L, S, g, 3 * p + r // 3, 3 * p + r % 3)
            _done_regular(L, S, M, g, n, 1)
        else:  # a text card on its own
            if d == D_TURN:
                S[g, ACTS] += 1
            if params[A_T_SWAP_FIELDS] <= a < params[A_T_SWAP_FIELDS] + 9 * n:
                _play_text(L, S, M, g, n, p, TXT_SWAP_FIELDS, a - params[A_T_SWAP_FIELDS])
            elif params[A_T_SIMPLE] <= a < params[A_T_SIMPLE] + 4:
                _play_text(L, S, M, g, n, p, SIMPLE_TEXTS_A[a - params[A_T_SIMPLE]], 0)
            elif params[A_T_SWAP_HANDS] <= a < params[A_T_SWAP_HANDS] + n:
                _play_text(L, S, M, g, n, p, TXT_SWAP_HANDS, a - params[A_T_SWAP_HANDS])
            else:
                r = a - params[A_T_FIELD]
                _play_text(L, S, M, g, n, p, FIELD_TEXTS_A[r // 3], r % 3)
        return
    if d == D_PLAY:
        if a == params[A_CONFIRM]:
            t, m = S[g, CTYPE], S[g, CCOUNT]
            for _ in range(m):
                _hand_take(L, S, g, p, t)
            for _ in range(m):
                push(L, S, g, PILE + S[g, CF], t)
            _sync(L, S, g, S[g, CF])
            _done_regular(L, S, M, g, n, 0)
        else:
            _add_card(L, S, g, p)
    elif d == D_PLACE:
        _put(L, S, g, 3 * p + a - params[A_PLACE], pop_at(L, S, g, FACE, S[g, FACE] - 1))
        _done_regular(L, S, M, g, n, 2)
    elif d == D_HARVEST:
        if a == params[A_CONFIRM]:
            _finish_harvest(L, S, M, g, n, p)
        elif params[A_CHEM] <= a < params[A_CHEM] + 3:
            _commit(L, S, g, p, TXT_CHEMIEKEULE)
            S[g, CCHEM] = S[g, F_TYPE + 3 * p + a - params[A_CHEM]]
        else:
            _commit(L, S, g, p, _modify_code(params, a))
    elif d == D_ATTACK:
        if a == params[A_CONFIRM]:
            _launch_attack(L, S, M, g, n, p)
        else:
            _commit(L, S, g, p, _modify_code(params, a))
    elif d == D_DEFEND:
        if a == params[A_NO_DEFENCE]:
            _swap_owners(L, S, M, g, n)
        else:
            code = a - params[A_DEFEND]
            _take_text(S, g, p, code)
            S[g, GUARD + S[g, CTARGET]] = code
            owner = S[g, OWNER]
            if S[g, TXT + owner]:
                _set(S, g, D_OVERRIDE, owner)
            else:
                _done_regular(L, S, M, g, n, 4)
    elif d == D_OVERRIDE:
        if a == params[A_OVERRIDE]:
            _commit(L, S, g, p, TXT_STRONG)  # discarded with the composite, after the defender's draw
            _strong_takeover(L, S, M, g, n)
        else:
            _done_regular(L, S, M, g, n, 4)
    elif d == D_SHOW:
        t = TYPE_OF[a - params[A_SHOW]]
        S[g, SHOWN + S[g, SHOWN_N]] = t
        S[g, SHOWN_N] += 1
        _reveal(L, S, g, p, t)
        if S[g, SHOWN_N] == 5:
            S[g, DECISION] = D_SEED_COIN
    elif d == D_SEED_COIN:
        t = TYPE_OF[a - params[A_COIN]]
        _hand_take(L, S, g, p, t)
        push(L, S, g, COIN + p, t)
        move_all(L, S, g, CMODS, TDISC)
        j = 0
        for i in range(S[g, SHOWN_N]):  # the coin leaves the shown cards
            if S[g, SHOWN + i] != t:
                S[g, SHOWN + j] = S[g, SHOWN + i]
                j += 1
        S[g, SHOWN_N] = j
        S[g, DECISION] = D_SEED_KEEP
    else:  # seed_keep
        if a == params[A_REDRAW]:
            for i in range(S[g, SHOWN_N]):
                _hand_take(L, S, g, p, S[g, SHOWN + i])
                push(L, S, g, DISC, S[g, SHOWN + i])
            S[g, SHOWN_N] = 0
            _draw_up(L, S, M, g, p, 5)
        S[g, SHOWN_N] = 0
        _back(L, S, M, g, n)


@njit(cache=True)
def _modify_code(params, a):
    code = a - params[A_MODIFY]
    return code + 1 if code >= TXT_CHEMIEKEULE else code


@njit(cache=True)
def _score(S, g, p):
    return 100 * (S[g, COIN + p] + S[g, BONUS + p]) + 10 * _bits(S[g, TXT + p])


@njit(cache=True)
def pay(S, g, params, bonus, rewards):
    """Add what game ``g`` pays now to ``rewards[g]``: the score earned since the last payment (``dense``;
    hundredths / 100) and, once over and not truncated, the result (HT-14)."""
    mode, n = params[P_MODE], params[P_N]
    if mode == R_DENSE:
        for p in range(n):
            now = _score(S, g, p)
            rewards[g, p] += float(now - S[g, PAID + p]) / 100.0
            S[g, PAID + p] = now
    if not S[g, OVER] or S[g, TRUNC]:
        return
    best = -1
    for p in range(n):
        best = max(best, _score(S, g, p))
    winners = 0
    for p in range(n):
        if _score(S, g, p) == best:
            winners += 1
    for p in range(n):
        own = _score(S, g, p)
        win = 1.0 / winners if own == best else -1.0
        if mode == R_WIN:
            rewards[g, p] += win
        elif mode == R_SCORE:
            rewards[g, p] += own / 100.0
        elif mode == R_MARGIN:
            other = -1
            for q in range(n):
                if q != p:
                    other = max(other, _score(S, g, q))
            rewards[g, p] += own / 100.0 - other / 100.0
        else:
            rewards[g, p] += bonus * win


# -- observation ---------------------------------------------------------------------------------------------
@njit(cache=True)
def write_obs(L, S, C, g, params, seat, row, starts):
    """Seat ``seat``'s raw observation of game ``g`` into ``row``: the common blocks (hands without
    positions, HT-3), then ``ht_fields``, ``ht_texts``, ``ht_turn`` and ``ht_composite``."""
    n, me = params[P_N], seat
    begin_row(L, S, g, seat, n, T, TSLOT, row, starts, 0, 0)
    width = 3 + RUNS * (T + 1) + T
    for k in range(n):  # ht_fields
        q = (me + k) % n
        for f in range(S[g, NFIELDS + q]):
            i = 3 * q + f
            at = starts[12] + (3 * k + f) * width
            m = S[g, PILE + i]
            row[at] = _size(S, g, i)
            row[at + 1] = 1.0 if S[g, JOKER] == i else 0.0
            row[at + 2] = 1.0 if S[g, GUARD + i] != -1 else 0.0
            top, run = m - 1, 0
            while top >= 0 and run < RUNS:
                c, length = L[g, PILE + i, top], 0
                while top >= 0 and L[g, PILE + i, top] == c:
                    length += 1
                    top -= 1
                r = at + 3 + run * (T + 1)
                row[r + TSLOT[c]] = 1.0
                row[r + T] = length
                run += 1
            for j in range(m):
                row[at + 3 + RUNS * (T + 1) + TSLOT[L[g, PILE + i, j]]] += 1.0
    base = starts[13]  # ht_texts
    for k in range(n):
        row[base + k] = _bits(S[g, TXT + (me + k) % n])
    at = base + n
    for c in range(TEXTS):
        if _held(S, g, me, c):
            row[at + c] = 1.0
    at += TEXTS
    for i in range(S[g, TDISC]):
        row[at + L[g, TDISC, i]] = 1.0
    at += TEXTS
    row[at] = S[g, TDECK]
    at += 1
    for f in range(3):
        if S[g, GUARD + 3 * me + f] >= 0:
            row[at + S[g, GUARD + 3 * me + f]] = 1.0
    at += TEXTS
    for k in range(n):
        row[at + k] = max(S[g, BONUS + (me + k) % n], 0)
    base = starts[14]  # ht_turn
    row[base] = S[g, HARVESTED]
    row[base + 1] = 1.0 if S[g, TURN] == 0 else 0.0
    row[base + 2] = max(params[P_MAXACT] - S[g, ACTS], 0)
    row[base + 3] = S[g, FINAL]
    row[base + 4] = 1.0 if S[g, FIN_OPEN] and S[g, FINAL] else 0.0
    at = base + 5
    if S[g, CP_KIND] >= 0:
        row[at + S[g, CP_KIND]] = 1.0
    at += 5
    row[at] = S[g, CP_QUOTA]
    at += 1
    if S[g, CP_LEADER] >= 0:
        row[at + (S[g, CP_LEADER] - me) % n] = 1.0
    at += n
    for k in range(S[g, CPQ_LEFT]):
        row[at + (S[g, CPQ_NEXT] + k - me) % n] = 1.0
    at += n
    for q in range(n):
        if S[g, CP_TOOK] >> q & 1:
            row[at + (q - me) % n] = 1.0
    at += n
    for k in range(S[g, FIN_LEFT]):
        row[at + (_fin_first(S, g, n) + k - me) % n] = 1.0
    d = S[g, DECISION]
    if d < D_PLAY or d > D_SEED_KEEP or d == D_PLACE:  # ht_composite: only while a composite is built
        return
    base = starts[15]
    row[base + (S[g, OWNER] - me) % n] = 1.0
    at = base + n
    cf = S[g, CF]
    if cf >= 0 and d <= D_OVERRIDE:
        row[at + ((cf // 3 - me) % n) * 3 + cf % 3] = 1.0
    at += 3 * n
    if d == D_PLAY and S[g, CTYPE] >= 0:
        row[at + TSLOT[S[g, CTYPE]]] = 1.0
    at += T
    if d == D_PLAY:
        row[at] = S[g, CCOUNT]
        row[at + 1] = S[g, CMUTA]
    at += 2
    for i in range(S[g, CMODS]):
        row[at + L[g, CMODS, i]] = 1.0
    at += TEXTS
    ct = S[g, CTARGET]
    if (d == D_ATTACK or d == D_DEFEND or d == D_OVERRIDE) and ct >= 0:
        row[at + ((ct // 3 - me) % n) * 3 + ct % 3] = 1.0
    at += 3 * n
    if d == D_HARVEST:
        row[at + S[g, CKIND]] = 1.0
        if S[g, CCHEM] >= 0:
            row[at + 3 + TSLOT[S[g, CCHEM]]] = 1.0
    at += 3 + T
    for i in range(S[g, SHOWN_N]):
        row[at + TSLOT[S[g, SHOWN + i]]] = 1.0
