"""Rules changes of v2.1 in the base game's mechanics: BASE-9 (the harvest window also opens when the
draw needs exactly the cards the deck holds) and COM-9 (one draw from an empty deck with an empty
discard pile counts the run-outs up to the limit)."""
from __future__ import annotations

import pytest

from bean_env.cards import CODE
from bean_env.engine.positions import make_position
from helpers import assert_conserved, legal_set as legal, play


def pos(phase: str, n: int = 3, **kw):
    kw.setdefault("max_trade_rounds", 0)
    kw.setdefault("fill_deck", False)
    return make_position("bohnanza", phase=phase, num_players=n, **kw)


# BASE-9 --------------------------------------------------------------------------------------------------
def test_base9_window_before_a_turn_up_of_exactly_the_deck():
    """BASE-9 (v2.1): the turn-up needs 2 cards and the deck holds exactly 2: the run-out happens when
    the second is taken, so the harvest window opens first, clockwise from the active player."""
    g = pos("turn_up", active=1, hands=[["blue"], ["red"], ["soy"]], deck=["green", "stink"],
            discard=["chili", "chili"], fields=[[("garden", 2), None], [], []])
    assert (g.decision, g.current_player) == ("harvest_window", 1)
    play(g, "done", "done")
    assert (g.decision, g.current_player) == ("harvest_window", 0)
    assert legal(g) == {"harvest field 1", "done"}
    play(g, "harvest field 1", "done")
    # both cards were turned up (kept: no trading rounds); the second ran the deck out and the discard
    # pile became the new deck
    assert g.state.runouts == 1 and g.decision == "plant_traded"
    assert sorted(g.state.to_plant[1]) == sorted([CODE["green"], CODE["stink"]])
    assert g.state.discard == [] and CODE["chili"] in g.state.deck
    assert_conserved(g)


def test_base9_window_before_a_draw_of_exactly_the_deck():
    """BASE-9 (v2.1): the draw phase needs 3 cards (German) and the deck holds exactly 3: window."""
    g = pos("draw", hands=[["blue"], ["red"], []], deck=["red", "soy", "green"], discard=["soy"])
    assert (g.decision, g.current_player) == ("harvest_window", 0)
    play(g, "done", "done", "done")
    assert g.state.runouts == 1 and len(g.state.hands[0]) == 4
    assert (g.decision, g.state.active) == ("plant", 1)
    assert_conserved(g)


@pytest.mark.parametrize("held,window", [(3, True), (4, True), (5, False)])
def test_base9_english_big_game_draws_four(held, window):
    """BASE-8/BASE-9: with 6-7 players (English) the draw is 4 cards, so a deck of 4 or fewer opens the
    window and a deck of 5 does not."""
    deck = ["red", "soy", "green", "stink", "chili"][:held]
    g = make_position("bohnanza", phase="draw", num_players=6, edition="english", max_trade_rounds=0,
                      hands=[["blue"]] * 6, deck=deck, discard=["soy"], fill_deck=False)
    assert (g.decision == "harvest_window") == window


def test_base9_one_card_more_than_the_draw_needs_opens_no_window():
    """BASE-9: the deck holds 3 and the turn-up takes 2: nothing runs out, no window."""
    g = pos("turn_up", hands=[["blue"], ["red"], ["soy"]], deck=["green", "stink", "red"], discard=["chili"])
    assert g.decision == "plant_traded" and g.state.runouts == 0


def test_base9_no_window_when_exactly_the_deck_is_drawn_at_the_game_end_run_out():
    """BASE-9: the draw takes exactly the deck but that run-out ends the game: no window, the game ends
    (BASE-10: in the draw phase at once)."""
    g = pos("draw", hands=[["blue"], [], []], deck=["red", "soy", "green"], discard=["soy"], runouts=2)
    assert g.is_over and g.state.runouts == 3
    assert_conserved(g)


# COM-9 ---------------------------------------------------------------------------------------------------
def test_com9_one_draw_from_an_empty_deck_and_discard_counts_every_run_out():
    """COM-9 (v2.1): with deck and discard pile both empty, one draw counts run-outs up to the limit:
    the game ends in that draw (BASE-10: the draw phase ends the game at once)."""
    g = pos("draw", hands=[["blue"], ["red"], []], deck=[], discard=[])
    assert (g.decision, g.state.runouts) == ("harvest_window", 0)   # BASE-9: the run-out is not the last
    play(g, "done", "done", "done")
    assert g.is_over and g.state.runouts == 3 and g.state.hands[0] == [g.state.hands[0][0]]
    assert_conserved(g)


def test_com9_empty_turn_up_counts_every_run_out_then_finishes_the_phase():
    """COM-9 (v2.1) and BASE-10: the turn-up finds deck and discard pile empty: one draw reaches the
    limit, no card is turned up, trading and planting traded cards still happen, then the game ends."""
    g = pos("turn_up", hands=[["blue"], ["red"], ["soy"]], deck=[], discard=[], runouts=1,
            to_plant=[["chili"], [], []])
    assert g.decision == "harvest_window"
    play(g, "done", "done", "done")
    assert g.state.runouts == 3 and g.state.face_up == [] and not g.is_over
    assert g.decision == "plant_traded"
    play(g, "plant chili on field 1")
    assert g.is_over
    assert_conserved(g)


def test_com9_after_the_limit_no_further_run_outs_are_counted():
    """COM-9: after the game-end run-out, draws take what is there and count nothing more."""
    g = pos("turn_up", hands=[["blue"], ["red"], ["soy"]], deck=["green"], discard=[], runouts=2,
            max_trade_rounds=1)
    assert g.state.runouts == 3 and [c for c in g.state.face_up] and g.state.deck == []
    assert not g.is_over
