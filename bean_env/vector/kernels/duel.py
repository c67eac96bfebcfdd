"""`bean_duel` (DUEL-*, two players) as array kernels over N games.

The rules of ``engine.duel.DuelRules`` from the first decision of a game to its end, the legal mask of
``ActionCatalogue`` and the observation of ``ObservationEncoder``, on the arrays of ``kernels.common``
(the coins paid for a 3rd field in ``C[g, REMOVED]``). A new game's set-up is the engine's (``load``).
Golden tests hold both to the same games, masks, observations and rewards.
"""
from __future__ import annotations

import numpy as np

from ...cards import deck_without
from ..._numba import njit
from .common import (ACTIVE, ACTOR, COIN, DECISION, DISC, END_PENDING, FACE, F_COUNT, F_TYPE, HAND, HAND_K, KNOWN_K,
                     K_DUEL, NFIELDS, OVER, PAID, PLANTED, P_DUPLICATES, P_MODE, REMOVED, REMOVED_N, RUNOUTS, R_DENSE,
                     TURN, Arrays, begin_row, count_in, draw, draw_to_hand, env_params, final_harvest, fits, flush_face,
                     hand_pop, harvest, harvestable, load_common, pair_win, plant_choices, pop_at, push, remove_first,
                     result_reward, span_starts, table_result, type_slots)

COMPOSITION = deck_without("EN", "cocoa", "garden")  # DUEL-1
CARDS = sum(COMPOSITION.values())
TYPE_OF, TSLOT = type_slots(COMPOSITION)  # slot -> type code, type code -> slot
T = len(TYPE_OF)
PLAYERS = 2
FIELD_COST = 3  # DUEL-2

DECISIONS = ("leftovers", "plant", "plant_optional", "discard_hand", "turn_up", "plant_face_up", "game_over")
LEFTOVERS, PLANT, PLANT_OPTIONAL, DISCARD_HAND, TURN_UP, PLANT_FACE_UP, GAME_OVER = range(7)
# action indices of the catalogue (checked against it on load)
A_PLANT = 0
A_PLANT_CARD = 3                      # + slot * 3 + field
A_HARVEST = A_PLANT_CARD + 3 * T
A_BUY = A_HARVEST + 3
A_STOP, A_DONE = A_BUY + 1, A_BUY + 2
A_DISCARD = A_BUY + 3                 # + slot
A_DISCARD_HAND = A_DISCARD + T        # + hand position
A_KEEP = A_DISCARD_HAND + CARDS
A_TURN_UP = A_KEEP + 1
NUM_ACTIONS = A_TURN_UP + 1

BLOCKS = ("decision", "actor_active", "hand", "hand_sizes", "known_hands", "fields", "coins", "face_up",
          "to_plant", "discard", "deck", "unseen", "discard_runs", "duel_state")
PLACED = ("decision", "actor_active", "hand", "hand_sizes", "fields", "coins", "face_up", "discard", "deck",
          "discard_runs", "unseen", "known_hands", "duel_state")


def prepare(variant: str, num_envs: int, env) -> tuple[Arrays, np.ndarray]:
    """The arrays of ``num_envs`` games and the kernels' ``params`` for the AEC env ``env``'s options."""
    if env.catalogue.size != NUM_ACTIONS or span_starts(env.catalogue, ("DISCARD_HAND",)) != [A_DISCARD_HAND]:
        raise RuntimeError(f"the array kernels do not match the action layout of {variant!r}")
    return Arrays(num_envs, CARDS), env_params(env, K_DUEL, [])


def load(arrays: Arrays, g: int, s) -> None:
    """Copy the engine state ``s`` (a `bean_duel` game) into row ``g``."""
    if s.variant != "bean_duel":
        raise ValueError(f"not a bean_duel state: {s.variant!r}")
    load_common(arrays, g, s, DECISIONS)


