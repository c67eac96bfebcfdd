"""The action mask is exactly the engine's legal set (AGT-1), entry by entry, over random states."""
from __future__ import annotations

import random

import numpy as np
import pytest
from envcases import CASES, case_id, env_module


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_mask_equals_engine_legal_actions_agt_1(case):
    variant, cfg = case
    env = env_module(variant).raw_env(auto_forced=False, **cfg)
    cat = env.catalogue
    rng = random.Random(7)
    steps = 0
    for episode in range(2):
        env.reset(seed=100 + episode)
        while not all(env.terminations.values()) and steps < 1500 * (episode + 1):
            game = env.game
            agent = env.agent_selection
            seat = env.agent_name_mapping[agent]
            assert seat == game.current_player
            legal = game.legal_actions()
            mask = env.observe(agent)["action_mask"]
            assert mask.dtype == np.int8
            on = np.flatnonzero(mask)
            decoded = [cat.decode(int(i), seat) for i in on]
            assert sorted(decoded) == sorted(legal), f"mask != legal at {game.decision!r}"
            assert len(on) == len(legal)  # no two legal actions share an index
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(on[rng.randrange(len(on))]))
            steps += 1
