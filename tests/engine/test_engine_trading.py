"""Scenario tests of the offer/response trading protocol of `bohnanza` (TRADE-1..8)."""
from __future__ import annotations

import random

import pytest

from bean_env import new_game
from bean_env.engine.actions import Kind
from bean_env.engine.positions import make_position
from helpers import legal_set as legal, play, reachable_offers


def trade_pos(hands, face_up=("stink", "green"), n=None, rounds=4, **kw):
    n = n or len(hands)
    return make_position("bohnanza", phase="trade", num_players=n, hands=hands, face_up=list(face_up),
                         max_trade_rounds=rounds, **kw)


def at(game) -> tuple:
    return game.decision, game.current_player


def test_trade1_trade5_com1_trading_hand_cards_from_the_middle_keeps_order():
    """TRADE-1 / TRADE-5 / COM-1: hand cards from any position can be traded; the others keep their
    order; traded cards go to the receivers' cards to plant."""
    g = trade_pos([["soy", "blue", "red", "garden"], ["chili", "red", "black_eyed"], ["green"]])
    play(g, "offer to player 1", "give hand card 2", "give hand card 4", "want red", "submit offer")
    assert at(g) == ("respond", 1)
    play(g, "accept")
    assert g.view(0).hand == ["soy", "red"]
    assert g.view(1).hand == ["chili", "black_eyed"]
    assert g.view(2).to_plant == [["red"], ["blue", "garden"], []]
    assert g.state.known[0] == [1, 1] and g.state.known[1] == [2, 2]
    assert at(g) == ("offer", 1)  # the trade used seat 0's slot; seat 1 is next


def test_trade1_cards_to_plant_cannot_be_traded_again():
    """TRADE-1: cards received (now among the cards to plant) are not tradable."""
    g = trade_pos([["soy"], ["red"], []], face_up=["stink"])
    play(g, "offer to player 1", "give hand card 1", "want red", "submit offer", "accept")
    assert g.view(0).to_plant[0] == ["red"] and g.view(0).hand == []
    play(g, "pass", "pass")  # seats 1, 2
    assert at(g) == ("offer", 0)
    play(g, "offer to player 2")
    # A can give only the trade-area stink; the received red is not offered
    assert not any(a.startswith("give hand") for a in legal(g))
    assert "give trade-area stink" in legal(g)


def test_trade1_the_active_players_tradable_cards_include_the_trade_area():
    """TRADE-1: A may give trade-area cards and hand cards; others only hand cards."""
    g = trade_pos([["soy"], ["red", "red"], []], face_up=["stink", "stink"])
    play(g, "offer to player 1")
    assert {"give hand card 1", "give trade-area stink"} <= legal(g)
    play(g, "cancel")
    assert at(g) == ("offer", 1)
    play(g, "offer to player 0")
    gives = {a for a in legal(g) if a.startswith("give")}
    assert gives == {"give hand card 1"}  # a run of equal cards: the first one (same outcome)
    play(g, "give hand card 1")
    assert "give hand card 2" in legal(g)


def test_trade2_gift_declined_changes_no_cards():
    """TRADE-2 / TRADE-5: a gift (empty want) that is declined moves no card."""
    g = trade_pos([["soy", "blue"], ["red"], ["green"]])
    before = [list(h) for h in g.state.hands], list(g.state.face_up), [list(t) for t in g.state.to_plant]
    play(g, "offer to player 2", "give hand card 2", "give trade-area green", "submit offer")
    assert at(g) == ("respond", 2) and legal(g) == {"accept", "decline"}
    play(g, "decline")
    assert ([list(h) for h in g.state.hands], list(g.state.face_up),
            [list(t) for t in g.state.to_plant]) == before
    assert at(g) == ("offer", 1)


def test_trade2_gift_accepted():
    """TRADE-2: a gift: give only; the addressee receives the cards to plant."""
    g = trade_pos([["soy", "blue"], ["red"], ["green"]])
    play(g, "offer to player 2", "give trade-area stink", "submit offer", "accept")
    assert g.view(2).to_plant == [[], [], ["stink"]]
    assert sorted(g.view(0).face_up) == ["green"]


def test_trade2_request_for_a_gift_from_another_player():
    """TRADE-2 / TRADE-4: another player may ask A for a gift (give empty); A answers at once."""
    g = trade_pos([["soy"], ["red"], ["green"]], face_up=["stink", "blue"])
    play(g, "pass")
    assert at(g) == ("offer", 1)
    assert legal(g) == {"offer to player 0", "pass"}  # another player addresses only A
    play(g, "offer to player 0", "want blue", "submit offer")
    assert at(g) == ("respond", 0)
    assert {"accept", "decline", "end trading", "keep stink", "keep blue"} <= legal(g)
    play(g, "accept")
    assert g.view(0).to_plant == [[], ["blue"], []]
    assert g.view(0).face_up == ["stink"] and g.view(0).hand == ["soy"]
    assert at(g) == ("offer", 2)


