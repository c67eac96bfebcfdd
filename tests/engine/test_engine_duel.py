"""Scenario tests of `bean_duel` (DUEL-1..7) on exact positions."""
from __future__ import annotations

import random

from bean_env import new_game
from bean_env.cards import NAMES
from bean_env.engine.positions import make_position
from helpers import legal_set as legal, names, play


def duel(phase, **kw):
    return make_position("bean_duel", phase=phase, **kw)


def test_duel1_deck_deal_and_starting_player():
    """DUEL-1: English deck without Cocoa and Garden (144 cards), 5 cards each, starting player by
    seed (both seats start in some games)."""
    starters = set()
    for seed in range(12):
        g = new_game("bean_duel", seed=seed)
        assert sum(g.rules.composition().values()) == 144
        assert not {"cocoa", "garden"} & {NAMES[t] for t in g.rules.composition()}
        assert [len(h) for h in g.state.hands] == [5, 5]
        assert g.state.active == 1 - g.state.dealer == g.current_player
        assert g.decision == "plant"  # DUEL-3: no leftovers step in the first turn
        starters.add(g.state.active)
    assert starters == {0, 1}


def test_duel2_third_field_costs_three_coins_that_leave_the_game():
    """DUEL-2: the 3rd field costs 3 coins, which are removed from the game."""
    g = duel("turn_up", hands=[["blue"], ["red"]], coins=[["soy", "red", "wax", "stink"], []])
    assert "buy 3rd field" in legal(g)
    play(g, "buy 3rd field")
    assert names(g.state.coins[0]) == ["soy"]
    assert names(g.state.removed) == ["red", "wax", "stink"] and g.state.discard == []
    assert g.state.nfields[0] == 3 and "buy 3rd field" not in legal(g)


def test_duel2_free_actions_only_on_the_active_players_turn():
    """DUEL-2: every decision point belongs to the active player, so the opponent never harvests."""
    for seed in range(4):
        g = new_game("bean_duel", seed=seed)
        r = random.Random(seed)
        while not g.is_over:
            assert g.current_player == g.state.active
            g.apply(r.choice(g.legal_actions()))


def test_duel2_game_ends_at_the_first_run_out():
    """DUEL-2: the game ends at the first run-out."""
    g = new_game("bean_duel", seed=4)
    r = random.Random(4)
    while not g.is_over:
        assert g.state.runouts == 0
        g.apply(r.choice(g.legal_actions()))
    assert g.state.runouts == 1 and g.state.limit == 1


def test_duel3_leftovers_planted_or_discarded_one_per_decision():
    """DUEL-3: the opponent's face-up leftovers are planted or discarded, one card per decision, in
    the player's order; then step 2."""
    g = duel("turn_start", hands=[["soy", "blue"], ["red"]], face_up=["red", "chili", "chili"],
             fields=[[("chili", 2), None], []])
    assert g.decision == "leftovers"
    assert legal(g) == {"plant chili on field 1", "plant chili on field 2", "plant red on field 2",
                        "discard chili", "discard red", "harvest field 1"}
    play(g, "discard chili")
    assert names(g.state.discard) == ["chili"]
    play(g, "plant chili on field 1")
    assert g.view(0).fields[0][0] == ("chili", 3)
    play(g, "plant red on field 2")
    assert g.decision == "plant"  # step 2


def test_duel3_com4_leftover_that_fits_nowhere_forces_harvest_or_discard():
    """DUEL-3 / COM-4: a leftover that fits no field needs a harvest first, or is discarded."""
    g = duel("turn_start", hands=[["soy"], []], face_up=["red"],
             fields=[[("chili", 2), ("wax", 1)], []])
    assert legal(g) == {"discard red", "harvest field 1"}


def test_duel4_plant_then_discard_any_hand_card_or_not():
    """DUEL-4: plant the front card, optionally the next, then discard one hand card from any
    position (others keep their order) or none."""
    g = duel("turn_start", hands=[["soy", "blue", "red", "wax", "red"], []])
    play(g, "plant field 1")
    assert legal(g) == {"plant field 2", "stop planting", "harvest field 1"}
    play(g, "stop planting")
    assert g.decision == "discard_hand"
    assert legal(g) == {"discard hand card 1", "discard hand card 2", "discard hand card 3",
                        "discard hand card 4", "discard nothing", "harvest field 1"}
    play(g, "discard hand card 3")
    assert g.view(0).hand == ["blue", "red", "red"] and names(g.state.discard) == ["wax"]
    assert g.decision == "turn_up"


def test_duel4_discard_nothing():
    """DUEL-4: the player may keep the whole hand."""
    g = duel("turn_start", hands=[["soy", "blue", "red"], []])
    play(g, "plant field 1", "plant field 2")
    assert g.decision == "discard_hand"
    play(g, "discard nothing")
    assert g.decision == "turn_up" and g.state.discard == []


