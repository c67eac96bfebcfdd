"""The mafia variants (MAF-*) as array kernels over N games: `al_cabohne` (two players, two bosses, three
run-outs with reshuffles) and `bean_solitaire` (one player, three bosses, one run-out).

The rules of ``engine.mafia.MafiaRules`` and ``SolitaireRules`` from the first decision of a game to its
end, the legal mask of ``ActionCatalogue`` and the observation of ``ObservationEncoder``, on the arrays of
``kernels.common`` (the bosses in its B_ columns, the treasury in ``C[g, TREASURY]``, a 3rd field's coins
in its set-aside list). What differs between the two variants is read from ``params`` (seats, bosses,
solitaire or not, where each action kind starts in the catalogue). A new game's set-up is the engine's
(``load``). Golden tests hold both to the same games, masks, observations and rewards.
"""
from __future__ import annotations

import numpy as np

from ...cards import DECKS
from ...engine.mafia import BOSS_TARGET, FIELD_COST, THRESHOLDS
from ...engine.state import EMPTY
from ..._numba import njit
from .common import (ACTIVE, ACTOR, ASIDE, B_COUNT, B_TYPE, COIN, COIN_TABLE, DECISION, DISC, END_PENDING, FACE,
                     F_COUNT, F_TYPE, HAND, HAND_K, KNOWN, KNOWN_K, K_MAFIA, LIMIT, NFIELDS, OVER, PAID, PLANTED,
                     P_MODE, RUNOUTS, R_DENSE, TREASURY, TREASURY_N, TURN, Arrays, begin_row, count_in, draw,
                     draw_to_hand, env_params, final_harvest, fits, flush_face, hand_pop, harvest, harvestable,
                     load_common, pair_win, plant_choices, pop_at, push, remove_first, result_reward, span_starts,
                     table_result, type_slots)

CARDS = sum(DECKS["AC"].values())
TYPE_OF, TSLOT = type_slots(DECKS["AC"])              # slot -> type code, type code -> slot
T = len(TYPE_OF)
THRESHOLD = np.array(THRESHOLDS, np.int64)

# decision points, in the observation's slot order (``obs.mafia.MAFIA_DECISIONS``)
DECISIONS = ("leftovers", "yield", "plant", "plant_optional", "turn_up", "place", "fill", "game_over")
LEFTOVERS, YIELD, PLANT, PLANT_OPTIONAL, TURN_UP, PLACE, FILL, GAME_OVER = range(8)
# params beside the env's options (``common.env_params``): seats, bosses, solitaire, then where each action
# kind starts in the catalogue (-1: not in this variant's)
P_N, P_BOSSES, P_SOLO = 5, 6, 7
KINDS = ("PLANT", "PLANT_CARD", "HARVEST", "BUY_FIELD", "STOP_PLANTING", "DONE", "DISCARD", "TURN_UP",
         "CONTINUE", "GIVE_MAFIA", "PLACE_STACK")
(A_PLANT, A_PLANT_CARD, A_HARVEST, A_BUY, A_STOP, A_DONE, A_DISCARD, A_TURN_UP, A_CONTINUE, A_GIVE,
 A_STACK) = range(8, 8 + len(KINDS))

BLOCKS = ("decision", "actor_active", "hand", "hand_sizes", "known_hands", "fields", "coins", "face_up",
          "to_plant", "discard", "deck", "unseen", "discard_runs", "mafia")
PLACED = ("decision", "actor_active", "hand", "hand_sizes", "fields", "coins", "face_up", "discard", "deck",
          "discard_runs", "unseen", "known_hands", "mafia")


def prepare(variant: str, num_envs: int, env) -> tuple[Arrays, np.ndarray]:
    """The arrays of ``num_envs`` games and the kernels' ``params`` for the AEC env ``env``'s options."""
    n = len(env.possible_agents)
    bosses = 3 if variant == "bean_solitaire" else 2
    params = env_params(env, K_MAFIA, [n, bosses, int(n == 1)] + span_starts(env.catalogue, KINDS))
    if (env.catalogue.size != params[A_STACK] + T * (BOSS_TARGET + bosses)
            or params[A_STACK] - params[A_GIVE] != CARDS * bosses):
        raise RuntimeError(f"the array kernels do not match the action layout of {variant!r}")
    return Arrays(num_envs, CARDS, reshuffles=2 if n == 2 else 0), params


def load(arrays: Arrays, g: int, s) -> None:
    """Copy the engine state ``s`` (a mafia game) into row ``g``."""
    if s.variant not in ("al_cabohne", "bean_solitaire"):
        raise ValueError(f"not a mafia state: {s.variant!r}")
    load_common(arrays, g, s, DECISIONS)
    S, C = arrays.S[g], arrays.C[g]
    nb = len(s.btype)
    S[B_TYPE:B_TYPE + 3] = EMPTY
    S[B_TYPE:B_TYPE + nb] = s.btype
    S[B_COUNT:B_COUNT + nb] = s.bcount
    for bean in s.treasury:
        C[TREASURY, bean] += 1
    S[TREASURY_N] = len(s.treasury)


