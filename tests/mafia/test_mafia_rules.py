"""Scenario tests of the mafia variants (MAF-*) on exact positions and exact set-up decks."""
from __future__ import annotations

from collections import Counter

import pytest

from bean_env import new_game
from bean_env.cards import CODE, NAMES
from bean_env.engine import rules_for
from bean_env.engine.config import validate
from bean_env.engine.game import Game
from bean_env.engine.positions import make_position
from bean_env.engine.state import State
from helpers import assert_conserved, legal_set as legal, names
from helpers import play as _play


def play(game, *actions: str) -> None:
    _play(game, *actions, well_formed=True)


def bosses(game) -> list:
    s = game.state
    return [(NAMES[s.btype[b]], s.bcount[b]) if s.bcount[b] else None for b in range(len(s.btype))]


def pos(variant: str = "al_cabohne", phase: str = "turn_start", boss=None, treasury=0, **kw) -> Game:
    game = make_position(variant, phase=phase, areas={"bosses": boss or [], "treasury": treasury}, **kw)
    assert_conserved(game, "at the start of the position")
    return game


def setup_with_deck(variant: str, top_first: list[str]) -> Game:
    """A fresh game whose shuffled deck is ``top_first`` (then the rest of the deck)."""
    config = validate(variant, {})
    rules = rules_for(variant, config)
    if not hasattr(rules, "__dict__"):
        pytest.skip("compiled build (make test-compiled): compiled rules methods cannot be patched")
    rest = Counter(rules.composition())
    rest.subtract(Counter(CODE[n] for n in top_first))
    deck = sorted(rest.elements()) + [CODE[n] for n in reversed(top_first)]
    rules.new_deck = lambda s: setattr(s, "deck", list(deck))
    s = State(variant, config, 0, config["num_players"])
    rules.setup(s)
    game = Game(rules, s)
    assert_conserved(game, "after set-up")
    return game


DEAL10 = ["blue", "green", "blue", "green", "stink", "runner", "broad", "runner", "kidney", "kidney"]


# ---------------------------------------------------------------------------------------------------
# set-up

def test_maf3_deal_alternately_from_seat_0_and_al_takes_the_run_of_equal_cards():
    """MAF-3: 5 cards each from seat 0; Al takes the first card and the equal ones after it."""
    game = setup_with_deck("al_cabohne", DEAL10 + ["chili", "chili", "chili", "blue", "chili"])
    s = game.state
    assert names(s.hands[0]) == ["blue", "blue", "stink", "broad", "kidney"]
    assert names(s.hands[1]) == ["green", "green", "runner", "runner", "kidney"]
    assert bosses(game) == [("chili", 3), ("blue", 1)]
    assert NAMES[s.deck[-1]] == "chili"          # the card after Don's stays in the deck
    assert s.active == 0 and s.dealer == 1 and game.current_player == 0
    assert s.nfields == [2, 2] and s.limit == 3 and game.mafia_score() == 0


def test_maf3_maf2_thresholds_are_checked_once_set_up_is_done():
    """MAF-3, MAF-2: Al's run of 8 Chili is worth 3 coins, so he harvests after set-up."""
    game = setup_with_deck("al_cabohne", DEAL10 + ["chili"] * 8 + ["blue"])
    assert bosses(game) == [None, ("blue", 1)]
    assert names(game.state.treasury) == ["chili"] * 3
    assert names(game.state.discard) == ["chili"] * 5
    assert game.mafia_score() == 3


def test_maf4_solitaire_setup_joe_skips_al_and_dons_types():
    """MAF-4: 3 fields, 7 cards; cards of Al's or Don's type go to them until Joe gets a new type."""
    seven = ["blue", "green", "stink", "runner", "broad", "kidney", "chili"]
    game = setup_with_deck("bean_solitaire", seven + ["green", "green", "kidney",
                                                      "green", "kidney", "green", "stink", "blue"])
    s = game.state
    assert names(s.hands[0]) == seven
    assert s.nfields == [3] and s.limit == 1
    assert bosses(game) == [("green", 4), ("kidney", 2), ("stink", 1)]
    assert NAMES[s.deck[-1]] == "blue"
    assert game.decision == "plant"


