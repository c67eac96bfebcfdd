"""Negotiation memory: what the table showed about the other players' hands and this turn's offers.

Two sources:
- the state: hand cards shown to the observer (``State.known`` bitmasks: cards offered in a submitted
  trade, cards shown by text cards) - the ``known_hands`` block, every variant;
- the game's history, kept by a ``Memory`` (one per game, updated after every applied action): which
  offers were made this turn, who accepted or declined them, how they ended, and what each acceptance
  revealed (accepting shows that the seat holds the wanted cards, TRADE-4). The engine does not keep
  this once an offer is over. Everything a ``Memory`` records is public, so it is the same for every
  observer; the ``negotiation`` block reads it relative to the observer.

*This turn* is the active player's turn: the memory forgets offers and acceptances when the turn
number changes (a hand changes by planting and drawing between turns).
"""
from __future__ import annotations

from ...engine.actions import ALL, Kind
from ...engine.state import EMPTY, State
from .core import Block, Context, StaleMemoryError, counts, hand_writer, rel

OFFERS_KEPT = 3  # offers of this turn encoded in detail, most recent first
_SUBMIT, _OFFER_CARDS = Kind.SUBMIT, Kind.OFFER_CARDS  # kinds that make an offer
OPEN, DECLINED, CANCELLED, EXECUTED = range(4)
OUTCOMES = ("open", "declined", "cancelled", "executed")
# Talk: the steps of a negotiation that move no card and show none. SUBMIT and OFFER_CARDS show the
# offered hand cards and KEEP moves a trade-area card, but none of these trade steps touches the board;
# an offer's execution (it clears the offers made since the last trade, TRADE-5) or the end of trading
# can follow any talk action: ``Memory.update`` checks those after the fact. Harvesting and buying a
# field (free actions) touch only the board. See ``Memory.cards`` and ``Memory.board``.
_TALK_KINDS = frozenset((Kind.PASS, Kind.OFFER, Kind.GIVE_HAND, Kind.GIVE_TRADE, Kind.WANT, Kind.CANCEL,
                         Kind.ACCEPT, Kind.DECLINE, Kind.PICK))
_TRADE_KINDS = _TALK_KINDS | {Kind.SUBMIT, Kind.OFFER_CARDS, Kind.KEEP}
_FREE_KINDS = frozenset((Kind.HARVEST, Kind.BUY_FIELD))
_TALK_DECISIONS = frozenset(("offer", "compose", "respond", "pick", "choose_give"))


class OfferRecord:
    """One submitted offer: proposer, addressee (a seat or ``ALL``), the types given (hand cards shown
    at submission and trade-area cards), the types wanted, who accepted or declined, and its outcome."""

    __slots__ = ("prop", "to", "give", "want", "acceptors", "decliners", "outcome", "partner")

    def __init__(self, prop: int, to: int, give: list, want: list):
        self.prop, self.to, self.give, self.want = prop, to, give, want
        self.acceptors: list[int] = []
        self.decliners: list[int] = []
        self.outcome = OPEN
        self.partner = EMPTY

    def __repr__(self) -> str:
        return (f"OfferRecord(prop={self.prop}, to={self.to}, give={self.give}, want={self.want}, "
                f"acceptors={self.acceptors}, decliners={self.decliners}, outcome={OUTCOMES[self.outcome]})")