def result(arrays: Arrays, g: int, params: np.ndarray) -> tuple[list[int], list[int]]:
    """The scores and winners of the finished game ``g`` (MAF-13): solitaire scores coins - 2 x the
    treasury and wins above 0; with two players a seat wins with more coins than the mafia and the best
    (coins, hand cards) of the table."""
    S = arrays.S[g]
    if params[P_SOLO]:
        score = int(S[COIN] - 2 * S[TREASURY_N])
        return [score], [0] if score > 0 else []
    return table_result(arrays, g, int(params[P_N]), int(S[TREASURY_N]))


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
def _grower(S, g, nb, bean):
    for b in range(nb):
        if S[g, B_COUNT + b] and S[g, B_TYPE + b] == bean:
            return b
    return -1


# -- the turn (MAF-5 .. MAF-12) ------------------------------------------------------------------------------
@njit(cache=True)
def _start_turn(L, S, g, params):
    S[g, PLANTED] = 0
    S[g, ACTOR] = S[g, ACTIVE]
    if S[g, FACE] and not params[P_SOLO]:
        S[g, DECISION] = LEFTOVERS  # MAF-5
    else:
        _begin_yield(L, S, g, params)


@njit(cache=True)
def _begin_yield(L, S, g, params):
    p = S[g, ACTIVE]
    S[g, ACTOR] = p
    for f in range(S[g, NFIELDS + p]):
        i = 3 * p + f
        if S[g, F_COUNT + i] and _grower(S, g, params[P_BOSSES], S[g, F_TYPE + i]) >= 0:
            S[g, DECISION] = YIELD  # MAF-14: harvest in time to avoid a yield
            return
    _begin_plant(S, g)


@njit(cache=True)
def _begin_plant(S, g):
    S[g, ACTOR] = S[g, ACTIVE]
    S[g, DECISION] = PLANT if S[g, HAND + S[g, ACTIVE]] else TURN_UP  # MAF-7


@njit(cache=True)
def _do_yields(L, S, C, g, nb):
    """MAF-6: one card of each field whose type a boss grows, in boss order."""
    p = S[g, ACTIVE]
    for b in range(nb):
        if not S[g, B_COUNT + b]:
            continue
        bean = S[g, B_TYPE + b]
        for f in range(S[g, NFIELDS + p]):
            i = 3 * p + f
            if S[g, F_COUNT + i] and S[g, F_TYPE + i] == bean:
                S[g, F_COUNT + i] -= 1
                if not S[g, F_COUNT + i]:
                    S[g, F_TYPE + i] = EMPTY
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
def _match_discards(L, S, C, g, nb):
    """Q2: while the top discard card matches a face-up stack it joins the stack; a stack whose type a
    boss grows goes to that boss whole."""
    while S[g, DISC] and count_in(L, S, g, FACE, L[g, DISC, S[g, DISC] - 1]):
        bean = pop_at(L, S, g, DISC, S[g, DISC] - 1)
        push(L, S, g, FACE, bean)
        b = _grower(S, g, nb, bean)
        if b >= 0:
            _boss_add(L, S, C, g, b, bean, _take_face(L, S, g, bean))


@njit(cache=True)
def _turn_up(L, S, C, M, g, nb):
    """MAF-8: turn up three (Q1 with replacements, Q2 after each), then step 5."""
    counted = 0
    while counted < 3:
        card = draw(L, S, M, g)
        ending = S[g, RUNOUTS] >= S[g, LIMIT]
        if card >= 0:
            b = _grower(S, g, nb, card)
            if b >= 0:
                _boss_add(L, S, C, g, b, card, 1)
            else:
                push(L, S, g, FACE, card)
                counted += 1
            _match_discards(L, S, C, g, nb)
        if ending:
            S[g, END_PENDING] = 1
            break
    S[g, ACTOR] = S[g, ACTIVE]
    S[g, DECISION] = PLACE  # MAF-9 (A)


@njit(cache=True)
def _has_fill_gift(L, S, g, nb):
    """MAF-9 (B): whether a hand card can go onto an empty boss (of a type no boss grows)."""
    empty = False
    for b in range(nb):
        if S[g, B_COUNT + b] == 0:
            empty = True
    if not empty:
        return False
    p = S[g, ACTIVE]
    for i in range(S[g, HAND + p]):
        if _grower(S, g, nb, L[g, HAND + p, i]) < 0:
            return True
    return False


