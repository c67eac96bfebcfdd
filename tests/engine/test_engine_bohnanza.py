"""Scenario tests of the common mechanics (COM-*) and the base game (BASE-*) on exact positions."""
from __future__ import annotations

import random

import pytest

from bean_env import new_game
from bean_env.cards import NAMES, expand
from bean_env.engine.positions import make_position
from helpers import assert_conserved, legal_set as legal, names, play


def fields(game, p: int) -> list:
    return game.view(p).fields[p]


def pos(phase="plant", n=3, **kw):
    kw.setdefault("max_trade_rounds", 0)
    return make_position("bohnanza", phase=phase, num_players=n, **kw)


# ---------------------------------------------------------------------------------------------------
# COM: fields, fitting, harvesting


def test_com1_planting_takes_the_front_card_and_draws_go_to_the_back():
    """COM-1: the hand is a queue: plant from the front, draw onto the back, order kept."""
    g = pos(hands=[["blue", "chili", "soy", "red"], [], []], deck=["garden", "stink", "green", "wax"][:3])
    play(g, "plant field 1")
    assert g.view(0).hand == ["chili", "soy", "red"]
    play(g, "plant field 2")
    assert g.view(0).hand == ["soy", "red"]
    assert fields(g, 0) == [("blue", 1), ("chili", 1)]
    # trade phase with no trading: the two turned-up cards go to the cards to plant
    assert g.decision == "plant_traded"
    assert sorted(g.view(0).to_plant[0]) == ["garden", "stink"]
    play(g, "harvest field 1", "plant garden on field 1", "harvest field 2", "plant stink on field 2")
    # draw phase: 3 cards onto the back, top card first
    assert g.view(0).hand[:2] == ["soy", "red"] and g.view(0).hand[2] == "green"
    assert len(g.view(0).hand) == 5


def test_com2_fields_pile_one_type_and_count_cards():
    """COM-2: a field holds any number of cards of one type."""
    g = pos(hands=[["blue", "blue"], [], []], fields=[[("blue", 4), None], [], []])
    play(g, "plant field 1", "plant field 1")
    assert fields(g, 0) == [("blue", 6), (None, 0)]


def test_com3_fitting_with_duplicate_fields_allowed_by_default():
    """COM-3: a card fits a field of its type or an empty field; duplicates allowed by default."""
    g = pos(hands=[["blue"], [], []], fields=[[("blue", 2), None], [], []])
    assert legal(g) == {"plant field 1", "plant field 2", "harvest field 1"}


def test_com3_fitting_without_duplicate_fields():
    """COM-3: with allow_duplicate_fields=False a card of a growing type must go onto that field."""
    g = pos(hands=[["blue"], [], []], fields=[[("blue", 2), None], [], []], allow_duplicate_fields=False)
    assert legal(g) == {"plant field 1", "harvest field 1"}
    g = pos(hands=[["chili"], [], []], fields=[[("blue", 2), None], [], []], allow_duplicate_fields=False)
    assert legal(g) == {"plant field 2", "harvest field 1"}


def test_com4_forced_harvest_when_front_card_fits_nowhere():
    """COM-4: a card that fits no field forces a harvest first (only harvests are legal)."""
    g = pos(hands=[["soy", "blue"], [], []], fields=[[("chili", 2), ("stink", 1)], [], []])
    assert legal(g) == {"harvest field 1"}  # COM-6: the one-card stink field cannot be harvested
    play(g, "harvest field 1")
    assert g.decision == "plant" and g.current_player == 0  # COM-13: decide again at the same point
    assert legal(g) == {"plant field 1", "harvest field 2"}


def test_com4_forced_harvest_applies_to_the_optional_second_card():
    """COM-4: the optional second hand card that fits nowhere needs a harvest, or stop planting."""
    g = pos(hands=[["chili", "soy"], [], []], fields=[[("chili", 2), ("stink", 3)], [], []])
    play(g, "plant field 1")
    assert g.decision == "plant_optional"
    assert legal(g) == {"stop planting", "harvest field 1", "harvest field 2"}
    play(g, "harvest field 2")
    assert legal(g) == {"plant field 2", "stop planting", "harvest field 1"}


