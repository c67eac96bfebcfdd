"""``heuristic:trading=fair``, the opponent that cannot be farmed: it never gives a card for nothing
(TRADE-2 gifts, TRADE-4 answers) and accepts only offers that help it."""
from __future__ import annotations

import pytest

from bean_env import new_game
from bean_env.agents import make_agent
from bean_env.agents.base import play_out
from bean_env.engine.actions import ACCEPT, DECLINE
from bean_env.engine.positions import make_position
from bean_env.engine.trade_stats import TradeCounter


class Spy:
    """Wraps an agent and records (offer given cards, answer) at every respond decision."""

    def __init__(self, agent):
        self.agent, self.answers = agent, []

    def reset(self):
        self.agent.reset()

    def act(self, view, legal):
        action = self.agent.act(view, legal)
        s = view.state
        if view.decision == "respond" and ACCEPT in legal:
            given = [s.hands[s.o_prop][i] for i in s.o_hand] + list(s.o_trade)
            self.answers.append((given, action))
        return action


@pytest.mark.parametrize("config", [{}, {"trade_preset": "learning"}, {"trade_preset": "learning2"}],
                         ids=["default", "learning", "learning2"])
@pytest.mark.parametrize("seed", range(3))
def test_trade2_fair_trader_never_gives_a_card_for_nothing(config, seed):
    """Random play makes every kind of offer, gift requests included; the fair seats give no gifts."""
    game = new_game("bohnanza", 40 + seed, num_players=4, **config)
    fair = [Spy(make_agent("heuristic:trading=fair", seed=seed * 10 + q)) for q in range(2)]
    agents = [fair[0], make_agent("random", seed=seed), fair[1], make_agent("heuristic", seed=seed)]
    counter = TradeCounter(game)
    play_out(game, agents, counter=counter)
    assert game.is_over
    for q in (0, 2):
        assert counter.seats[q].gifts_given == 0 and counter.seats[q].gift_cards_given == 0
    answers = fair[0].answers + fair[1].answers
    assert any(not given for given, _ in answers), "the game asked the fair seats for no gift"
    assert all(action == DECLINE for given, action in answers if not given)
    assert counter.seats[1].offers > 0 and counter.totals()["trades"] > 0


def test_trade4_fair_trader_declines_a_request_the_generous_one_grants():
    """TRADE-4: asked by player 1 for a face-up card, for nothing: `generous` grants it, `fair` does not."""
    def ask(trading: str):
        g = make_position("bohnanza", phase="trade", num_players=3, hands=[["soy"], ["red"], ["green"]],
                          face_up=["stink", "blue"], fields=[[("soy", 1), ("garden", 1)], [None, None], [None, None]],
                          max_trade_rounds=4)
        for a in ("pass", "offer to player 0", "want blue", "submit offer"):
            g.apply(a)
        return make_agent("heuristic", seed=0, trading=trading).act(g.view(0), g.legal_actions())
    assert ask("generous") == ACCEPT
    assert ask("fair") == DECLINE


def test_bad_trading_option_names_the_choices():
    with pytest.raises(ValueError, match="generous"):
        make_agent("heuristic:trading=kind")
