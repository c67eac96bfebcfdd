"""The array layout shared by the kernels (games of at most ``SEATS`` players) and the pieces of rules and
observation every variant has (COM-*).

Terms (a game is one row ``g`` of each array):
- *lists* ``L[g, k]`` with lengths ``S[g, k]`` for ``k`` in DECK, DISC (discard pile), FACE (face-up cards,
  in the engine's order), HAND + p (seat p's hand, front first), KNOWN + p (beside it: the seats that
  know each hand card, a bitmask, INFO-2), COIN + p (seat p's coin stack), ASIDE (set aside for the next
  deck), TO_PLANT + p (seat p's cards to plant); top of deck, discard pile and coin stack = last. A
  variant may add list rows from ``LISTS`` on (``Arrays(lists=...)``); list ``k``'s length is ``S[g, k]``.
- *scalars* ``S[g, column]``: the columns below; field ``f`` of seat ``p`` is ``F_TYPE + 3 p + f`` (type
  code, -1 when empty) and ``F_COUNT + 3 p + f``; the bosses ``B_TYPE + b`` and ``B_COUNT + b``.
- *counts* ``C[g, TREASURY | REMOVED, type]``: the mafia's treasury and the cards out of the game (a
  variant may add rows).
- *extra* ``X[g, ...]``: a variant's own per-game array (``Arrays(extra=...)``; `bohnanza`: the offers made).
- *shufflers* ``M[g, k % slots]``: the Mersenne Twister state (624 words and the position) of the generator
  of the game's shuffle ``k`` (column SHUFFLED counts the shuffles made, as ``State.shuffles`` does; the
  slots are a ring where a variant shuffles without bound, ``takeover``), seeded as ``State.rng`` seeds it
  (COM-12); a shuffle draws from it exactly as ``random.Random.shuffle`` does, so the new deck is the
  engine's.
- *raw row*: an observation before scaling; ``finish_row`` scales it as ``ObservationEncoder`` does.
"""
from __future__ import annotations

import hashlib

import numpy as np

from ...cards import NUM_TYPES, coins_for
from ...engine.game import new_game
from ...engine.state import EMPTY
from ..._numba import njit

SEATS = 7                                         # the most seats a kernel game has
DECK, DISC, FACE, HAND = 0, 1, 2, 3               # list rows (HAND, COIN, KNOWN, TO_PLANT: + seat)
COIN = HAND + SEATS
KNOWN = COIN + SEATS
ASIDE = KNOWN + SEATS
TO_PLANT = ASIDE + 1
LISTS = TO_PLANT + SEATS
MAX_LISTS = 56                                    # list lengths sit in the columns before the scalars
(RUNOUTS, END_PENDING, OVER, DECISION, PLANTED, TURN, ACTOR, ACTIVE, TREASURY_N, REMOVED_N) = range(
    MAX_LISTS, MAX_LISTS + 10)
PAID = MAX_LISTS + 10                             # + seat
F_TYPE = PAID + SEATS                             # + 3 seat + field
F_COUNT = F_TYPE + 3 * SEATS
NFIELDS = F_COUNT + 3 * SEATS                     # + seat
B_TYPE = NFIELDS + SEATS                          # + boss
B_COUNT = B_TYPE + 3
LIMIT = B_COUNT + 3
SHUFFLED = LIMIT + 1
COLUMNS = SHUFFLED + 1
MT_N = 624
TREASURY, REMOVED = 0, 1                          # rows of C
COIN_TABLE = np.array([[coins_for(b, n) for n in range(200)] for b in range(NUM_TYPES)], np.int64)
R_WIN, R_SCORE, R_MARGIN, R_DENSE = 0, 1, 2, 3   # reward modes
MODES = {"win": R_WIN, "score": R_SCORE, "margin": R_MARGIN, "dense": R_DENSE}
# ``params``: the env's options as the kernels read them, the catalogue's size, which kernel module plays
# the variant (``drive``), then the variant's own
P_AUTO, P_MODE, P_DUPLICATES, P_ACTIONS, P_KERNEL = 0, 1, 2, 3, 4
K_DUEL, K_MAFIA, K_BOHNANZA, K_TAKEOVER = 0, 1, 2, 3
DISCARD_RUNS = 6
HAND_K = 4                                        # hand positions in the hand block
KNOWN_K = 3                                       # and in the known_hands block (per other seat)