def test_com4_forced_harvest_or_buy_third_field():
    """COM-4 with COM-8: a player with the cost may buy a 3rd field instead of harvesting."""
    g = pos(hands=[["soy"], [], []], fields=[[("chili", 2), ("stink", 2)], [], []], coins=[3, 0, 0])
    assert legal(g) == {"harvest field 1", "harvest field 2", "buy 3rd field"}
    play(g, "buy 3rd field")
    assert legal(g) == {"plant field 3", "harvest field 1", "harvest field 2"}


def test_com4_forced_harvest_when_planting_traded_cards():
    """COM-4 / BASE-7: each card to plant that fits nowhere forces a harvest."""
    g = pos("plant_traded", fields=[[("chili", 2), ("stink", 3)], [], []], to_plant=[["red"], [], []])
    assert legal(g) == {"harvest field 1", "harvest field 2"}


def test_com5_harvest_sells_coins_and_discards_the_rest():
    """COM-5: coins by the beanometer go to the coin stack, the rest onto the discard pile."""
    g = pos(hands=[["blue"], [], []], fields=[[("stink", 5), ("chili", 1)], [], []], coins=[["red"], [], []])
    play(g, "harvest field 1")
    assert names(g.state.coins[0]) == ["red", "stink", "stink"]
    assert names(g.state.discard) == ["stink"] * 3
    assert fields(g, 0) == [(None, 0), ("chili", 1)]
    assert g.scores()[0] == 3


def test_com5_harvest_takes_one_field_even_if_the_type_grows_twice():
    """COM-5: a harvest takes one field, even when the same type grows on another."""
    g = pos(hands=[["soy"], [], []], fields=[[("blue", 4), ("blue", 6)], [], []])
    play(g, "harvest field 2")
    assert fields(g, 0) == [("blue", 4), (None, 0)]
    assert g.scores()[0] == 2


def test_com6_one_card_rule():
    """COM-6: a one-card field is harvestable only if no field holds two or more; empty never."""
    g = pos(hands=[["soy"], [], []], fields=[[("blue", 1), ("chili", 2)], [], []])
    assert "harvest field 1" not in legal(g) and "harvest field 2" in legal(g)
    g = pos(hands=[["soy"], [], []], fields=[[("blue", 1), ("chili", 1)], [], []])
    assert {"harvest field 1", "harvest field 2"} <= legal(g)
    g = pos(hands=[["soy"], [], []], fields=[[("blue", 1), None], [], []])
    assert legal(g) == {"plant field 2", "harvest field 1"}
    g = pos(hands=[["soy"], [], []])
    assert not any(a.startswith("harvest") for a in legal(g))


def test_com6_final_harvest_ignores_the_one_card_rule():
    """COM-6 / COM-10: the final harvest takes every field whatever its size."""
    g = pos("draw", fields=[[("soy", 2), ("red", 1)], [("garden", 3), None], [("blue", 1), None]],
            hands=[["red"], ["blue"], []], deck=["chili"], fill_deck=False, runouts=2)
    assert g.is_over
    assert g.scores() == [1, 3, 0]  # soy 2 = 1, red 1 = 0 (sold anyway), garden 3 = 3, blue 1 = 0
    assert all(c == 0 for c in g.state.fcount)
    assert_conserved(g)


def test_com7_coin_counts_are_public():
    """COM-7: every player's view shows every player's coin count."""
    g = pos(coins=[2, 5, 1], hands=[["blue"], [], []])
    for p in range(3):
        assert g.view(p).coins == [2, 5, 1]


@pytest.mark.parametrize("edition,n,cost", [("german", 3, 3), ("german", 5, 3), ("english", 4, 3),
                                            ("english", 5, 3), ("english", 6, 2), ("english", 7, 2)])
