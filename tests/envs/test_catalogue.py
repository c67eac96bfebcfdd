"""The action catalogue: Discrete(n) <-> engine actions, one mapping per variant config (AGT-1, AGT-2)."""
from __future__ import annotations

import pytest
from envcases import CASES, case_id

from bean_env import new_game
from bean_env.engine.actions import ALL, Action, Kind
from bean_env.engine.catalogue import ActionCatalogue, Span, catalogue_for, catalogue_of


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_round_trip_every_index_and_seat(case):
    variant, cfg = case
    cat = catalogue_for(variant, cfg)
    for actor in range(cat.num_players):
        for i in range(cat.size):
            action = cat.decode(i, actor)
            assert isinstance(action, Action)
            assert cat.encode(action, actor) == i
        assert len({cat.decode(i, actor) for i in range(cat.size)}) == cat.size


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_layout_is_contiguous_and_complete(case):
    variant, cfg = case
    cat = catalogue_for(variant, cfg)
    layout = cat.layout()
    assert layout[0][0] == 0 and layout[-1][1] == cat.size
    for (_, stop, _, _), (start, _, _, _) in zip(layout, layout[1:]):
        assert stop == start


@pytest.mark.parametrize("case", [c for c in CASES if c[0] == "bohnanza"], ids=case_id)
def test_hand_positions_reach_the_deck_size_trade_2(case):
    """TRADE-2: any hand card may be given, so GIVE_HAND covers every position a hand can have."""
    variant, cfg = case
    game = new_game(variant, seed=0, **cfg)
    cards = sum(game.rules.composition().values())
    cat = catalogue_of(game)
    assert cat.covers(Action(Kind.GIVE_HAND, cards - 1), 0)
    assert not cat.covers(Action(Kind.GIVE_HAND, cards), 0)


def test_duel_discard_positions_reach_the_deck_size_duel_4():
    """DUEL-4: a hand card at any position may be discarded."""
    game = new_game("bean_duel", seed=0)
    cards = sum(game.rules.composition().values())
    assert catalogue_of(game).covers(Action(Kind.DISCARD_HAND, cards - 1), 1)


def test_seats_are_relative_to_the_actor():
    """Offer targets are seat offsets: 'offer to my left neighbour' is one integer at every seat."""
    cat = catalogue_for("bohnanza", {"num_players": 4})
    left = [cat.encode(Action(Kind.OFFER, (p + 1) % 4), p) for p in range(4)]
    assert len(set(left)) == 1
    everyone = [cat.encode(Action(Kind.OFFER, ALL), p) for p in range(4)]
    assert len(set(everyone)) == 1
    assert cat.decode(left[0], 3) == Action(Kind.OFFER, 0)
    assert not cat.covers(Action(Kind.OFFER, 2), 2)  # nobody offers to themselves


def test_config_changes_the_catalogue():
    german = catalogue_for("bohnanza", {"edition": "german", "num_players": 4})
    english = catalogue_for("bohnanza", {"edition": "english", "num_players": 4})
    assert english.size > german.size
    assert catalogue_for("bohnanza", {"edition": "german", "num_players": 4}) is german  # cached


def test_bad_declarations_are_rejected():
    with pytest.raises(ValueError, match="twice"):
        ActionCatalogue([Span(Kind.PASS), Span(Kind.PASS)], 2)
    with pytest.raises(ValueError, match="seat-relative"):
        ActionCatalogue([Span(Kind.PICK, (1,), seat=True), Span(Kind.PICK, (0,))], 2)
    with pytest.raises(ValueError, match="num_players"):
        catalogue_for("bohnanza", {"num_players": 9})