def test_trade2_want_is_capped_by_the_addressees_tradable_cards():
    """TRADE-2: at most as many wanted cards as the addressee has tradable cards (offer to all: the
    largest of them); both give and want empty is not an offer."""
    g = trade_pos([["soy"], ["red"], ["green", "green", "blue"]])
    play(g, "offer to player 1")
    assert "submit offer" not in legal(g)
    play(g, "want red")
    assert not any(a.startswith("want") for a in legal(g))  # player 1 has one tradable card
    assert "submit offer" in legal(g)
    play(g, "cancel")
    assert at(g) == ("offer", 1)  # cancelling used A's slot, like a pass


def test_trade2_offer_to_all_cap_is_the_largest_addressee():
    """TRADE-2: an offer to all may want as many cards as the addressee with most tradable cards."""
    g = trade_pos([["soy"], ["red"], ["green", "green", "blue"]])
    play(g, "offer to all", "want green", "want green", "want green")
    assert not any(a.startswith("want") for a in legal(g))
    play(g, "submit offer")
    assert at(g) == ("respond", 1) and legal(g) == {"decline"}  # cannot accept: no greens
    play(g, "decline")
    assert at(g) == ("respond", 2) and legal(g) == {"decline"}  # two greens only


def test_trade3_round_order_and_a_round_without_offers_ends_trading():
    """TRADE-3 / TRADE-6: A first, then the others clockwise from A's left; a whole round without an
    offer ends trading."""
    g = trade_pos([["soy"], ["red"], ["green"], ["blue"]], active=2)
    assert at(g) == ("offer", 2)
    play(g, "pass")
    assert at(g) == ("offer", 3)
    play(g, "pass")
    assert at(g) == ("offer", 0)
    play(g, "pass")
    assert at(g) == ("offer", 1)
    play(g, "pass")
    assert at(g) == ("plant_traded", 2)
    assert g.view(2).to_plant[2] == ["green", "stink"]


def test_trade3_offers_keep_trading_into_the_next_round():
    """TRADE-3: after a round with an offer, a new round starts with A."""
    g = trade_pos([["soy"], ["red"], ["green"]])
    play(g, "offer to player 1", "want red", "submit offer", "decline", "pass", "pass")
    assert at(g) == ("offer", 0) and g.state.t_round == 2


def test_trade3_keep_is_a_free_action_of_the_active_player():
    """TRADE-3: keeping a trade-area card moves it to A's cards to plant; A decides again."""
    g = trade_pos([["soy"], ["red"], ["green"]])
    play(g, "keep stink")
    assert at(g) == ("offer", 0) and g.view(0).to_plant[0] == ["stink"] and g.view(0).face_up == ["green"]
    play(g, "pass")
    assert not any(a.startswith("keep") for a in legal(g))  # only A keeps


def test_trade3_cards_given_in_an_offer_being_answered_cannot_be_kept():
    """TRADE-3: while A's offer is answered, the trade-area cards in its give cannot be kept."""
    g = trade_pos([["soy"], ["red"], ["red"]], face_up=["stink", "green"])
    play(g, "offer to all", "give trade-area stink", "want red", "submit offer", "accept", "accept")
    assert at(g) == ("pick", 0)
    assert {"keep green"} == {a for a in legal(g) if a.startswith("keep")}
    assert {"trade with player 1", "trade with player 2", "cancel", "end trading"} <= legal(g)


def test_trade3_end_trading_at_any_top_level_decision_of_the_active_player():
    """TRADE-3: A may end trading at its slot, when answering an offer and when picking."""
    g = trade_pos([["soy"], ["red"], ["red"]])
    assert "end trading" in legal(g)
    play(g, "pass", "offer to player 0", "give hand card 1", "submit offer")
    assert at(g) == ("respond", 0) and "end trading" in legal(g)
    play(g, "end trading")
    assert at(g) == ("plant_traded", 0)
    assert g.view(1).hand == ["red"]  # the offer under way did not happen


def test_trade4_several_acceptors_and_the_pick():
    """TRADE-4: addressees answer clockwise from A's left; with several acceptors A picks one."""
    g = trade_pos([["soy", "blue"], ["red", "chili"], ["garden", "red"], ["red"]], active=1)
    play(g, "offer to all", "give hand card 2", "want red", "submit offer")
    assert at(g) == ("respond", 2)
    play(g, "accept")
    assert at(g) == ("respond", 3)
    play(g, "accept")
    assert at(g) == ("respond", 0)
    assert legal(g) == {"decline"}  # seat 0 has no red
    play(g, "decline")
    assert at(g) == ("pick", 1)
    assert {"trade with player 2", "trade with player 3", "cancel"} <= legal(g)
    play(g, "trade with player 3")
    assert g.view(0).to_plant == [[], ["red"], [], ["chili"]]
    assert g.view(2).hand == ["garden", "red"] and g.view(3).hand == []


