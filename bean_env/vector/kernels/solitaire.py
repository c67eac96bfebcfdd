"""`bean_solitaire` (MAF-*, one player against three bosses) as array kernels over N games.

The rules of ``engine.mafia.SolitaireRules`` from the first decision of a game to its end, the legal
mask of ``ActionCatalogue`` and the observation of ``ObservationEncoder``, written over the arrays of
``SolitaireArrays`` so that numba compiles them. A new game's set-up (the shuffle) is the engine's own:
``load`` copies a fresh engine state into a game's row. Golden tests hold both to the same games, masks,
observations and rewards.

Terms (a game is one row ``g`` of each array):
- *lists* ``L[g, k]`` with lengths ``S[g, k]`` for ``k`` in DECK, DISC (discard pile), FACE (face-up
  cards, in the engine's order), HAND (front first); top of deck and discard = last.
- *scalars* ``S[g, column]``: the columns below (fields and bosses hold a type code, -1 when empty).
- *counts* ``C[g, COINS | TREASURY, type]``: the player's coin stack and the mafia's treasury by type
  (only their sizes and type counts are ever read).
"""
from __future__ import annotations

import numpy as np

from ...cards import DECKS, NUM_TYPES, coins_for
from ...engine.mafia import BOSS_TARGET, THRESHOLDS
from ...engine.state import EMPTY
from ..._numba import njit

# list rows of L and the S columns holding their lengths
DECK, DISC, FACE, HAND = range(4)
# other S columns
(RUNOUTS, END_PENDING, OVER, DECISION, PLANTED, TURN, ACTOR, COIN_N, TREASURY_N, PAID,
 F_TYPE, F_COUNT, B_TYPE, B_COUNT, STEPS) = (4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 23, 26)
COLUMNS = 27
COINS, TREASURY = 0, 1  # rows of C
CARDS = sum(DECKS["AC"].values())
TYPES = tuple(sorted(DECKS["AC"]))                    # deck type codes in slot order
TYPE_OF = np.array(TYPES, np.int64)                   # slot -> type code (for the kernels)
TSLOT = np.full(NUM_TYPES, -1, np.int64)              # type code -> slot
TSLOT[list(TYPES)] = np.arange(len(TYPES))
T = len(TYPES)
COIN_TABLE = np.array([[coins_for(b, n) for n in range(CARDS + 1)] for b in range(NUM_TYPES)], np.int64)
THRESHOLD = np.array(THRESHOLDS, np.int64)
BOSSES = 3

# decision points, in the observation's slot order (``obs.mafia.MAFIA_DECISIONS``)
LEFTOVERS, YIELD, PLANT, PLANT_OPTIONAL, TURN_UP, PLACE, FILL, GAME_OVER = range(8)
# action indices of the catalogue (``mafia_catalogue`` for one player; checked against it on load)
A_PLANT, A_HARVEST, A_STOP, A_DONE, A_TURN_UP, A_CONTINUE, A_GIVE = 0, 3, 6, 7, 8, 9, 10
A_STACK = A_GIVE + CARDS * BOSSES
NUM_ACTIONS = A_STACK + T * (BOSS_TARGET + BOSSES)
# reward modes
R_WIN, R_SCORE, R_DENSE = 0, 1, 2   # "margin" is "score" with one seat

# observation blocks written here, in layout order (checked against the encoder on load)
BLOCKS = ("decision", "actor_active", "hand", "hand_sizes", "known_hands", "fields", "coins", "face_up",
          "to_plant", "discard", "deck", "unseen", "discard_runs", "mafia")
HAND_K = 4          # own hand positions encoded one-hot
DISCARD_RUNS = 6


class Arrays:
    """The state arrays of ``n`` games."""

    def __init__(self, n: int):
        self.L = np.zeros((n, 4, CARDS), np.int64)
        self.S = np.zeros((n, COLUMNS), np.int64)
        self.C = np.zeros((n, 2, NUM_TYPES), np.int64)