def test_maf4_solitaire_setup_thresholds_after_set_up():
    """MAF-4, MAF-2: Al's run (checked after set-up) harvests; Don and Joe keep their single cards."""
    game = setup_with_deck("bean_solitaire", ["blue"] * 7 + ["stink"] * 7 + ["kidney", "kidney", "green"])
    assert bosses(game) == [None, ("kidney", 2), ("green", 1)]
    assert names(game.state.treasury) == ["stink"] * 3


# ---------------------------------------------------------------------------------------------------
# steps 1-3

def test_maf5_leftovers_go_to_own_fields_or_discard_one_card_at_a_time():
    """MAF-5: the opponent's face-up cards go onto own fields or the discard pile, never to the mafia;
    a stack may be split."""
    game = pos(face_up=["chili", "chili", "stink"], hands=[["green"], []], boss=[("blue", 1), ("runner", 1)])
    assert game.decision == "leftovers"
    assert legal(game) == {"plant chili on field 1", "plant chili on field 2", "plant stink on field 1",
                           "plant stink on field 2", "discard chili", "discard stink"}
    play(game, "plant chili on field 1", "discard chili")
    assert names(game.state.discard) == ["chili"]
    assert legal(game) == {"plant stink on field 2", "discard stink", "harvest field 1"}
    play(game, "plant stink on field 2")
    assert game.decision == "plant"      # no yield due: straight to step 3


def test_maf5_first_turn_has_no_leftovers_step():
    """MAF-5: skipped in the game's first turn."""
    game = new_game("al_cabohne", seed=3)
    assert game.decision in ("plant", "yield", "turn_up")


def test_maf6_yield_triggers_a_threshold_harvest():
    """MAF-6, MAF-2: one card per boss type on the player's fields, in boss order, each checked."""
    game = pos(fields=[[("chili", 3), ("blue", 2)], []], hands=[["green"], []],
               boss=[("chili", 7), ("blue", 5)])
    assert game.decision == "yield"
    assert legal(game) == {"continue", "harvest field 1", "harvest field 2"}
    play(game, "continue")
    assert bosses(game) == [None, None]
    assert names(game.state.treasury) == ["chili"] * 3 + ["blue"] * 2
    assert names(game.state.discard) == ["chili"] * 5 + ["blue"] * 4
    assert game.view(0).fields[0] == [("chili", 2), ("blue", 1)]
    assert game.decision == "plant"


def test_maf6_yield_of_a_single_card_empties_the_field():
    """MAF-6: the last card of a field can be yielded; the field is then empty."""
    game = pos(fields=[[("runner", 1), None], []], hands=[["green"], []], boss=[("kidney", 1), ("runner", 1)])
    play(game, "continue")
    assert game.view(0).fields[0] == [(None, 0), (None, 0)]
    assert bosses(game) == [("kidney", 1), ("runner", 2)]


def test_maf6_solitaire_yields_up_to_three():
    """MAF-6: up to 3 cards in solitaire, one per boss."""
    game = pos("bean_solitaire", fields=[[("chili", 2), ("blue", 2), ("green", 2)]], hands=[["stink"]],
               boss=[("chili", 1), ("blue", 1), ("green", 1)])
    play(game, "continue")
    assert bosses(game) == [("chili", 2), ("blue", 2), ("green", 2)]
    assert game.view(0).fields[0] == [("chili", 1), ("blue", 1), ("green", 1)]


def test_maf14_harvest_in_time_avoids_a_yield():
    """MAF-14: step 2 opens with a decision offering the free actions and continue."""
    game = pos(fields=[[("chili", 3), ("blue", 2)], []], hands=[["green"], []],
               boss=[("chili", 7), ("blue", 5)])
    play(game, "harvest field 1")
    assert game.decision == "yield" and len(game.state.coins[0]) == 1
    play(game, "continue")
    assert bosses(game) == [("chili", 7), None]
    assert game.view(0).fields[0] == [(None, 0), ("blue", 1)]