def test_com8_base2_third_field_cost_per_player_count(edition, n, cost):
    """COM-8 / BASE-2: the 3rd field costs 3 coins (German; English 4-5) or 2 (English 6-7)."""
    hands = [["blue"]] + [[] for _ in range(n - 1)]
    poor = make_position("bohnanza", phase="plant", edition=edition, num_players=n, hands=hands,
                         coins=[cost - 1] + [0] * (n - 1))
    assert "buy 3rd field" not in legal(poor)
    stack = ["red", "soy", "black_eyed", "green"][-(cost + 1):]  # one coin more than the cost
    rich = make_position("bohnanza", phase="plant", edition=edition, num_players=n, hands=hands,
                         coins=[stack] + [0] * (n - 1))
    assert "buy 3rd field" in legal(rich)
    before = names(rich.state.coins[0])
    play(rich, "buy 3rd field")
    # the paid coins are the top of the stack and go onto the discard pile
    assert names(rich.state.coins[0]) == before[:1]
    assert names(rich.state.discard) == before[1:]
    assert rich.state.nfields[0] == 3
    assert "buy 3rd field" not in legal(rich)  # once per game; nobody owns more than 3 fields
    assert "plant field 3" in legal(rich)


def test_com8_base2_english_three_players_start_with_a_free_third_field():
    """COM-8 / BASE-2: English 3 players: everyone has 3 fields from the start; none can be bought."""
    g = new_game("bohnanza", seed=3, edition="english", num_players=3)
    assert g.state.nfields == [3, 3, 3]
    g = make_position("bohnanza", phase="plant", edition="english", num_players=3,
                      hands=[["blue"], [], []], coins=[9, 0, 0])
    assert "buy 3rd field" not in legal(g)
    assert legal(g) == {"plant field 1", "plant field 2", "plant field 3"}


def test_com9_run_out_reshuffles_discard_and_continues_the_draw():
    """COM-9: the last deck card is drawn normally; the discard pile becomes the new deck at once and
    the draw continues from it; the run-out is counted."""
    g = pos("draw", hands=[["blue"], ["wax"], []], deck=["red"], fill_deck=False,
            discard=["soy", "soy", "green", "green", "green"], edition="english")
    assert g.decision == "harvest_window"  # BASE-9: the draw needs 3 cards, the deck holds 1
    play(g, "done", "done", "done")
    assert g.state.runouts == 1
    hand = g.view(0).hand
    assert hand[:2] == ["blue", "red"] and len(hand) == 4
    assert sorted(hand[2:] + names(g.state.deck)) == ["green"] * 3 + ["soy"] * 2
    assert g.state.discard == [] and len(g.state.deck) == 3
    assert g.state.active == 1 and g.decision == "plant"


def test_com9_empty_discard_at_reshuffle_counts_further_run_outs_and_ends():
    """COM-9 / BASE-10: drawing from an empty deck before the limit counts as a run-out, so the game
    always ends; at the game-end run-out during the draw phase the game ends at once."""
    g = pos("draw", hands=[["blue"], [], []], deck=["red"], fill_deck=False, runouts=1)
    play(g, "done", "done", "done")
    assert g.is_over
    assert g.state.runouts == 3
    assert g.view(0).hand == ["blue", "red"]


def test_com10_final_harvest_and_hand_cards_worth_nothing():
    """COM-10: at the end every field is sold; hand cards are worth nothing."""
    g = pos("draw", fields=[[("blue", 10), ("garden", 1)], [("chili", 3), None], [None, None]],
            hands=[["soy"] * 6, ["red"], []], deck=["green", "green", "green"], fill_deck=False, runouts=2)
    assert g.is_over and g.decision == "game_over" and g.current_player == -1
    assert g.scores() == [4, 1, 0]
    assert len(g.state.hands[0]) == 9  # drew all three, the last one ran out the deck