def load(arrays: Arrays, g: int, s) -> None:
    """Copy the engine state ``s`` (a `bean_solitaire` game, not over) into row ``g``."""
    if s.variant != "bean_solitaire" or s.n != 1 or s.limit != 1 or s.removed or s.set_aside or s.to_plant[0]:
        raise ValueError("not a bean_solitaire state as its set-up leaves it")
    L, S, C = arrays.L[g], arrays.S[g], arrays.C[g]
    S[:] = 0
    C[:] = 0
    for k, cards in ((DECK, s.deck), (DISC, s.discard), (FACE, s.face_up), (HAND, s.hands[0])):
        S[k] = len(cards)
        L[k, :len(cards)] = cards
    S[RUNOUTS], S[END_PENDING], S[OVER] = s.runouts, int(s.end_pending), int(s.over)
    S[DECISION] = ("leftovers", "yield", "plant", "plant_optional", "turn_up", "place", "fill",
                   "game_over").index(s.decision)
    S[PLANTED], S[TURN], S[ACTOR] = s.planted, s.turn, s.actor
    S[F_TYPE:F_TYPE + 3] = s.ftype
    S[F_COUNT:F_COUNT + 3] = s.fcount
    S[B_TYPE:B_TYPE + 3] = s.btype
    S[B_COUNT:B_COUNT + 3] = s.bcount
    for bean in s.coins[0]:
        C[COINS, bean] += 1
    for bean in s.treasury:
        C[TREASURY, bean] += 1
    S[COIN_N], S[TREASURY_N] = len(s.coins[0]), len(s.treasury)


# -- the mafia's fields (MAF-1, MAF-2) and the player's harvests (COM-5, COM-6) ---------------------------
@njit(cache=True)
def _push(L, S, g, k, card):
    L[g, k, S[g, k]] = card
    S[g, k] += 1


@njit(cache=True)
def _boss_harvest(L, S, C, g, b):
    bean = S[g, B_TYPE + b]
    count = S[g, B_COUNT + b]
    coins = COIN_TABLE[bean, count]
    C[g, TREASURY, bean] += coins
    S[g, TREASURY_N] += coins
    for _ in range(count - coins):
        _push(L, S, g, DISC, bean)
    S[g, B_TYPE + b] = EMPTY
    S[g, B_COUNT + b] = 0


@njit(cache=True)
def _boss_add(L, S, C, g, b, bean, count):
    """One move adding ``count`` cards to boss ``b``, then its threshold harvest (MAF-2)."""
    S[g, B_TYPE + b] = bean
    S[g, B_COUNT + b] += count
    if COIN_TABLE[bean, S[g, B_COUNT + b]] >= THRESHOLD[b]:
        _boss_harvest(L, S, C, g, b)


@njit(cache=True)
def _grower(S, g, bean):
    for b in range(BOSSES):
        if S[g, B_COUNT + b] and S[g, B_TYPE + b] == bean:
            return b
    return -1


@njit(cache=True)
def _harvest(L, S, C, g, f):
    bean = S[g, F_TYPE + f]
    count = S[g, F_COUNT + f]
    coins = COIN_TABLE[bean, count]
    C[g, COINS, bean] += coins
    S[g, COIN_N] += coins
    for _ in range(count - coins):
        _push(L, S, g, DISC, bean)
    S[g, F_TYPE + f] = EMPTY
    S[g, F_COUNT + f] = 0


@njit(cache=True)
def _fits(S, g, bean, out):
    """Fields where ``bean`` may be planted (COM-3 without duplicates), ascending; returns how many."""
    k = 0
    for f in range(3):
        if S[g, F_TYPE + f] == bean:
            out[k] = f
            k += 1
    if k:
        return k
    for f in range(3):
        if S[g, F_COUNT + f] == 0:
            out[k] = f
            k += 1
    return k