def result(arrays: Arrays, g: int, params: np.ndarray) -> tuple[list[int], list[int]]:
    """The scores (coins) and winners of the finished game ``g``: most coins, then most hand cards."""
    return table_result(arrays, g, PLAYERS)


# -- the turn (DUEL-3 .. DUEL-7) ----------------------------------------------------------------------------------
@njit(cache=True)
def _start_turn(L, S, g):
    S[g, PLANTED] = 0
    S[g, ACTOR] = S[g, ACTIVE]
    if S[g, FACE]:
        S[g, DECISION] = LEFTOVERS  # DUEL-3
    else:
        _step2(S, g)


@njit(cache=True)
def _step2(S, g):
    S[g, DECISION] = PLANT if S[g, HAND + S[g, ACTIVE]] else TURN_UP
    S[g, ACTOR] = S[g, ACTIVE]


@njit(cache=True)
def _end_game(L, S, g):
    final_harvest(L, S, g, PLAYERS)
    S[g, DECISION] = GAME_OVER


@njit(cache=True)
def _finish_step3(L, S, M, g):
    if S[g, END_PENDING]:  # DUEL-7
        flush_face(L, S, g)
        _end_game(L, S, g)
        return
    draw_to_hand(L, S, M, g, S[g, ACTIVE], 2)  # DUEL-6
    if S[g, RUNOUTS] >= 1:
        _end_game(L, S, g)
        return
    S[g, ACTIVE] = 1 - S[g, ACTIVE]
    S[g, TURN] += 1
    _start_turn(L, S, g)


@njit(cache=True)
def _turn_up(L, S, M, g):
    """DUEL-5: three cards, then the matching discards, then planting."""
    for _ in range(3):
        if S[g, RUNOUTS] >= 1:
            break
        card = draw(L, S, M, g)
        if card < 0:
            break
        push(L, S, g, FACE, card)
    if S[g, RUNOUTS] >= 1:
        S[g, END_PENDING] = 1
    while S[g, DISC] and count_in(L, S, g, FACE, L[g, DISC, S[g, DISC] - 1]):
        push(L, S, g, FACE, pop_at(L, S, g, DISC, S[g, DISC] - 1))
    if S[g, FACE]:
        S[g, DECISION] = PLANT_FACE_UP
    else:
        _finish_step3(L, S, M, g)


@njit(cache=True)
def _plant(S, g, p, f, bean):
    S[g, F_TYPE + 3 * p + f] = bean
    S[g, F_COUNT + 3 * p + f] += 1


# -- legal actions (AGT-1) ------------------------------------------------------------------------------------
@njit(cache=True)
def legal(L, S, g, params, out, where):
    """The legal action indices of game ``g`` into ``out``; returns how many (``where``: scratch)."""
    duplicates = params[P_DUPLICATES]
    d = S[g, DECISION]
    if d == GAME_OVER:
        return 0
    p = S[g, ACTOR]
    k = harvestable(S, g, p, A_HARVEST, out, 0)  # free actions: harvest, buy the 3rd field
    if S[g, NFIELDS + p] < 3 and S[g, COIN + p] >= FIELD_COST:
        out[k] = A_BUY
        k += 1
    if d == LEFTOVERS or d == PLANT_FACE_UP:
        for slot in range(T):
            bean = TYPE_OF[slot]
            if count_in(L, S, g, FACE, bean):
                for j in range(fits(S, g, p, bean, duplicates, where)):
                    out[k] = A_PLANT_CARD + 3 * slot + where[j]
                    k += 1
        if d == LEFTOVERS:
            for slot in range(T):
                if count_in(L, S, g, FACE, TYPE_OF[slot]):
                    out[k] = A_DISCARD + slot
                    k += 1
        else:
            out[k] = A_DONE
            k += 1
    elif d == PLANT or d == PLANT_OPTIONAL:
        k = plant_choices(L, S, g, p, duplicates, A_PLANT, A_STOP if d == PLANT_OPTIONAL else -1, where, out, k)
    elif d == DISCARD_HAND:
        for i in range(S[g, HAND + p]):
            if i == 0 or L[g, HAND + p, i - 1] != L[g, HAND + p, i]:
                out[k] = A_DISCARD_HAND + i
                k += 1
        out[k] = A_KEEP
        k += 1
    else:
        out[k] = A_TURN_UP
        k += 1
    return k