def test_com11_base11_shared_win_when_coins_and_hand_cards_tie():
    """COM-11 / BASE-11: players tied on coins and hand cards share the win."""
    g = pos("draw", fields=[[("red", 2), None], [("red", 2), None], [None, None]],
            hands=[["soy"], ["blue", "green", "green"], []], deck=["green", "stink"], fill_deck=False,
            runouts=2)
    # seat 0 draws 2 cards (the second runs out the deck): 3 hand cards like seat 1
    assert g.is_over
    assert g.scores() == [1, 1, 0]
    assert g.winners() == [0, 1]


def test_base11_tie_break_on_hand_cards():
    """BASE-11: most coins wins; tie-break most cards in hand."""
    g = pos("draw", fields=[[("red", 2), None], [("red", 2), None], [("soy", 2), None]],
            hands=[["soy"], ["blue", "green", "green", "green"], []], deck=["green", "stink"], fill_deck=False,
            runouts=2)
    assert g.scores() == [1, 1, 1]
    assert g.winners() == [1]


def test_com13_free_action_keeps_the_same_decision_point():
    """COM-13: after a free action the same player decides again at the same point."""
    g = pos(hands=[["blue"], [], []], fields=[[("chili", 3), None], [], []])
    play(g, "harvest field 1")
    assert (g.decision, g.current_player) == ("plant", 0)


# ---------------------------------------------------------------------------------------------------
# BASE: set-up, phases, windows, end


@pytest.mark.parametrize("edition,n,removed,size,limit,third", [
    ("german", 3, (), 104, 3, 2), ("german", 4, (), 104, 3, 2), ("german", 5, (), 104, 3, 2),
    ("english", 3, ("cocoa",), 150, 2, 3), ("english", 4, ("coffee",), 130, 3, 2),
    ("english", 5, ("coffee",), 130, 3, 2), ("english", 6, ("cocoa", "garden"), 144, 3, 2),
    ("english", 7, ("cocoa", "garden"), 144, 3, 2)])
def test_base1_base2_editions_and_player_counts(edition, n, removed, size, limit, third):
    """BASE-1 / BASE-2: deck, removed types, starting fields and run-out limit per edition and count."""
    g = new_game("bohnanza", seed=5, edition=edition, num_players=n)
    comp = g.rules.composition()
    assert sum(comp.values()) == size
    assert not any(NAMES[t] in removed for t in comp)
    assert g.state.limit == limit
    assert g.state.nfields == [third] * n
    assert_conserved(g)


def test_base1_german_edition_allows_only_three_to_five_players():
    """BASE-1: German edition 3-5 players, English 3-7; two players play bean_duel."""
    with pytest.raises(ValueError, match="num_players"):
        new_game("bohnanza", edition="german", num_players=6)
    with pytest.raises(ValueError, match="num_players"):
        new_game("bohnanza", edition="english", num_players=2)
    new_game("bohnanza", edition="english", num_players=7)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_base3_deal_five_each_starting_left_of_the_dealer(n):
    """BASE-3: 5 cards each; the starting player is the dealer's left neighbour."""
    for seed in range(6):
        g = new_game("bohnanza", seed=seed, num_players=n)
        s = g.state
        assert s.active == (s.dealer + 1) % n == g.current_player
        assert [len(h) for h in s.hands] == [5] * n


@pytest.mark.parametrize("n", [6, 7])
def test_base3_english_six_seven_players_deal_sizes(n):
    """BASE-3: English 6-7 players: starting player 3 cards, next 4, next 5, the others 6."""
    for seed in range(5):
        g = new_game("bohnanza", seed=seed, edition="english", num_players=n)
        s = g.state
        first = s.active
        assert first == (s.dealer + 1) % n
        sizes = [len(s.hands[(first + k) % n]) for k in range(n)]
        assert sizes == [3, 4, 5] + [6] * (n - 3)


def test_base3_com12_cards_are_dealt_one_at_a_time_in_seat_order():
    """BASE-3 / COM-12: dealing goes one card at a time in seat order from the starting player."""
    g = new_game("bohnanza", seed=11, num_players=4)
    s = g.state
    deck = expand(g.rules.composition())
    random.Random(f"bean_env/{s.seed}/0").shuffle(deck)  # the set-up shuffle (COM-12)
    order = [(s.active + k) % 4 for k in range(4)]
    expected = {p: [] for p in order}
    for r in range(5):
        for p in order:
            expected[p].append(deck.pop())
    assert {p: s.hands[p] for p in order} == expected
    assert s.deck == deck


