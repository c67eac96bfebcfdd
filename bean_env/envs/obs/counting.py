"""Card counting: per bean type, the cards the observer has not seen and cannot locate.

Unseen = the deck composition minus every card whose place the observer knows: own hand, other
players' hand cards shown to the observer, fields, discard pile, trade area / face-up cards, cards to
plant, coin stacks by type, cards removed from the game or set aside, and the variant's own public
places (the mafia's fields and treasury, mixed takeover piles: ``rules.extra_seen``). The unseen cards
are the deck and the unshown hand cards of the others; the block gives only their count per type, which
every observer can work out. It reads no hidden card, so it encodes a masked ``PlayerView`` state too.
"""
from __future__ import annotations

from .core import Block, Context, pile


def _w_unseen(ctx, s, me, base, ix, vx):
    tslot, bit = ctx.tslot, 1 << me
    per = list(ctx.comp)
    for cards in (s.hands[me], s.face_up):
        for c in cards:
            per[tslot[c]] -= 1
    for q in range(s.n):
        for c in s.to_plant[q]:
            per[tslot[c]] -= 1
        if q != me:
            for c, k in zip(s.hands[q], s.known[q]):
                if k & bit:
                    per[tslot[c]] -= 1
    for i, c in enumerate(s.fcount):
        if c:
            per[tslot[s.ftype[i]]] -= c
    piles = [(pile(ctx, "discard"), s.discard), (pile(ctx, "removed"), s.removed),
             (pile(ctx, "set_aside"), s.set_aside)]
    piles += [(pile(ctx, f"coins{q}"), s.coins[q]) for q in range(s.n)]
    for counter, cards in piles:
        if cards:
            for slot, k in enumerate(counter.of(cards)):
                per[slot] -= k
    rules = ctx.rules
    for c, k in rules.extra_seen(s).items():
        per[tslot[c]] -= k
    for c in rules.extra_unseen(s):
        per[tslot[c]] += 1
    total = 0
    for slot, k in enumerate(per):
        if k:
            ix.append(base + slot)
            vx.append(float(k))
            total += k
    if total:
        ix.append(base + ctx.t)
        vx.append(float(total))


def counting_blocks(ctx: Context) -> list[Block]:
    return [Block("unseen", ctx.t + 1, ctx.comp + [float(ctx.cards)],
                  "card counting: per type slot the cards I have not seen and cannot locate (deck composition "
                  "minus every card I saw where it is; / cards of the type), then their total (/ deck cards)",
                  _w_unseen)]