class Memory:
    """Public facts of one game's history that the state forgets (see the module docstring).

    Use: ``memory.reset(game)`` after ``new_game``, ``memory.update(game)`` after every
    ``game.apply`` (forced ones too), and pass it to ``encoder.encode(state, me, memory)``. Encoding
    with a memory that missed an action raises ``StaleMemoryError``."""

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.active = bool(_SPEC_TRADES.get(ctx.variant))
        self._history: list | None = None
        self.seen = 0
        self.version = 0  # changes whenever what the memory records may have changed
        # tokens for encoders that replay unchanged blocks (``core.token_writer``): while ``cards`` stays,
        # no card moved between the deck, hands, trade area and cards to plant and none was shown; while
        # ``board`` stays, the fields, coin stacks and discard pile are as they were
        self.cards = 0
        self.board = 0
        # (decision, actor, any offers made since the last trade) after the last action: what the next
        # action is applied to
        self._after = ("", EMPTY, False)
        self._clear(-1)

    def _clear(self, turn: int) -> None:
        n = self.ctx.n
        self.version += 1
        self.turn = turn
        self.offers: list[OfferRecord] = []
        self.revealed: list[list[int]] = [[] for _ in range(n)]  # per seat: wanted types of its last acceptance
        self.made = [0] * n
        self.declined = [0] * n
        self.executed = [0] * n

    def reset(self, game) -> "Memory":
        """Start following ``game`` (at any point: what happened before is not known)."""
        self._history = game.history
        self.seen = len(game.history)
        s = game.state
        self._clear(s.turn)
        self.cards += 1
        self.board += 1
        self._after = (s.decision, s.actor, any(s.made))
        return self

    def check(self) -> None:
        """Raise ``StaleMemoryError`` if the followed game has actions this memory has not seen."""
        if self._history is not None and len(self._history) != self.seen:
            raise StaleMemoryError(f"memory has seen {self.seen} of the game's {len(self._history)} actions; "
                                   "call memory.update(game) after every game.apply")

    def update(self, game) -> None:
        """Take in the action just applied to ``game`` (its last history entry)."""
        h: list = game.history
        if h is not self._history or len(h) != self.seen + 1:
            raise StaleMemoryError("memory.update(game) must follow each game.apply of the game it was "
                                   "reset with, once per action")
        self.seen += 1
        if not self.active:
            return
        s = game.state
        kind = h[-1].kind
        decision, made_any = s.decision, any(s.made)
        pre = self._after
        before, made_before = pre[0], pre[2]
        self._after = (decision, s.actor, made_any)
        if s.turn != self.turn:
            self.cards += 1
            self.board += 1
        elif kind in _FREE_KINDS:  # the same seat decides again at the same point (COM-13)
            self.board += 1
        elif kind not in _TRADE_KINDS or before not in _TALK_DECISIONS or decision not in _TALK_DECISIONS:
            self.cards += 1
            self.board += 1
        elif kind not in _TALK_KINDS or made_before and not made_any:
            self.cards += 1
        offers = self.offers
        if offers and offers[-1].outcome == OPEN or kind == _SUBMIT or kind == _OFFER_CARDS:
            self._trade(s, h[-1], pre)
        if s.turn != self.turn:
            self._clear(s.turn)

    def _trade(self, s: State, action, pre: tuple) -> None:
        """Record an offer-related action; ``pre``: (decision, actor, any offers made since the last
        trade) of the state it was applied to."""
        self.version += 1
        decision, actor, made_any = pre
        kind = action.kind
        offers = self.offers
        if kind == _SUBMIT or kind == _OFFER_CARDS:  # an offer is made (SUBMIT: composed; whole)
            prop = s.o_prop
            give = [s.hands[prop][i] for i in s.o_hand] + list(s.o_trade)  # shown to everyone (INFO-2)
            offers.append(OfferRecord(prop, s.o_to, give, list(s.o_want)))
            self.made[prop] += 1
        elif not offers:
            return
        rec = offers[-1]
        if decision == "respond" and rec.outcome == OPEN:
            if kind == Kind.ACCEPT:
                rec.acceptors.append(actor)
                self.revealed[actor] = list(rec.want)
            elif kind == Kind.DECLINE:
                rec.decliners.append(actor)
        elif decision == "pick" and kind == Kind.PICK:
            rec.partner = action.a
        if rec.outcome != OPEN:
            return
        if made_any and not any(s.made):  # TRADE-5 execution clears the offers made since the last trade
            rec.outcome = EXECUTED
            self.executed[rec.prop] += 1
            partner = rec.partner if rec.partner != EMPTY else rec.acceptors[-1]
            rec.partner = partner
            self.revealed[partner] = []  # it gave the wanted cards away
        elif s.o_prop == EMPTY or s.decision == "compose":
            rec.outcome = CANCELLED if rec.acceptors else DECLINED
            self.declined[rec.prop] += 1


_SPEC_TRADES: dict[str, bool] = {}


def declare_trading(variant: str) -> None:
    """The variant has the offer protocol of ``engine/trading.py`` (its memory follows offers)."""
    _SPEC_TRADES[variant] = True