# -- drawing (COM-9 with one run-out) ----------------------------------------------------------------------
@njit(cache=True)
def _draw(L, S, g):
    """The top deck card (the last one is the game-ending run-out), or -1."""
    n = S[g, DECK]
    if n:
        S[g, DECK] = n - 1
        if n == 1 and S[g, RUNOUTS] < 1:
            S[g, RUNOUTS] = 1
        return L[g, DECK, n - 1]
    if S[g, RUNOUTS] < 1:
        S[g, RUNOUTS] = 1
    return -1


# -- the turn (MAF-5 .. MAF-12) ------------------------------------------------------------------------------
@njit(cache=True)
def _start_turn(L, S, g):
    S[g, PLANTED] = 0
    S[g, ACTOR] = 0
    _begin_yield(L, S, g)


@njit(cache=True)
def _begin_yield(L, S, g):
    for f in range(3):
        if S[g, F_COUNT + f] and _grower(S, g, S[g, F_TYPE + f]) >= 0:
            S[g, DECISION] = YIELD  # MAF-14: harvest in time to avoid a yield
            return
    _begin_plant(S, g)


@njit(cache=True)
def _begin_plant(S, g):
    S[g, DECISION] = PLANT if S[g, HAND] else TURN_UP  # MAF-7


@njit(cache=True)
def _do_yields(L, S, C, g):
    """MAF-6: one card of each field whose type a boss grows, in boss order."""
    for b in range(BOSSES):
        if not S[g, B_COUNT + b]:
            continue
        bean = S[g, B_TYPE + b]
        for f in range(3):
            if S[g, F_COUNT + f] and S[g, F_TYPE + f] == bean:
                S[g, F_COUNT + f] -= 1
                if not S[g, F_COUNT + f]:
                    S[g, F_TYPE + f] = EMPTY
                _boss_add(L, S, C, g, b, bean, 1)
                break


@njit(cache=True)
def _count_face(L, S, g, bean):
    k = 0
    for i in range(S[g, FACE]):
        if L[g, FACE, i] == bean:
            k += 1
    return k


@njit(cache=True)
def _take_face(L, S, g, bean):
    """Remove every face-up card of ``bean`` (the others keep their order); returns how many."""
    k = 0
    n = S[g, FACE]
    for i in range(n):
        c = L[g, FACE, i]
        if c != bean:
            L[g, FACE, k] = c
            k += 1
    S[g, FACE] = k
    return n - k


@njit(cache=True)
def _match_discards(L, S, C, g):
    """Q2: while the top discard card matches a face-up stack it joins the stack; a stack whose type a
    boss grows goes to that boss whole."""
    while S[g, DISC] and _count_face(L, S, g, L[g, DISC, S[g, DISC] - 1]):
        S[g, DISC] -= 1
        bean = L[g, DISC, S[g, DISC]]
        _push(L, S, g, FACE, bean)
        b = _grower(S, g, bean)
        if b >= 0:
            _boss_add(L, S, C, g, b, bean, _take_face(L, S, g, bean))


@njit(cache=True)
def _turn_up(L, S, C, g):
    """MAF-8: turn up three (Q1 with replacements, Q2 after each), then step 5."""
    counted = 0
    while counted < 3:
        card = _draw(L, S, g)
        ending = S[g, RUNOUTS] >= 1
        if card >= 0:
            b = _grower(S, g, card)
            if b >= 0:
                _boss_add(L, S, C, g, b, card, 1)
            else:
                _push(L, S, g, FACE, card)
                counted += 1
            _match_discards(L, S, C, g)
        if ending:
            S[g, END_PENDING] = 1
            break
    S[g, ACTOR] = 0
    S[g, DECISION] = PLACE  # MAF-9 (A)


@njit(cache=True)
def _has_fill_gift(L, S, g):
    """MAF-9 (B): whether a hand card can go onto an empty boss (of a type no boss grows)."""
    empty = False
    for b in range(BOSSES):
        if S[g, B_COUNT + b] == 0:
            empty = True
    if not empty:
        return False
    for i in range(S[g, HAND]):
        if _grower(S, g, L[g, HAND, i]) < 0:
            return True
    return False


