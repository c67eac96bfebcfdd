"""The trade counter on exact positions: executed trades, declined offers, gifts and donations
(TRADE-2, TRADE-4, TRADE-5, MAF-9), and the counts of a whole game equal to its replayed record."""
from __future__ import annotations

import pytest

from bean_env import new_game
from bean_env.engine.events import listening
from bean_env.engine.positions import make_position
from bean_env.engine.trade_stats import (FIELDS, SeatTrades, TradeCounter, count_trades, exchanges,
                                         gift_cards_received)
from bean_env.agents.heuristic import HeuristicAgent


def trade_pos(hands, face_up=("stink", "green"), **kw):
    return make_position("bohnanza", phase="trade", num_players=len(hands), hands=hands, face_up=list(face_up),
                         max_trade_rounds=4, **kw)


def apply_all(counter: TradeCounter, *actions: str) -> None:
    for a in actions:
        counter.apply(a)


def seat(counter: TradeCounter, p: int) -> dict:
    return {k: v for k, v in counter.seats[p].as_dict().items() if v}


def test_trade5_an_executed_trade_counts_the_cards_that_change_hands():
    """TRADE-5: two hand cards for one: the proposer gives 2 and receives 1; one trade for both sides."""
    c = TradeCounter(trade_pos([["soy", "blue", "red", "garden"], ["chili", "red", "black_eyed"], ["green"]]))
    apply_all(c, "offer to player 1", "give hand card 2", "give hand card 4", "want red", "submit offer", "accept")
    assert seat(c, 0) == {"offers": 1, "offers_accepted": 1, "trades": 1, "cards_given": 2, "cards_received": 1}
    assert seat(c, 1) == {"accepts": 1, "trades": 1, "cards_given": 1, "cards_received": 2}
    assert seat(c, 2) == {}
    t = c.totals()
    assert (t["trades"], t["offers"], t["offers_accepted"], t["cards_given"], t["gifts"]) == (1, 1, 1, 3, 0)


def test_trade5_exchanges_count_the_trades_where_both_sides_gave_cards():
    """TRADE-5, TRADE-2: ``exchanges`` counts an executed two-way trade for both seats and a gift for none."""
    game = trade_pos([["soy", "blue", "red", "garden"], ["chili", "red", "black_eyed"], ["green"]])
    with listening(game.rules, []) as events:
        for a in ("offer to player 1", "give hand card 2", "want red", "submit offer", "accept",
                  "pass", "offer to player 0", "give hand card 1", "submit offer", "accept"):
            game.apply(a)
    assert exchanges(events) == {0: 1, 1: 1} and gift_cards_received(events) == {0: 1}


def test_trade4_a_declined_offer_is_no_trade():
    """TRADE-4: an offer to all that everyone declines moves no card and counts no trade."""
    c = TradeCounter(trade_pos([["soy", "blue"], ["red"], ["green"]]))
    apply_all(c, "offer to all", "give trade-area stink", "want red", "submit offer", "decline", "decline")
    assert seat(c, 0) == {"offers": 1}
    assert seat(c, 1) == {"declines": 1} and seat(c, 2) == {"declines": 1}
    assert c.totals()["trades"] == 0 and c.totals()["cards_received"] == 0


def test_trade2_a_gift_is_counted_on_both_sides():
    """TRADE-2: a gift (empty want) accepted: the giver gives for nothing, the addressee receives for nothing."""
    c = TradeCounter(trade_pos([["soy", "blue"], ["red"], ["green"]]))
    apply_all(c, "offer to player 2", "give hand card 2", "give trade-area green", "submit offer", "accept")
    assert seat(c, 0) == {"offers": 1, "offers_accepted": 1, "trades": 1, "cards_given": 2,
                          "gifts_given": 1, "gift_cards_given": 2}
    assert seat(c, 2) == {"accepts": 1, "trades": 1, "cards_received": 2, "gifts_received": 1,
                          "gift_cards_received": 2}
    assert c.totals()["gifts"] == 1 and c.totals()["gift_cards"] == 2