class Arrays:
    """The state arrays of ``n`` games whose deck has ``cards`` cards and which shuffle at most
    ``reshuffles`` more times after their set-up; a variant's own list rows, columns and count rows up to
    ``lists``, ``columns`` and ``counts``, and its ``X`` of shape ``(n,) + extra`` (three axes in every
    variant: the kernels share one driver)."""

    def __init__(self, n: int, cards: int, reshuffles: int = 0, lists: int = LISTS, columns: int = COLUMNS,
                 counts: int = 2, extra: tuple[int, int, int] = (1, 1, 1)):
        self.L = np.zeros((n, lists, cards), np.int64)
        self.S = np.zeros((n, columns), np.int64)
        self.C = np.zeros((n, counts, NUM_TYPES), np.int64)
        self.M = np.zeros((n, max(reshuffles, 1), MT_N + 1), np.int64)
        self.X = np.zeros((n,) + extra, np.int64)


def load_common(arrays: Arrays, g: int, s, decisions: tuple, ahead: int | None = None) -> None:
    """Copy what every variant has of the engine state ``s`` into row ``g`` (``decisions``: the decision
    points in the observation's order), with the generators of its next ``ahead`` shuffles (default: the
    reshuffles its run-outs can still make)."""
    ahead = s.limit - 1 if ahead is None else ahead
    if s.n > SEATS or ahead > arrays.M.shape[1]:
        raise ValueError(f"a {s.variant} state the array kernels do not hold")
    L, S, C = arrays.L[g], arrays.S[g], arrays.C[g]
    S[:] = 0
    C[:] = 0
    lists = [(DECK, s.deck), (DISC, s.discard), (FACE, s.face_up), (ASIDE, s.set_aside)]
    lists += [(HAND + p, s.hands[p]) for p in range(s.n)] + [(COIN + p, s.coins[p]) for p in range(s.n)]
    lists += [(KNOWN + p, s.known[p]) for p in range(s.n)] + [(TO_PLANT + p, s.to_plant[p]) for p in range(s.n)]
    for k, cards in lists:
        S[k] = len(cards)
        L[k, :len(cards)] = cards
    S[RUNOUTS], S[END_PENDING], S[OVER], S[LIMIT] = s.runouts, int(s.end_pending), int(s.over), s.limit
    S[SHUFFLED] = s.shuffles  # the generators of the shuffles to come, at their slots (COM-12)
    for k in range(s.shuffles, s.shuffles + ahead):
        load_generator(arrays.M, g, k % arrays.M.shape[1], s.seed, k)
    S[DECISION] = decisions.index(s.decision)
    S[PLANTED], S[TURN], S[ACTOR], S[ACTIVE] = s.planted, s.turn, s.actor, s.active
    S[F_TYPE:F_TYPE + 3 * s.n] = s.ftype
    S[F_COUNT:F_COUNT + 3 * s.n] = s.fcount
    S[NFIELDS:NFIELDS + s.n] = s.nfields
    for bean in s.removed:
        C[REMOVED, bean] += 1
    S[REMOVED_N] = len(s.removed)