@njit(cache=True)
def _end_game(L, S, C, g):
    for b in range(BOSSES):  # COM-10: the bosses harvest too
        if S[g, B_COUNT + b]:
            _boss_harvest(L, S, C, g, b)
    for f in range(3):
        if S[g, F_COUNT + f]:
            _harvest(L, S, C, g, f)
    S[g, OVER] = 1
    S[g, DECISION] = GAME_OVER
    S[g, ACTOR] = -1


@njit(cache=True)
def _begin_fill(L, S, C, g):
    if _has_fill_gift(L, S, g):
        S[g, DECISION] = FILL
        return
    if S[g, END_PENDING]:  # MAF-12: a step-4 run-out ends the game after step 5
        for i in range(S[g, FACE]):
            _push(L, S, g, DISC, L[g, FACE, i])
        S[g, FACE] = 0
        _end_game(L, S, C, g)
        return
    for _ in range(2):  # MAF-10
        if S[g, RUNOUTS] >= 1:
            break
        card = _draw(L, S, g)
        if card < 0:
            break
        _push(L, S, g, HAND, card)
    if S[g, RUNOUTS] >= 1:
        _end_game(L, S, C, g)
        return
    S[g, TURN] += 1
    _start_turn(L, S, g)


@njit(cache=True)
def _give(L, S, C, g, pos, b):
    bean = L[g, HAND, pos]
    n = S[g, HAND]
    for i in range(pos, n - 1):
        L[g, HAND, i] = L[g, HAND, i + 1]
    S[g, HAND] = n - 1
    _boss_add(L, S, C, g, b, bean, 1)


# -- legal actions (AGT-1) ------------------------------------------------------------------------------------
@njit(cache=True)
def _legal(L, S, g, out, fits):
    """The legal action indices of game ``g`` into ``out``; returns how many."""
    d = S[g, DECISION]
    if d == GAME_OVER:
        return 0
    k = 0
    # free actions: harvest (COM-6: one-card fields only while no field has two or more)
    big = False
    for f in range(3):
        if S[g, F_COUNT + f] >= 2:
            big = True
    for f in range(3):
        c = S[g, F_COUNT + f]
        if (big and c >= 2) or (not big and c == 1):
            out[k] = A_HARVEST + f
            k += 1
    if d == YIELD:
        out[k] = A_CONTINUE
        k += 1
    elif d == PLANT or d == PLANT_OPTIONAL:
        for j in range(_fits(S, g, L[g, HAND, 0], fits)):
            out[k] = A_PLANT + fits[j]
            k += 1
        if d == PLANT_OPTIONAL:
            out[k] = A_STOP
            k += 1
    elif d == TURN_UP:
        out[k] = A_TURN_UP
        k += 1
    elif d == PLACE or d == FILL:
        empty_any = False
        for b in range(BOSSES):
            if S[g, B_COUNT + b] == 0:
                empty_any = True
        if d == PLACE:
            for slot in range(T):  # face-up stacks, by type: onto a field, or to a boss
                bean = TYPE_OF[slot]
                if not _count_face(L, S, g, bean):
                    continue
                for j in range(_fits(S, g, bean, fits)):
                    out[k] = A_STACK + slot * (BOSS_TARGET + BOSSES) + fits[j]
                    k += 1
                b = _grower(S, g, bean)
                for t in range(BOSSES):
                    if t == b or (b < 0 and S[g, B_COUNT + t] == 0):
                        out[k] = A_STACK + slot * (BOSS_TARGET + BOSSES) + BOSS_TARGET + t
                        k += 1
        if d == PLACE or empty_any:  # gifts: the first of equal adjacent hand cards
            prev = -1
            for i in range(S[g, HAND]):
                bean = L[g, HAND, i]
                if bean != prev:
                    b = _grower(S, g, bean)
                    for t in range(BOSSES):
                        if (d == PLACE and t == b) or (b < 0 and S[g, B_COUNT + t] == 0):
                            out[k] = A_GIVE + i * BOSSES + t
                            k += 1
                prev = bean
        if d == PLACE and S[g, FACE] == 0:
            out[k] = A_DONE  # MAF-9: placing ends only with no face-up card left
            k += 1
    return k