def test_maf14_no_yield_decision_when_nothing_is_due():
    """MAF-14: with no boss type on the player's fields, step 3 follows at once."""
    game = pos(fields=[[("green", 2), None], []], hands=[["green"], []], boss=[("chili", 1), ("blue", 1)])
    assert game.decision == "plant"
    assert legal(game) == {"plant field 1", "harvest field 1"}


def test_maf7_plant_front_card_then_optionally_the_next_and_no_gifts():
    """MAF-7: front card must be planted, the next one may be; no gifts to the mafia in step 3."""
    game = pos(hands=[["green", "stink", "kidney"], []], boss=[("chili", 1), ("blue", 1)])
    assert legal(game) == {"plant field 1", "plant field 2"}
    play(game, "plant field 1")
    assert game.decision == "plant_optional"
    assert legal(game) == {"plant field 2", "stop planting", "harvest field 1"}
    assert not any(a.kind == 22 for a in game.legal_actions())
    play(game, "plant field 2")
    assert game.decision == "turn_up"
    assert legal(game) == {"turn up", "harvest field 1", "harvest field 2"}


def test_maf7_com4_optional_second_card_may_force_a_harvest():
    """MAF-7, COM-4: the optional second card that fits no field needs a harvest first."""
    game = pos(hands=[["green", "stink"], []], fields=[[None, ("kidney", 3)], []],
               boss=[("chili", 1), ("blue", 1)])
    play(game, "plant field 1")
    assert legal(game) == {"stop planting", "harvest field 2"}
    play(game, "harvest field 2", "plant field 2")
    assert game.view(0).fields[0] == [("green", 1), ("stink", 1)]


def test_maf7_stop_planting_turns_up_at_once():
    """MAF-7: stopping ends step 3; step 4 runs."""
    game = pos(hands=[["green", "stink"], []], boss=[("chili", 1), ("blue", 1)],
               deck=["kidney", "runner", "broad"])
    play(game, "plant field 1", "stop planting")
    assert game.decision == "place"
    assert sorted(names(game.state.face_up)) == ["broad", "kidney", "runner"]


def test_com3_no_duplicate_types_on_a_players_fields():
    """COM-3: duplicates are never allowed with the mafia (no option to allow them)."""
    game = pos(hands=[["green"], []], fields=[[("green", 1), None], []], boss=[("chili", 1), ("blue", 1)])
    assert legal(game) == {"plant field 1", "harvest field 1"}
    with pytest.raises(ValueError, match="allow_duplicate_fields"):
        new_game("al_cabohne", allow_duplicate_fields=True)


# ---------------------------------------------------------------------------------------------------
# step 4: turn up three

def test_maf8_q1_replacement_chain():
    """MAF-8 Q1: a card of a boss's type goes to the boss and a replacement is turned up."""
    game = pos(phase="turn_up", boss=[("chili", 1), ("blue", 1)],
               deck=["chili", "blue", "chili", "green", "stink", "kidney", "runner"])
    play(game, "turn up")
    assert bosses(game) == [("chili", 3), ("blue", 2)]
    assert sorted(names(game.state.face_up)) == ["green", "kidney", "stink"]
    assert NAMES[game.state.deck[-1]] == "runner"
    assert game.decision == "place"


def test_maf8_q1_harvest_then_q2_moves_discards_onto_a_stack():
    """MAF-8, MAF-2: Don harvests on a turned-up card; his boss is empty, so the next Blue is face up
    and Q2 moves the harvested Blues onto it; discard cards do not count among the three."""
    game = pos(phase="turn_up", boss=[("kidney", 1), ("blue", 5)], discard=["green"],
               deck=["blue", "blue", "stink", "green", "broad"])
    play(game, "turn up")
    assert names(game.state.treasury) == ["blue", "blue"]
    assert bosses(game) == [("kidney", 1), None]
    assert Counter(names(game.state.face_up)) == {"blue": 5, "stink": 1, "green": 2}
    assert game.state.discard == []
    assert NAMES[game.state.deck[-1]] == "broad"


