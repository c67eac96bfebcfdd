"""`bohnanza` (BASE-*, TRADE-*, 3-7 players) as array kernels over N games.

The rules of ``engine.bohnanza.BohnanzaRules`` and its offer/response protocol (``engine.trading``), the
legal mask of ``ActionCatalogue`` and the observation of ``ObservationEncoder`` with the negotiation
``Memory``, on the arrays of ``kernels.common``: every edition, player count and trading option, offers
composed card by card or made whole (``offer_actions="macro"``, as the ``learning`` preset makes them). A
new game's set-up is the engine's (``load``); golden tests hold both to the same games, masks,
observations and rewards.

Terms: *A* is the active player; an *offer* (proposer, addressee, given hand positions ``O_HAND``, given
trade-area types ``O_TRADE``, wanted types ``O_WANT``) is being built (``compose``) or answered while
``O_PROP`` holds a seat. *Offer key*: an offer packed into ``KEY`` words (addressee, the given positions as
bits, the given and wanted types as counts), the form in which ``X[g, seat]`` keeps the offers each seat
made since the last trade (TRADE-7: none may be repeated). *Side*: one side of a whole offer, a multiset of
at most ``max_offer_cards`` deck types, numbered as the catalogue orders them (by size, then by types).
*Memory*: the public history of this turn's offers the ``negotiation`` block reads (``envs.obs.memory``):
its last ``OFFERS_KEPT`` records in a ring, per seat the offers made, ended without a trade and executed,
and the wanted types of its last acceptance.
"""
from __future__ import annotations

from itertools import combinations_with_replacement

import numpy as np

from ...cards import NUM_TYPES
from ...engine.actions import ALL
from ...engine.catalogue import offer_shapes
from ...engine.config import MACRO_MAX_CARDS
from ...engine.game import new_game
from ...engine.state import EMPTY
from ...envs.obs.memory import CANCELLED, DECLINED, EXECUTED, OFFERS_KEPT, OPEN
from ..._numba import njit
from .common import (ACTIVE, ACTOR, COIN, COLUMNS, DECISION, DECK, DISC, END_PENDING, FACE, F_COUNT, F_TYPE, HAND,
                     HAND_K, KNOWN, KNOWN_K, K_BOHNANZA, LIMIT, LISTS, MAX_LISTS, NFIELDS, OVER, PAID, PLANTED,
                     P_DUPLICATES, P_MODE, RUNOUTS, R_DENSE, SEATS, TO_PLANT, TURN, Arrays, begin_row, count_in, draw,
                     draw_to_hand, env_params, final_harvest, fits, hand_pop, harvest, harvestable, in_list,
                     load_common, plant_choices, pop_at, push, remove_first, result_reward, span_starts, table_result,
                     type_slots, w_counts)

DECISIONS = ("plant", "plant_optional", "harvest_window", "offer", "compose", "respond", "pick", "choose_give",
             "plant_traded", "game_over")
(PLANT, PLANT_OPTIONAL, HARVEST_WINDOW, OFFER, COMPOSE, RESPOND, PICK, CHOOSE_GIVE, PLANT_TRADED,
 GAME_OVER) = range(10)
WINDOW_TURN_UP, WINDOW_DRAW = 0, 1  # what follows a harvest window (BASE-9)

# list rows after the common ones
O_HAND, O_TRADE, O_WANT, O_PENDING, O_ACCEPT, X_WANT, X_HAND, X_TRADE, WINDOW = range(LISTS, LISTS + 9)
B_LISTS = LISTS + 9
assert B_LISTS <= MAX_LISTS  # the list lengths' columns come before the scalars
# columns after the common ones; + seat for MADE_N and the memory's counts, + record for the ring
(T_ROUND, T_SLOT, T_ANY, O_PROP, O_TO, X_PARTNER, PT, WINDOW_NEXT, MEM_TURN, N_OFFERS) = range(COLUMNS, COLUMNS + 10)
MADE_N = COLUMNS + 10
MEM_MADE, MEM_DECLINED, MEM_EXECUTED = (MADE_N + SEATS * k for k in range(1, 4))
REC_PROP = MADE_N + 4 * SEATS
REC_TO, REC_ACCEPTORS, REC_LAST, REC_OUTCOME, REC_PARTNER = (REC_PROP + OFFERS_KEPT * k for k in range(1, 6))
B_COLUMNS = REC_PROP + 6 * OFFERS_KEPT
# count rows after the mafia's two: the wanted types each seat revealed, each record's given and wanted types
REVEALED = 2
REC_GIVE = REVEALED + SEATS
REC_WANT = REC_GIVE + OFFERS_KEPT
B_COUNTS = REC_WANT + OFFERS_KEPT
KEY = 7  # offer key words: addressee, given positions (3 x 64 bits), given trade-area types, wanted types (2)
MADE_ROOM = 8  # offer keys each seat has room for at first (``reserve`` makes more when they fill up)

# params beside the env's options (``common.env_params``), then where each action kind starts (-1: none)
(P_N, P_T, P_CAP, P_MACRO, P_ACTIVE_ONLY, P_ROUNDS, P_DRAW, P_FIELD_COST, P_CAN_BUY, P_SIDES) = range(5, 15)
KINDS = ("PLANT", "PLANT_CARD", "HARVEST", "BUY_FIELD", "STOP_PLANTING", "DONE", "PASS", "END_TRADING", "KEEP",
         "OFFER", "GIVE_HAND", "GIVE_TRADE", "WANT", "SUBMIT", "CANCEL", "ACCEPT", "DECLINE", "PICK", "OFFER_CARDS")
(A_PLANT, A_PLANT_CARD, A_HARVEST, A_BUY, A_STOP, A_DONE, A_PASS, A_END, A_KEEP, A_OFFER, A_GIVE_HAND,
 A_GIVE_TRADE, A_WANT, A_SUBMIT, A_CANCEL, A_ACCEPT, A_DECLINE, A_PICK, A_OFFER_CARDS) = range(15, 15 + len(KINDS))
P_TYPE_OF = 15 + len(KINDS)          # + slot: the deck's types in slot order
P_TSLOT = P_TYPE_OF + NUM_TYPES      # + type code: its slot (-1: not in the deck)
SLOTS = NUM_TYPES + 1                # side codes: (first slot + 1) * SLOTS + (second slot + 1), -1 = none
P_SIDE_OF = P_TSLOT + NUM_TYPES      # + side code: the side's number
P_SIDE_SLOTS = P_SIDE_OF + SLOTS * SLOTS  # + 2 side: its two slots (-1 = none), ascending but -1 last

BLOCKS = ("decision", "actor_active", "hand", "hand_sizes", "known_hands", "fields", "coins", "face_up",
          "to_plant", "discard", "deck", "unseen", "trade_state", "offer", "negotiation")