# -- applying ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def _apply(L, S, C, g, a):
    """Apply the legal action index ``a`` (not checked) to game ``g``."""
    d = S[g, DECISION]
    if A_HARVEST <= a < A_HARVEST + 3:
        _harvest(L, S, C, g, a - A_HARVEST)
    elif d == YIELD:
        _do_yields(L, S, C, g)
        _begin_plant(S, g)
    elif d == PLANT or d == PLANT_OPTIONAL:
        if a == A_STOP:
            _turn_up(L, S, C, g)
            return
        f = a - A_PLANT
        bean = L[g, HAND, 0]
        n = S[g, HAND]
        for i in range(n - 1):
            L[g, HAND, i] = L[g, HAND, i + 1]
        S[g, HAND] = n - 1
        S[g, F_TYPE + f] = bean
        S[g, F_COUNT + f] += 1
        S[g, PLANTED] += 1
        S[g, DECISION] = PLANT_OPTIONAL if (n - 1 > 0 and S[g, PLANTED] < 2) else TURN_UP
    elif d == TURN_UP:
        _turn_up(L, S, C, g)
    elif d == PLACE:
        if a == A_DONE:
            _begin_fill(L, S, C, g)
        elif a >= A_STACK:
            slot = (a - A_STACK) // (BOSS_TARGET + BOSSES)
            target = (a - A_STACK) % (BOSS_TARGET + BOSSES)
            bean = TYPE_OF[slot]
            n = _take_face(L, S, g, bean)
            if target < BOSS_TARGET:
                S[g, F_TYPE + target] = bean
                S[g, F_COUNT + target] += n
            else:
                _boss_add(L, S, C, g, target - BOSS_TARGET, bean, n)
        else:
            _give(L, S, C, g, (a - A_GIVE) // BOSSES, (a - A_GIVE) % BOSSES)
    elif d == FILL:
        _give(L, S, C, g, (a - A_GIVE) // BOSSES, (a - A_GIVE) % BOSSES)
        _begin_fill(L, S, C, g)


@njit(cache=True)
def _score(S, g):
    return S[g, COIN_N] - 2 * S[g, TREASURY_N]  # MAF-13


def result(arrays: Arrays, g: int) -> tuple[list[int], list[int]]:
    """The scores and winners of game ``g`` (over): MAF-13, a win needs a positive score."""
    score = int(arrays.S[g, COIN_N] - 2 * arrays.S[g, TREASURY_N])
    return [score], [0] if score > 0 else []


@njit(cache=True)
def advance(L, S, C, g, auto_forced, mode, bonus, legal, fits):
    """Apply forced decisions (``auto_forced``), then what the game pays now: the score earned since the
    last payment (``dense``) and, once over, the result (MAF-13)."""
    if auto_forced:
        while not S[g, OVER]:
            if _legal(L, S, g, legal, fits) != 1:
                break
            _apply(L, S, C, g, legal[0])
    score = _score(S, g)
    r = 0.0
    if mode == R_DENSE:
        r = float(score - S[g, PAID])
        S[g, PAID] = score
    if S[g, OVER]:
        win = 1.0 if score > 0 else (0.0 if score == 0 else -1.0)
        if mode == R_WIN:
            r += win
        elif mode == R_SCORE:
            r += float(score)
        else:
            r += bonus * win
    return r


@njit(cache=True)
def step(L, S, C, actions, slots, auto_forced, mode, bonus, rewards, over):
    """Apply ``actions[g]`` in each game ``g`` of ``slots`` (legal, not checked) and the forced moves
    after it; ``rewards[g, 0]`` gets what the step paid, ``over[g]`` whether the game ended."""
    legal = np.empty(NUM_ACTIONS, np.int64)
    fits = np.empty(3, np.int64)
    for g in slots:
        _apply(L, S, C, g, actions[g])
        S[g, STEPS] += 1
        rewards[g, 0] += advance(L, S, C, g, auto_forced, mode, bonus, legal, fits)
        over[g] = S[g, OVER] != 0


# -- observation and mask ---------------------------------------------------------------------------------------
@njit(cache=True)
def _w_counts(L, S, g, k, row, at):
    for i in range(S[g, k]):
        row[at + TSLOT[L[g, k, i]]] += 1.0


@njit(cache=True)
def _raw(L, S, C, g, row, starts):
    """The observation's raw (unscaled) entries of game ``g`` into the zeroed ``row``."""
    row[starts[0] + S[g, DECISION]] = 1.0                    # decision
    at = starts[1]                                             # actor_active
    if S[g, ACTOR] >= 0 and not S[g, OVER]:
        row[at] = 1.0
    row[at + 1] = 1.0
    at = starts[2]                                             # hand: counts, then the first positions
    _w_counts(L, S, g, HAND, row, at)
    for i in range(min(HAND_K, S[g, HAND])):
        row[at + T + i * T + TSLOT[L[g, HAND, i]]] = 1.0
    row[starts[3]] = S[g, HAND]                                # hand_sizes
    at = starts[5]                                             # fields
    for f in range(3):
        c = S[g, F_COUNT + f]
        if c:
            row[at + TSLOT[S[g, F_TYPE + f]]] = 1.0
            row[at + T] = c
        row[at + T + 1] = 1.0
        at += T + 2
    at = starts[6]                                             # coins
    row[at] = S[g, COIN_N]
    for slot in range(T):
        row[at + 1 + slot] = C[g, COINS, TYPE_OF[slot]]
    _w_counts(L, S, g, FACE, row, starts[7])                   # face_up (to_plant stays empty)
    at = starts[9]                                             # discard
    n = S[g, DISC]
    if n:
        row[at + TSLOT[L[g, DISC, n - 1]]] = 1.0
        _w_counts(L, S, g, DISC, row, at + T)
        row[at + 2 * T] = n
    at = starts[10]                                            # deck
    row[at] = S[g, DECK]
    row[at + 1] = S[g, RUNOUTS]
    row[at + 2] = max(1 - S[g, RUNOUTS], 0)
    row[at + 3] = S[g, TURN]
    row[at + 4] = S[g, END_PENDING]
    at = starts[11]                                            # unseen: the deck, then its size
    _w_counts(L, S, g, DECK, row, at)
    row[at + T] = S[g, DECK]
    at = starts[12]                                            # discard_runs
    i = n - 1
    for _ in range(DISCARD_RUNS):
        if i < 0:
            break
        bean = L[g, DISC, i]
        j = i
        while j >= 0 and L[g, DISC, j] == bean:
            j -= 1
        row[at + TSLOT[bean]] = 1.0
        row[at + T] = i - j
        at += T + 1
        i = j
    at = starts[13]                                            # mafia
    for b in range(BOSSES):
        c = S[g, B_COUNT + b]
        if c:
            bean = S[g, B_TYPE + b]
            row[at + TSLOT[bean]] = 1.0
            row[at + T] = c
            row[at + T + 1] = COIN_TABLE[bean, c]
        at += T + 2
    row[at] = S[g, TREASURY_N]
    row[at + 1] = S[g, PLANTED]


@njit(cache=True)
def observe(L, S, C, slots, starts, scale, obs, masks, legal, fits, with_obs):
    """Mask and (``with_obs``) observation, scaled as the encoder scales (float32 product, capped at 1),
    of each game in ``slots``, into its rows of ``masks`` and ``obs``."""
    one = np.float32(1.0)
    for g in slots:
        if with_obs:
            row = obs[g]
            row[:] = 0.0
            _raw(L, S, C, g, row, starts)
            for i in range(row.shape[0]):
                v = row[i]
                if v != 0.0:
                    v = v * scale[i]
                    row[i] = v if v < one else one
        masks[g, :] = False
        for j in range(_legal(L, S, g, legal, fits)):
            masks[g, legal[j]] = True
