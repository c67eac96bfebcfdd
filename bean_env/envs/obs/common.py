"""Blocks every variant has: decision point, seats, the compact own hand, public table facts.

Caps (values above read as 1): hand sizes ``HAND_CAP``, cards on a field ``FIELD_CAP``, coins per seat
``COIN_CAP``, turn number ``TURN_CAP``, run-outs ``RUNOUT_CAP``. Per-type counts are divided by the
number of cards of that type in the deck (exact, no cap).
"""
from __future__ import annotations

from .core import Block, Context, PileCounts, counts, hand_writer, pile, remembered
from .counting import counting_blocks
from .memory import known_hands_block

HAND_CAP = 24
FIELD_CAP = 12
COIN_CAP = 40
TURN_CAP = 200
RUNOUT_CAP = 3


def _w_decision(ctx, s, me, base, ix, vx):
    slot = ctx.dslot.get(s.decision)
    if slot is None:
        raise ValueError(f"decision point {s.decision!r} of {ctx.variant!r} has no observation slot; "
                         f"declare it with register_observation (known: {', '.join(ctx.decisions)})")
    ix.append(base + slot)
    vx.append(1.0)


def _w_actor(ctx, s, me, base, ix, vx):
    n = s.n
    if s.actor >= 0 and not s.over:
        ix += (base + (s.actor - me) % n, base + n + (s.active - me) % n)
        vx += (1.0, 1.0)
    else:
        ix.append(base + n + (s.active - me) % n)
        vx.append(1.0)


def _w_hand(ctx, s, me, base, ix, vx):
    """Counts per type slot, then the first ``hand_k`` positions one-hot (front first)."""
    hand, t, tslot = s.hands[me], ctx.t, ctx.tslot
    counts(hand, tslot, base, ix, vx)
    at = base + t
    for card in hand[:ctx.hand_k]:
        ix.append(at + tslot[card])
        vx.append(1.0)
        at += t


def _w_hand_sizes(ctx, s, me, base, ix, vx):
    hands = s.hands
    k = base
    for hand in hands[me:] + hands[:me]:  # seat offsets 0, 1, ...
        if hand:
            ix.append(k)
            vx.append(float(len(hand)))
        k += 1


def _w_fields(ctx, s, me, base, ix, vx):
    n, t, tslot = s.n, ctx.t, ctx.tslot
    width = t + 2
    ftype, fcount, nfields = s.ftype, s.fcount, s.nfields
    for k in range(n):
        q = (me + k) % n
        at = base + k * 3 * width
        for i in range(q * 3, q * 3 + nfields[q]):
            c = fcount[i]
            if c:
                ix += (at + tslot[ftype[i]], at + t, at + t + 1)  # type, count, owned
                vx += (1.0, float(c), 1.0)
            else:
                ix.append(at + t + 1)
                vx.append(1.0)
            at += width


def _w_coins(ctx, s, me, base, ix, vx):
    """Per seat offset: coins, then the coin stack's counts per type (harvests are public)."""
    n, t = s.n, ctx.t
    coin_piles = ctx.coin_piles
    for k in range(n):
        q = (me + k) % n
        stack = s.coins[q]
        if stack:
            at = base + k * (t + 1)
            ix.append(at)
            vx.append(float(len(stack)))
            ixs, vxs = coin_piles[q].entries(stack, at + 1)  # stacks mostly just grow
            ix.extend(ixs)
            vx.extend(vxs)


def _w_face_up(ctx, s, me, base, ix, vx):
    counts(s.face_up, ctx.tslot, base, ix, vx)


def _w_to_plant(ctx, s, me, base, ix, vx):
    n, t, to_plant = s.n, ctx.t, s.to_plant
    for k in range(n):
        cards = to_plant[(me + k) % n]
        if cards:
            counts(cards, ctx.tslot, base + k * t, ix, vx)


def _discard_writer(counter: PileCounts):
    def _w_discard(ctx, s, me, base, ix, vx):
        d = s.discard
        if d:
            t = ctx.t
            ix.append(base + ctx.tslot[d[-1]])
            vx.append(1.0)
            ixs, vxs = counter.entries(d, base + t)
            ix.extend(ixs)
            vx.extend(vxs)
            ix.append(base + 2 * t)
            vx.append(float(len(d)))
    return _w_discard