def test_maf8_q2_runs_after_every_discard_change():
    """MAF-8 Q2: a stack takes the matching top discard cards, repeatedly."""
    game = pos(phase="turn_up", boss=[("kidney", 1), ("blue", 1)], discard=["stink", "green", "green"],
               deck=["green", "runner", "stink"])
    play(game, "turn up")
    assert Counter(names(game.state.face_up)) == {"green": 3, "runner": 1, "stink": 2}
    assert game.state.discard == []


def test_maf8_q2_whole_stack_goes_to_the_boss_growing_its_type():
    """MAF-8 Q2: a discard card joining a stack whose type a boss grows sends the whole stack to the
    boss. (A face-up stack of a boss's type needs a constructed position: in play Q1 routes such cards.)"""
    game = pos(phase="turn_up", boss=[("chili", 2), ("blue", 1)], face_up=["chili"], discard=["chili"],
               deck=["green", "stink", "kidney"])
    play(game, "turn up")
    assert bosses(game) == [("chili", 4), ("blue", 1)]
    assert sorted(names(game.state.face_up)) == ["green", "kidney", "stink"]


def test_maf8_empty_bosses_take_nothing():
    """MAF-8: an empty boss grows nothing and takes nothing in step 4."""
    game = pos(phase="turn_up", boss=[None, ("blue", 1)], deck=["chili", "green", "stink"])
    play(game, "turn up")
    assert bosses(game) == [None, ("blue", 1)]
    assert sorted(names(game.state.face_up)) == ["chili", "green", "stink"]


def test_maf8_maf12_game_end_run_out_in_step4_no_replacement_then_step5():
    """MAF-8, MAF-12: the last card still goes to its boss (no replacement); step 5 is played, then
    the game ends and face-up cards are discarded."""
    game = pos(phase="turn_up", runouts=2, fill_deck=False, boss=[("chili", 1), ("blue", 1)],
               deck=["green", "chili"], hands=[["stink"], ["kidney"]])
    play(game, "turn up")
    assert game.state.runouts == 3 and not game.is_over
    assert game.decision == "place" and names(game.state.face_up) == ["green"]
    assert bosses(game) == [("chili", 2), ("blue", 1)]
    play(game, "done")
    assert game.is_over
    assert game.state.face_up == [] and "green" in names(game.state.discard)
    assert names(game.state.hands[0]) == ["stink"]           # no draw


def test_maf12_game_end_run_out_in_step6_ends_at_once():
    """MAF-12: the 3rd run-out while drawing ends the game at once."""
    game = pos(phase="draw", runouts=2, fill_deck=False, deck=["green"], hands=[["stink"], ["kidney"]],
               boss=[("chili", 1), ("blue", 1)])
    assert game.is_over and game.state.runouts == 3
    assert names(game.state.hands[0]) == ["stink", "green"]
    assert game.mafia_score() == 0 and bosses(game) == [None, None]


def test_maf10_com9_draw_two_and_reshuffle_below_the_limit():
    """MAF-10, COM-9: draw 2; a run-out below the limit reshuffles and the draw continues."""
    game = pos(phase="draw", runouts=1, fill_deck=False, deck=["green"], discard=["stink", "stink"],
               hands=[["kidney"], []], boss=[("chili", 1), ("blue", 1)])
    assert not game.is_over and game.state.runouts == 2
    assert names(game.state.hands[0]) == ["kidney", "green", "stink"]
    assert names(game.state.deck) == ["stink"] and game.state.discard == []
    assert game.state.active == 1 and game.state.turn == 2


# ---------------------------------------------------------------------------------------------------
# step 5: placements, gifts, filling the bosses

def test_maf9_place_stacks_on_own_fields_or_matching_or_empty_bosses():
    """MAF-9 (A), MAF-1: stacks go whole onto own fields, the boss growing the type or an empty boss
    (types stay unique); hand cards may be given the same way."""
    game = pos(phase="place", boss=[None, ("blue", 1)], face_up=["blue", "blue", "green"],
               hands=[["blue", "blue", "stink"], []], fields=[[("green", 1), None], []])
    assert legal(game) == {
        "place blue stack on field 2", "place blue stack on boss 1",
        "place green stack on field 1", "place green stack on boss 0",
        "give hand card 1 to boss 1", "give hand card 3 to boss 0", "done", "harvest field 1"}
    play(game, "place blue stack on boss 1")
    assert bosses(game) == [None, ("blue", 3)] and names(game.state.face_up) == ["green"]
    play(game, "place green stack on field 1")
    assert game.view(0).fields[0] == [("green", 2), (None, 0)]


