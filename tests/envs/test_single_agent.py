"""The single-agent gymnasium wrapper: opponents, learner seat, learner-only rewards, masks, MaskablePPO."""
from __future__ import annotations

import numpy as np
import pytest

from bean_env.agents import make_agent
from bean_env.engine.views import PlayerView
from bean_env.envs.single_agent import SingleAgentEnv


def run_episode(env, seed: int, rng: np.random.Generator):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.any() and env.game.current_player == env.seat
        assert obs.shape == env.observation_space.shape
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, info


@pytest.mark.parametrize("players", [3, 5, 7])
def test_learner_gets_its_own_seat_reward_only(players):
    env = SingleAgentEnv("bohnanza", edition="english", num_players=players, learner_seat="random")
    rng = np.random.default_rng(0)
    seats = set()
    for seed in range(3):
        total, _, _ = run_episode(env, seed, rng)
        game = env.game
        winners = game.winners()
        assert game.is_over
        assert total == (1 / len(winners) if env.seat in winners else -1.0)
        seats.add(env.seat)
    assert len(seats) > 1  # the seat is drawn per episode


def test_score_reward_mode_pays_the_learner_score():
    env = SingleAgentEnv("bean_duel", reward_mode="score", learner_seat=1)
    total, _, _ = run_episode(env, 3, np.random.default_rng(3))
    assert total == env.game.scores()[1]


def test_opponent_policies_see_their_own_view_only():
    seen = []

    def cautious(view, legal):
        assert isinstance(view, PlayerView)
        seen.append(view.player)
        return legal[-1]

    env = SingleAgentEnv("bohnanza", num_players=4, opponents=[cautious, make_agent("random", seed=1), cautious])
    run_episode(env, 1, np.random.default_rng(1))
    assert set(seen) == {1, 3}
    env = SingleAgentEnv("bohnanza", num_players=3, learner_seat=2, opponents={0: cautious, 1: cautious})
    seen.clear()
    run_episode(env, 1, np.random.default_rng(1))
    assert set(seen) == {0, 1}


def test_bad_opponents_and_seats_are_rejected():
    with pytest.raises(ValueError, match="other seats"):
        SingleAgentEnv("bohnanza", num_players=4, opponents=[make_agent("random")]).reset(seed=0)
    with pytest.raises(ValueError, match="learner_seat"):
        SingleAgentEnv("bean_duel", learner_seat=2)
    with pytest.raises(TypeError, match="callable"):
        SingleAgentEnv("bean_duel", opponents=42).reset(seed=0)


def test_same_seed_same_episode():
    a = SingleAgentEnv("bohnanza", num_players=4)
    b = SingleAgentEnv("bohnanza", num_players=4)
    ra = run_episode(a, 9, np.random.default_rng(9))
    rb = run_episode(b, 9, np.random.default_rng(9))
    assert ra[:2] == rb[:2] and a.game.history == b.game.history


def test_illegal_action_ends_the_episode_with_minus_one_agt_5():
    env = SingleAgentEnv("bean_duel")
    env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(bad)
    assert reward == -1.0 and terminated and not truncated and info["illegal_action"]


@pytest.mark.slow
def test_maskable_ppo_runs_end_to_end_on_the_duel():
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = SingleAgentEnv("bean_duel")
    model = MaskablePPO("MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=2, seed=0, verbose=0,
                        policy_kwargs={"net_arch": [64, 64]}, device="cpu")
    model.learn(total_timesteps=2048)
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, reward, terminated, truncated, _ = env.step(int(action))
        done = terminated or truncated
    assert env.game.is_over


def test_opponents_by_agent_name_are_seeded_from_the_env():
    a = SingleAgentEnv("bohnanza", num_players=3, opponents="random")
    b = SingleAgentEnv("bohnanza", num_players=3, opponents=["random", "random"])
    ra = run_episode(a, 4, np.random.default_rng(4))
    rb = run_episode(b, 4, np.random.default_rng(4))
    assert ra[:2] == rb[:2] and a.game.history == b.game.history
    with pytest.raises(ValueError, match="no_such_agent"):
        SingleAgentEnv("bean_duel", opponents="no_such_agent").reset(seed=0)


@pytest.mark.filterwarnings("ignore:.*render_mode='rgb_array'")
def test_sb3_make_vec_env_with_the_gymnasium_id():
    """SB3's make_vec_env first tries render_mode='rgb_array' and falls back on TypeError."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env

    import bean_env  # noqa: F401  (registers the ids)
    venv = make_vec_env("bean_env/BeanDuel-v1", n_envs=2, seed=0)
    obs = venv.reset()
    masks = venv.env_method("action_masks")
    assert obs.shape[0] == 2 and len(masks) == 2 and all(m.any() for m in masks)
    venv.close()