def test_trade4_pick_cancel_declines_the_offer():
    """TRADE-4: A may cancel instead of picking: nothing moves."""
    g = trade_pos([["soy"], ["red"], ["red"]])
    play(g, "offer to all", "give hand card 1", "want red", "submit offer", "accept", "accept", "cancel")
    assert g.view(0).hand == ["soy"] and g.view(1).hand == ["red"] and g.view(2).hand == ["red"]
    assert at(g) == ("offer", 1)


def test_trade4_single_acceptor_executes_at_once():
    """TRADE-4: one acceptor: the trade is executed at once."""
    g = trade_pos([["soy"], ["red"], ["red"]])
    play(g, "offer to all", "give hand card 1", "want red", "submit offer", "decline", "accept")
    assert g.view(0).to_plant == [["red"], [], ["soy"]]


def test_trade5_giver_chooses_which_card_to_give():
    """TRADE-5: a giver with several cards that could serve a wanted type chooses which."""
    g = trade_pos([["soy"], ["red", "chili", "red", "green"], []])
    play(g, "offer to player 1", "give hand card 1", "want red", "submit offer", "accept")
    assert at(g) == ("choose_give", 1)
    assert legal(g) == {"give hand card 1", "give hand card 3"}  # no free actions inside execution
    play(g, "give hand card 3")
    assert g.view(1).hand == ["red", "chili", "green"]
    assert g.view(0).to_plant[0] == ["red"]


def test_trade5_active_player_chooses_between_hand_and_trade_area():
    """TRADE-5: A, giving a wanted type, may give a hand card or a trade-area card."""
    g = trade_pos([["soy", "stink"], ["red"], []], face_up=["stink", "green"])
    play(g, "pass", "offer to player 0", "give hand card 1", "want stink", "submit offer", "accept")
    assert at(g) == ("choose_give", 0)
    assert legal(g) == {"give hand card 2", "give trade-area stink"}
    play(g, "give hand card 2")
    assert g.view(0).hand == ["soy"] and g.view(0).face_up == ["green", "stink"]
    assert g.view(0).to_plant == [["red"], ["stink"], []]


def test_trade5_equal_adjacent_cards_are_one_choice():
    """TRADE-5: two equal adjacent hand cards give the same outcome, so only one is offered."""
    g = trade_pos([["soy"], ["red", "red", "chili"], []])
    play(g, "offer to player 1", "give hand card 1", "want red", "submit offer", "accept")
    assert g.view(1).hand == ["red", "chili"]  # executed without a choice


def test_trade6_max_trade_rounds_zero_means_no_trading():
    """TRADE-6: max_trade_rounds=0: no trading; A keeps the turned-up cards."""
    g = make_position("bohnanza", phase="turn_up", num_players=3, hands=[["blue"], ["red"], []],
                      deck=["soy", "stink"], max_trade_rounds=0)
    assert at(g) == ("plant_traded", 0)
    assert g.view(0).to_plant[0] == ["soy", "stink"]


def test_trade6_budget_of_rounds_ends_trading():
    """TRADE-6: trading ends when the budget of rounds is used up, even with offers in each round."""
    g = trade_pos([["soy"], ["red"], ["green"]], rounds=2)
    play(g, "offer to player 1", "want red", "submit offer", "decline", "pass", "pass")
    assert at(g) == ("offer", 0) and g.state.t_round == 2
    play(g, "offer to player 2", "want green", "submit offer", "decline", "pass", "pass")
    assert at(g) == ("plant_traded", 0)


def test_trade7_identical_repeat_offer_cannot_be_submitted():
    """TRADE-7: an offer identical to one the proposer made this turn (no trade since) cannot be
    submitted; the partial offer can still be cancelled or changed."""
    g = trade_pos([["soy", "blue"], ["red", "red"], ["green"]])
    play(g, "offer to player 1", "give hand card 1", "want red", "submit offer", "decline", "pass", "pass")
    play(g, "offer to player 1", "give hand card 1", "want red")
    assert "submit offer" not in legal(g) and "cancel" in legal(g)
    play(g, "want red")  # a different want is a new offer
    assert "submit offer" in legal(g)
    play(g, "cancel")
    # the same give and want to another addressee is a different offer
    g2 = trade_pos([["soy", "blue"], ["red", "red"], ["green"]])
    play(g2, "offer to player 1", "give hand card 1", "want red", "submit offer", "decline", "pass", "pass")
    play(g2, "offer to all", "give hand card 1", "want red")
    assert "submit offer" in legal(g2)


