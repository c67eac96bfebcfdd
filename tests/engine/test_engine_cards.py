"""Bean types, beanometers and decks (CARD-1, CARD-2)."""
from __future__ import annotations

import pytest

from bean_env.cards import CODE, DECKS, NAMES, TYPES, coins_for, deck_without, expand

# CARD-1 table: (cards, beanometer entries for 1..4 coins)
TABLE = {
    "coffee": (24, (4, 7, 10, 12)), "wax": (22, (4, 7, 9, 11)), "blue": (20, (4, 6, 8, 10)),
    "kidney": (19, (5, 6, 7, 8)), "chili": (18, (3, 6, 8, 9)), "broad": (16, (4, 5, 6, 7)),
    "stink": (16, (3, 5, 7, 8)), "green": (14, (3, 5, 6, 7)), "cutting": (14, None),
    "runner": (13, (3, 4, 5, 6)), "soy": (12, (2, 4, 6, 7)), "black_eyed": (10, (2, 4, 5, 6)),
    "red": (8, (2, 3, 4, 5)), "garden": (6, (None, 2, 3, None)), "cocoa": (4, (None, 2, 3, 4)),
}


def test_card1_counts_and_meters_match_the_table():
    """CARD-1: every type's card count and printed beanometer."""
    assert set(NAMES) == set(TABLE)
    for name, (count, meter) in TABLE.items():
        t = TYPES[CODE[name]]
        assert t.count == count, name
        if meter is not None:
            assert t.meter == meter, name


@pytest.mark.parametrize("name", [n for n in TABLE if n != "cutting"])
def test_card1_coins_is_largest_printed_entry_not_above_n(name):
    """CARD-1: coins(n) = the largest k whose entry is a number <= n; 0 if none."""
    meter = TABLE[name][1]
    for n in range(0, 30):
        expected = max([k for k, need in enumerate(meter, 1) if need is not None and need <= n], default=0)
        assert coins_for(CODE[name], n) == expected, (name, n)


def test_card1_worked_examples():
    """CARD-1: Garden 1/2/3+ = 0/2/3, Cocoa 1..4, and the rule documents' examples."""
    g, c = CODE["garden"], CODE["cocoa"]
    assert [coins_for(g, n) for n in (1, 2, 3, 6)] == [0, 2, 3, 3]
    assert [coins_for(c, n) for n in (1, 2, 3, 4)] == [0, 2, 3, 4]
    assert coins_for(CODE["broad"], 5) == 2
    assert coins_for(CODE["green"], 5) == 2
    assert coins_for(CODE["blue"], 10) == 4
    assert coins_for(CODE["blue"], 2) == 0
    assert coins_for(CODE["chili"], 2) == 0
    assert [coins_for(CODE["stink"], n) for n in (3, 5, 7, 8)] == [1, 2, 3, 4]


def test_card2_deck_sizes_and_types():
    """CARD-2: DE 104, EN 154, AC 116, HT 118 cards with the listed types."""
    sizes = {name: sum(deck.values()) for name, deck in DECKS.items()}
    assert sizes == {"DE": 104, "EN": 154, "AC": 116, "HT": 118}
    de = {"blue", "chili", "stink", "green", "soy", "black_eyed", "red", "garden"}
    assert {NAMES[t] for t in DECKS["DE"]} == de
    assert {NAMES[t] for t in DECKS["EN"]} == de | {"coffee", "wax", "cocoa"}
    assert {NAMES[t] for t in DECKS["AC"]} == {"blue", "kidney", "chili", "broad", "stink", "green", "runner"}
    assert {NAMES[t] for t in DECKS["HT"]} == de | {"cutting"}
    assert DECKS["AC"] == {CODE[n]: TABLE[n][0] for n in ("blue", "kidney", "chili", "broad", "stink",
                                                          "green", "runner")}


def test_card2_deck_without_and_expand():
    """CARD-2: removing whole types and expanding a composition keeps the counts."""
    d = deck_without("EN", "cocoa", "garden")
    assert sum(d.values()) == 144
    cards = expand(d)
    assert len(cards) == 144 and cards == sorted(cards)
