"""`bean_solitaire` (MAF-*, one player against three bosses) as array kernels over N games.

The rules of ``engine.mafia.SolitaireRules`` from the first decision of a game to its end, the legal
mask of ``ActionCatalogue`` and the observation of ``ObservationEncoder``, on the arrays of
``kernels.common`` (the bosses in its B_ columns, the treasury in ``C[g, TREASURY]``). A new game's set-up
(the shuffle) is the engine's: ``load`` copies a fresh engine state into a game's row. Golden tests hold
both to the same games, masks, observations and rewards.
"""
from __future__ import annotations

import numpy as np

from ...cards import DECKS, NUM_TYPES
from ...engine.mafia import BOSS_TARGET, THRESHOLDS
from ...engine.state import EMPTY
from ..._numba import njit
from .common import (ACTOR, B_COUNT, B_TYPE, COIN, COIN_TABLE, DECISION, DISC, END_PENDING, FACE, F_COUNT, F_TYPE,
                     HAND, OVER, PAID, PLANTED, P_AUTO, P_MODE, RUNOUTS, R_DENSE, STEPS, TREASURY, TREASURY_N, TURN,
                     Arrays, count_in, draw, draw_to_hand, final_harvest, finish_row, fits, flush_face, harvest,
                     harvestable, load_common, pop_at, push, result_reward, w_table, w_unseen)

CARDS = sum(DECKS["AC"].values())
TYPES = tuple(sorted(DECKS["AC"]))                    # deck type codes in slot order
TYPE_OF = np.array(TYPES, np.int64)                   # slot -> type code
TSLOT = np.full(NUM_TYPES, -1, np.int64)              # type code -> slot
TSLOT[list(TYPES)] = np.arange(len(TYPES))
T = len(TYPES)
THRESHOLD = np.array(THRESHOLDS, np.int64)
BOSSES = 3
PLAYERS = 1

# decision points, in the observation's slot order (``obs.mafia.MAFIA_DECISIONS``)
DECISIONS = ("leftovers", "yield", "plant", "plant_optional", "turn_up", "place", "fill", "game_over")
LEFTOVERS, YIELD, PLANT, PLANT_OPTIONAL, TURN_UP, PLACE, FILL, GAME_OVER = range(8)
# action indices of the catalogue (``mafia_catalogue`` for one player; checked against it on load)
A_PLANT, A_HARVEST, A_STOP, A_DONE, A_TURN_UP, A_CONTINUE, A_GIVE = 0, 3, 6, 7, 8, 9, 10
A_STACK = A_GIVE + CARDS * BOSSES
NUM_ACTIONS = A_STACK + T * (BOSS_TARGET + BOSSES)

# observation blocks, in layout order (checked against the encoder), and those ``observe`` places
BLOCKS = ("decision", "actor_active", "hand", "hand_sizes", "known_hands", "fields", "coins", "face_up",
          "to_plant", "discard", "deck", "unseen", "discard_runs", "mafia")
PLACED = ("decision", "actor_active", "hand", "hand_sizes", "fields", "coins", "face_up", "discard", "deck",
          "discard_runs", "unseen", "mafia")


def new_arrays(n: int) -> Arrays:
    return Arrays(n, CARDS)


def load(arrays: Arrays, g: int, s) -> None:
    """Copy the engine state ``s`` (a `bean_solitaire` game) into row ``g``."""
    if s.variant != "bean_solitaire":
        raise ValueError(f"not a bean_solitaire state: {s.variant!r}")
    load_common(arrays, g, s, DECISIONS)
    S, C = arrays.S[g], arrays.C[g]
    S[B_TYPE:B_TYPE + BOSSES] = s.btype
    S[B_COUNT:B_COUNT + BOSSES] = s.bcount
    for bean in s.treasury:
        C[TREASURY, bean] += 1
    S[TREASURY_N] = len(s.treasury)


def result(arrays: Arrays, g: int) -> tuple[list[int], list[int]]:
    """The scores and winners of the finished game ``g``: MAF-13, a win needs a positive score."""
    score = int(arrays.S[g, COIN] - 2 * arrays.S[g, TREASURY_N])
    return [score], [0] if score > 0 else []


# -- the mafia's fields (MAF-1, MAF-2) --------------------------------------------------------------------
@njit(cache=True)
def _boss_harvest(L, S, C, g, b):
    bean = S[g, B_TYPE + b]
    count = S[g, B_COUNT + b]
    coins = COIN_TABLE[bean, count]
    C[g, TREASURY, bean] += coins
    S[g, TREASURY_N] += coins
    for _ in range(count - coins):
        push(L, S, g, DISC, bean)
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
    while S[g, DISC] and count_in(L, S, g, FACE, L[g, DISC, S[g, DISC] - 1]):
        S[g, DISC] -= 1
        bean = L[g, DISC, S[g, DISC]]
        push(L, S, g, FACE, bean)
        b = _grower(S, g, bean)
        if b >= 0:
            _boss_add(L, S, C, g, b, bean, _take_face(L, S, g, bean))


