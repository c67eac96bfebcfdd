"""INFO-3 for the ppo agent: its negotiation memory reads the seat's masked history (``SeatHistory``), so
its action distribution is the same on two games that differ only in a card the seat cannot see."""
from __future__ import annotations

import random

import numpy as np

from bean_env.agents.ppo import PPOAgent, save_policy
from bean_env.engine.actions import Action, Kind
from bean_env.engine.catalogue import catalogue_for
from bean_env.engine.positions import make_position
from bean_env.engine.views import HIDDEN_PART
from bean_env.envs.obs import encoder_for
from helpers import defence_twins


def _agent(tmp_path, game) -> PPOAgent:
    """A ppo agent with a random policy for ``game``'s variant config (weights fixed by the seed)."""
    sizes = [encoder_for(game).size, 16, catalogue_for(game.variant, game.config).size]
    rng = np.random.default_rng(3)
    layers = [(rng.normal(0, 0.5, (b, a)), rng.normal(0, 0.1, b)) for a, b in zip(sizes, sizes[1:])]
    path = save_policy(tmp_path / game.variant, layers,
                       {"variant": game.variant, "config": game.config, "activation": "tanh"})
    return PPOAgent(checkpoint=path)


def _followed(agent: PPOAgent, game, seat: int, actions: list[str]) -> None:
    """Apply ``actions``, showing ``seat``'s agent its view after each one (as tournaments do)."""
    agent.observe(game.view(seat))
    for a in actions:
        game.apply(a)
        agent.observe(game.view(seat))


def test_info3_ppo_same_distribution_when_another_seats_offer_positions_differ(tmp_path):
    """INFO-3/TRADE-2: P0 builds an offer from hand card 1 in one game and hand card 2 in the other, then
    withdraws it (the positions are never shown). P1's followed ppo agent, at its own trading slot, has
    identical action probabilities; its memory holds only the masked history."""
    games = [make_position("bohnanza", phase="trade", num_players=3, active=0,
                           hands=[["red", "blue", "red"], ["soy", "chili", "stink"], ["green"]],
                           face_up=["stink", "garden"], seed=1) for _ in range(2)]
    agents = [_agent(tmp_path, games[0]), _agent(tmp_path, games[0])]
    for k, (game, agent) in enumerate(zip(games, agents)):
        _followed(agent, game, 1, ["offer to all", f"give hand card {k + 1}", "want soy", "cancel"])
    assert games[0].history != games[1].history and games[0].current_player == 1
    views = [g.view(1) for g in games]
    assert views[0].history == views[1].history and Action(Kind.GIVE_HAND, HIDDEN_PART) in views[0].history
    for agent, view in zip(agents, views):
        assert list(agent._memory._history) == view.history  # the memory was fed the masked history
    probs = [agent.action_probabilities(view, view.legal_actions()) for agent, view in zip(agents, views)]
    assert probs[0] == probs[1] and len(probs[0]) > 1
    assert len(set(probs[0].values())) > 1  # a policy that tells actions apart


def test_info3_ppo_same_distribution_when_the_face_down_defence_card_differs(tmp_path):
    """INFO-3/HT-12: two games that differ only in the face-down defence card; both go on with the same
    actions. Every other seat's followed ppo agent reads the same masked history and, at its next choice
    among several actions, has the same action distribution."""
    game, other, defender = defence_twins(seed_from=7)
    assert game.history[-1] != other.history[-1]
    seats = [p for p in range(3) if p != defender]
    agents = {p: [_agent(tmp_path, game), _agent(tmp_path, game)] for p in seats}
    rng, compared = random.Random(0), 0
    for _ in range(60):
        for p in seats:
            views = [game.view(p), other.view(p)]
            for agent, view in zip(agents[p], views):
                agent.observe(view)
                assert list(agent._memory._history) == view.history  # masked: the defence card is hidden
            assert views[0].history == views[1].history
            assert Action(Kind.HT_DEFEND, HIDDEN_PART) in views[0].history
        p, legal = game.current_player, game.legal_actions()
        if p in seats and len(legal) > 1:
            views = [game.view(p), other.view(p)]
            probs = [a.action_probabilities(v, v.legal_actions()) for a, v in zip(agents[p], views)]
            assert probs[0] == probs[1]
            compared += 1
        if compared >= 3 or game.is_over:
            break
        action = legal[rng.randrange(len(legal))]
        game.apply(action)
        other.apply(action)
    assert compared >= 1
