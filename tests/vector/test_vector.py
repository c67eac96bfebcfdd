"""The batched env: N games stepped together, auto-reset, batched rewards, an SB3 VecEnv adapter."""
from __future__ import annotations

import random

import numpy as np
import pytest

from bean_env.vector import VectorEnv, learner_vec_env, uniform_random_policy


def _play(vec: VectorEnv, seed: int, steps: int):
    obs, masks, actors = vec.reset(seed=seed)
    policy = uniform_random_policy(seed)
    trace = [obs.sum(), actors.tolist()]
    totals = np.zeros((vec.num_envs, vec.num_players))
    ended = []
    for _ in range(steps):
        obs, masks, actors, rewards, term, trunc, infos = vec.step(policy(obs, masks))
        totals += rewards
        trace.append((float(obs.sum()), actors.tolist(), rewards.tolist()))
        ended += [infos[i] for i in np.flatnonzero(term | trunc)]
    return trace, totals, ended


def test_same_seed_same_batched_games():
    a = _play(VectorEnv("bean_duel", 3), seed=5, steps=700)[0]
    b = _play(VectorEnv("bean_duel", 3), seed=np.int64(5), steps=700)[0]
    assert a == b


def test_slots_match_the_aec_env_with_the_slot_seed():
    """Slot i plays the game the AEC env plays with the i-th seed drawn from the batch seed."""
    from bean_env.envs.bean_duel_v1 import raw_env
    vec = VectorEnv("bean_duel", 2)
    obs, masks, actors = vec.reset(seed=11)
    streams = random.Random(11)
    for i in range(2):
        env = raw_env(illegal_action="raise")
        env.reset(seed=streams.getrandbits(62))
        o = env.observe(env.agent_selection)
        assert np.array_equal(o["observation"], obs[i]) and np.array_equal(o["action_mask"].astype(bool), masks[i])


@pytest.mark.parametrize("variant,config,steps", [("bohnanza", {"num_players": 4}, 300),
                                                  ("hostile_takeover", {"num_players": 3}, 300), ("bean_duel", {}, 700),
                                                  ("al_cabohne", {}, 400), ("bean_solitaire", {}, 400)])
def test_batched_observations_and_masks_equal_the_aec_envs_at_every_step(variant, config, steps):
    """The batch scatter writes, at every step and across auto-resets, exactly what each slot's AEC env
    observes for its acting seat (values bit for bit, mask, actor); final observations are every seat's
    at the end of the game."""
    import importlib
    raw_env = importlib.import_module(f"bean_env.envs.{variant}_v1").raw_env
    vec = VectorEnv(variant, 3, **config)
    obs, masks, actors = vec.reset(seed=4)
    streams = random.Random(4)
    twins = [raw_env(illegal_action="raise", **config) for _ in range(3)]
    for env in twins:
        env.reset(seed=streams.getrandbits(62))
    policy = uniform_random_policy(4)
    checked = ended = 0
    for _ in range(steps):
        for i, env in enumerate(twins):
            agent = env.agent_selection
            o = env.observe(agent)
            assert actors[i] == env.agent_name_mapping[agent]
            assert np.array_equal(o["observation"], obs[i]) and np.array_equal(o["action_mask"].astype(bool), masks[i])
            checked += 1
        actions = policy(obs, masks)
        obs, masks, actors, rewards, term, trunc, infos = vec.step(actions)
        for i, env in enumerate(twins):
            env.step(int(actions[i]))
            if term[i] or trunc[i]:
                ended += 1
                finals = [env.observe(a)["observation"] for a in env.possible_agents]
                assert all(np.array_equal(x, y) for x, y in zip(finals, infos[i]["final_observations"]))
                env.reset()  # the slot's env drew its next seed from its own stream, as this one does
    assert checked == 3 * steps and (ended or variant != "bean_duel")


def test_auto_reset_and_win_rewards_per_seat():
    """Every finished game pays the win rewards of its seats (+1/k to winners, -1 otherwise) and the
    slot starts a new game at once."""
    vec = VectorEnv("bean_duel", 4)
    trace, totals, ended = _play(vec, seed=2, steps=1500)
    assert ended, "some games finish within 1500 steps"
    assert all(e["episode_steps"] > 0 and len(e["final_scores"]) == 2 for e in ended)
    assert vec.masks.any(axis=1).all()  # every slot waits for a legal decision