PLACED = ("decision", "actor_active", "hand", "hand_sizes", "fields", "coins", "face_up", "discard", "deck",
          "discard_runs", "unseen", "known_hands", "to_plant", "trade_state", "offer", "negotiation")


def prepare(variant: str, num_envs: int, env) -> tuple[Arrays, np.ndarray]:
    """The arrays of ``num_envs`` games and the kernels' ``params`` for the AEC env ``env``'s options."""
    rules = new_game(variant, seed=0, **env.config).rules
    n = rules.n
    composition = rules.composition()
    type_of, tslot = type_slots(composition)
    cap = -1 if rules.offer_cap is None else rules.offer_cap
    t = len(type_of)
    sides = [ms for k in range(cap + 1) for ms in combinations_with_replacement(range(t), k)] if rules.macro else []
    extra = [n, t, cap, int(rules.macro), int(rules.active_only), rules.max_rounds, rules.draw_count,
             rules.field_cost, int(not rules.third_at_start), len(sides)]
    starts = span_starts(env.catalogue, KINDS)
    shapes = n * (len(sides) ** 2 - 1) if rules.macro else 0
    if (-1 in starts[:-1] or starts[KINDS.index("PICK")] + n - 1 + shapes != env.catalogue.size
            or (starts[-1] >= 0) != rules.macro or (rules.macro and len(offer_shapes(rules)) * n != shapes)
            or starts[KINDS.index("GIVE_TRADE")] - starts[KINDS.index("GIVE_HAND")] != sum(composition.values())):
        raise RuntimeError(f"the array kernels do not match the action layout of {variant!r}")
    side_of = [-1] * (SLOTS * SLOTS)
    side_slots = [-1] * (2 * SLOTS * SLOTS)  # more than the sides of MACRO_MAX_CARDS cards
    for k, side in enumerate(sides):
        first, second = (tuple(side) + (-1, -1))[:2]
        side_of[(first + 1) * SLOTS + second + 1] = k
        side_slots[2 * k:2 * k + 2] = [first, second]
    params = env_params(env, K_BOHNANZA, extra + starts + list(type_of) + [0] * (NUM_TYPES - t) + list(tslot)
                        + side_of + side_slots)
    cards = sum(composition.values())
    arrays = Arrays(num_envs, cards, reshuffles=rules.limit - 1, lists=B_LISTS, columns=B_COLUMNS, counts=B_COUNTS,
                    extra=(n, min(max(rules.max_rounds, 1), MADE_ROOM), KEY))
    return arrays, params


def reserve(arrays: Arrays, seats: int, need: int = 0) -> None:
    """Room in ``X`` for one more offer key of every seat of every game (a step makes at most one offer;
    forced moves never do), and for ``need`` keys a seat: more room for trading rounds that go on long."""
    need = max(need, int(arrays.S[:, MADE_N:MADE_N + seats].max()) + 1)
    room = arrays.X.shape[2]
    if need > room:
        grown = np.zeros(arrays.X.shape[:2] + (max(need, 2 * room), KEY), np.int64)
        grown[:, :, :room] = arrays.X
        arrays.X = grown