def test_maf2_a_whole_stack_is_one_move_then_checked():
    """MAF-2: placing a stack adds all its cards, then the threshold check runs once."""
    game = pos(phase="place", boss=[("kidney", 1), ("blue", 1)], face_up=["blue"] * 5, hands=[["stink"], []])
    play(game, "place blue stack on boss 1")
    assert bosses(game) == [("kidney", 1), None]
    assert names(game.state.treasury) == ["blue", "blue"] and names(game.state.discard) == ["blue"] * 4


def test_maf9_gift_forces_a_harvest_then_the_empty_boss_is_refilled():
    """MAF-9, MAF-2: a gift makes Al harvest; ending placements then obliges a gift to empty Al."""
    game = pos(phase="place", boss=[("chili", 7), ("blue", 1)], hands=[["green", "chili", "stink"], []],
               deck=["runner", "broad"])
    play(game, "give hand card 2 to boss 0")
    assert bosses(game) == [None, ("blue", 1)] and game.mafia_score() == 3
    play(game, "done")
    assert game.decision == "fill"
    assert legal(game) == {"give hand card 1 to boss 0", "give hand card 2 to boss 0"}
    play(game, "give hand card 2 to boss 0")
    assert bosses(game) == [("stink", 1), ("blue", 1)]
    assert game.state.active == 1                       # drew and passed the turn
    assert names(game.state.hands[0]) == ["green", "runner", "broad"]
    assert game.state.known[0] == [1, 1, 1]             # nothing was shown


def test_maf9_info2_refill_fails_and_the_hand_is_shown():
    """MAF-9, INFO-2: no hand card may go to empty Al, so the hand becomes known to the opponent."""
    game = pos(phase="place", boss=[None, ("blue", 2)], hands=[["blue", "blue"], ["kidney"]],
               deck=["green", "stink"])
    play(game, "done")
    assert game.state.active == 1
    assert game.view(1).known_hands[0] == ["blue", "blue", None, None]
    assert game.view(0).known_hands[1] == [None]        # only the active player's hand is shown
    # the shown cards stay known in every determinisation of the opponent's view
    for seed in range(5):
        sample = game.view(1).sample_game(seed)
        assert names(sample.state.hands[0][:2]) == ["blue", "blue"]


def test_maf9_solitaire_fills_all_three_bosses_and_ends_placements_only_when_face_up_is_empty():
    """MAF-9: solitaire needs every face-up card placed; the fill covers all three bosses."""
    game = pos("bean_solitaire", phase="place", boss=[("chili", 1), None, None], face_up=["kidney"],
               hands=[["green", "chili", "stink"]])
    assert "done" not in legal(game)
    play(game, "place kidney stack on field 1")
    assert "done" in legal(game)
    play(game, "done")
    assert game.decision == "fill"
    assert legal(game) == {"give hand card 1 to boss 1", "give hand card 1 to boss 2",
                           "give hand card 3 to boss 1", "give hand card 3 to boss 2", "harvest field 1"}
    play(game, "give hand card 1 to boss 2")
    assert game.decision == "fill"
    assert legal(game) == {"give hand card 2 to boss 1", "harvest field 1"}
    play(game, "give hand card 2 to boss 1")
    assert bosses(game) == [("chili", 1), ("stink", 1), ("green", 1)]
    assert game.decision != "fill" and game.state.turn == 2


def test_maf2_joe_harvests_at_one_coin():
    """MAF-2, MAF-1: Joe's threshold is 1 coin."""
    game = pos("bean_solitaire", phase="place", boss=[("chili", 1), ("blue", 1), ("kidney", 4)],
               hands=[["kidney"]])
    play(game, "give hand card 1 to boss 2")
    assert bosses(game)[2] is None and names(game.state.treasury) == ["kidney"]


