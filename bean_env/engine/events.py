"""What the rules report while they step: offers, answers, executed trades and donations.

A rules object records events only while its ``events`` attribute is a list (``None``, the default,
records nothing and costs one attribute test per event point). ``listening`` sets the list around the
steps a caller makes: ``trade_stats.TradeCounter`` around one ``Game.apply``, the trainers around their
env's steps only (an agent's search plays on clones that share the rules object).

Terms:
- *offer*: a submitted offer (TRADE-2), by types: ``give`` the proposer's cards, ``want`` the wanted types.
- *answer*: one addressee's accept or decline (TRADE-4).
- *trade*: an executed offer (TRADE-5): the cards that really changed hands, by types. A trade in which
  one side gives nothing is a *gift* (TRADE-2: "want empty = a gift"; a request for a gift, answered).
- *donation*: a hand card given to the bean mafia (MAF-9), for nothing by nature.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, NamedTuple


class Offer(NamedTuple):
    proposer: int
    to: int            # the addressee seat, or ``actions.ALL``
    give: tuple        # types the proposer offers (sorted)
    want: tuple        # types wanted from the addressee (sorted)


class Answer(NamedTuple):
    seat: int
    accepted: bool


class Trade(NamedTuple):
    proposer: int
    partner: int
    given: tuple       # types the proposer handed over (sorted)
    received: tuple    # types the partner handed over (sorted)


class Donation(NamedTuple):
    seat: int
    bean: int          # the type given
    boss: int          # the mafia boss (0-2) that received it


@contextmanager
def listening(rules, events: list) -> Iterator[list]:
    """Within the block ``rules`` appends what it reports to ``events``; afterwards it listens as before."""
    before, rules.events = rules.events, events
    try:
        yield events
    finally:
        rules.events = before