def test_illegal_action_raises_and_changes_nothing():
    vec = VectorEnv("bean_duel", 2)
    obs, masks, actors = vec.reset(seed=1)
    bad = np.array([int(np.flatnonzero(~masks[0])[0]), int(np.flatnonzero(masks[1])[0])])
    histories = [len(e.game.history) for e in vec.envs]
    with pytest.raises(ValueError, match="slot 0"):
        vec.step(bad)
    assert [len(e.game.history) for e in vec.envs] == histories
    with pytest.raises(TypeError):
        vec.step(np.array([0.5, 1.0]))
    with pytest.raises(TypeError):
        vec.step([0])


def test_learner_vec_env_trains_with_maskable_ppo():
    """The SB3 VecEnv adapter feeds MaskablePPO: masks through env_method, learner rewards only."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    env = learner_vec_env("bean_duel", 4, seed=3)
    obs = env.reset()
    assert obs.shape == (4, env.observation_space.shape[0])
    masks = np.stack(env.env_method("action_masks"))
    assert masks.shape == (4, env.action_space.n) and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=64, verbose=0, device="cpu", seed=0)
    model.learn(256)
    done_seen = False
    rng = np.random.default_rng(0)
    for _ in range(600):
        masks = np.stack(env.env_method("action_masks"))
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, rewards, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            done_seen = True
            assert rewards[i] in (-1.0, 0.5, 1.0) and "terminal_observation" in infos[i]
    assert done_seen


class _ZeroDraws:
    """A generator whose every draw is 0.0 (the edge a uniform draw in [0, 1) can hit)."""

    def random(self, shape):
        return np.zeros(shape)


def test_uniform_random_policy_never_picks_a_masked_action_on_zero_draws():
    masks = np.array([[False, False, True, False], [False, True, False, True], [True, False, False, False]])
    actions = uniform_random_policy(generator=_ZeroDraws())(np.zeros((3, 5), np.float32), masks)
    assert masks[np.arange(3), actions].all()
    assert actions.tolist() == [2, 1, 0]  # the first legal action of each row: ties go to the lowest


def test_uniform_random_policy_picks_every_legal_action_and_only_those():
    masks = np.zeros((2000, 6), bool)
    masks[:, [1, 4, 5]] = True
    actions = uniform_random_policy(3)(np.zeros((2000, 1), np.float32), masks)
    counts = np.bincount(actions, minlength=6)
    assert counts[[0, 2, 3]].sum() == 0 and (counts[[1, 4, 5]] > 550).all()


def test_dense_rewards_of_each_game_add_up_to_its_final_scores_across_auto_resets():
    """``hostile_takeover`` pays every seat its starting points at the reset (dense): the batch pays them
    with the slot's first step of the new game, never with the last step of the game before, so after
    every step each running game's rewards so far equal its scores so far (HT-14: in coins), the first
    games of ``reset`` included, and a finished game's add up to its final scores."""
    vec = VectorEnv("hostile_takeover", 2, num_players=3, reward_mode="dense")
    obs, masks, actors = vec.reset(seed=3)
    policy = uniform_random_policy(3)
    sums = np.zeros((2, 3))
    ended = 0
    while ended < 4:
        obs, masks, actors, rewards, term, trunc, infos = vec.step(policy(obs, masks))
        sums += rewards
        for i in range(2):
            if term[i] or trunc[i]:
                assert np.allclose(sums[i], np.array(infos[i]["final_scores"]) / 100, atol=1e-5)
                sums[i] = 0.0
                ended += 1
            else:
                assert np.allclose(sums[i], np.array(vec.envs[i].game.scores()) / 100, atol=1e-5)


def test_learner_vec_env_dense_returns_add_up_to_the_learners_final_score():
    """The learner's rewards follow its score: what a new game pays before the learner's first decision
    comes with that decision's step, not with the step that ended the game before, and ``reset`` keeps
    it for the first step."""
    pytest.importorskip("stable_baselines3")
    env = learner_vec_env("hostile_takeover", 3, seed=6, num_players=3, reward_mode="dense")
    env.reset()
    rng = np.random.default_rng(2)
    sums = np.zeros(3)
    ended = 0
    while ended < 5:
        seats = env.seats.copy()  # the learner's seat in the game each slot is playing
        masks = np.stack(env.env_method("action_masks"))
        obs, rewards, dones, infos = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
        sums += rewards
        for i in range(3):
            if dones[i]:
                assert sums[i] == pytest.approx(infos[i]["final_scores"][seats[i]] / 100, abs=1e-5)
                sums[i] = 0.0
                ended += 1
            else:
                assert sums[i] == pytest.approx(env.vec.envs[i].game.scores()[seats[i]] / 100, abs=1e-5)