def test_base4_turn_phases_in_order_and_turns_pass_clockwise():
    """BASE-4: plant, trade, plant traded, draw; then the left neighbour's turn."""
    g = pos(active=2, hands=[["wax"], [], ["blue", "chili"]], deck=["soy", "red", "green", "green", "stink"],
            edition="english")
    assert (g.decision, g.current_player) == ("plant", 2)
    play(g, "plant field 1", "stop planting")
    assert (g.decision, g.current_player) == ("plant_traded", 2)  # max_trade_rounds=0 skips trading
    play(g, "plant soy on field 2", "harvest field 1", "plant red on field 1")
    assert (g.decision, g.current_player) == ("plant", 0) and g.state.active == 0
    assert g.view(2).hand == ["chili", "green", "green", "stink"]


def test_base5_plant_front_card_then_optionally_the_next():
    """BASE-5: the front card must be planted; the next one may be; stop ends the phase."""
    g = pos(hands=[["blue", "chili", "soy"], [], []], max_trade_rounds=4)
    assert legal(g) == {"plant field 1", "plant field 2"}  # no stop before the first card
    play(g, "plant field 1")
    assert legal(g) == {"plant field 2", "stop planting", "harvest field 1"}
    play(g, "plant field 2")
    assert g.decision == "offer" and g.view(0).hand == ["soy"]  # at most two cards


def test_base5_empty_hand_skips_the_plant_phase():
    """BASE-5: with an empty hand the plant phase is skipped (straight to the turn-up)."""
    g = pos(hands=[[], ["blue"], []], deck=["soy", "red"], max_trade_rounds=4)
    assert g.decision == "offer"
    assert g.view(1).face_up == ["red", "soy"]


def test_base6_turn_up_two_and_leftovers_go_to_the_active_players_cards_to_plant():
    """BASE-6: two cards are turned up into the trade area; when trading ends they become the active
    player's cards to plant."""
    g = pos("turn_up", hands=[["blue"], ["red"], ["green"]], deck=["soy", "garden"], max_trade_rounds=4)
    assert g.decision == "offer" and sorted(names(g.state.face_up)) == ["garden", "soy"]
    play(g, "end trading")
    assert g.state.face_up == [] and sorted(g.view(1).to_plant[0]) == ["garden", "soy"]
    assert (g.decision, g.current_player) == ("plant_traded", 0)


def test_base7_plant_traded_clockwise_from_active_in_chosen_order():
    """BASE-7: players plant their cards to plant clockwise from the active player, one card per
    decision, in their own order; players with nothing to plant get no decision."""
    g = pos("plant_traded", n=4, active=1, to_plant=[["soy"], ["red", "green"], [], ["blue"]],
            deck=["garden", "garden", "garden"])
    assert (g.decision, g.current_player) == ("plant_traded", 1)
    assert legal(g) == {"plant green on field 1", "plant green on field 2", "plant red on field 1",
                        "plant red on field 2"}
    play(g, "plant red on field 2")
    assert g.current_player == 1
    play(g, "plant green on field 1")
    assert g.current_player == 3  # seat 2 has nothing to plant
    play(g, "plant blue on field 1")
    assert g.current_player == 0
    play(g, "plant soy on field 2")
    assert g.state.active == 2 and g.view(1).hand == ["garden"] * 3


@pytest.mark.parametrize("edition,n,count", [("german", 4, 3), ("english", 5, 3), ("english", 6, 4),
                                             ("english", 7, 4)])
