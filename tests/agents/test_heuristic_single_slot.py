"""The heuristic's trading when every seat has one offer slot a turn (``max_trade_rounds=1`` with
``proposals="all"``, the ``learning2`` trade preset, TRADE-3/TRADE-6): the active player spends its slot
on a gift of its junk to the opponent it helps most, unless it trades fairly."""
from __future__ import annotations

import pytest

from bean_env.agents import make_agent
from bean_env.engine.actions import ALL, Kind, unpack_offer
from bean_env.engine.config import TRADE_PRESETS, validate
from bean_env.engine.positions import make_position


def position(**config):
    # player 1 has two empty fields, player 2 one stink field, player 3 nothing planted either
    return make_position("bohnanza", phase="trade", num_players=4,
                         hands=[["soy", "red"], ["red"], ["green"], ["blue"]], face_up=["stink", "chili"],
                         fields=[[("soy", 2), ("red", 1)], [None, None], [("stink", 2), None], [None, None]],
                         **config)


def first_offer(trading: str = "generous", **config):
    game = position(**config)
    assert game.decision == "offer" and game.current_player == 0
    return make_agent("heuristic", seed=0, trading=trading).act(game.view(0), game.legal_actions())


def test_trade3_learning2_preset_gives_every_seat_one_whole_offer_a_turn():
    full = validate("bohnanza", {"trade_preset": "learning2"})
    assert {k: full[k] for k in TRADE_PRESETS["learning2"]} == {
        "max_offer_cards": 2, "offer_actions": "macro", "proposals": "all", "max_trade_rounds": 1}
    # explicit options still win over the preset's
    assert validate("bohnanza", {"trade_preset": "learning2", "max_trade_rounds": 2})["max_trade_rounds"] == 2


def test_trade6_single_slot_active_player_gifts_its_junk_to_one_opponent():
    action = first_offer(trade_preset="learning2")
    assert action.kind == Kind.OFFER_CARDS and action.a != ALL
    give, want = unpack_offer(action.b)
    assert give and not want


@pytest.mark.parametrize("config", [{"trade_preset": "learning"}, {}, {"trade_preset": "learning2",
                                                                       "max_trade_rounds": 2}],
                         ids=["learning", "default", "learning2-two-rounds"])
def test_trade6_with_several_offers_a_turn_the_first_offer_is_to_all(config):
    """Only the single-slot case changes: elsewhere A opens with its junk for its need, to all."""
    action = first_offer(**config)
    assert action.a == ALL


def test_trade2_fair_trader_makes_no_single_slot_gift():
    action = first_offer("fair", trade_preset="learning2")
    assert action.kind == Kind.OFFER_CARDS
    give, want = unpack_offer(action.b)
    assert want, "a fair trader asks for something back"