@njit(cache=True)
def _end_game(L, S, C, g, params):
    for b in range(params[P_BOSSES]):  # COM-10: the bosses harvest too
        if S[g, B_COUNT + b]:
            _boss_harvest(L, S, C, g, b)
    final_harvest(L, S, g, params[P_N])
    S[g, DECISION] = GAME_OVER


@njit(cache=True)
def _begin_fill(L, S, C, M, g, params):
    nb = params[P_BOSSES]
    if _has_fill_gift(L, S, g, nb):
        S[g, DECISION] = FILL
        return
    p = S[g, ACTIVE]
    for b in range(nb):
        if S[g, B_COUNT + b] == 0:  # MAF-9: the hand is shown (INFO-2)
            everyone = (1 << params[P_N]) - 1
            for i in range(S[g, HAND + p]):
                L[g, KNOWN + p, i] = everyone
            break
    if S[g, END_PENDING]:  # MAF-12: a step-4 run-out ends the game after step 5
        flush_face(L, S, g)
        _end_game(L, S, C, g, params)
        return
    draw_to_hand(L, S, M, g, p, 2)  # MAF-10
    if S[g, RUNOUTS] >= S[g, LIMIT]:
        _end_game(L, S, C, g, params)
        return
    if not params[P_SOLO]:
        S[g, ACTIVE] = 1 - p
    S[g, TURN] += 1
    _start_turn(L, S, g, params)


# -- legal actions (AGT-1) ------------------------------------------------------------------------------------
@njit(cache=True)
def legal(L, S, g, params, out, where):
    """The legal action indices of game ``g`` into ``out``; returns how many (``where``: scratch)."""
    d = S[g, DECISION]
    if d == GAME_OVER:
        return 0
    p = S[g, ACTOR]
    nb = params[P_BOSSES]
    width = BOSS_TARGET + nb
    k = harvestable(S, g, p, params[A_HARVEST], out, 0)  # free actions: harvest, buy the 3rd field (MAF-11)
    if not params[P_SOLO] and S[g, NFIELDS + p] < 3 and S[g, COIN + p] >= FIELD_COST:
        out[k] = params[A_BUY]
        k += 1
    if d == LEFTOVERS:  # plant a face-up card where it fits, or discard it
        for slot in range(T):
            bean = TYPE_OF[slot]
            if count_in(L, S, g, FACE, bean):
                for j in range(fits(S, g, p, bean, False, where)):
                    out[k] = params[A_PLANT_CARD] + 3 * slot + where[j]
                    k += 1
        for slot in range(T):
            if count_in(L, S, g, FACE, TYPE_OF[slot]):
                out[k] = params[A_DISCARD] + slot
                k += 1
    elif d == YIELD:
        out[k] = params[A_CONTINUE]
        k += 1
    elif d == PLANT or d == PLANT_OPTIONAL:
        k = plant_choices(L, S, g, p, False, params[A_PLANT], params[A_STOP] if d == PLANT_OPTIONAL else -1, where,
                          out, k)
    elif d == TURN_UP:
        out[k] = params[A_TURN_UP]
        k += 1
    else:  # PLACE or FILL
        empty_any = False
        for b in range(nb):
            if S[g, B_COUNT + b] == 0:
                empty_any = True
        if d == PLACE:
            for slot in range(T):  # face-up stacks, by type: onto a field, or to a boss (MAF-1)
                bean = TYPE_OF[slot]
                if not count_in(L, S, g, FACE, bean):
                    continue
                for j in range(fits(S, g, p, bean, False, where)):
                    out[k] = params[A_STACK] + slot * width + where[j]
                    k += 1
                b = _grower(S, g, nb, bean)
                for t in range(nb):
                    if t == b or (b < 0 and S[g, B_COUNT + t] == 0):
                        out[k] = params[A_STACK] + slot * width + BOSS_TARGET + t
                        k += 1
        if d == PLACE or empty_any:  # gifts: the first of equal adjacent hand cards
            prev = -1
            for i in range(S[g, HAND + p]):
                bean = L[g, HAND + p, i]
                if bean != prev:
                    b = _grower(S, g, nb, bean)
                    for t in range(nb):
                        if (d == PLACE and t == b) or (b < 0 and S[g, B_COUNT + t] == 0):
                            out[k] = params[A_GIVE] + i * nb + t
                            k += 1
                prev = bean
        if d == PLACE and not (params[P_SOLO] and S[g, FACE]):
            out[k] = params[A_DONE]  # MAF-9: solitaire ends placing only with no face-up card left
            k += 1
    return k