def test_base8_draw_three_or_four(edition, n, count):
    """BASE-8: the active player draws 3 cards (English 6-7 players: 4) onto the back of the hand."""
    hands = [["blue"]] + [[] for _ in range(n - 1)]
    g = make_position("bohnanza", phase="draw", edition=edition, num_players=n, hands=hands,
                      deck=["red", "soy", "green", "stink", "chili"])
    assert g.view(0).hand == ["blue"] + ["red", "soy", "green", "stink"][:count]
    assert g.state.active == 1


def test_base9_free_actions_on_other_players_decision_points():
    """BASE-9: harvest and buy are offered at each of the player's own decision points, also on
    another player's turn (here: the trading slot and answering an offer)."""
    g = pos("trade", hands=[["blue"], ["red"], ["soy"]], face_up=["green", "stink"], coins=[0, 3, 0],
            fields=[[], [("chili", 2), None], []], max_trade_rounds=2)
    play(g, "offer to all", "want red", "submit offer")
    assert (g.decision, g.current_player) == ("respond", 1)
    assert {"accept", "decline", "harvest field 1", "buy 3rd field"} == legal(g)
    play(g, "harvest field 1")
    assert (g.decision, g.current_player) == ("respond", 1)
    play(g, "decline", "decline")
    assert (g.decision, g.current_player) == ("offer", 1)
    assert "harvest field 1" not in legal(g)
    assert "buy 3rd field" in legal(g)  # chili 2 paid nothing: still 3 coins
    play(g, "buy 3rd field")
    assert g.state.nfields[1] == 3 and (g.decision, g.current_player) == ("offer", 1)


def test_base9_no_free_actions_between_sub_decisions():
    """BASE-9 / AGT-2: while building an offer no harvest or buy is offered."""
    g = pos("trade", hands=[["blue"], ["red"], ["soy"]], face_up=["green", "stink"], coins=[3, 3, 3],
            fields=[[("chili", 2), None], [], []], max_trade_rounds=2)
    assert "harvest field 1" in legal(g) and "buy 3rd field" in legal(g)
    play(g, "offer to player 1")
    assert not any(a.startswith(("harvest", "buy")) for a in legal(g))


def test_base9_harvest_window_before_a_run_out_that_does_not_end_the_game():
    """BASE-9: a draw that takes the deck's last card opens a harvest window: each player
    clockwise from the active player gets one decision point (harvest, buy or done)."""
    g = pos("turn_up", active=1, hands=[["blue"], ["red"], ["soy"]], deck=["green"], fill_deck=False,
            discard=["stink", "stink"], fields=[[("chili", 3), None], [], [("garden", 2), None]],
            coins=[0, 0, 3])
    assert (g.decision, g.current_player) == ("harvest_window", 1)
    assert legal(g) == {"done"}
    play(g, "done")
    assert (g.decision, g.current_player) == ("harvest_window", 2)
    assert legal(g) == {"done", "harvest field 1", "buy 3rd field"}
    play(g, "harvest field 1")
    assert (g.decision, g.current_player) == ("harvest_window", 2)
    play(g, "done")
    assert (g.decision, g.current_player) == ("harvest_window", 0)
    play(g, "harvest field 1", "done")
    # the turn-up now takes the last card, reshuffles the discard (with the harvested cards) and goes on
    assert g.state.runouts == 1
    assert g.decision == "plant_traded"  # max_trade_rounds=0: both turned-up cards are kept
    assert len(g.view(1).to_plant[1]) == 2
    assert_conserved(g)


def test_base9_no_harvest_window_before_the_game_end_run_out():
    """BASE-9: no harvest window when the run-out the draw causes ends the game."""
    g = pos("draw", hands=[["blue"], [], []], deck=["red"], fill_deck=False, discard=["soy"], runouts=2)
    assert g.is_over


def test_base9_no_harvest_window_when_the_deck_holds_enough():
    """BASE-9 (v2.1): the window opens only when the draw takes the deck's last card; with one card
    more than the draw needs, the draw happens at once and nothing runs out."""
    g = pos("draw", hands=[["blue"], ["red"], []], deck=["red", "soy", "green", "chili"], fill_deck=False,
            discard=["soy"])
    assert g.decision == "plant" and g.state.active == 1 and g.state.runouts == 0