def test_trade2_a_granted_request_is_a_gift_by_the_active_player():
    """TRADE-2: another player asks A for a face-up card for nothing; A accepting gives a gift."""
    c = TradeCounter(trade_pos([["soy"], ["red"], ["green"]], face_up=["stink", "blue"]))
    apply_all(c, "pass", "offer to player 0", "want blue", "submit offer", "accept")
    assert seat(c, 1) == {"offers": 1, "offers_accepted": 1, "trades": 1, "cards_received": 1,
                          "gifts_received": 1, "gift_cards_received": 1}
    assert seat(c, 0) == {"accepts": 1, "trades": 1, "cards_given": 1, "gifts_given": 1, "gift_cards_given": 1}


def test_trade2_a_gift_to_the_active_player_is_counted_as_received_while_active():
    """TRADE-2: another player gives A a hand card for nothing: A receives a gift while active. A gift
    from A to another player counts for that player as a gift received, not as one received while active."""
    c = TradeCounter(trade_pos([["soy"], ["red", "chili"], ["green"]]))
    apply_all(c, "pass", "offer to player 0", "give hand card 1", "submit offer", "accept")
    assert seat(c, 0) == {"accepts": 1, "trades": 1, "cards_received": 1, "gifts_received": 1,
                          "gift_cards_received": 1, "gifts_received_as_active": 1}
    assert seat(c, 1)["gifts_given"] == 1
    assert "gifts_received_as_active" not in c.totals()
    c = TradeCounter(trade_pos([["soy", "blue"], ["red"], ["green"]]))
    apply_all(c, "offer to player 1", "give trade-area green", "submit offer", "accept")
    assert seat(c, 1)["gifts_received"] == 1 and "gifts_received_as_active" not in seat(c, 1)


def test_maf9_a_card_given_to_the_mafia_is_a_donation():
    """MAF-9: a hand card given to a boss counts as the giver's donation, not as a trade."""
    game = make_position("al_cabohne", phase="place", areas={"bosses": [("chili", 7), ("blue", 1)], "treasury": 0},
                         hands=[["green", "chili", "stink"], []], deck=["runner", "broad"])
    c = TradeCounter(game)
    c.apply("give hand card 2 to boss 0")
    assert seat(c, 0) == {"donations": 1} and seat(c, 1) == {}
    assert c.totals()["trades"] == 0


def test_an_illegal_action_counts_nothing_and_leaves_no_listener():
    c = TradeCounter(trade_pos([["soy"], ["red"], ["green"]]))
    with pytest.raises(ValueError):
        c.apply("accept")
    assert c.totals() == {**{f: 0 for f in FIELDS if not f.startswith("gift")}, "gifts": 0, "gift_cards": 0}
    assert c.game.rules.events is None


@pytest.mark.parametrize("config", [{}, {"trade_preset": "learning"}])
def test_a_whole_game_counts_the_same_live_and_from_its_record(config):
    """The counter of a heuristic game equals the one replayed from its record; card totals balance."""
    game = new_game("bohnanza", 5, num_players=4, **config)
    agents = [HeuristicAgent(seed=i) for i in range(4)]
    c = TradeCounter(game)
    while not game.is_over and not game.is_truncated:
        p = game.current_player
        c.apply(agents[p].act(game.view(p), game.legal_actions()))
    again = count_trades(game.record())
    assert [s.as_dict() for s in again.seats] == [s.as_dict() for s in c.seats]
    t = c.totals()
    assert t["offers"] > 0 and t["cards_given"] == t["cards_received"]
    assert sum(s.trades for s in c.seats) == 2 * t["trades"]
    assert sum(s.gifts_given for s in c.seats) == sum(s.gifts_received for s in c.seats)
    assert all(s.gifts_received_as_active <= s.gifts_received for s in c.seats)


def test_seat_trades_add():
    a, b = SeatTrades(trades=1, cards_given=2), SeatTrades(trades=2, donations=1)
    a.add(b)
    assert (a.trades, a.cards_given, a.donations) == (3, 2, 1)