# -- applying ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def apply(L, S, C, M, g, params, a):
    """Apply the legal action index ``a`` (not checked) to mafia game ``g`` (MAF-5 .. MAF-12)."""
    p = S[g, ACTOR]
    d = S[g, DECISION]
    nb = params[P_BOSSES]
    width = BOSS_TARGET + nb
    if params[A_HARVEST] <= a < params[A_HARVEST] + 3:
        harvest(L, S, g, p, a - params[A_HARVEST])
    elif a == params[A_BUY]:  # MAF-11: the top coins are set aside for the next deck
        n = S[g, COIN + p]
        for i in range(n - FIELD_COST, n):
            push(L, S, g, ASIDE, L[g, COIN + p, i])
        S[g, COIN + p] = n - FIELD_COST
        S[g, NFIELDS + p] = 3
    elif d == LEFTOVERS:
        if a >= params[A_DISCARD]:
            bean = TYPE_OF[a - params[A_DISCARD]]
            remove_first(L, S, g, FACE, bean)
            push(L, S, g, DISC, bean)
        else:
            bean = TYPE_OF[(a - params[A_PLANT_CARD]) // 3]
            f = (a - params[A_PLANT_CARD]) % 3
            remove_first(L, S, g, FACE, bean)
            S[g, F_TYPE + 3 * p + f] = bean
            S[g, F_COUNT + 3 * p + f] += 1
        if not S[g, FACE]:
            _begin_yield(L, S, g, params)
    elif d == YIELD:
        _do_yields(L, S, C, g, nb)
        _begin_plant(S, g)
    elif d == PLANT or d == PLANT_OPTIONAL:
        if a == params[A_STOP]:
            _turn_up(L, S, C, M, g, nb)
            return
        i = 3 * p + a - params[A_PLANT]
        S[g, F_TYPE + i] = hand_pop(L, S, g, p, 0)
        S[g, F_COUNT + i] += 1
        S[g, PLANTED] += 1
        S[g, DECISION] = PLANT_OPTIONAL if (S[g, HAND + p] > 0 and S[g, PLANTED] < 2) else TURN_UP
    elif d == TURN_UP:
        _turn_up(L, S, C, M, g, nb)
    elif d == PLACE and a == params[A_DONE]:
        _begin_fill(L, S, C, M, g, params)
    elif d == PLACE and a >= params[A_STACK]:
        bean = TYPE_OF[(a - params[A_STACK]) // width]
        target = (a - params[A_STACK]) % width
        n = _take_face(L, S, g, bean)
        if target < BOSS_TARGET:
            S[g, F_TYPE + 3 * p + target] = bean
            S[g, F_COUNT + 3 * p + target] += n
        else:
            _boss_add(L, S, C, g, target - BOSS_TARGET, bean, n)
    else:  # a gift (PLACE or FILL)
        i = (a - params[A_GIVE]) // nb
        _boss_add(L, S, C, g, (a - params[A_GIVE]) % nb, hand_pop(L, S, g, p, i), 1)
        if d == FILL:
            _begin_fill(L, S, C, M, g, params)


@njit(cache=True)
def pay(S, g, params, bonus, rewards):
    """Add what game ``g`` pays now to ``rewards[g]``: the score earned since the last payment (``dense``)
    and, once over, the result (MAF-13)."""
    mode = params[P_MODE]
    n = params[P_N]
    mafia = S[g, TREASURY_N]
    for p in range(n):
        score = S[g, COIN + p] - (2 * mafia if params[P_SOLO] else 0)
        if mode == R_DENSE:
            rewards[g, p] += float(score - S[g, PAID + p])
            S[g, PAID + p] = score
        if not S[g, OVER]:
            continue
        if params[P_SOLO]:
            win = 1.0 if score > 0 else (0.0 if score == 0 else -1.0)
            margin = float(score)
        else:
            win = pair_win(S, g, p, mafia)  # the mafia, or the other seat, may rank best
            margin = float(score - max(mafia, S[g, COIN + 1 - p]))
        rewards[g, p] += result_reward(mode, score, win, margin, bonus)


@njit(cache=True)
def write_obs(L, S, C, g, params, seat, row, starts):
    """Seat ``seat``'s raw observation of game ``g`` into ``row``: the common blocks, then ``mafia`` (each
    boss's field, the treasury, the hand cards planted this turn)."""
    begin_row(L, S, g, seat, params[P_N], T, TSLOT, row, starts, HAND_K, KNOWN_K)
    at = starts[12]
    for b in range(params[P_BOSSES]):
        c = S[g, B_COUNT + b]
        if c:
            bean = S[g, B_TYPE + b]
            row[at + TSLOT[bean]] = 1.0
            row[at + T] = c
            row[at + T + 1] = COIN_TABLE[bean, c]
        at += T + 2
    row[at] = S[g, TREASURY_N]
    row[at + 1] = S[g, PLANTED]
