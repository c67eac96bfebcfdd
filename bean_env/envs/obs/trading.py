"""Blocks of the trading variant (`bohnanza`, TRADE-*): the trade phase and the offer on the table."""
from __future__ import annotations

from ...engine.actions import ALL
from ...engine.state import EMPTY
from .common import HAND_CAP
from .core import Block, Context, counts, mark_seats, put, rel
from .memory import negotiation_block

PLANT_CAP = 2  # hand cards planted in one turn's planting step (BASE-5: one, optionally a second)


def _w_trade(ctx, s, me, base, ix, vx):
    """Trading round, rounds left, hand cards planted this turn, offer made this round, slot holder,
    harvest window seats."""
    n, r = s.n, s.t_round
    if r:
        ix.append(base)
        vx.append(float(r))
        left = ctx.rules.max_rounds - r
        if left > 0:
            ix.append(base + 1)
            vx.append(float(left))
    if s.planted:
        ix.append(base + 2)
        vx.append(float(s.planted))
    if s.t_any:
        ix.append(base + 3)
        vx.append(float(s.t_any))
    if r:
        ix.append(base + 4 + (s.active + s.t_slot - me) % n)  # the slot holder's seat offset
        vx.append(1.0)
    if s.decision == "harvest_window":
        mark_seats(s, me, s.window, base + 4 + n, ix, vx)


def offer_open(s) -> bool:
    """An offer is being built or answered: the only states the ``offer`` block writes anything for."""
    return s.o_prop != EMPTY


def _w_offer(ctx, s, me, base, ix, vx):
    """The offer being built or answered (TRADE-2..5), as far as I can see it."""
    if not offer_open(s):
        return
    n, t, tslot = s.n, ctx.t, ctx.tslot
    prop = s.o_prop
    ix.append(base + rel(s, me, prop))
    vx.append(1.0)
    at = base + n
    ix.append(at + (n if s.o_to == ALL else rel(s, me, s.o_to)))
    vx.append(1.0)
    at += n + 1
    if s.o_hand:  # given hand cards: their number, and the types I know
        ix.append(at)
        vx.append(float(len(s.o_hand)))
        hand, known, bit = s.hands[prop], s.known[prop], 1 << me
        counts([hand[i] for i in s.o_hand if known[i] & bit], tslot, at + 1, ix, vx)
    at += 1 + t
    counts(s.o_trade, tslot, at, ix, vx)
    at += t
    counts(s.o_want, tslot, at, ix, vx)
    at += t
    mark_seats(s, me, s.o_pending, at, ix, vx)
    at += n
    mark_seats(s, me, s.o_accept, at, ix, vx)
    at += n
    if s.x_partner != EMPTY:
        ix.append(at + rel(s, me, s.x_partner))
        vx.append(1.0)
        counts(s.x_want, tslot, at + n, ix, vx)
        counts(s.x_trade, tslot, at + n + t, ix, vx)
        put(ix, vx, at + n + 2 * t, len(s.x_hand))
    at += n + 2 * t + 1
    # my own hand cards committed (as proposer, or as the giver at execution): types, first positions
    mine = s.o_hand if prop == me else (s.x_hand if s.x_partner == me else ())
    if mine:
        hand, k = s.hands[me], ctx.hand_k
        counts([hand[i] for i in mine], tslot, at, ix, vx)
        for i in mine:
            if i < k:
                ix.append(at + t + i)
                vx.append(1.0)


def bohnanza_blocks(ctx: Context) -> list[Block]:
    n, comp, k = ctx.n, ctx.comp, ctx.hand_k
    rounds = float(max(ctx.rules.max_rounds, 1))
    hand_cap = float(HAND_CAP)
    offer_high = ([1.0] * (2 * n + 1) + [hand_cap] + comp + comp + comp + [1.0] * (3 * n) + comp + comp
                  + [hand_cap] + comp + [1.0] * k)
    return [
        Block("trade_state", 4 + 2 * n, [rounds, rounds, PLANT_CAP, 1.0] + [1.0] * (2 * n),
              f"trade round and rounds left in the budget (TRADE-6; 0 outside trading; / {int(rounds)}), "
              f"hand cards planted this turn (/ {PLANT_CAP}), offer made this round flag, one-hot seat offset "
              "holding the trading slot, seat offsets still to act in the harvest window (BASE-9)", _w_trade),
        Block("offer", len(offer_high), offer_high,
              "offer: one-hot proposer offset, one-hot addressee offset (+ 'all'), number of given hand "
              f"cards (/ {HAND_CAP}), counts of given hand cards whose type I know, given trade-area counts, "
              "wanted counts, offsets still to answer, offsets that accepted; execution: one-hot partner "
              f"offset, wanted types still to choose, trade-area cards chosen, number of hand cards chosen "
              f"(/ {HAND_CAP}); my hand cards committed to the offer: counts per type, then flags for my "
              f"first {k} hand positions (type counts / cards of the type)", _w_offer, clip=True),
        negotiation_block(ctx),
    ]