def test_maf9_leftover_stacks_stay_face_up_for_the_opponent():
    """MAF-9: in the 2-player game unplaced stacks stay face up for the opponent's step 1."""
    game = pos(phase="place", boss=[("chili", 1), ("blue", 1)], face_up=["green", "green"],
               hands=[["stink"], ["kidney"]], deck=["runner", "broad"])
    play(game, "done")
    assert game.state.active == 1 and game.decision == "leftovers"
    assert names(game.state.face_up) == ["green", "green"]


# ---------------------------------------------------------------------------------------------------
# harvesting and the 3rd field

def test_maf11_third_field_costs_4_and_its_coins_return_at_the_next_reshuffle():
    """MAF-11, COM-8, COM-9: the paid coins are set aside and shuffled into the next draw deck."""
    game = pos(phase="turn_up", coins=[4, 0], fill_deck=False, deck=["green"], discard=["stink"],
               boss=[("kidney", 1), ("runner", 1)], hands=[["broad"], []])
    assert "buy 3rd field" in legal(game)
    play(game, "buy 3rd field")
    assert game.state.nfields[0] == 3 and game.state.coins[0] == []
    assert names(game.state.set_aside) == ["blue"] * 4
    assert "buy 3rd field" not in legal(game)
    play(game, "turn up")
    s = game.state
    assert s.runouts == 1 and s.set_aside == []
    assert names(s.face_up)[0] == "green"
    assert Counter(names(s.face_up[1:] + s.deck)) == {"blue": 4, "stink": 1}


def test_maf11_third_field_needs_4_coins_and_is_not_sold_in_solitaire():
    """MAF-11: 3 coins are not enough; solitaire has 3 fields and no purchase."""
    game = pos(phase="turn_up", coins=[3, 9], boss=[("kidney", 1), ("runner", 1)])
    assert "buy 3rd field" not in legal(game)
    solo = pos("bean_solitaire", phase="turn_up", coins=[9], boss=[("kidney", 1)])
    assert "buy 3rd field" not in legal(solo) and solo.state.nfields == [3]


def test_maf11_com6_player_harvests_follow_the_one_card_rule_and_only_on_own_turn():
    """MAF-11, COM-6: free harvests of the active player only; one-card fields only if no bigger."""
    game = pos(phase="turn_up", fields=[[("green", 1), ("stink", 2)], [("kidney", 3), None]],
               boss=[("chili", 1), ("blue", 1)])
    assert legal(game) == {"turn up", "harvest field 2"}
    assert game.current_player == 0


def test_maf1_bosses_never_grow_the_same_type():
    """MAF-1: an empty boss cannot take a type another boss grows."""
    game = pos(phase="place", boss=[None, ("blue", 1)], hands=[["blue"], []])
    assert legal(game) == {"give hand card 1 to boss 1", "done"}


# ---------------------------------------------------------------------------------------------------
# end and scoring

def test_maf13_mafia_wins_ties_against_players():
    """MAF-13: a player needs strictly more coins than the mafia."""
    game = pos(phase="draw", runouts=2, fill_deck=False, deck=["green"], coins=[3, 2], treasury=3)
    assert game.is_over and game.scores() == [3, 2] and game.mafia_score() == 3
    assert game.winners() == []


def test_maf13_between_players_more_coins_then_more_hand_cards_then_shared():
    """MAF-13: players beating the mafia are ranked by coins, then hand cards."""
    game = pos(phase="draw", runouts=2, fill_deck=False, deck=["green"], coins=[4, 4], treasury=3,
               hands=[[], ["stink", "stink"]])
    assert game.winners() == [1]
    game = pos(phase="draw", runouts=2, fill_deck=False, deck=["green"], coins=[4, 4], treasury=3,
               hands=[[], []], active=1)
    assert game.winners() == [1]
    game = pos(phase="draw", runouts=2, fill_deck=False, deck=["green"], coins=[4, 4], treasury=3,
               hands=[[], ["stink"]], active=0)
    assert game.winners() == [0, 1]