@njit(cache=True)
def _turn_up(L, S, C, g):
    """MAF-8: turn up three (Q1 with replacements, Q2 after each), then step 5."""
    counted = 0
    while counted < 3:
        card = draw(L, S, g)
        ending = S[g, RUNOUTS] >= 1
        if card >= 0:
            b = _grower(S, g, card)
            if b >= 0:
                _boss_add(L, S, C, g, b, card, 1)
            else:
                push(L, S, g, FACE, card)
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
    final_harvest(L, S, g, PLAYERS)
    S[g, DECISION] = GAME_OVER


@njit(cache=True)
def _give(L, S, C, g, pos, b):
    _boss_add(L, S, C, g, b, pop_at(L, S, g, HAND, pos), 1)


@njit(cache=True)
def _begin_fill(L, S, C, g):
    if _has_fill_gift(L, S, g):
        S[g, DECISION] = FILL
        return
    if S[g, END_PENDING]:  # MAF-12: a step-4 run-out ends the game after step 5
        flush_face(L, S, g)
        _end_game(L, S, C, g)
        return
    draw_to_hand(L, S, g, 0, 2)  # MAF-10
    if S[g, RUNOUTS] >= 1:
        _end_game(L, S, C, g)
        return
    S[g, TURN] += 1
    _start_turn(L, S, g)


# -- legal actions (AGT-1) ------------------------------------------------------------------------------------
@njit(cache=True)
def _legal(L, S, g, out, where):
    """The legal action indices of game ``g`` into ``out``; returns how many (``where``: scratch)."""
    d = S[g, DECISION]
    if d == GAME_OVER:
        return 0
    k = harvestable(S, g, 0, A_HARVEST, out, 0)  # free actions
    if d == YIELD:
        out[k] = A_CONTINUE
        k += 1
    elif d == PLANT or d == PLANT_OPTIONAL:
        for j in range(fits(S, g, 0, L[g, HAND, 0], False, where)):
            out[k] = A_PLANT + where[j]
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
                if not count_in(L, S, g, FACE, bean):
                    continue
                for j in range(fits(S, g, 0, bean, False, where)):
                    out[k] = A_STACK + slot * (BOSS_TARGET + BOSSES) + where[j]
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
        harvest(L, S, g, 0, a - A_HARVEST)
    elif d == YIELD:
        _do_yields(L, S, C, g)
        _begin_plant(S, g)
    elif d == PLANT or d == PLANT_OPTIONAL:
        if a == A_STOP:
            _turn_up(L, S, C, g)
            return
        f = a - A_PLANT
        S[g, F_TYPE + f] = pop_at(L, S, g, HAND, 0)
        S[g, F_COUNT + f] += 1
        S[g, PLANTED] += 1
        S[g, DECISION] = PLANT_OPTIONAL if (S[g, HAND] > 0 and S[g, PLANTED] < 2) else TURN_UP
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
def advance(L, S, C, g, params, bonus, legal, where, rewards):
    """Apply forced decisions (``params[P_AUTO]``), then add what the game pays now to ``rewards[g]``: the
    score earned since the last payment (``dense``) and, once over, the result (MAF-13)."""
    mode = params[P_MODE]
    if params[P_AUTO]:
        while not S[g, OVER]:
            if _legal(L, S, g, legal, where) != 1:
                break
            _apply(L, S, C, g, legal[0])
    score = S[g, COIN] - 2 * S[g, TREASURY_N]
    if mode == R_DENSE:
        rewards[g, 0] += float(score - S[g, PAID])
        S[g, PAID] = score
    if S[g, OVER]:
        win = 1.0 if score > 0 else (0.0 if score == 0 else -1.0)
        rewards[g, 0] += result_reward(mode, 0, score, win, float(score), bonus)


@njit(cache=True)
def step(L, S, C, actions, slots, params, bonus, rewards, over):
    """Apply ``actions[g]`` in each game ``g`` of ``slots`` (legal, not checked) and the forced moves
    after it; ``rewards[g]`` gets what the step paid, ``over[g]`` whether the game ended."""
    legal = np.empty(NUM_ACTIONS, np.int64)
    where = np.empty(3, np.int64)
    for g in slots:
        _apply(L, S, C, g, actions[g])
        S[g, STEPS] += 1
        advance(L, S, C, g, params, bonus, legal, where, rewards)
        over[g] = S[g, OVER] != 0


# -- observation and mask ---------------------------------------------------------------------------------------
@njit(cache=True)
def observe(L, S, C, slots, me, params, starts, scale, obs, masks, legal, where, with_obs):
    """Mask and (``with_obs``) observation of seat ``me[g]`` of each game ``g`` in ``slots``, into its
    rows of ``masks`` and ``obs`` (positions of the ``PLACED`` blocks: ``starts``)."""
    for g in slots:
        if with_obs:
            row = obs[g]
            row[:] = 0.0
            w_table(L, S, g, 0, PLAYERS, T, TSLOT, S[g, DECISION], row, starts)
            w_unseen(L, S, g, 0, PLAYERS, T, TSLOT, row, starts[10])
            at = starts[11]                                # mafia
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
            finish_row(row, scale)
        masks[g, :] = False
        for j in range(_legal(L, S, g, legal, where)):
            masks[g, legal[j]] = True
