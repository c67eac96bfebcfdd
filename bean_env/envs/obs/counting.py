"""Card counting: per bean type, the cards the observer has not seen and cannot locate.

Unseen = the deck composition minus every card whose place the observer knows: own hand, other
players' hand cards shown to the observer, fields, discard pile, trade area / face-up cards, cards to
plant, coin stacks by type, cards removed from the game or set aside, and the variant's own public
places (the mafia's fields and treasury, mixed takeover piles: ``rules.extra_seen``). The unseen cards
are the deck and the unshown hand cards of the others; the block gives only their count per type, which
every observer can work out. On the real state the block counts the deck and the unshown hand cards
themselves (fewer operations); on a masked ``PlayerView`` state (hidden cards are -1) it eliminates.
Card conservation makes both the same (tested against ``PlayerView.unseen_cards``).
"""
from __future__ import annotations

from .core import Block, Context, hands_version, pile


def _w_unseen(ctx, s, me, base, ix, vx):
    per = _unseen_by_counting(ctx, s, me)
    if per is None:  # a masked PlayerView state
        per = _unseen_by_elimination(ctx, s, me)
    t = ctx.t
    ix.extend(range(base, base + t + 1))  # dense: zeros included (cheaper than skipping them)
    vx.extend(per)
    vx.append(sum(per))


def _unseen_writer(ctx: Context):
    """``_w_unseen`` that, where the variant remembers (``core.remembered``), replays a seat's last
    output while the deck, the hands and what was shown of them are what they were. The deck is
    compared once, by the deck's ``PileCounts`` (its ``version`` changes whenever the deck differs from
    the one it counted last). Only outputs counted on a real state are kept: equal decks and hands are
    then real too, and counting them again gives the same numbers (a masked state reads more of the
    table; it is always recomputed)."""
    if not ctx.remember:
        return _w_unseen
    last: dict[int, tuple] = {}
    t = ctx.t
    counter = ctx.deck_pile

    def write_unseen(ctx, s, me, base, ix, vx):
        deck = s.deck
        if deck and deck[-1] < 0:  # a masked PlayerView state
            _w_unseen(ctx, s, me, base, ix, vx)
            return
        in_deck = counter.of(deck)
        hands = hands_version(ctx, s)
        hit = last.get(me)
        if hit is not None and hit[0] == counter.version and hit[1] == hands:
            ix.extend(hit[2])
            vx.extend(hit[3])
            return
        per = _unseen_by_counting(ctx, s, me, in_deck)
        if per is None:  # a masked PlayerView state
            _w_unseen(ctx, s, me, base, ix, vx)
            return
        per.append(sum(per))
        idx = range(base, base + t + 1)
        ix.extend(idx)
        vx.extend(per)
        last[me] = (counter.version, hands, idx, per)

    return write_unseen


def _unseen_by_counting(ctx, s, me, in_deck: list | None = None) -> list[int] | None:
    """Type counts of the deck (``in_deck`` if counted already) and the unshown hand cards of the others
    (None for a masked state)."""
    deck = s.deck
    if deck and deck[-1] < 0:
        return None
    per = list(ctx.deck_pile.of(deck) if in_deck is None else in_deck)
    tslot, bit = ctx.tslot, 1 << me
    for q in range(s.n):
        if q != me:
            hand, known = s.hands[q], s.known[q]
            if -1 in hand:
                return None
            if known.count(1 << q) == len(known):  # nothing of this hand was shown
                for c in hand:
                    per[tslot[c]] += 1
            else:
                for c, k in zip(hand, known):
                    if not k & bit:
                        per[tslot[c]] += 1
    return per


def _unseen_by_elimination(ctx, s, me) -> list[int]:
    """Composition minus every card whose place ``me`` knows (works on masked states)."""
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
    piles += [(ctx.coin_piles[q], s.coins[q]) for q in range(s.n)]
    for counter, cards in piles:
        if cards:
            for slot, k in enumerate(counter.of(cards)):
                per[slot] -= k
    rules = ctx.rules
    for c, k in rules.extra_seen(s).items():
        per[tslot[c]] -= k
    for c in rules.extra_unseen(s):
        per[tslot[c]] += 1
    return per


def counting_blocks(ctx: Context) -> list[Block]:
    return [Block("unseen", ctx.t + 1, ctx.comp + [float(ctx.cards)],
                  "card counting: per type slot the cards I have not seen and cannot locate (deck composition "
                  "minus every card I saw where it is; / cards of the type), then their total (/ deck cards)",
                  _unseen_writer(ctx), token="cards")]