def test_base10_run_out_in_trade_phase_finishes_trade_and_plant_traded():
    """BASE-10: the game-end run-out during the turn-up: trading and planting traded cards still
    happen with the cards turned up (here one), then the game ends."""
    g = pos("turn_up", hands=[["blue"], ["soy"], ["red"]], deck=["green"], fill_deck=False, runouts=2,
            fields=[[("chili", 3), None], [], []], max_trade_rounds=4)
    assert g.state.runouts == 3 and not g.is_over
    assert g.decision == "offer" and names(g.state.face_up) == ["green"]
    play(g, "offer to player 1", "give trade-area green", "want soy", "submit offer", "accept")
    assert not g.is_over
    play(g, "pass", "pass")  # seats 1 and 2 pass; then round 2, nobody offers
    play(g, "pass", "pass", "pass")
    assert g.decision == "plant_traded"
    play(g, "plant soy on field 2")
    assert g.decision == "plant_traded" and g.current_player == 1
    play(g, "plant green on field 1")
    assert g.is_over
    assert g.scores() == [1, 0, 0]  # chili 3 = 1 coin; soy 1, green 1 = 0
    assert len(g.state.hands[1]) == 0 and len(g.state.hands[0]) == 1


def test_base10_run_out_during_draw_ends_at_once():
    """BASE-10: the game-end run-out during the draw phase ends the game at once."""
    g = pos("draw", hands=[[], ["blue"], []], deck=["red", "soy"], fill_deck=False, runouts=2,
            fields=[[("red", 3), None], [], []])
    assert g.is_over and g.scores() == [2, 0, 0] and g.view(0).hand == ["red", "soy"]


def test_base10_game_ends_at_the_limit_run_out_from_a_fresh_game():
    """BASE-10: every random game ends with the run-out limit reached and all fields sold."""
    for seed in range(3):
        g = new_game("bohnanza", seed=seed, num_players=3, max_trade_rounds=1)
        r = random.Random(seed)
        while not g.is_over:
            g.apply(r.choice(g.legal_actions()))
        assert g.state.runouts == g.state.limit
        assert all(c == 0 for c in g.state.fcount)


def test_base2_base9_english_three_players_no_window_before_the_second_run_out():
    """BASE-2 / BASE-9: English 3 players end at the 2nd run-out, so after the 1st run-out a short
    deck opens no harvest window; the draw ends the game at once (BASE-10)."""
    g = pos("draw", hands=[["blue"], ["red"], []], deck=["soy"], fill_deck=False, discard=["wax"],
            runouts=1, edition="english")
    assert g.is_over and g.state.runouts == 2 and g.view(0).hand == ["blue", "soy"]


def test_base9_english_six_players_window_when_fewer_than_four_cards():
    """BASE-9 / BASE-8: with English 6-7 players the draw needs 4 cards: 3 in the deck open a window."""
    hands = [["blue"]] + [["red"]] * 5
    g = make_position("bohnanza", phase="draw", edition="english", num_players=6, hands=hands,
                      deck=["soy", "soy", "soy"], fill_deck=False, discard=["wax", "wax"])
    assert g.decision == "harvest_window" and g.current_player == 0
    for _ in range(6):
        play(g, "done")
    assert g.view(0).hand == ["blue", "soy", "soy", "soy", "wax"] and g.state.runouts == 1


def test_base6_base10_game_end_run_out_before_any_card_is_turned_up():
    """BASE-6 / BASE-10 / COM-9: at the game-end run-out the turn-up takes only the cards there are
    (here none: the discard pile was empty at the last reshuffle); trading and planting still run."""
    g = pos("turn_up", hands=[["blue"], ["red"], ["soy"]], deck=[], fill_deck=False, runouts=2,
            max_trade_rounds=4)
    assert g.state.runouts == 3 and not g.is_over
    assert g.decision == "offer" and g.state.face_up == []
    play(g, "end trading")
    assert g.is_over