def test_duel5_step3_opens_with_a_decision_then_turns_up_three():
    """DUEL-5: step 3 opens with a decision point (free actions or turn up); three cards are turned up."""
    g = duel("turn_up", hands=[["soy"], []], fields=[[("chili", 2), None], []], coins=[3, 0],
             deck=["red", "blue", "wax"])
    assert legal(g) == {"turn up", "harvest field 1", "buy 3rd field"}
    play(g, "turn up")
    assert g.decision == "plant_face_up" and sorted(names(g.state.face_up)) == ["blue", "red", "wax"]


def test_duel5_matching_discard_turn_up_repeats():
    """DUEL-5: while the top discard card has the type of a face-up card it joins the face-up cards."""
    g = duel("turn_up", hands=[["soy"], []], deck=["red", "chili", "wax"],
             discard=["soy", "wax", "chili", "wax"])
    play(g, "turn up")
    assert sorted(names(g.state.face_up)) == ["chili", "chili", "red", "wax", "wax", "wax"]
    assert names(g.state.discard) == ["soy"]


def test_duel5_no_match_keeps_the_discard_pile():
    """DUEL-5: a top discard card of another type stops the matching at once."""
    g = duel("turn_up", hands=[["soy"], []], deck=["red", "chili", "wax"], discard=["wax", "soy"])
    play(g, "turn up")
    assert sorted(names(g.state.face_up)) == ["chili", "red", "wax"]
    assert names(g.state.discard) == ["wax", "soy"]


def test_duel5_plant_face_up_split_types_and_leave_the_rest():
    """DUEL-5: face-up cards are planted one per decision (a type may be split) until done; the rest
    stay face up for the opponent, who must deal with them in step 1 (DUEL-3)."""
    g = duel("turn_up", hands=[["soy"], ["blue"]], deck=["red", "red", "wax", "stink", "stink"])
    play(g, "turn up", "plant red on field 1")
    assert sorted(names(g.state.face_up)) == ["red", "wax"]
    assert "done" in legal(g)
    play(g, "done")
    # step 4: draw 2; then the opponent's turn starts with the leftovers
    assert g.view(0).hand == ["soy", "stink", "stink"]
    assert (g.decision, g.current_player) == ("leftovers", 1)
    assert sorted(g.view(1).face_up) == ["red", "wax"]


def test_duel5_harvest_leftovers_after_matching_are_not_matched():
    """DUEL-5: cards discarded after the matching (by a harvest) do not join the face-up cards."""
    g = duel("turn_up", hands=[["soy"], []], deck=["red", "chili", "wax"],
             fields=[[("red", 3), None], []])
    play(g, "turn up", "harvest field 1")
    assert names(g.state.discard) == ["red"]  # red 3 = 2 coins, one card to the discard pile
    assert sorted(names(g.state.face_up)) == ["chili", "red", "wax"]


def test_duel5_com4_face_up_card_that_fits_nowhere():
    """DUEL-5 / COM-4: a face-up card fitting no field can be planted only after a harvest."""
    g = duel("turn_up", hands=[["soy"], []], deck=["red", "red", "red"],
             fields=[[("wax", 2), ("chili", 2)], []])
    play(g, "turn up")
    assert legal(g) == {"done", "harvest field 1", "harvest field 2"}


def test_duel6_draw_two_onto_the_back():
    """DUEL-6: step 4 draws 2 cards onto the back of the hand."""
    g = duel("draw", hands=[["soy", "blue"], ["wax"]], deck=["red", "chili", "green"])
    assert g.view(0).hand == ["soy", "blue", "red", "chili"]
    assert g.state.active == 1 and g.decision == "plant"


def test_duel7_run_out_during_step3():
    """DUEL-7: a run-out during the turn-up: the matching still runs, step 3 is finished, the cards
    left face up are discarded, the game ends."""
    g = duel("turn_up", hands=[["soy"], []], deck=["red", "wax"], fill_deck=False, discard=["wax"],
             fields=[[None, None], [("chili", 3), None]])
    play(g, "turn up")
    assert not g.is_over and g.state.runouts == 1
    assert sorted(names(g.state.face_up)) == ["red", "wax", "wax"]
    play(g, "plant wax on field 1")
    assert g.decision == "plant_face_up"
    play(g, "done")
    assert g.is_over
    assert g.state.face_up == [] and sorted(names(g.state.discard)) == ["chili", "chili", "red", "wax", "wax"]
    assert g.scores() == [0, 1]
    assert g.winners() == [1]


def test_duel7_run_out_during_step4_ends_at_once():
    """DUEL-7: a run-out during the draw ends the game at once; cards are final-harvested."""
    g = duel("draw", hands=[["soy"], ["wax"]], deck=["red"], fill_deck=False,
             fields=[[("soy", 4), None], [("wax", 4), None]], face_up=[])
    assert g.is_over
    assert g.view(0).hand == ["soy", "red"]
    assert g.scores() == [2, 1]


def test_duel7_base11_tie_break_on_hand_cards():
    """DUEL-7 / BASE-11: equal coins: more hand cards wins."""
    g = duel("draw", hands=[["soy"], ["wax", "wax", "wax"]], deck=["red"], fill_deck=False,
             fields=[[("soy", 2), None], [("red", 2), None]])
    assert g.is_over and g.scores() == [1, 1]
    assert g.winners() == [1]