def _w_deck(ctx, s, me, base, ix, vx):
    """Deck size, run-outs so far and left, turn number, game-end run-out flag, cards removed and set
    aside (the non-zero ones)."""
    if s.deck:
        ix.append(base)
        vx.append(float(len(s.deck)))
    r = s.runouts
    if r:
        ix.append(base + 1)
        vx.append(float(r))
    if s.limit > r:
        ix.append(base + 2)
        vx.append(float(s.limit - r))
    if s.turn:
        ix.append(base + 3)
        vx.append(float(s.turn))
    if s.end_pending:
        ix.append(base + 4)
        vx.append(float(s.end_pending))
    if s.removed:
        ix.append(base + 5)
        vx.append(float(len(s.removed)))
    if s.set_aside:
        ix.append(base + 6)
        vx.append(float(len(s.set_aside)))


def common_blocks(ctx: Context) -> list[Block]:
    """Blocks every variant has (INFO-1 public facts, the private hand, card counting)."""
    n, t, cards, comp, k = ctx.n, ctx.t, float(ctx.cards), ctx.comp, ctx.hand_k
    return [
        Block("decision", len(ctx.decisions), 1.0,
              "one-hot decision point: " + ", ".join(ctx.decisions), _w_decision),
        Block("actor_active", 2 * n, 1.0,
              "one-hot seat offset of the deciding player (zeros at game end), then of the active player",
              _w_actor),
        Block("hand", t + k * t, comp + [1.0] * (k * t),
              f"my hand: counts per type slot (/ cards of the type), then the first {k} positions (front "
              "first, the cards planted next) each a one-hot type slot",
              hand_writer(ctx, _w_hand), token="cards"),
        Block("hand_sizes", n, float(HAND_CAP), f"hand size per seat offset (/ {HAND_CAP}, capped)",
              hand_writer(ctx, _w_hand_sizes), clip=True, token="cards"),
        known_hands_block(ctx),
        Block("fields", n * 3 * (t + 2), ([1.0] * t + [float(FIELD_CAP), 1.0]) * (3 * n),
              f"per seat offset, per field 1..3: one-hot type slot, card count (/ {FIELD_CAP}, capped), "
              "field owned flag", _w_fields, clip=True, token="board"),
        Block("coins", n * (t + 1), ([float(COIN_CAP)] + comp) * n,
              f"per seat offset: coins (/ {COIN_CAP}, capped), then its coin stack per type slot (/ cards "
              "of the type; harvests are public)", remembered(ctx, _w_coins, lambda s, me: (s.coins,)),
              clip=True, token="board"),
        Block("face_up", t, comp, "trade area / face-up cards: counts per type (/ cards of the type)", _w_face_up,
              token="cards"),
        Block("to_plant", n * t, comp * n, "cards to plant per seat offset: counts per type (/ cards of the type)",
              _w_to_plant, token="cards"),
        Block("discard", 2 * t + 1, [1.0] * t + comp + [cards],
              "discard pile: one-hot top type, counts per type (/ cards of the type), size (/ deck cards)",
              _discard_writer(pile(ctx, "discard")), token="board"),
        Block("deck", 7, [cards, RUNOUT_CAP, RUNOUT_CAP, TURN_CAP, 1.0, cards, cards],
              f"deck size (/ deck cards), run-outs so far and run-outs left to game end (/ {RUNOUT_CAP}, "
              f"capped), turn number (/ {TURN_CAP}, capped), game-end run-out happened flag, cards out of "
              "the game, cards set aside (/ deck cards)", _w_deck, clip=True, token="cards"),
    ] + counting_blocks(ctx)


DISCARD_RUNS = 6  # runs of equal types read from the top of the discard pile


def _w_discard_runs(ctx, s, me, base, ix, vx):
    """The top of the discard pile in order, as runs of one type: one-hot type and run length."""
    d = s.discard
    i = len(d) - 1
    at, t, tslot = base, ctx.t, ctx.tslot
    for _ in range(DISCARD_RUNS):
        if i < 0:
            return
        bean = d[i]
        j = i
        while j >= 0 and d[j] == bean:
            j -= 1
        ix += (at + tslot[bean], at + t)
        vx += (1.0, float(i - j))
        at += t + 1
        i = j


def discard_runs_block(ctx: Context) -> Block:
    """For variants that take cards from the top of the discard pile (DUEL-5, MAF-8)."""
    t, longest = ctx.t, float(max(ctx.comp))
    return Block("discard_runs", DISCARD_RUNS * (t + 1), ([1.0] * t + [longest]) * DISCARD_RUNS,
                 f"top of the discard pile in order (DUEL-5 and MAF-8 take from it): the first {DISCARD_RUNS} "
                 "runs of equal types from the top, each a one-hot type slot and the run length (/ cards of "
                 "the most common type)", _w_discard_runs)
