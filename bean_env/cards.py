"""Bean types, beanometers and decks (rules CARD-1, CARD-2, CARD-4).

Terms:
- *type*: a bean kind, coded as a small int (index into ``TYPES``). Cards of one type are
  indistinguishable, so a card is just its type code everywhere in the engine.
- *beanometer*: the minimum number of harvested cards that pay 1, 2, 3 and 4 coins; ``None`` where the
  card prints no value.
- *deck*: a multiset of types, given as ``{type: count}``.
"""
from __future__ import annotations

from typing import NamedTuple


class BeanType(NamedTuple):
    name: str            # lower-case English name used in views and str(action)
    german: str          # name on the German cards
    count: int           # cards of this type in a full deck
    meter: tuple         # beanometer: cards needed for 1..4 coins, None = not printed


# Index order is the type code. Keep stable: it is part of observations and saved games.
TYPES: tuple[BeanType, ...] = (
    BeanType("coffee", "Kaffeebohne", 24, (4, 7, 10, 12)),
    BeanType("wax", "Wachsbohne", 22, (4, 7, 9, 11)),
    BeanType("blue", "Blaue Bohne", 20, (4, 6, 8, 10)),
    BeanType("kidney", "Kidneybohne", 19, (5, 6, 7, 8)),
    BeanType("chili", "Feuerbohne", 18, (3, 6, 8, 9)),
    BeanType("broad", "Puffbohne", 16, (4, 5, 6, 7)),
    BeanType("stink", "Saubohne", 16, (3, 5, 7, 8)),
    BeanType("green", "Brechbohne", 14, (3, 5, 6, 7)),
    BeanType("cutting", "Schnittbohne", 14, (None, None, None, None)),  # paid by CARD-3, not a meter
    BeanType("runner", "Stangenbohne", 13, (3, 4, 5, 6)),
    BeanType("soy", "Sojabohne", 12, (2, 4, 6, 7)),
    BeanType("black_eyed", "Augenbohne", 10, (2, 4, 5, 6)),
    BeanType("red", "Rote Bohne", 8, (2, 3, 4, 5)),
    BeanType("garden", "Gartenbohne", 6, (None, 2, 3, None)),
    BeanType("cocoa", "Kakaobohne", 4, (None, 2, 3, 4)),
)

NUM_TYPES = len(TYPES)
NAMES: tuple[str, ...] = tuple(t.name for t in TYPES)
CODE: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
(COFFEE, WAX, BLUE, KIDNEY, CHILI, BROAD, STINK, GREEN, CUTTING, RUNNER, SOY, BLACK_EYED, RED, GARDEN,
 COCOA) = range(NUM_TYPES)


def _coin_table(meter: tuple, limit: int = 40) -> tuple[int, ...]:
    """coins(n) for n = 0..limit-1: the largest k whose printed entry is <= n (CARD-1)."""
    table = []
    for n in range(limit):
        coins = 0
        for k, need in enumerate(meter, start=1):
            if need is not None and need <= n:
                coins = k
        table.append(coins)
    return tuple(table)


_COIN_TABLES = tuple(_coin_table(t.meter) for t in TYPES)


def coins_for(bean: int, n: int) -> int:
    """Coins the beanometer of ``bean`` pays for ``n`` harvested cards (0 for Schnittbohne)."""
    table = _COIN_TABLES[bean]
    return table[n] if n < len(table) else table[-1]


def handicap(bean: int) -> int:
    """Handicap value (CARD-4): the type's card count, 4 for Schnittbohne."""
    return 4 if bean == CUTTING else TYPES[bean].count


def _deck(*names: str) -> dict[int, int]:
    return {CODE[n]: TYPES[CODE[n]].count for n in names}


_DE_NAMES = ("blue", "chili", "stink", "green", "soy", "black_eyed", "red", "garden")

# CARD-2 decks, as {type: count}.
DECKS: dict[str, dict[int, int]] = {
    "DE": _deck(*_DE_NAMES),
    "EN": _deck("coffee", "wax", *_DE_NAMES, "cocoa"),
    "AC": _deck("blue", "kidney", "chili", "broad", "stink", "green", "runner"),
    "HT": _deck(*_DE_NAMES, "cutting"),
}


def deck_without(deck: str, *removed: str) -> dict[int, int]:
    """A CARD-2 deck with whole types removed (player-count removals, BASE-2 / DUEL-1)."""
    drop = {CODE[n] for n in removed}
    return {t: c for t, c in DECKS[deck].items() if t not in drop}


def expand(composition: dict[int, int]) -> list[int]:
    """The deck as a list of type codes, in type order (shuffle it before use)."""
    cards: list[int] = []
    for bean in sorted(composition):
        cards.extend([bean] * composition[bean])
    return cards