def _key_words(to: int, positions, trade, want) -> list[int]:
    """An engine offer key (``engine.trading._offer_key``) as the kernels' ``KEY`` words (``_offer_key``)."""
    words = [to, 0, 0, 0, 0, 0, 0]
    for i in positions:
        words[1 + i // 64] |= 1 << (i % 64)
    for bean in trade:
        words[4] += 1 << (4 * bean)
    for bean in want:
        words[5 + bean // 8] += 1 << (8 * (bean % 8))
    return [w - (1 << 64) if w >= 1 << 63 else w for w in words]


def load(arrays: Arrays, g: int, s) -> None:
    """Copy the engine state ``s`` (a `bohnanza` game) into row ``g``, with a memory that knows no offers
    of this turn (as ``Memory.reset``)."""
    if s.variant != "bohnanza":
        raise ValueError(f"not a bohnanza state: {s.variant!r}")
    load_common(arrays, g, s, DECISIONS)
    reserve(arrays, s.n, max(map(len, s.made)) + 1)
    L, S, C, X = arrays.L[g], arrays.S[g], arrays.C[g], arrays.X[g]
    lists = [(O_HAND, s.o_hand), (O_TRADE, s.o_trade), (O_WANT, s.o_want), (O_PENDING, s.o_pending),
             (O_ACCEPT, s.o_accept), (X_WANT, s.x_want), (X_HAND, s.x_hand), (X_TRADE, s.x_trade),
             (WINDOW, s.window)]
    for k, values in lists:
        S[k] = len(values)
        L[k, :len(values)] = values
    S[T_ROUND], S[T_SLOT], S[T_ANY] = s.t_round, s.t_slot, int(s.t_any)
    S[O_PROP], S[O_TO], S[X_PARTNER], S[PT] = s.o_prop, s.o_to, s.x_partner, s.pt
    S[WINDOW_NEXT] = WINDOW_DRAW if s.window_next == "draw" else WINDOW_TURN_UP
    S[MEM_TURN] = s.turn
    for p in range(s.n):
        S[MADE_N + p] = len(s.made[p])
        for j, (to, positions, trade, want) in enumerate(s.made[p]):
            X[p, j] = _key_words(to, positions, trade, want)
    C[REVEALED:] = 0


def result(arrays: Arrays, g: int, params: np.ndarray) -> tuple[list[int], list[int]]:
    """The scores (coins) and winners of the finished game ``g``: most coins, then most hand cards
    (BASE-11)."""
    return table_result(arrays, g, int(params[P_N]))


# -- small pieces --------------------------------------------------------------------------------------------
@njit(cache=True)
def _first_equivalent(L, S, g, hand, i, given):
    """Whether giving card ``i`` of list ``hand`` beside the positions in list ``given`` is the canonical
    choice among equivalent cards (``engine.trading._first_equivalent``)."""
    k = i - 1
    while k >= 0 and in_list(L, S, g, given, k):
        k -= 1
    return k < 0 or L[g, hand, k] != L[g, hand, i]


@njit(cache=True)
def _extend(L, S, g, dst, src):
    for i in range(S[g, src]):
        push(L, S, g, dst, L[g, src, i])


@njit(cache=True)
def _made_any(S, g, n):
    for p in range(n):
        if S[g, MADE_N + p]:
            return True
    return False


@njit(cache=True)
def _clear_made(S, g, n):
    for p in range(n):
        S[g, MADE_N + p] = 0


@njit(cache=True)
def _offer_key(L, S, g, key):
    """The key of the offer in ``O_*`` (``engine.trading._offer_key``) into ``key``."""
    key[:] = 0
    key[0] = S[g, O_TO]
    for j in range(S[g, O_HAND]):
        i = L[g, O_HAND, j]
        key[1 + i // 64] |= np.int64(1) << (i % 64)
    for j in range(S[g, O_TRADE]):
        key[4] += np.int64(1) << (4 * L[g, O_TRADE, j])
    for j in range(S[g, O_WANT]):
        bean = L[g, O_WANT, j]
        key[5 + bean // 8] += np.int64(1) << (8 * (bean % 8))


@njit(cache=True)
def _was_made(S, X, g, p, key):
    for j in range(S[g, MADE_N + p]):
        same = True
        for w in range(KEY):
            if X[g, p, j, w] != key[w]:
                same = False
                break
        if same:
            return True
    return False


# -- the turn (BASE-4 .. BASE-10) and the trade phase's frame (TRADE-3, TRADE-6) -----------------------------
# The automatic steps between decisions, as a loop over step codes rather than functions calling each other:
# numba cannot cache mutually recursive functions. Each step does its part and returns the next one.
(DONE, START_TURN, BEGIN_TURN_UP, TURN_UP, BEGIN_TRADING, NEXT_SLOT, STOP_TRADING, END_TRADING, NEXT_PLANTER,
 DRAW_PHASE) = range(10)


@njit(cache=True)
def _flow(L, S, M, g, params, go):
    """Run the automatic steps from step ``go`` up to the next decision or the end of the game."""
    while go != DONE:
        if go == START_TURN:
            go = _start_turn(S, g, params)
        elif go == BEGIN_TURN_UP:
            go = _begin_turn_up(L, S, g, params)
        elif go == TURN_UP:
            go = _turn_up(L, S, M, g)
        elif go == BEGIN_TRADING:
            go = _begin_trading(S, g, params)
        elif go == NEXT_SLOT:
            go = _next_slot(S, g, params)
        elif go == STOP_TRADING:
            go = _stop_trading(S, g)
        elif go == END_TRADING:
            go = _end_trading_phase(L, S, g)
        elif go == NEXT_PLANTER:
            go = _next_planter(L, S, g, params)
        else:
            go = _draw_phase(L, S, M, g, params)


@njit(cache=True)
def _start_turn(S, g, params):
    S[g, PLANTED] = 0
    _clear_made(S, g, params[P_N])
    if S[g, HAND + S[g, ACTIVE]]:
        S[g, DECISION] = PLANT
        S[g, ACTOR] = S[g, ACTIVE]
        return DONE
    return BEGIN_TURN_UP


@njit(cache=True)
def _end_game(L, S, g, n):
    final_harvest(L, S, g, n)
    S[g, DECISION] = GAME_OVER


@njit(cache=True)
def _needs_window(S, g, need):
    """BASE-9: the next draw takes the deck's last card and that run-out won't end the game."""
    return S[g, DECK] <= need and S[g, RUNOUTS] + 1 < S[g, LIMIT]


@njit(cache=True)
def _open_window(L, S, g, n, then):
    S[g, WINDOW] = 0
    for k in range(n):
        push(L, S, g, WINDOW, (S[g, ACTIVE] + k) % n)
    S[g, WINDOW_NEXT] = then
    S[g, DECISION] = HARVEST_WINDOW
    S[g, ACTOR] = L[g, WINDOW, 0]


@njit(cache=True)
def _begin_turn_up(L, S, g, params):
    if _needs_window(S, g, 2):
        _open_window(L, S, g, params[P_N], WINDOW_TURN_UP)
        return DONE
    return TURN_UP


@njit(cache=True)
def _turn_up(L, S, M, g):
    """BASE-6: turn up two cards one at a time (COM-9), then trade."""
    for _ in range(2):
        if S[g, RUNOUTS] >= S[g, LIMIT]:
            break
        card = draw(L, S, M, g)
        if card < 0:
            break
        push(L, S, g, FACE, card)
    if S[g, RUNOUTS] >= S[g, LIMIT]:
        S[g, END_PENDING] = 1
    return BEGIN_TRADING


@njit(cache=True)
def _next_planter(L, S, g, params):
    """BASE-7: seats plant their cards to plant clockwise from A; then the end, a window or the draw."""
    n = params[P_N]
    while S[g, PT] < n:
        p = (S[g, ACTIVE] + S[g, PT]) % n
        if S[g, TO_PLANT + p]:
            S[g, DECISION] = PLANT_TRADED
            S[g, ACTOR] = p
            return DONE
        S[g, PT] += 1
    if S[g, END_PENDING]:
        _end_game(L, S, g, n)
        return DONE
    if _needs_window(S, g, params[P_DRAW]):
        _open_window(L, S, g, n, WINDOW_DRAW)
        return DONE
    return DRAW_PHASE


@njit(cache=True)
def _draw_phase(L, S, M, g, params):
    """BASE-8 / BASE-10: draw; a game-end run-out here ends the game at once."""
    n = params[P_N]
    draw_to_hand(L, S, M, g, S[g, ACTIVE], params[P_DRAW])
    if S[g, RUNOUTS] >= S[g, LIMIT]:
        _end_game(L, S, g, n)
        return DONE
    S[g, ACTIVE] = (S[g, ACTIVE] + 1) % n
    S[g, TURN] += 1
    return START_TURN


@njit(cache=True)
def _begin_trading(S, g, params):
    if params[P_ROUNDS] == 0:
        return END_TRADING
    S[g, T_ROUND] = 1
    S[g, T_SLOT] = 0
    S[g, T_ANY] = 0
    _clear_made(S, g, params[P_N])
    S[g, DECISION] = OFFER
    S[g, ACTOR] = S[g, ACTIVE]
    return DONE


@njit(cache=True)
def _end_trading_phase(L, S, g):
    """BASE-6: the trade area's cards go to A's cards to plant; then they are planted."""
    _extend(L, S, g, TO_PLANT + S[g, ACTIVE], FACE)
    S[g, FACE] = 0
    S[g, PT] = 0
    return NEXT_PLANTER


@njit(cache=True)
def _clear_offer(S, g):
    S[g, O_PROP] = EMPTY
    S[g, O_TO] = EMPTY
    S[g, X_PARTNER] = EMPTY
    for k in range(O_HAND, WINDOW):
        S[g, k] = 0


@njit(cache=True)
def _stop_trading(S, g):
    _clear_offer(S, g)
    S[g, T_ROUND] = 0
    S[g, T_SLOT] = 0
    S[g, T_ANY] = 0
    return END_TRADING


@njit(cache=True)
def _next_slot(S, g, params):
    """TRADE-3 / TRADE-6: the next seat's slot, the next round, or the end of trading."""
    n = params[P_N]
    _clear_offer(S, g)
    S[g, T_SLOT] = n if params[P_ACTIVE_ONLY] else S[g, T_SLOT] + 1
    if S[g, T_SLOT] == n:
        if not S[g, T_ANY] or S[g, T_ROUND] >= params[P_ROUNDS]:
            return STOP_TRADING
        S[g, T_ROUND] += 1
        S[g, T_SLOT] = 0
        S[g, T_ANY] = 0
    S[g, DECISION] = OFFER
    S[g, ACTOR] = (S[g, ACTIVE] + S[g, T_SLOT]) % n
    return DONE


@njit(cache=True)
def _tradable(S, g, p):
    return S[g, HAND + p] + (S[g, FACE] if p == S[g, ACTIVE] else 0)


@njit(cache=True)
def _want_cap(S, g, params):
    """TRADE-2: at most as many wanted cards as the (largest) addressee has tradable cards."""
    a, n = S[g, ACTIVE], params[P_N]
    if S[g, O_PROP] != a:
        cap = S[g, HAND + a] + S[g, FACE]
    elif S[g, O_TO] == ALL:
        cap = 0
        for q in range(n):
            if q != a and S[g, HAND + q] > cap:
                cap = S[g, HAND + q]
    else:
        cap = S[g, HAND + S[g, O_TO]]
    limit = params[P_CAP]
    return cap if limit < 0 or cap < limit else limit


@njit(cache=True)
def _can_accept(L, S, g, params, q):
    """TRADE-4: whether ``q``'s tradable cards hold the wanted types."""
    face = q == S[g, ACTIVE]
    for slot in range(params[P_T]):
        bean = params[P_TYPE_OF + slot]
        need = count_in(L, S, g, O_WANT, bean)
        if need and count_in(L, S, g, HAND + q, bean) + (count_in(L, S, g, FACE, bean) if face else 0) < need:
            return False
    return True


@njit(cache=True)
def _keeps(L, S, g, params, out, k):
    """KEEP for each trade-area type not tied up in A's offer being answered (TRADE-3)."""
    held = S[g, O_PROP] == S[g, ACTIVE]
    for slot in range(params[P_T]):
        bean = params[P_TYPE_OF + slot]
        c = count_in(L, S, g, FACE, bean)
        if c and c > (count_in(L, S, g, O_TRADE, bean) if held else 0):
            out[k] = params[A_KEEP] + slot
            k += 1
    return k


@njit(cache=True)
def _free(S, g, params, p, out, k):
    """The free actions of seat ``p`` (COM-6 harvests, BASE-2 the 3rd field) appended from ``k``."""
    k = harvestable(S, g, p, params[A_HARVEST], out, k)
    if params[P_CAN_BUY] and S[g, NFIELDS + p] < 3 and S[g, COIN + p] >= params[P_FIELD_COST]:
        out[k] = params[A_BUY]
        k += 1
    return k


@njit(cache=True)
def _give_choices(L, S, g, params, out, k):
    """Distinct cards the giver could hand over for the next wanted type (TRADE-5), appended from ``k``."""
    q, bean = S[g, X_PARTNER], L[g, X_WANT, 0]
    hand = HAND + q
    for i in range(S[g, hand]):
        if L[g, hand, i] == bean and not in_list(L, S, g, X_HAND, i) and _first_equivalent(L, S, g, hand, i, X_HAND):
            out[k] = params[A_GIVE_HAND] + i
            k += 1
    if q == S[g, ACTIVE] and count_in(L, S, g, FACE, bean) > count_in(L, S, g, X_TRADE, bean):
        out[k] = params[A_GIVE_TRADE] + params[P_TSLOT + bean]
        k += 1
    return k


@njit(cache=True)
def _compose_legal(L, S, X, g, params, out):
    p, a = S[g, O_PROP], S[g, ACTIVE]
    nh, nt, nw = S[g, O_HAND], S[g, O_TRADE], S[g, O_WANT]
    cap = params[P_CAP]
    k = 0
    room = cap < 0 or nh + nt < cap
    if room and nt == 0 and nw == 0:
        hand = HAND + p
        size = S[g, hand]
        i = L[g, O_HAND, nh - 1] + 1 if nh else 0
        if i < size:
            if _first_equivalent(L, S, g, hand, i, O_HAND):
                out[k] = params[A_GIVE_HAND] + i
                k += 1
            for j in range(i + 1, size):
                if L[g, hand, j] != L[g, hand, j - 1]:
                    out[k] = params[A_GIVE_HAND] + j
                    k += 1
    if room and nw == 0 and p == a and S[g, FACE]:
        low = L[g, O_TRADE, nt - 1] if nt else -1
        for slot in range(params[P_T]):
            bean = params[P_TYPE_OF + slot]
            if bean >= low and count_in(L, S, g, FACE, bean) > count_in(L, S, g, O_TRADE, bean):
                out[k] = params[A_GIVE_TRADE] + slot
                k += 1
    if nw < _want_cap(S, g, params):
        low = L[g, O_WANT, nw - 1] if nw else -1
        for slot in range(params[P_T]):
            if params[P_TYPE_OF + slot] >= low:
                out[k] = params[A_WANT] + slot
                k += 1
    if nh or nt or nw:
        repeat = False  # TRADE-7: an identical repeat cannot be submitted
        if S[g, MADE_N + p]:
            key = np.empty(KEY, np.int64)
            _offer_key(L, S, g, key)
            repeat = _was_made(S, X, g, p, key)
        if not repeat:
            out[k] = params[A_SUBMIT]
            k += 1
    out[k] = params[A_CANCEL]
    return k + 1


@njit(cache=True)
def _side_size(params, side):
    return (params[P_SIDE_SLOTS + 2 * side] >= 0) + (params[P_SIDE_SLOTS + 2 * side + 1] >= 0)


@njit(cache=True)
def _side_of_counts(params, counts):
    """The number of the side holding ``counts[slot]`` cards of each slot (-1: more than two cards)."""
    first, second = -1, -1
    for slot in range(params[P_T]):
        for _ in range(counts[slot]):
            if first < 0:
                first = slot
            elif second < 0:
                second = slot
            else:
                return -1
    return params[P_SIDE_OF + (first + 1) * SLOTS + second + 1]


@njit(cache=True)
def _macro_cards(L, S, g, params, p, side, hand_out, trade_out):
    """``engine.trading.macro_cards``: the given types of ``side`` as trade-area cards first (A only), then
    the frontmost hand cards of each type, onto lists ``hand_out`` (ascending) and ``trade_out``; False if
    the cards are not all there."""
    for j in range(2):
        slot = params[P_SIDE_SLOTS + 2 * side + j]
        if slot < 0:
            break
        bean = params[P_TYPE_OF + slot]
        if p == S[g, ACTIVE] and count_in(L, S, g, FACE, bean) > count_in(L, S, g, trade_out, bean):
            push(L, S, g, trade_out, bean)
            continue
        hand, found = HAND + p, False
        for i in range(S[g, hand]):
            if L[g, hand, i] == bean and not in_list(L, S, g, hand_out, i):
                push(L, S, g, hand_out, i)
                found = True
                break
        if not found:
            return False
    m = S[g, hand_out]
    if m == 2 and L[g, hand_out, 0] > L[g, hand_out, 1]:
        L[g, hand_out, 0], L[g, hand_out, 1] = L[g, hand_out, 1], L[g, hand_out, 0]
    return True


@njit(cache=True)
def _blocked_macro(L, S, X, g, params, p, j):
    """TRADE-7: the action index of the whole offer that stands for seat ``p``'s ``j``-th offer made since
    the last trade, if it still does (``engine.trading._blocked_macros``); else -1."""
    n, t = params[P_N], params[P_T]
    give = np.zeros(t, np.int64)
    want = np.zeros(t, np.int64)
    for i in range(S[g, HAND + p]):
        if X[g, p, j, 1 + i // 64] & (np.int64(1) << (i % 64)):
            give[params[P_TSLOT + L[g, HAND + p, i]]] += 1
    for slot in range(t):
        bean = params[P_TYPE_OF + slot]
        give[slot] += (X[g, p, j, 4] >> (4 * bean)) & 15
        want[slot] = (X[g, p, j, 5 + bean // 8] >> (8 * (bean % 8))) & 255
    gi, wi = _side_of_counts(params, give), _side_of_counts(params, want)
    S[g, O_HAND] = 0  # scratch: no offer is open at an offer decision
    S[g, O_TRADE] = 0
    if gi < 0 or wi < 0 or not _macro_cards(L, S, g, params, p, gi, O_HAND, O_TRADE):
        S[g, O_HAND] = 0
        S[g, O_TRADE] = 0
        return -1
    now = np.empty(KEY, np.int64)
    S[g, O_WANT] = 0
    for slot in range(t):
        for _ in range(want[slot]):
            push(L, S, g, O_WANT, params[P_TYPE_OF + slot])
    to = X[g, p, j, 0]
    S[g, O_TO] = to
    _offer_key(L, S, g, now)
    S[g, O_TO] = EMPTY
    for k in range(O_HAND, O_WANT + 1):
        S[g, k] = 0
    for w in range(KEY):
        if now[w] != X[g, p, j, w]:
            return -1
    ns = params[P_SIDES]
    offset = n if to == ALL else (to - p) % n
    return params[A_OFFER_CARDS] + (offset - 1) * (ns * ns - 1) + gi * ns + wi - 1


@njit(cache=True)
def _macro_offers(L, S, X, g, params, p, out, k):
    """One ``OFFER_CARDS`` index per distinct whole offer of ``p`` within ``max_offer_cards`` to each seat
    it may offer to, appended from ``k`` (``engine.trading._macro_offers``)."""
    n, t, a, ns, cap = params[P_N], params[P_T], S[g, ACTIVE], params[P_SIDES], params[P_CAP]
    have = np.zeros(t, np.int64)
    for slot in range(t):
        bean = params[P_TYPE_OF + slot]
        have[slot] = count_in(L, S, g, HAND + p, bean) + (count_in(L, S, g, FACE, bean) if p == a else 0)
    start = k
    mine = _tradable(S, g, p)
    for j in range(1, n + 1):  # seat offsets, then n = all
        if p != a:
            if j != (a - p) % n or not (S[g, HAND + p] or _tradable(S, g, a)):
                continue
            room = _tradable(S, g, a)
        elif j < n:
            room = S[g, HAND + (p + j) % n]
            if not (mine or room):
                continue
        else:
            room = 0
            for q in range(n):
                if q != p and S[g, HAND + q] > room:
                    room = S[g, HAND + q]
            if not (mine or room):
                continue
        room = min(room, cap)
        base = params[A_OFFER_CARDS] + (j - 1) * (ns * ns - 1)
        for gi in range(ns):
            first, second = params[P_SIDE_SLOTS + 2 * gi], params[P_SIDE_SLOTS + 2 * gi + 1]
            if first >= 0 and have[first] < 1 + (second == first):
                continue
            if second >= 0 and have[second] < 1:
                continue
            for wi in range(ns):
                if (gi or wi) and _side_size(params, wi) <= room:
                    out[k] = base + gi * ns + wi - 1
                    k += 1
    for j in range(S[g, MADE_N + p]):
        b = _blocked_macro(L, S, X, g, params, p, j)
        if b >= 0:
            for i in range(start, k):
                if out[i] == b:
                    out[i] = out[k - 1]
                    k -= 1
                    break
    return k


@njit(cache=True)
def legal(L, S, X, g, params, out, where):
    """The legal action indices of game ``g`` into ``out``; returns how many (``where``: scratch)."""
    d = S[g, DECISION]
    if d == GAME_OVER:
        return 0
    p, a, n = S[g, ACTOR], S[g, ACTIVE], params[P_N]
    duplicates = params[P_DUPLICATES]
    if d == COMPOSE:
        return _compose_legal(L, S, X, g, params, out)
    if d == CHOOSE_GIVE:
        return _give_choices(L, S, g, params, out, 0)
    k = _free(S, g, params, p, out, 0)
    if d == PLANT or d == PLANT_OPTIONAL:
        k = plant_choices(L, S, g, p, duplicates, params[A_PLANT], params[A_STOP] if d == PLANT_OPTIONAL else -1,
                          where, out, k)
    elif d == PLANT_TRADED:
        for slot in range(params[P_T]):
            bean = params[P_TYPE_OF + slot]
            if count_in(L, S, g, TO_PLANT + p, bean):
                for j in range(fits(S, g, p, bean, duplicates, where)):
                    out[k] = params[A_PLANT_CARD] + 3 * slot + where[j]
                    k += 1
    elif d == HARVEST_WINDOW:
        out[k] = params[A_DONE]
        k += 1
    elif d == OFFER:
        if params[P_MACRO]:
            k = _macro_offers(L, S, X, g, params, p, out, k)
        elif p != a:
            if S[g, HAND + p] or _tradable(S, g, a):
                out[k] = params[A_OFFER] + (a - p) % n - 1
                k += 1
        else:
            mine = _tradable(S, g, p)
            others = False
            for j in range(1, n):
                q = (p + j) % n
                if S[g, HAND + q]:
                    others = True
                if mine or S[g, HAND + q]:
                    out[k] = params[A_OFFER] + j - 1
                    k += 1
            if mine or others:
                out[k] = params[A_OFFER] + n - 1
                k += 1
        if not params[P_ACTIVE_ONLY]:
            out[k] = params[A_PASS]
            k += 1
        if p == a:
            out[k] = params[A_END]
            k = _keeps(L, S, g, params, out, k + 1)
    elif d == RESPOND:
        if _can_accept(L, S, g, params, p):
            out[k] = params[A_ACCEPT]
            k += 1
        out[k] = params[A_DECLINE]
        k += 1
        if p == a:
            out[k] = params[A_END]
            k = _keeps(L, S, g, params, out, k + 1)
    else:  # PICK
        for j in range(S[g, O_ACCEPT]):
            out[k] = params[A_PICK] + (L[g, O_ACCEPT, j] - a) % n - 1
            k += 1
        out[k] = params[A_CANCEL]
        out[k + 1] = params[A_END]
        k = _keeps(L, S, g, params, out, k + 2)
    return k


# -- applying ---------------------------------------------------------------------------------------------------
@njit(cache=True)
def _submit(L, S, X, g, params):
    """The offer in ``O_*`` is made: remembered (TRADE-7), its hand cards shown to everyone, and its
    addressees answer next (TRADE-4)."""
    p, a, n = S[g, O_PROP], S[g, ACTIVE], params[P_N]
    key = np.empty(KEY, np.int64)
    _offer_key(L, S, g, key)
    X[g, p, S[g, MADE_N + p]] = key
    S[g, MADE_N + p] += 1
    S[g, T_ANY] = 1
    everyone = (1 << n) - 1
    for j in range(S[g, O_HAND]):
        L[g, KNOWN + p, L[g, O_HAND, j]] = everyone
    S[g, O_PENDING] = 0
    if p != a:
        push(L, S, g, O_PENDING, a)
    elif S[g, O_TO] == ALL:
        for j in range(1, n):
            push(L, S, g, O_PENDING, (a + j) % n)
    else:
        push(L, S, g, O_PENDING, S[g, O_TO])
    S[g, O_ACCEPT] = 0
    S[g, DECISION] = RESPOND
    S[g, ACTOR] = L[g, O_PENDING, 0]


@njit(cache=True)
def _take(L, S, g, p, positions, trade, dst):
    """Seat ``p``'s hand cards at the positions in list ``positions`` (in that order), then the trade-area
    types in list ``trade``, moved onto list ``dst``."""
    hand = HAND + p
    for j in range(S[g, positions]):
        push(L, S, g, dst, L[g, hand, L[g, positions, j]])
    for i in range(S[g, hand] - 1, -1, -1):  # highest position first
        if in_list(L, S, g, positions, i):
            pop_at(L, S, g, hand, i)
            pop_at(L, S, g, KNOWN + p, i)
    for j in range(S[g, trade]):
        bean = L[g, trade, j]
        remove_first(L, S, g, FACE, bean)
        push(L, S, g, dst, bean)


@njit(cache=True)
def _execute(L, S, g, params):
    """TRADE-5: the giver of the wanted cards chooses where needed, then all cards move at once; the step
    that follows."""
    giver = S[g, X_PARTNER]
    scratch = np.empty(L.shape[2] + 1, np.int64)  # the giver's choices
    while S[g, X_WANT]:
        m = _give_choices(L, S, g, params, scratch, 0)
        if m == 0:  # the wanted cards are gone
            return NEXT_SLOT
        if m > 1:
            S[g, DECISION] = CHOOSE_GIVE
            S[g, ACTOR] = giver
            return DONE
        only = scratch[0]
        if only >= params[A_GIVE_TRADE]:
            push(L, S, g, X_TRADE, params[P_TYPE_OF + only - params[A_GIVE_TRADE]])
        else:
            push(L, S, g, X_HAND, only - params[A_GIVE_HAND])
        pop_at(L, S, g, X_WANT, 0)
    prop = S[g, O_PROP]
    _take(L, S, g, prop, O_HAND, O_TRADE, TO_PLANT + giver)
    _take(L, S, g, giver, X_HAND, X_TRADE, TO_PLANT + prop)
    _clear_made(S, g, params[P_N])
    return NEXT_SLOT


@njit(cache=True)
def _begin_execute(L, S, g, params, partner):
    S[g, X_PARTNER] = partner
    S[g, X_WANT] = 0
    _extend(L, S, g, X_WANT, O_WANT)
    S[g, X_HAND] = 0
    S[g, X_TRADE] = 0
    return _execute(L, S, g, params)


@njit(cache=True)
def _trade_step(L, S, X, g, params, a, d, p):
    """A trading action (TRADE-2 .. TRADE-5); the step that follows."""
    if params[A_KEEP] <= a < params[A_KEEP] + params[P_T]:
        bean = params[P_TYPE_OF + a - params[A_KEEP]]
        remove_first(L, S, g, FACE, bean)
        push(L, S, g, TO_PLANT + p, bean)
        return DONE
    if a == params[A_END]:
        return STOP_TRADING
    if d == OFFER:
        if a == params[A_PASS]:
            return NEXT_SLOT
        n = params[P_N]
        S[g, O_PROP] = p
        if params[P_MACRO]:  # a whole offer, made at once
            ns = params[P_SIDES]
            index = a - params[A_OFFER_CARDS]
            offset, shape = index // (ns * ns - 1) + 1, index % (ns * ns - 1) + 1
            S[g, O_TO] = ALL if offset == n else (p + offset) % n
            _macro_cards(L, S, g, params, p, shape // ns, O_HAND, O_TRADE)
            for j in range(2):
                slot = params[P_SIDE_SLOTS + 2 * (shape % ns) + j]
                if slot >= 0:
                    push(L, S, g, O_WANT, params[P_TYPE_OF + slot])
            _submit(L, S, X, g, params)
            return DONE
        offset = a - params[A_OFFER] + 1
        S[g, O_TO] = ALL if offset == n else (p + offset) % n
        S[g, DECISION] = COMPOSE
    elif d == COMPOSE:
        if params[A_GIVE_HAND] <= a < params[A_GIVE_TRADE]:
            push(L, S, g, O_HAND, a - params[A_GIVE_HAND])
        elif params[A_GIVE_TRADE] <= a < params[A_WANT]:
            push(L, S, g, O_TRADE, params[P_TYPE_OF + a - params[A_GIVE_TRADE]])
        elif params[A_WANT] <= a < params[A_SUBMIT]:
            push(L, S, g, O_WANT, params[P_TYPE_OF + a - params[A_WANT]])
        elif a == params[A_CANCEL]:
            return NEXT_SLOT  # a withdrawn offer counts as a pass
        else:
            _submit(L, S, X, g, params)
    elif d == RESPOND:
        q = pop_at(L, S, g, O_PENDING, 0)
        if a == params[A_ACCEPT]:
            push(L, S, g, O_ACCEPT, q)
        if S[g, O_PENDING]:
            S[g, ACTOR] = L[g, O_PENDING, 0]
        elif S[g, O_ACCEPT] == 0:
            return NEXT_SLOT  # declined
        elif S[g, O_ACCEPT] == 1:
            return _begin_execute(L, S, g, params, L[g, O_ACCEPT, 0])
        else:
            S[g, DECISION] = PICK
            S[g, ACTOR] = S[g, ACTIVE]
    elif d == PICK:
        if a == params[A_CANCEL]:
            return NEXT_SLOT
        return _begin_execute(L, S, g, params, (S[g, ACTIVE] + a - params[A_PICK] + 1) % params[P_N])
    else:  # CHOOSE_GIVE
        if a >= params[A_GIVE_TRADE]:
            push(L, S, g, X_TRADE, params[P_TYPE_OF + a - params[A_GIVE_TRADE]])
        else:
            push(L, S, g, X_HAND, a - params[A_GIVE_HAND])
        pop_at(L, S, g, X_WANT, 0)
        return _execute(L, S, g, params)
    return DONE


@njit(cache=True)
def _plant(S, g, p, f, bean):
    S[g, F_TYPE + 3 * p + f] = bean
    S[g, F_COUNT + 3 * p + f] += 1


@njit(cache=True)
def apply(L, S, C, M, X, g, params, a):
    """Apply the legal action index ``a`` (not checked) to `bohnanza` game ``g`` (BASE-4 .. BASE-10,
    TRADE-1 .. TRADE-7), then let the memory take it in."""
    p, d, n = S[g, ACTOR], S[g, DECISION], params[P_N]
    made_before = _made_any(S, g, n)
    go = DONE
    if params[A_HARVEST] <= a < params[A_HARVEST] + 3:
        harvest(L, S, g, p, a - params[A_HARVEST])
    elif a == params[A_BUY]:  # BASE-2: the top coins onto the discard pile
        cost, top = params[P_FIELD_COST], S[g, COIN + p]
        for i in range(top - cost, top):
            push(L, S, g, DISC, L[g, COIN + p, i])
        S[g, COIN + p] = top - cost
        S[g, NFIELDS + p] = 3
    elif d == PLANT or d == PLANT_OPTIONAL:
        go = BEGIN_TURN_UP
        if a < params[A_PLANT] + 3:  # BASE-5: the front hand card, then optionally the next
            _plant(S, g, p, a - params[A_PLANT], hand_pop(L, S, g, p, 0))
            S[g, PLANTED] += 1
            if S[g, HAND + p] and S[g, PLANTED] < 2:
                S[g, DECISION] = PLANT_OPTIONAL
                go = DONE
    elif d == PLANT_TRADED:  # BASE-7
        slot = (a - params[A_PLANT_CARD]) // 3
        bean = params[P_TYPE_OF + slot]
        remove_first(L, S, g, TO_PLANT + p, bean)
        _plant(S, g, p, (a - params[A_PLANT_CARD]) % 3, bean)
        if not S[g, TO_PLANT + p]:
            S[g, PT] += 1
            go = NEXT_PLANTER
    elif d == HARVEST_WINDOW:  # BASE-9
        pop_at(L, S, g, WINDOW, 0)
        if S[g, WINDOW]:
            S[g, ACTOR] = L[g, WINDOW, 0]
        else:
            go = TURN_UP if S[g, WINDOW_NEXT] == WINDOW_TURN_UP else DRAW_PHASE
    else:
        go = _trade_step(L, S, X, g, params, a, d, p)
    _flow(L, S, M, g, params, go)
    _remember(L, S, C, g, params, a, d, p, made_before)


# -- the memory of this turn's offers (``envs.obs.memory.Memory``) ----------------------------------------------
@njit(cache=True)
def _makes_offer(params, a):
    """Whether action ``a`` makes an offer (``SUBMIT``, or a whole offer)."""
    return a == params[A_SUBMIT] or (params[P_MACRO] != 0 and a >= params[A_OFFER_CARDS])


@njit(cache=True)
def _remember(L, S, C, g, params, a, d, actor, made_before):
    """Take in action ``a`` applied at decision ``d`` by ``actor`` (``made_before``: whether offers had been
    made since the last trade before it), as ``Memory.update``."""
    count = S[g, N_OFFERS]
    last = (count - 1) % OFFERS_KEPT
    if _makes_offer(params, a) or (count and S[g, REC_OUTCOME + last] == OPEN):
        _record(L, S, C, g, params, a, d, actor, made_before)
    if S[g, TURN] != S[g, MEM_TURN]:  # a new turn: forget
        S[g, MEM_TURN] = S[g, TURN]
        S[g, N_OFFERS] = 0
        for p in range(params[P_N]):
            S[g, MEM_MADE + p] = 0
            S[g, MEM_DECLINED + p] = 0
            S[g, MEM_EXECUTED + p] = 0
            C[g, REVEALED + p] = 0


@njit(cache=True)
def _record(L, S, C, g, params, a, d, actor, made_before):
    if _makes_offer(params, a):  # an offer is made: a new record
        prop = S[g, O_PROP]
        r = S[g, N_OFFERS] % OFFERS_KEPT
        S[g, N_OFFERS] += 1
        S[g, REC_PROP + r] = prop
        S[g, REC_TO + r] = S[g, O_TO]
        S[g, REC_ACCEPTORS + r] = 0
        S[g, REC_LAST + r] = EMPTY
        S[g, REC_OUTCOME + r] = OPEN
        S[g, REC_PARTNER + r] = EMPTY
        C[g, REC_GIVE + r] = 0
        C[g, REC_WANT + r] = 0
        for j in range(S[g, O_HAND]):
            C[g, REC_GIVE + r, L[g, HAND + prop, L[g, O_HAND, j]]] += 1
        for j in range(S[g, O_TRADE]):
            C[g, REC_GIVE + r, L[g, O_TRADE, j]] += 1
        for j in range(S[g, O_WANT]):
            C[g, REC_WANT + r, L[g, O_WANT, j]] += 1
        S[g, MEM_MADE + prop] += 1
    r = (S[g, N_OFFERS] - 1) % OFFERS_KEPT
    if d == RESPOND and S[g, REC_OUTCOME + r] == OPEN:
        if a == params[A_ACCEPT]:  # the acceptor holds the wanted types (TRADE-4)
            S[g, REC_ACCEPTORS + r] |= 1 << actor
            S[g, REC_LAST + r] = actor
            C[g, REVEALED + actor] = C[g, REC_WANT + r]
    elif d == PICK and params[A_PICK] <= a < params[A_PICK] + params[P_N] - 1:
        S[g, REC_PARTNER + r] = (S[g, ACTIVE] + a - params[A_PICK] + 1) % params[P_N]
    if S[g, REC_OUTCOME + r] != OPEN:
        return
    prop = S[g, REC_PROP + r]
    if made_before and not _made_any(S, g, params[P_N]):  # TRADE-5 executed it
        S[g, REC_OUTCOME + r] = EXECUTED
        S[g, MEM_EXECUTED + prop] += 1
        partner = S[g, REC_PARTNER + r] if S[g, REC_PARTNER + r] != EMPTY else S[g, REC_LAST + r]
        S[g, REC_PARTNER + r] = partner
        if partner >= 0:
            C[g, REVEALED + partner] = 0  # it gave the wanted cards away
    elif S[g, O_PROP] == EMPTY or S[g, DECISION] == COMPOSE:
        S[g, REC_OUTCOME + r] = CANCELLED if S[g, REC_ACCEPTORS + r] else DECLINED
        S[g, MEM_DECLINED + prop] += 1


# -- rewards and observations -----------------------------------------------------------------------------------
@njit(cache=True)
def pay(S, g, params, bonus, rewards):
    """Add what game ``g`` pays now to ``rewards[g]``: the coins earned since the last payment (``dense``)
    and, once over, the result (BASE-11: most coins, then most hand cards, shared on a tie)."""
    mode, n = params[P_MODE], params[P_N]
    if mode == R_DENSE:
        for p in range(n):
            rewards[g, p] += float(S[g, COIN + p] - S[g, PAID + p])
            S[g, PAID + p] = S[g, COIN + p]
    if not S[g, OVER]:
        return
    best_coins, best_hand, winners = -1, -1, 0
    for p in range(n):
        c, h = S[g, COIN + p], S[g, HAND + p]
        if c > best_coins or (c == best_coins and h > best_hand):
            best_coins, best_hand, winners = c, h, 1
        elif c == best_coins and h == best_hand:
            winners += 1
    for p in range(n):
        own = S[g, COIN + p]
        other = -1
        for q in range(n):
            if q != p and S[g, COIN + q] > other:
                other = S[g, COIN + q]
        best = own == best_coins and S[g, HAND + p] == best_hand
        win = 1.0 / winners if best else -1.0
        rewards[g, p] += result_reward(mode, own, win, float(own - other), bonus)


@njit(cache=True)
def _types(C, g, k, params, row, at):
    """Count row ``k`` of ``C`` by type slot at ``at``."""
    for slot in range(params[P_T]):
        v = C[g, k, params[P_TYPE_OF + slot]]
        if v:
            row[at + slot] = v


@njit(cache=True)
def write_obs(L, S, C, g, params, seat, row, starts):
    """Seat ``seat``'s raw observation of game ``g`` into ``row``: the common blocks, then ``to_plant``,
    ``trade_state``, ``offer`` and ``negotiation`` (``envs.obs.trading``, ``envs.obs.memory``)."""
    n, t = params[P_N], params[P_T]
    tslot = params[P_TSLOT:P_TSLOT + NUM_TYPES]
    begin_row(L, S, g, seat, n, t, tslot, row, starts, HAND_K, KNOWN_K)
    for k in range(n):
        w_counts(L, S, g, TO_PLANT + (seat + k) % n, tslot, row, starts[12] + k * t)
    # trade_state
    base, r = starts[13], S[g, T_ROUND]
    if r:
        row[base] = r
        if params[P_ROUNDS] - r > 0:
            row[base + 1] = params[P_ROUNDS] - r
        row[base + 4 + (S[g, ACTIVE] + S[g, T_SLOT] - seat) % n] = 1.0
    row[base + 2] = S[g, PLANTED]
    row[base + 3] = S[g, T_ANY]
    if S[g, DECISION] == HARVEST_WINDOW:
        for j in range(S[g, WINDOW]):
            row[base + 4 + n + (L[g, WINDOW, j] - seat) % n] = 1.0
    _w_offer(L, S, g, params, seat, row, starts[14], n, t, tslot)
    _w_negotiation(S, C, g, params, seat, row, starts[15], n, t)


@njit(cache=True)
def _w_offer(L, S, g, params, me, row, base, n, t, tslot):
    """The offer being built or answered (TRADE-2 .. TRADE-5), as far as ``me`` sees it."""
    prop = S[g, O_PROP]
    if prop == EMPTY:
        return
    row[base + (prop - me) % n] = 1.0
    at = base + n
    row[at + (n if S[g, O_TO] == ALL else (S[g, O_TO] - me) % n)] = 1.0
    at += n + 1
    if S[g, O_HAND]:  # given hand cards: their number, and the types I know
        row[at] = S[g, O_HAND]
        for j in range(S[g, O_HAND]):
            i = L[g, O_HAND, j]
            if L[g, KNOWN + prop, i] & (1 << me):
                row[at + 1 + tslot[L[g, HAND + prop, i]]] += 1.0
    at += 1 + t
    w_counts(L, S, g, O_TRADE, tslot, row, at)
    at += t
    w_counts(L, S, g, O_WANT, tslot, row, at)
    at += t
    for j in range(S[g, O_PENDING]):
        row[at + (L[g, O_PENDING, j] - me) % n] = 1.0
    at += n
    for j in range(S[g, O_ACCEPT]):
        row[at + (L[g, O_ACCEPT, j] - me) % n] = 1.0
    at += n
    partner = S[g, X_PARTNER]
    if partner != EMPTY:
        row[at + (partner - me) % n] = 1.0
        w_counts(L, S, g, X_WANT, tslot, row, at + n)
        w_counts(L, S, g, X_TRADE, tslot, row, at + n + t)
        row[at + n + 2 * t] = S[g, X_HAND]
    at += n + 2 * t + 1
    mine = O_HAND if prop == me else (X_HAND if partner == me else -1)
    if mine >= 0:  # my own hand cards committed: types, then my first positions
        for j in range(S[g, mine]):
            i = L[g, mine, j]
            row[at + tslot[L[g, HAND + me, i]]] += 1.0
            if i < HAND_K:
                row[at + t + i] = 1.0


@njit(cache=True)
def _w_negotiation(S, C, g, params, me, row, base, n, t):
    """This turn's offers and acceptances (the memory), relative to ``me``."""
    for k in range(1, n):
        _types(C, g, REVEALED + (me + k) % n, params, row, base + (k - 1) * t)
    at = base + (n - 1) * t
    for k in range(n):
        q = (me + k) % n
        row[at + 3 * k] = S[g, MEM_MADE + q]
        row[at + 3 * k + 1] = S[g, MEM_DECLINED + q]
        row[at + 3 * k + 2] = S[g, MEM_EXECUTED + q]
    at += 3 * n
    count = S[g, N_OFFERS]
    for j in range(min(count, OFFERS_KEPT)):  # most recent first
        r = (count - 1 - j) % OFFERS_KEPT
        row[at + (S[g, REC_PROP + r] - me) % n] = 1.0
        to = S[g, REC_TO + r]
        row[at + n + (n if to == ALL else (to - me) % n)] = 1.0
        _types(C, g, REC_GIVE + r, params, row, at + 2 * n + 1)
        _types(C, g, REC_WANT + r, params, row, at + 2 * n + 1 + t)
        for q in range(n):
            if S[g, REC_ACCEPTORS + r] & (1 << q):
                row[at + 2 * n + 1 + 2 * t + (q - me) % n] = 1.0
        row[at + 3 * n + 1 + 2 * t + S[g, REC_OUTCOME + r]] = 1.0
        at += 3 * n + 2 * t + 5
