"""Trade statistics of a game, counted from the rules' own events (``events.py``).

``TradeCounter`` applies actions to a game and counts, per seat, what the trading did:

- ``offers``: offers the seat submitted; ``offers_accepted``: of those, how many at least one addressee
  accepted; ``accepts`` / ``declines``: the seat's own answers to offers made to it.
- ``trades``: executed trades the seat took part in (as proposer or partner); ``cards_given`` /
  ``cards_received``: cards that changed hands in them.
- ``gifts_given`` / ``gifts_received``: executed trades in which the seat gave cards and got nothing
  back, or got cards and gave nothing; ``gift_cards_given`` / ``gift_cards_received`` count those cards;
  ``gifts_received_as_active``: of the gifts received, those that came while the seat was the active
  player (A), from another player's hand (the rest came from A: cards A gave away or granted on request).
- ``donations``: cards the seat gave to the bean mafia (a variant with a mafia only).

An accepted offer may still fail to execute when the wanted cards are gone by then (TRADE-5), so
``trades`` can be below ``offers_accepted`` plus the trades the seat joined as partner.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

from .events import Answer, Donation, Offer, Trade, listening


@dataclass
class SeatTrades:
    """One seat's trading in one game (or summed over games); the fields are defined in the module."""
    offers: int = 0
    offers_accepted: int = 0
    accepts: int = 0
    declines: int = 0
    trades: int = 0
    cards_given: int = 0
    cards_received: int = 0
    gifts_given: int = 0
    gifts_received: int = 0
    gift_cards_given: int = 0
    gift_cards_received: int = 0
    gifts_received_as_active: int = 0
    donations: int = 0

    def add(self, other: "SeatTrades") -> None:
        for f in FIELDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))

    def as_dict(self) -> dict[str, int]:
        return {f: getattr(self, f) for f in FIELDS}


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(SeatTrades))


class TradeCounter:
    """Counts the trading of one game while applying its actions: call ``apply(action)`` where you
    would call ``game.apply(action)``. ``seats[p]`` is seat p's ``SeatTrades``; ``trades`` the game's
    executed trades (each counted once, not once per side)."""

    def __init__(self, game):
        self.game = game
        self.seats: list[SeatTrades] = [SeatTrades() for _ in range(game.num_players)]
        self.trades = 0
        self.offers = 0
        self._open_offer: int | None = None   # proposer of the offer being answered
        self._accepted = False

    def apply(self, action) -> None:
        """``game.apply(action)``, counting the events it causes (nothing if it raises)."""
        with listening(self.game.rules, []) as buffer:
            self.game.apply(action)
        for event in buffer:
            self._count(event)

    def _count(self, event) -> None:
        seats = self.seats
        if type(event) is Offer:
            self.offers += 1
            seats[event.proposer].offers += 1
            self._open_offer, self._accepted = event.proposer, False
        elif type(event) is Answer:
            if event.accepted:
                seats[event.seat].accepts += 1
                if not self._accepted and self._open_offer is not None:
                    seats[self._open_offer].offers_accepted += 1
                    self._accepted = True
            else:
                seats[event.seat].declines += 1
        elif type(event) is Trade:
            self.trades += 1
            active = self.game.state.active
            for seat, given, received in trade_sides(event):
                self._side(seat, given, received, seat == active)
        elif type(event) is Donation:
            seats[event.seat].donations += 1

    def _side(self, seat: int, given: tuple, received: tuple, active: bool) -> None:
        s = self.seats[seat]
        s.trades += 1
        s.cards_given += len(given)
        s.cards_received += len(received)
        if given and not received:
            s.gifts_given += 1
            s.gift_cards_given += len(given)
        elif received and not given:
            s.gifts_received += 1
            s.gift_cards_received += len(received)
            s.gifts_received_as_active += active

    def totals(self) -> dict[str, int]:
        """The game's totals: executed trades and offers once each, the rest summed over seats."""
        total = SeatTrades()
        for s in self.seats:
            total.add(s)
        out = total.as_dict()
        out["trades"], out["offers"] = self.trades, self.offers
        out["gifts"] = total.gifts_given
        out["gift_cards"] = total.gift_cards_given
        for f in ("gifts_given", "gifts_received", "gift_cards_given", "gift_cards_received",
                  "gifts_received_as_active"):
            del out[f]
        return out


def trade_sides(trade: Trade) -> tuple[tuple[int, tuple, tuple], tuple[int, tuple, tuple]]:
    """The two sides of an executed trade as ``(seat, cards it gave, cards it received)``."""
    return (trade.proposer, trade.given, trade.received), (trade.partner, trade.received, trade.given)


def gift_cards_received(events) -> dict[int, int]:
    """Cards each seat received as gifts (executed trades in which it gave nothing) among ``events``,
    for the seats that received any."""
    out: dict[int, int] = {}
    for e in events:
        if type(e) is Trade:
            for seat, given, received in trade_sides(e):
                if received and not given:
                    out[seat] = out.get(seat, 0) + len(received)
    return out


def exchanges(events) -> dict[int, int]:
    """Executed trades among ``events`` in which a seat both gave and received cards (trades that are not
    gifts), per seat, for the seats that made any."""
    out: dict[int, int] = {}
    for e in events:
        if type(e) is Trade and e.given and e.received:
            for seat in (e.proposer, e.partner):
                out[seat] = out.get(seat, 0) + 1
    return out


def count_trades(record: dict) -> TradeCounter:
    """The trade counts of a game record ``{variant, config, seed, actions}``, replayed from the set-up."""
    from .game import new_game, replay
    check = replay(record)  # validates the record; raises GameFileError naming what is wrong
    game = new_game(check.variant, check.seed, **check.config)
    counter = TradeCounter(game)
    for action in check.history:
        counter.apply(action)
    return counter



def mean_trades(rows: list[dict]) -> dict[str, float]:
    """Per-game means of seat rows (``SeatTrades.as_dict()``, one per game played); zeros for none."""
    n = len(rows)
    return {f: (sum(r.get(f, 0) for r in rows) / n if n else 0.0) for f in FIELDS}


# the per-agent columns of strength tables: short header -> field (means per game)
TABLE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("trades", "trades"), ("accepted", "accepts"), ("given", "cards_given"), ("received", "cards_received"),
    ("gifts in", "gifts_received"), ("gifts out", "gifts_given"))
DONATION_COLUMNS: tuple[tuple[str, str], ...] = (("donations", "donations"),)
TRADING_VARIANTS = ("bohnanza",)            # players trade with each other (TRADE-1..8)
DONATING_VARIANTS = ("al_cabohne", "bean_solitaire")  # players give cards to the mafia (MAF-9)


def table_columns(variant: str) -> tuple[tuple[str, str], ...]:
    """The trade-statistics columns a strength table of ``variant`` shows (none where nothing is traded)."""
    if variant in TRADING_VARIANTS:
        return TABLE_COLUMNS
    return DONATION_COLUMNS if variant in DONATING_VARIANTS else ()
