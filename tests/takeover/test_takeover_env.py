"""The hostile_takeover_v1 AEC env for 2-5 players: PettingZoo api_test / seed_test, mask == engine legal
set (AGT-1) including copy, defence and final-harvest prompts of passive players, truncation (HT-17)."""
from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from bean_env import Action, Kind
from bean_env.envs import hostile_takeover_v1 as ht

_DICT_OBS_WARNINGS = ("Observation space for each agent probably should be", "Observation is not a NumPy array")


@pytest.mark.parametrize("n", [2, 3, 5])   # 4 players (the default) runs in tests/envs
def test_pettingzoo_api_test(n):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(ht.env(num_players=n, max_actions_per_turn=10), num_cycles=200)
    assert not [str(w.message) for w in caught if not str(w.message).startswith(_DICT_OBS_WARNINGS)]


@pytest.mark.parametrize("n", [2, 3, 5])
def test_pettingzoo_seed_test(n):
    seed_test(lambda: ht.env(num_players=n, max_actions_per_turn=10), num_cycles=50)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_mask_equals_engine_legal_set_every_seat_agt1(n):
    """AGT-1/HT-13/HT-16/HT-19: every decision, also those of passive players, is an agent step of the
    deciding seat; its mask is exactly the engine's legal set; everyone else's mask is empty."""
    env = ht.raw_env(num_players=n, auto_forced=False, max_actions_per_turn=6)
    cat = env.catalogue
    rng = random.Random(n)
    seen = set()
    for episode in range(3):
        env.reset(seed=episode)
        s = env.game.state
        s.removed, s.deck = s.deck[:-15], s.deck[-15:]      # reach the game end quickly
        k = 0
        while s.tdeck:                                      # text-card-rich: prompts at every point
            s.texts[k % n].append(s.tdeck.pop())
            s.texts[k % n].sort()
            k += 1
        env._mask_for = -1
        while not (all(env.terminations.values()) or all(env.truncations.values())):
            game, agent = env.game, env.agent_selection
            seat = env.agent_name_mapping[agent]
            assert seat == game.current_player
            seen.add((game.decision, seat == game.state.active))
            mask = env.observe(agent)["action_mask"]
            on = np.flatnonzero(mask)
            assert sorted(cat.decode(int(i), seat) for i in on) == sorted(game.legal_actions())
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(on[rng.randrange(len(on))]))
    assert ("copy", False) in seen and any(d == "final" for d, _ in seen)


def test_ht17_truncation_reported_by_the_env():
    """HT-17/AGT-4: max_turns ends the episode as a truncation, not a termination."""
    env = ht.raw_env(num_players=3, max_turns=2)
    env.reset(seed=1)
    for _ in range(2):
        seat = env.agent_name_mapping[env.agent_selection]
        env.step(env.catalogue.encode(Action(Kind.HT_END_TURN), seat))
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_score_rewards_are_coins():
    """HT-14: reward_mode='score' pays the score in coins at the end (the engine scores in hundredths)."""
    env = ht.raw_env(num_players=2, reward_mode="score", max_actions_per_turn=5)
    env.reset(seed=3)
    rng = random.Random(3)
    total = {a: 0.0 for a in env.possible_agents}
    while not all(env.terminations.values()) and not all(env.truncations.values()):
        on = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(on[rng.randrange(len(on))]))
        for a, r in env.rewards.items():
            total[a] += r
    assert [total[a] for a in env.possible_agents] == [x / 100 for x in env.game.scores()]


def test_docs_tables_match_the_code():
    """docs/variants/hostile_takeover.md shows the real hostile_takeover layouts (4 players)."""
    import pathlib

    from bean_env.envs.reference import action_table, observation_table
    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "variants" / "hostile_takeover.md").read_text()
    assert action_table("hostile_takeover", num_players=4) in text
    assert observation_table("hostile_takeover", num_players=4) in text