def type_slots(composition: dict[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """A deck's type slots (``envs.obs``): slot -> type code, and type code -> slot (-1 if not in it)."""
    type_of = np.array(sorted(composition), np.int64)
    tslot = np.full(NUM_TYPES, -1, np.int64)
    tslot[type_of] = np.arange(len(type_of))
    return type_of, tslot


def table_result(arrays: Arrays, g: int, n: int, floor: int = -1) -> tuple[list[int], list[int]]:
    """The coins and winners of the finished game ``g`` of ``n`` seats: the best (coins, hand cards), shared
    on a tie (COM-11), nobody when the best has no more than ``floor`` coins (the mafia's, MAF-13)."""
    S = arrays.S[g]
    key = [(int(S[COIN + p]), int(S[HAND + p])) for p in range(n)]
    best = max(key)
    return [k[0] for k in key], ([] if best[0] <= floor else [p for p in range(n) if key[p] == best])


def env_params(env, kernel: int, extra: list[int]) -> np.ndarray:
    """The kernels' ``params`` for the AEC env ``env``'s options and game, played by ``kernel`` (K_DUEL,
    K_MAFIA), then ``extra``."""
    duplicates = new_game(env.variant, seed=0, **env.config).rules.allow_duplicates
    head = [int(env.auto_forced), MODES[env.reward_mode], int(duplicates), env.catalogue.size, kernel]
    return np.array(head + list(extra), np.int64)


def span_starts(catalogue, kinds: tuple[str, ...]) -> list[int]:
    """Where each action kind (by name) starts in ``catalogue``; -1 for a kind it does not have."""
    first = {kind: start for start, _, kind, _ in catalogue.layout()}
    return [first.get(kind, -1) for kind in kinds]


def card_counts(arrays: Arrays, g: int, players: int) -> np.ndarray:
    """Cards of each type in game ``g`` wherever they are (lists, fields, bosses, treasury, out of the
    game): the deck's composition at every step (card conservation)."""
    L, S, C = arrays.L[g], arrays.S[g], arrays.C[g]
    counts = C[TREASURY] + C[REMOVED]
    rows = [DECK, DISC, FACE, ASIDE] + [k + p for k in (HAND, COIN, TO_PLANT) for p in range(players)]
    for k in rows:
        counts += np.bincount(L[k, :S[k]], minlength=NUM_TYPES)
    for i in range(3 * players):
        if S[F_COUNT + i]:
            counts[S[F_TYPE + i]] += S[F_COUNT + i]
    for b in range(3):
        if S[B_COUNT + b]:
            counts[S[B_TYPE + b]] += S[B_COUNT + b]
    return counts


# -- lists, fields, drawing ------------------------------------------------------------------------------
@njit(cache=True)
def in_list(L, S, g, k, value):
    for i in range(S[g, k]):
        if L[g, k, i] == value:
            return True
    return False


@njit(cache=True)
def push(L, S, g, k, card):
    L[g, k, S[g, k]] = card
    S[g, k] += 1


@njit(cache=True)
def move_all(L, S, g, src, dst):
    """List ``src`` onto the end of list ``dst``, in order; ``src`` is left empty."""
    for i in range(S[g, src]):
        push(L, S, g, dst, L[g, src, i])
    S[g, src] = 0


@njit(cache=True)
def pop_at(L, S, g, k, i):
    """Remove and return the card at position ``i`` of list ``k`` (the others keep their order)."""
    card = L[g, k, i]
    n = S[g, k]
    for j in range(i, n - 1):
        L[g, k, j] = L[g, k, j + 1]
    S[g, k] = n - 1
    return card


@njit(cache=True)
def count_in(L, S, g, k, bean):
    m = 0
    for i in range(S[g, k]):
        if L[g, k, i] == bean:
            m += 1
    return m


@njit(cache=True)
def remove_first(L, S, g, k, bean):
    for i in range(S[g, k]):
        if L[g, k, i] == bean:
            pop_at(L, S, g, k, i)
            return


@njit(cache=True)
def harvest(L, S, g, p, f):
    """COM-5: field ``f`` of seat ``p`` sold: coins onto its stack, the rest onto the discard pile."""
    i = 3 * p + f
    bean = S[g, F_TYPE + i]
    count = S[g, F_COUNT + i]
    coins = COIN_TABLE[bean, count]
    for _ in range(coins):
        push(L, S, g, COIN + p, bean)
    for _ in range(count - coins):
        push(L, S, g, DISC, bean)
    S[g, F_TYPE + i] = EMPTY
    S[g, F_COUNT + i] = 0


@njit(cache=True)
def final_harvest(L, S, g, n):
    """COM-10, then the game is over."""
    for p in range(n):
        for f in range(S[g, NFIELDS + p]):
            if S[g, F_COUNT + 3 * p + f]:
                harvest(L, S, g, p, f)
    S[g, OVER] = 1
    S[g, ACTOR] = -1


@njit(cache=True)
def fits(S, g, p, bean, duplicates, out):
    """COM-3: fields of seat ``p`` where ``bean`` may be planted, ascending, into ``out``; how many."""
    k = 0
    growing = False
    for f in range(S[g, NFIELDS + p]):
        if S[g, F_TYPE + 3 * p + f] == bean:
            growing = True
    for f in range(S[g, NFIELDS + p]):
        t = S[g, F_TYPE + 3 * p + f]
        if t == bean or (S[g, F_COUNT + 3 * p + f] == 0 and (duplicates or not growing)):
            out[k] = f
            k += 1
    return k


@njit(cache=True)
def plant_choices(L, S, g, p, duplicates, first, stop, where, out, k):
    """COM-1: PLANT (``first + field``) for each field of seat ``p`` its front hand card fits, then ``stop``
    (STOP_PLANTING) unless it is -1, appended to ``out`` from ``k``; the new count."""
    for j in range(fits(S, g, p, L[g, HAND + p, 0], duplicates, where)):
        out[k] = first + where[j]
        k += 1
    if stop >= 0:
        out[k] = stop
        k += 1
    return k


@njit(cache=True)
def harvestable(S, g, p, first, out, k):
    """COM-6: the harvest actions (``first + f``) of seat ``p`` appended to ``out`` from ``k``; the new
    count (one-card fields only while no field has two or more)."""
    nf = S[g, NFIELDS + p]
    big = False
    for f in range(nf):
        if S[g, F_COUNT + 3 * p + f] >= 2:
            big = True
    for f in range(nf):
        c = S[g, F_COUNT + 3 * p + f]
        if (big and c >= 2) or (not big and c == 1):
            out[k] = first + f
            k += 1
    return k


def load_generator(M: np.ndarray, g: int, j: int, seed: int, k: int) -> None:
    """Put into ``M[g, j]`` the state of the generator of shuffle ``k`` of the game of ``seed`` (``State.rng``,
    COM-12): ``random.Random`` seeded from the string ``bean_env/{seed}/{k}``, which CPython turns into
    the integer of its bytes followed by their sha512 digest and feeds to the Mersenne Twister's
    ``init_by_array`` as 32-bit words, least significant first (tested against ``random.Random``)."""
    text = f"bean_env/{seed}/{k}".encode()
    number = text + hashlib.sha512(text).digest()  # big-endian
    words = (len(number) * 8 - 1) // 32 + 1          # the first byte ("b") has its top bit clear
    key = np.frombuffer(number[::-1] + bytes(4 * words - len(number)), "<u4").astype(np.int64)
    _init_by_array(M[g, j], key)


@njit(cache=True)
def _init_by_array(m, key):
    """The Mersenne Twister state seeded by ``key`` (32-bit words), as CPython's ``init_by_array``."""
    mask = 0xFFFFFFFF
    m[0] = 19650218
    for i in range(1, MT_N):
        m[i] = (1812433253 * (m[i - 1] ^ (m[i - 1] >> 30)) + i) & mask
    i, j = 1, 0
    for _ in range(max(MT_N, len(key))):
        m[i] = ((m[i] ^ (((m[i - 1] ^ (m[i - 1] >> 30)) * 1664525) & mask)) + key[j] + j) & mask
        i += 1
        j += 1
        if i >= MT_N:
            m[0] = m[MT_N - 1]
            i = 1
        if j >= len(key):
            j = 0
    for _ in range(MT_N - 1):
        m[i] = ((m[i] ^ (((m[i - 1] ^ (m[i - 1] >> 30)) * 1566083941) & mask)) - i) & mask
        i += 1
        if i >= MT_N:
            m[0] = m[MT_N - 1]
            i = 1
    m[0] = 0x80000000
    m[MT_N] = MT_N


@njit(cache=True)
def _mt_next(m):
    """The next 32-bit output of the Mersenne Twister state ``m`` (624 words, then the position)."""
    if m[MT_N] >= MT_N:
        for k in range(MT_N):
            y = (m[k] & 0x80000000) | (m[(k + 1) % MT_N] & 0x7FFFFFFF)
            v = m[(k + 397) % MT_N] ^ (y >> 1)
            if y & 1:
                v ^= 0x9908B0DF
            m[k] = v
        m[MT_N] = 0
    y = m[m[MT_N]]
    m[MT_N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & 0xFFFFFFFF


@njit(cache=True)
def shuffle_list(L, S, g, k, m):
    """Shuffle list ``k`` with the Mersenne Twister state ``m`` as ``random.Random.shuffle`` shuffles (index
    draws by rejection of ``getrandbits``)."""
    for i in range(S[g, k] - 1, 0, -1):
        n = i + 1
        bits = 0
        while (1 << bits) <= n:
            bits += 1
        j = _mt_next(m) >> (32 - bits)
        while j >= n:
            j = _mt_next(m) >> (32 - bits)
        c = L[g, k, i]
        L[g, k, i] = L[g, k, j]
        L[g, k, j] = c


@njit(cache=True)
def next_generator(S, M, g):
    """The generator of the game's next shuffle (COM-12): ``M[g]`` holds them in order, as a ring where a
    variant shuffles without bound (``takeover``)."""
    k = S[g, SHUFFLED]
    S[g, SHUFFLED] = k + 1
    return M[g, k % M.shape[1]]


@njit(cache=True)
def _reshuffle(L, S, M, g, aside_all):
    """COM-9: the discard pile, then the set-aside cards (with ``aside_all`` false only the last one, HT-6),
    become the new deck, shuffled with the game's next generator."""
    S[g, DECK] = 0
    move_all(L, S, g, DISC, DECK)
    if aside_all:
        move_all(L, S, g, ASIDE, DECK)
    elif S[g, ASIDE]:
        push(L, S, g, DECK, pop_at(L, S, g, ASIDE, S[g, ASIDE] - 1))
    shuffle_list(L, S, g, DECK, next_generator(S, M, g))


@njit(cache=True)
def draw_from(L, S, M, g, aside_all):
    """COM-9: the top deck card, counting run-outs and reshuffling before the last one (``aside_all``: see
    ``_reshuffle``); -1 when nothing can be drawn."""
    while True:
        n = S[g, DECK]
        if n:
            S[g, DECK] = n - 1
            card = L[g, DECK, n - 1]
            if n == 1 and S[g, RUNOUTS] < S[g, LIMIT]:
                S[g, RUNOUTS] += 1
                if S[g, RUNOUTS] < S[g, LIMIT]:
                    _reshuffle(L, S, M, g, aside_all)
            return card
        if S[g, RUNOUTS] >= S[g, LIMIT]:
            return -1
        S[g, RUNOUTS] += 1
        if S[g, RUNOUTS] < S[g, LIMIT]:
            _reshuffle(L, S, M, g, aside_all)


@njit(cache=True)
def draw(L, S, M, g):
    """``draw_from`` with every set-aside card going into a new deck (COM-9)."""
    return draw_from(L, S, M, g, True)


@njit(cache=True)
def draw_to_hand(L, S, M, g, p, count):
    for _ in range(count):
        if S[g, RUNOUTS] >= S[g, LIMIT]:
            return
        card = draw(L, S, M, g)
        if card < 0:
            return
        push(L, S, g, HAND + p, card)
        push(L, S, g, KNOWN + p, 1 << p)


@njit(cache=True)
def hand_pop(L, S, g, p, i):
    """Remove and return card ``i`` of seat ``p``'s hand (and what is known of it)."""
    pop_at(L, S, g, KNOWN + p, i)
    return pop_at(L, S, g, HAND + p, i)


@njit(cache=True)
def flush_face(L, S, g):
    """The face-up cards onto the discard pile, in order (the game's last step)."""
    move_all(L, S, g, FACE, DISC)


@njit(cache=True)
def pair_win(S, g, p, floor):
    """The win reward of seat ``p`` of a finished two-seat game (``table_result``'s ranking): +1 alone
    best, 0.5 each on a tie, else -1, and -1 to both when the best has no more than ``floor`` coins."""
    own, other = S[g, COIN + p], S[g, COIN + 1 - p]
    hand, their_hand = S[g, HAND + p], S[g, HAND + 1 - p]
    tie = own == other and hand == their_hand
    ahead = own > other or (own == other and hand > their_hand)
    if max(own, other) <= floor or not (tie or ahead):
        return -1.0
    return 0.5 if tie else 1.0


@njit(cache=True)
def result_reward(mode, score, win, margin, bonus):
    """What a seat is paid when the game ends, beyond the dense payments (``win``: its win reward)."""
    if mode == R_WIN:
        return win
    if mode == R_SCORE:
        return float(score)
    if mode == R_MARGIN:
        return margin
    return bonus * win


# -- observation pieces (the common blocks, ``envs.obs.common``) -----------------------------------------------
@njit(cache=True)
def w_counts(L, S, g, k, tslot, row, at):
    for i in range(S[g, k]):
        row[at + tslot[L[g, k, i]]] += 1.0


@njit(cache=True)
def w_table(L, S, g, me, n, t, tslot, row, starts, hand_k):
    """The blocks decision, actor_active, hand, hand_sizes, fields, coins, face_up, discard, deck and
    discard_runs (block positions ``starts[0..9]``; -1: a block the variant lacks) for seat ``me``, with
    ``hand_k`` hand positions; zeros stay unwritten."""
    row[starts[0] + S[g, DECISION]] = 1.0
    at = starts[1]
    if S[g, ACTOR] >= 0 and not S[g, OVER]:
        row[at + (S[g, ACTOR] - me) % n] = 1.0
    row[at + n + (S[g, ACTIVE] - me) % n] = 1.0
    at = starts[2]
    w_counts(L, S, g, HAND + me, tslot, row, at)
    for i in range(min(hand_k, S[g, HAND + me])):
        row[at + t + i * t + tslot[L[g, HAND + me, i]]] = 1.0
    for k in range(n):
        q = (me + k) % n
        row[starts[3] + k] = S[g, HAND + q]
        at = starts[4] + k * 3 * (t + 2)
        for f in range(S[g, NFIELDS + q]):
            c = S[g, F_COUNT + 3 * q + f]
            if c:
                row[at + tslot[S[g, F_TYPE + 3 * q + f]]] = 1.0
                row[at + t] = c
            row[at + t + 1] = 1.0
            at += t + 2
        at = starts[5] + k * (t + 1)
        row[at] = S[g, COIN + q]
        w_counts(L, S, g, COIN + q, tslot, row, at + 1)
    w_counts(L, S, g, FACE, tslot, row, starts[6])
    at = starts[7]
    nd = S[g, DISC]
    if nd:
        row[at + tslot[L[g, DISC, nd - 1]]] = 1.0
        w_counts(L, S, g, DISC, tslot, row, at + t)
        row[at + 2 * t] = nd
    at = starts[8]
    row[at] = S[g, DECK]
    row[at + 1] = S[g, RUNOUTS]
    row[at + 2] = max(S[g, LIMIT] - S[g, RUNOUTS], 0)
    row[at + 3] = S[g, TURN]
    row[at + 4] = S[g, END_PENDING]
    row[at + 5] = S[g, REMOVED_N]
    row[at + 6] = S[g, ASIDE]
    at = starts[9]
    if at < 0:
        return
    i = nd - 1
    for _ in range(DISCARD_RUNS):
        if i < 0:
            break
        bean = L[g, DISC, i]
        j = i
        while j >= 0 and L[g, DISC, j] == bean:
            j -= 1
        row[at + tslot[bean]] = 1.0
        row[at + t] = i - j
        at += t + 1
        i = j


@njit(cache=True)
def w_unseen(L, S, g, me, n, t, tslot, row, at):
    """Card counting: the deck and the other seats' hand cards not shown to ``me``, by type slot, then
    their total."""
    w_counts(L, S, g, DECK, tslot, row, at)
    total = S[g, DECK]
    for q in range(n):
        if q != me:
            for i in range(S[g, HAND + q]):
                if not L[g, KNOWN + q, i] & (1 << me):
                    row[at + tslot[L[g, HAND + q, i]]] += 1.0
                    total += 1
    row[at + t] = total


@njit(cache=True)
def w_known(L, S, g, me, n, t, tslot, row, base, known_k):
    """INFO-2: per other seat, counts per type of its hand cards shown to ``me``, then its first ``known_k``
    positions one-hot where shown."""
    width = (1 + known_k) * t
    for k in range(1, n):
        q = (me + k) % n
        at = base + (k - 1) * width
        for i in range(S[g, HAND + q]):
            if L[g, KNOWN + q, i] & (1 << me):
                slot = tslot[L[g, HAND + q, i]]
                row[at + slot] += 1.0
                if i < known_k:
                    row[at + t + i * t + slot] = 1.0


@njit(cache=True)
def begin_row(L, S, g, seat, n, t, tslot, row, starts, hand_k, known_k):
    """Zero ``row`` and write the blocks every kernel variant has (``w_table``, then unseen and known hands
    at ``starts[10]`` and ``starts[11]``) for ``seat``, with ``hand_k`` own and ``known_k`` other hand
    positions."""
    row[:] = 0.0
    w_table(L, S, g, seat, n, t, tslot, row, starts, hand_k)
    w_unseen(L, S, g, seat, n, t, tslot, row, starts[10])
    w_known(L, S, g, seat, n, t, tslot, row, starts[11], known_k)


@njit(cache=True)
def set_mask(masks, g, legal, count):
    """Row ``g`` of ``masks``: True at the first ``count`` indices of ``legal``."""
    masks[g, :] = False
    for j in range(count):
        masks[g, legal[j]] = True


@njit(cache=True)
def finish_row(row, scale):
    """Scale a raw row in place as the encoder does: the float32 product, capped at 1."""
    one = np.float32(1.0)
    for i in range(row.shape[0]):
        v = row[i]
        if v != 0.0:
            v = v * scale[i]
            row[i] = v if v < one else one