# -- applying (the move, then every automatic step up to the next decision) --------------------------------
@njit(cache=True)
def apply(L, S, C, M, g, params, a):
    """Apply the legal action index ``a`` (not checked) to `bean_duel` game ``g`` (DUEL-2 .. DUEL-7)."""
    p = S[g, ACTOR]
    d = S[g, DECISION]
    if A_HARVEST <= a < A_HARVEST + 3:
        harvest(L, S, g, p, a - A_HARVEST)
    elif a == A_BUY:  # DUEL-2: the top coins leave the game
        for _ in range(FIELD_COST):
            bean = pop_at(L, S, g, COIN + p, S[g, COIN + p] - 1)
            C[g, REMOVED, bean] += 1
            S[g, REMOVED_N] += 1
        S[g, NFIELDS + p] = 3
    elif d == LEFTOVERS:
        if a >= A_DISCARD:
            bean = TYPE_OF[a - A_DISCARD]
            remove_first(L, S, g, FACE, bean)
            push(L, S, g, DISC, bean)
        else:
            bean = TYPE_OF[(a - A_PLANT_CARD) // 3]
            remove_first(L, S, g, FACE, bean)
            _plant(S, g, p, (a - A_PLANT_CARD) % 3, bean)
        if not S[g, FACE]:
            _step2(S, g)
    elif d == PLANT or d == PLANT_OPTIONAL:
        if a < A_PLANT_CARD:
            _plant(S, g, p, a - A_PLANT, hand_pop(L, S, g, p, 0))
            S[g, PLANTED] += 1
            if S[g, HAND + p] and S[g, PLANTED] < 2:
                S[g, DECISION] = PLANT_OPTIONAL
                return
        S[g, DECISION] = DISCARD_HAND if S[g, HAND + p] else TURN_UP
    elif d == DISCARD_HAND:
        if a != A_KEEP:
            push(L, S, g, DISC, hand_pop(L, S, g, p, a - A_DISCARD_HAND))
        S[g, DECISION] = TURN_UP
    elif d == TURN_UP:
        _turn_up(L, S, M, g)
    elif d == PLANT_FACE_UP:
        if a == A_DONE:
            _finish_step3(L, S, M, g)
            return
        bean = TYPE_OF[(a - A_PLANT_CARD) // 3]
        remove_first(L, S, g, FACE, bean)
        _plant(S, g, p, (a - A_PLANT_CARD) % 3, bean)
        if not S[g, FACE]:
            _finish_step3(L, S, M, g)


@njit(cache=True)
def pay(S, g, params, bonus, rewards):
    """Add what game ``g`` pays now to ``rewards[g]``: the coins earned since the last payment (``dense``)
    and, once over, the result (COM-11)."""
    mode = params[P_MODE]
    if mode == R_DENSE:
        for p in range(PLAYERS):
            rewards[g, p] += float(S[g, COIN + p] - S[g, PAID + p])
            S[g, PAID + p] = S[g, COIN + p]
    if S[g, OVER]:
        for p in range(PLAYERS):
            own, other = S[g, COIN + p], S[g, COIN + 1 - p]
            rewards[g, p] += result_reward(mode, own, pair_win(S, g, p, -1), float(own - other), bonus)


@njit(cache=True)
def write_obs(L, S, C, g, params, seat, row, starts):
    """Seat ``seat``'s raw observation of game ``g`` into ``row``: the common blocks, then ``duel_state``
    (the hand cards planted this turn)."""
    begin_row(L, S, g, seat, PLAYERS, T, TSLOT, row, starts, HAND_K, KNOWN_K)
    row[starts[12]] = S[g, PLANTED]
