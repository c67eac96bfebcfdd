"""The heuristic's trading when offer slots are few (every seat has one in at most two rounds a turn:
``max_trade_rounds`` 1 or 2 with ``proposals="all"``, the ``learning2`` trade preset, TRADE-3/TRADE-6):
each offer is judged by whether its addressees would take it; the active player makes only such offers,
first a gift of its junk to the opponent it helps most, unless it trades fairly."""
from __future__ import annotations

import pytest

from bean_env.agents import make_agent
from bean_env.engine.actions import ACCEPT, ALL, END_TRADING, PASS, Kind, unpack_offer
from bean_env.engine.config import TRADE_PRESETS, validate
from bean_env.engine.positions import make_position


def position(**config):
    # player 1 has two empty fields, player 2 one stink field, player 3 nothing planted either
    return make_position("bohnanza", phase="trade", num_players=4,
                         hands=[["soy", "red"], ["red"], ["green"], ["blue"]], face_up=["stink", "chili"],
                         fields=[[("soy", 2), ("red", 1)], [None, None], [("stink", 2), None], [None, None]],
                         **config)


def first_offer(trading: str = "generous", game=None, **config):
    game = game or position(**config)
    assert game.decision == "offer" and game.current_player == 0
    return make_agent("heuristic", seed=0, trading=trading).act(game.view(0), game.legal_actions())


def test_trade3_learning2_preset_gives_every_seat_one_whole_offer_in_each_of_two_rounds():
    full = validate("bohnanza", {"trade_preset": "learning2"})
    assert {k: full[k] for k in TRADE_PRESETS["learning2"]} == {
        "max_offer_cards": 2, "offer_actions": "macro", "proposals": "all", "max_trade_rounds": 2}
    # explicit options still win over the preset's
    assert validate("bohnanza", {"trade_preset": "learning2", "max_trade_rounds": 1})["max_trade_rounds"] == 1


@pytest.mark.parametrize("rounds", [1, 2])
def test_trade6_few_slots_active_player_gifts_its_junk_to_one_opponent_who_takes_it(rounds):
    game = position(trade_preset="learning2", max_trade_rounds=rounds)
    action = first_offer(game=game)
    assert action.kind == Kind.OFFER_CARDS and action.a != ALL
    give, want = unpack_offer(action.b)
    assert give and not want
    game.apply(action)
    # the seat the prediction chose (from public cards) answers yes with its whole hand in view
    taker = game.current_player
    assert game.decision == "respond" and taker != 0
    assert make_agent("heuristic", seed=1).act(game.view(taker), game.legal_actions()) == ACCEPT


def test_trade6_few_slots_active_player_passes_when_nobody_would_take_an_offer():
    # A's trade-area cards fit A's fields (no junk), and what A needs is in no visible hand
    game = make_position("bohnanza", phase="trade", num_players=4, trade_preset="learning2",
                         hands=[["soy"], ["red"], ["green"], ["blue"]], face_up=["soy", "red"],
                         fields=[[("soy", 2), ("red", 1)], [None, None], [("stink", 2), None], [None, None]])
    assert first_offer(game=game) in (PASS, END_TRADING)
    # with more slots a turn (the default rules) it still asks everybody
    game = make_position("bohnanza", phase="trade", num_players=4,
                         hands=[["soy"], ["red"], ["green"], ["blue"]], face_up=["soy", "red"],
                         fields=[[("soy", 2), ("red", 1)], [None, None], [("stink", 2), None], [None, None]])
    assert first_offer(game=game).a == ALL


@pytest.mark.parametrize("config", [{"trade_preset": "learning"}, {}, {"trade_preset": "learning2",
                                                                       "max_trade_rounds": 3}],
                         ids=["learning", "default", "learning2-three-rounds"])
def test_trade6_with_many_offers_a_turn_the_first_offer_is_to_all(config):
    """Only the few-slots case changes: elsewhere A opens with its junk for its need, to all."""
    action = first_offer(**config)
    assert action.a == ALL


def test_trade2_fair_trader_makes_no_few_slots_gift():
    """The generous seat gifts its junk here; the fair one makes no gift, and nobody would take its junk
    for its need (no visible hand holds it), so it passes."""
    assert first_offer("fair", trade_preset="learning2") == PASS
    game, agent = position(), make_agent("heuristic", seed=0, trading="fair")
    action = agent.act(game.view(0), game.legal_actions())  # with many slots: junk for its need, to all
    assert action.kind == Kind.OFFER and action.a == ALL
    assert agent.memory["plan"]["want"] and agent.memory["plan"]["trade"]