def test_maf13_com10_final_harvest_includes_the_bosses():
    """MAF-13, COM-10: players and bosses harvest at the end; boss coins go to the treasury."""
    game = pos(phase="draw", runouts=2, fill_deck=False, deck=["green"], coins=[1, 0],
               fields=[[("stink", 3), ("kidney", 1)], []], boss=[("chili", 3), ("blue", 2)])
    assert game.is_over
    assert game.scores() == [2, 0] and game.mafia_score() == 1
    assert game.winners() == [0]


@pytest.mark.parametrize("coins, score, winners", [(5, 1, [0]), (4, 0, []), (3, -1, [])])
def test_maf13_solitaire_score_is_coins_minus_twice_the_mafia(coins, score, winners):
    """MAF-13: solitaire score = player coins - 2 x mafia coins; > 0 win, = 0 draw, < 0 loss."""
    game = pos("bean_solitaire", phase="draw", fill_deck=False, deck=["green"], coins=[coins], treasury=2)
    assert game.is_over
    assert game.mafia_score() == 2 and game.scores() == [score] and game.winners() == winners


def test_maf12_solitaire_ends_at_step5_without_drawing():
    """MAF-12: the 1st run-out in the turn-up; placements are played, then the game ends, no draw."""
    game = pos("bean_solitaire", phase="turn_up", fill_deck=False, deck=["green", "stink", "runner"],
               hands=[["kidney"]], boss=[("chili", 1), ("blue", 1), ("broad", 1)])
    play(game, "turn up")
    assert game.state.runouts == 1 and game.decision == "place" and not game.is_over
    play(game, "place green stack on field 1", "place stink stack on field 2", "place runner stack on field 3")
    play(game, "done")
    assert game.is_over and names(game.state.hands[0]) == ["kidney"]


def test_maf12_solitaire_run_out_while_drawing_ends_the_game():
    """MAF-12: the 1st run-out ends the solitaire game."""
    game = pos("bean_solitaire", phase="draw", fill_deck=False, deck=["green", "stink"], hands=[[]])
    assert game.is_over and names(game.state.hands[0]) == ["green", "stink"]


def test_maf12_two_players_play_until_the_third_run_out():
    """MAF-12: a fresh 2-player game ends exactly at its 3rd run-out; solitaire at its 1st."""
    import random
    for variant, limit in (("al_cabohne", 3), ("bean_solitaire", 1)):
        game = new_game(variant, seed=11)
        rng = random.Random(11)
        while not game.is_over:
            assert game.state.runouts < limit or game.decision in ("place", "fill")
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
        assert game.state.runouts == limit


def test_render_shows_the_mafia():
    """The text rendering lists the bosses and the treasury."""
    game = pos(boss=[("chili", 2), None], treasury=3, hands=[["green"], []])
    text = game.render()
    assert "Al Cabohne (>=3) [chili x2]" in text and "mafia coins  3" in text and "Don Corlebohne" in text


def test_com7_view_shows_the_mafia_and_coin_counts():
    """COM-7, INFO-1: the mafia's fields and treasury are public in every view."""
    game = pos(boss=[("chili", 2), None], treasury=3, coins=[1, 2], hands=[["green"], []])
    for p in range(2):
        view = game.view(p)
        assert view.mafia == {"bosses": [("chili", 2), (None, 0)], "treasury": 3}
        assert view.coins == [1, 2]
    assert new_game("bean_duel", seed=1).view(0).mafia is None


def test_positions_reject_bad_mafia_areas():
    """Positions name bad boss specs clearly."""
    with pytest.raises(ValueError, match="unknown bean type"):
        pos(boss=[("chilli", 2)])
    with pytest.raises(ValueError, match="MAF-1"):
        pos(boss=[("chili", 2), ("chili", 1)])
    with pytest.raises(ValueError, match="2 bosses"):
        pos(boss=[("chili", 2), ("blue", 1), ("green", 1)])
    with pytest.raises(ValueError, match="no extra card areas"):
        make_position("bean_duel", phase="turn_start", areas={"bosses": []})
