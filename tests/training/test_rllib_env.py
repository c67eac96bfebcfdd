"""The RLlib multi-agent face of the AEC env: key names, turn order, each seat's own reward."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from bean_env.training.rllib.env import BeanMultiAgentEnv  # noqa: E402


@pytest.mark.parametrize("variant,rules", [("bean_duel", {}), ("bohnanza", {"num_players": 4, "max_trade_rounds": 1})])
def test_rewards_reach_their_own_seat(variant, rules):
    env = BeanMultiAgentEnv({"variant": variant, "rules": rules, "reward_mode": "win"})
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=4)
    totals = {a: 0.0 for a in env.agents}
    while True:
        (agent, o), = obs.items()                      # exactly one seat observes: the one to act
        assert env.observation_spaces[agent].contains(o)
        assert agent == env.aec.agent_selection
        legal = np.flatnonzero(o["action_mask"])
        assert sorted(legal) == sorted(env.aec.legal_indices())
        obs, rewards, terms, truncs, _ = env.step({agent: int(rng.choice(legal))})
        assert set(rewards) <= set(obs)                  # a reward always comes with that seat's observation
        for a, r in rewards.items():
            totals[a] += r
        if terms["__all__"] or truncs["__all__"]:
            break
    assert set(obs) == set(env.agents)                   # everyone sees the end
    winners = env.aec.game.winners()
    for a, seat in env.aec.agent_name_mapping.items():
        assert totals[a] == pytest.approx(1.0 / len(winners) if seat in winners else -1.0)