# -- blocks ---------------------------------------------------------------------------------------------
def _w_known(ctx, s, me, base, ix, vx):
    """INFO-2: per other seat, counts per type of its hand cards shown to me, then the first ``known_k``
    positions one-hot where the card there was shown to me."""
    n, t, kk, bit, tslot = s.n, ctx.t, ctx.known_k, 1 << me, ctx.tslot
    width = t + kk * t
    hands, knowns = s.hands, s.known
    for k in range(1, n):
        q = (me + k) % n
        known = knowns[q]
        if known.count(1 << q) == len(known):  # fast path: nothing of this hand was shown
            continue
        hand = hands[q]
        at = base + (k - 1) * width
        seen = {}  # card -> copies of it known in this hand
        for i, b in enumerate(known):
            if b & bit:
                c = hand[i]
                seen[c] = seen.get(c, 0) + 1
                if i < kk:
                    ix.append(at + t + i * t + tslot[c])
                    vx.append(1.0)
        for c, m in seen.items():
            ix.append(at + tslot[c])
            vx.append(float(m))


def known_hands_block(ctx: Context) -> Block:
    n, t, kk = ctx.n, ctx.t, ctx.known_k
    where = (f", then its first {kk} hand positions (front first), each a one-hot type slot if that card "
             "was shown to me") if kk else " (hands have no order)"
    return Block("known_hands", (n - 1) * (t + kk * t), (ctx.comp + [1.0] * (kk * t)) * (n - 1),
                 "per other seat offset 1..n-1: counts per type of its hand cards shown to me (INFO-2; "
                 "/ cards of the type)" + where, hand_writer(ctx, _w_known), token="cards")


def _w_negotiation(ctx, s, me, base, ix, vx):
    mem = ctx.mem
    if mem is None or not mem.offers and not any(mem.revealed):
        return
    n, t, tslot = s.n, ctx.t, ctx.tslot
    for k in range(1, n):
        want = mem.revealed[(me + k) % n]
        if want:
            counts(want, tslot, base + (k - 1) * t, ix, vx)
    at = base + (n - 1) * t
    for k in range(n):
        q = (me + k) % n
        for j, v in enumerate((mem.made[q], mem.declined[q], mem.executed[q])):
            if v:
                ix.append(at + 3 * k + j)
                vx.append(float(v))
    at += 3 * n
    width = 3 * n + 2 * t + 5
    for rec in reversed(mem.offers[-OFFERS_KEPT:]):
        ix.append(at + rel(s, me, rec.prop))
        vx.append(1.0)
        ix.append(at + n + (n if rec.to == ALL else rel(s, me, rec.to)))
        vx.append(1.0)
        counts(rec.give, tslot, at + 2 * n + 1, ix, vx)
        counts(rec.want, tslot, at + 2 * n + 1 + t, ix, vx)
        for q in rec.acceptors:
            ix.append(at + 2 * n + 1 + 2 * t + rel(s, me, q))
            vx.append(1.0)
        ix.append(at + 3 * n + 1 + 2 * t + rec.outcome)
        vx.append(1.0)
        at += width


def negotiation_block(ctx: Context) -> Block:
    """This turn's offers and acceptances (reads the ``Memory``)."""
    n, t, comp = ctx.n, ctx.t, ctx.comp
    cap = float(max(ctx.rules.max_rounds, 1))
    per_offer = [1.0] * (2 * n + 1) + comp + comp + [1.0] * (n + 4)
    return Block("negotiation", (n - 1) * t + 3 * n + OFFERS_KEPT * (3 * n + 2 * t + 5),
                 comp * (n - 1) + [cap] * (3 * n) + per_offer * OFFERS_KEPT,
                 "this turn (from the game's history): per other seat offset the wanted types of the last "
                 "offer it accepted (it held them then; cleared once it gave them in a trade; / cards of the "
                 "type); per seat offset offers made, ended without a trade (declined or cancelled) and "
                 f"executed (/ {int(cap)}, the trading rounds); the last {OFFERS_KEPT} offers, most recent first: "
                 "one-hot proposer offset, one-hot "
                 "addressee offset (+ 'all'), given types (hand cards shown at submission and trade-area "
                 "cards), wanted types (/ cards of the type), offsets that accepted, one-hot outcome "
                 "(open, declined, cancelled after acceptance, executed)", _w_negotiation,
                 token="version")  # it reads nothing else but the seat count