def test_trade7_repeat_allowed_again_after_a_trade():
    """TRADE-7: after any executed trade the earlier offers may be made again."""
    g = trade_pos([["soy", "soy", "blue"], ["red", "red"], ["green"]])
    play(g, "offer to player 1", "give hand card 1", "want red", "submit offer", "decline")
    play(g, "offer to player 0", "want soy", "submit offer", "accept")  # seat 1 requests a soy: traded
    play(g, "pass")
    play(g, "offer to player 1", "give hand card 1", "want red")
    assert "submit offer" in legal(g)


def test_trade8_no_trading_in_bean_duel():
    """TRADE-8: bean_duel offers no trading or donating action."""
    trading = {Kind.OFFER, Kind.GIVE_HAND, Kind.GIVE_TRADE, Kind.WANT, Kind.SUBMIT, Kind.ACCEPT,
               Kind.DECLINE, Kind.PICK, Kind.KEEP, Kind.END_TRADING, Kind.PASS}
    for seed in range(5):
        g = new_game("bean_duel", seed=seed)
        r = random.Random(seed)
        while not g.is_over:
            legal_now = g.legal_actions()
            assert not any(a.kind in trading for a in legal_now)
            g.apply(r.choice(legal_now))


@pytest.mark.parametrize("seed", range(3))
def test_trade6_agt4_trading_always_ends_under_random_play(seed):
    """TRADE-6 / AGT-4: under random play every trade phase ends within the round budget."""
    g = new_game("bohnanza", seed=seed, num_players=5, max_trade_rounds=3)
    r = random.Random(seed)
    longest = cur = 0
    while not g.is_over:
        if g.state.t_round:
            assert g.state.t_round <= 3
            cur += 1
            longest = max(longest, cur)
        else:
            cur = 0
        g.apply(r.choice(g.legal_actions()))
    assert longest > 0


def _all_offers(hand, trade_area, types, cap) -> set[tuple]:
    """Brute force: every distinct offer (outcome) of TRADE-2 for the given tradable cards."""
    from itertools import combinations, combinations_with_replacement
    rests = {tuple(c for i, c in enumerate(hand) if i not in set(sub))
             for k in range(len(hand) + 1) for sub in combinations(range(len(hand)), k)}
    trades = {tuple(sorted(sub)) for k in range(len(trade_area) + 1) for sub in combinations(trade_area, k)}
    wants = {w for k in range(cap + 1) for w in combinations_with_replacement(sorted(types), k)}
    full = tuple(hand)
    return {(r, t, w) for r in rests for t in trades for w in wants if (r != full or t or w)}


def test_trade2_agt2_every_offer_is_reachable_by_exactly_one_sequence():
    """TRADE-2 / AGT-2: the offer sub-decisions reach every distinct legal offer (give: any tradable
    cards; want: any multiset of deck types within the cap), each by exactly one sequence."""
    g = trade_pos([["blue", "blue", "red", "blue"], ["soy", "green"], ["garden"]],
                  face_up=["stink", "stink"])
    g.apply("offer to player 1")
    reached = reachable_offers(g)
    assert len(reached) == len(set(reached))
    hand, area = g.state.hands[0], g.state.face_up
    assert set(reached) == _all_offers(hand, area, g.rules.deck_types, cap=2)


def test_trade2_agt2_offers_of_another_player_are_all_reachable():
    """TRADE-2 / AGT-2: a non-active proposer gives only hand cards and may want trade-area cards."""
    g = trade_pos([["soy"], ["red", "green", "red"], ["garden"]], face_up=["stink"])
    g.apply("pass")
    g.apply("offer to player 0")
    reached = reachable_offers(g)
    assert len(reached) == len(set(reached))
    assert set(reached) == _all_offers(g.state.hands[1], [], g.rules.deck_types, cap=2)


def test_trade5_equivalent_cards_across_given_ones_are_one_choice():
    """TRADE-5: giving either red of [red, green, red] together with the green leaves the same hand,
    so the giver is not asked to choose."""
    g = trade_pos([["soy"], ["red", "green", "red", "blue"], []])
    play(g, "offer to player 1", "give hand card 1", "want green", "want red", "submit offer", "accept")
    assert g.view(1).hand == ["red", "blue"]
    assert g.view(0).to_plant[0] == ["green", "red"]


def test_trade7_no_repeat_through_an_equivalent_choice_of_cards():
    """TRADE-7: an offer cannot be repeated by picking other cards of the same types that leave the
    same hand (those choices are one offer)."""
    g = trade_pos([["red", "green", "red"], ["soy"], ["garden"]])
    play(g, "offer to player 1", "give hand card 1", "give hand card 2", "want soy", "submit offer",
         "decline", "pass", "pass")
    play(g, "offer to player 1", "give hand card 2")
    assert "give hand card 3" not in legal(g)  # = giving cards 1 and 2, already offered
    play(g, "cancel")
