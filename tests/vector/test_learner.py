"""The batched learner env as a Gymnasium ``VectorEnv`` (``learner_gym_vector_env``): both autoreset modes,
rewards that add up to the learner's score, determinism, Gymnasium's own vector wrappers, bad input; and the core
``LearnerBatch`` (the learner's observations)."""
from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from bean_env.vector import LearnerBatch, learner_gym_vector_env


def _masked_random(rng, masks):
    return (rng.random(masks.shape) * masks).argmax(axis=1)


def _play(env, steps, seed=0, rng_seed=1):
    """Random legal play: every (obs, reward, terminated, truncated, mask) of ``steps`` steps."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    out = [(obs.copy(), None, None, None, info["action_mask"].copy())]
    for _ in range(steps):
        obs, rew, term, trunc, info = env.step(_masked_random(rng, info["action_mask"]))
        out.append((obs.copy(), rew.copy(), term.copy(), trunc.copy(), info["action_mask"].copy()))
    return out


def test_spaces_and_metadata_match_the_single_agent_env():
    import gymnasium
    import bean_env  # noqa: F401  (registers the ids)
    single = gymnasium.make("bean_env/BeanDuel-v1")
    env = learner_gym_vector_env("bean_duel", 3)
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.observation_space.shape == (3, single.observation_space.shape[0])
    assert env.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert learner_gym_vector_env("bean_duel", 2, autoreset_mode="SameStep").metadata["autoreset_mode"] \
        is AutoresetMode.SAME_STEP


def test_next_step_mode_shows_the_final_observation_then_starts_the_next_game():
    """The step that ends a game returns its final observation (no legal action); the slot's next step
    ignores the action given for it (even an illegal one) and returns the next game, reward 0."""
    env = learner_gym_vector_env("bean_duel", 4, seed=5, reward_mode="dense")
    rng = np.random.default_rng(0)
    obs, info = env.reset()
    scale = env.core.vec.envs[0].score_scale  # dense rewards: coins / scale
    sums = np.zeros(4)
    finished = 0
    ended = np.zeros(4, bool)
    while finished < 6:
        actions = _masked_random(rng, info["action_mask"])
        actions[ended] = -7   # ignored: those slots only start their next game
        seats_before = env.seats
        obs, rew, term, trunc, info = env.step(actions)
        assert not (term[ended] | trunc[ended]).any() and (rew[ended] == 0).all()
        assert info["action_mask"][~(term | trunc)].any(axis=1).all()  # the others wait for their learner
        sums += rew
        now = term | trunc
        for i in np.flatnonzero(now):
            assert not info["action_mask"][i].any()             # a final observation: no legal action
            assert info["_final_scores"][i]
            seat = int(info["seat"][i])
            assert seat == seats_before[i]
            assert sums[i] == pytest.approx(info["final_scores"][i][seat] / scale, abs=1e-5)
            assert info["winners"][i] and set(info["winners"][i]) <= {0, 1}
            sums[i] = 0.0
            finished += 1
        ended = now


def test_same_step_mode_returns_the_next_game_and_the_final_observation_in_infos():
    env = learner_gym_vector_env("bean_duel", 4, seed=2, autoreset_mode=AutoresetMode.SAME_STEP,
                                 reward_mode="dense")
    rng = np.random.default_rng(3)
    obs, info = env.reset()
    scale = env.core.vec.envs[0].score_scale
    sums = np.zeros(4)
    finished = 0
    while finished < 6:
        seats_before = env.seats
        obs, rew, term, trunc, info = env.step(_masked_random(rng, info["action_mask"]))
        sums += rew
        assert info["action_mask"].any(axis=1).all()           # every slot waits for its learner
        now = term | trunc
        if now.any():
            assert (info["_final_obs"] == now).all() and (info["_final_info"] == now).all()
        else:
            assert "final_obs" not in info
        for i in np.flatnonzero(now):
            final = info["final_info"]
            assert final["seat"][i] == seats_before[i]
            assert info["final_obs"][i].shape == obs[i].shape and not np.array_equal(info["final_obs"][i], obs[i])
            assert sums[i] == pytest.approx(final["final_scores"][i][final["seat"][i]] / scale, abs=1e-5)
            sums[i] = 0.0
            finished += 1


@pytest.mark.parametrize("mode", ["NextStep", "SameStep"])
def test_same_seed_same_games_and_reset_seed_replays(mode):
    a = learner_gym_vector_env("bohnanza", 3, num_players=3, autoreset_mode=mode)
    b = learner_gym_vector_env("bohnanza", 3, num_players=3, autoreset_mode=mode)
    first = _play(a, 150, seed=11)
    for x, y in zip(first, _play(b, 150, seed=11)):
        for u, v in zip(x, y):
            assert (u is None and v is None) or np.array_equal(u, v)
    for x, y in zip(first, _play(a, 150, seed=11)):    # the same env, reset with the same seed
        for u, v in zip(x, y):
            assert (u is None and v is None) or np.array_equal(u, v)
    other = _play(b, 150, seed=12)
    assert not all(np.array_equal(x[0], y[0]) for x, y in zip(first, other))


def test_the_learner_acts_only_at_its_seat_and_random_seats_vary():
    core = LearnerBatch("bohnanza", 6, learner_seat="random", seed=4, num_players=4)
    core.reset()
    seen = set()
    rng = np.random.default_rng(0)
    for _ in range(600):
        assert (core.vec.actors == core.seats).all()
        seen.update(core.seats.tolist())
        core.step(_masked_random(rng, core.masks))
    assert seen == {0, 1, 2, 3}


def test_gymnasium_episode_statistics_wrapper_reads_the_episodes():
    from gymnasium.wrappers.vector import RecordEpisodeStatistics
    env = RecordEpisodeStatistics(learner_gym_vector_env("bean_duel", 3, seed=9, reward_mode="dense"))
    rng = np.random.default_rng(1)
    obs, info = env.reset()
    returns = np.zeros(3)
    episodes = 0
    while episodes < 4:
        obs, rew, term, trunc, info = env.step(_masked_random(rng, info["action_mask"]))
        returns += rew
        for i in np.flatnonzero(term | trunc):
            assert info["episode"]["r"][i] == pytest.approx(returns[i], abs=1e-4)
            returns[i] = 0.0
            episodes += 1


def test_bad_input_raises_and_changes_nothing():
    with pytest.raises(ValueError, match="autoreset_mode"):
        learner_gym_vector_env("bean_duel", 2, autoreset_mode="Disabled")
    with pytest.raises(ValueError, match="learner_seat"):
        learner_gym_vector_env("bean_duel", 2, learner_seat=2)
    with pytest.raises(ValueError, match="learner_seat"):
        learner_gym_vector_env("bean_duel", 2, learner_seat=True)
    with pytest.raises(TypeError, match="bad seed"):
        learner_gym_vector_env("bean_duel", 2, seed=1.5)
    with pytest.raises(TypeError, match="opponent"):
        learner_gym_vector_env("bean_duel", 2, opponent="heuristic")
    with pytest.raises(ValueError, match="unknown variant"):
        learner_gym_vector_env("bohnanzza", 2)
    env = learner_gym_vector_env("bean_duel", 2, seed=0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(TypeError, match="bad seed"):
        env.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="options"):
        env.reset(seed=1, options={"game": None})
    obs, info = env.reset(seed=1)
    masks = info["action_mask"]
    bad = np.array([int(np.flatnonzero(masks[0])[0]), int(np.flatnonzero(~masks[1])[0])])
    with pytest.raises(ValueError, match="slot 1"):
        env.step(bad)
    with pytest.raises(TypeError):
        env.step(np.array([0.5, 1.0]))
    assert np.array_equal(env.core.obs, obs) and np.array_equal(env.core.masks, masks)
    good = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    env.step(good)  # the env still plays on


@pytest.mark.parametrize("reads_obs", [False, True])
def test_learner_observations_equal_the_aec_envs_after_every_step(reads_obs):
    """Opponents that read no observations leave them unencoded until the learner's turn (``refresh``);
    either way the learner sees its AEC env's observation, bit for bit."""
    from bean_env.vector import uniform_random_policy
    policy = uniform_random_policy(3)
    opponent = policy if not reads_obs else (lambda obs, masks: policy(obs, masks))
    core = LearnerBatch("bohnanza", 5, opponent=opponent, seed=8, num_players=4)
    assert core._observe is reads_obs
    obs = core.reset()
    rng = np.random.default_rng(0)
    for _ in range(120):
        assert not core.vec.stale.any()
        for i, env in enumerate(core.vec.envs):
            agent = env.possible_agents[int(core.seats[i])]
            seen = env.observe(agent)
            assert np.array_equal(obs[i], seen["observation"])
            assert np.array_equal(core.masks[i], seen["action_mask"].astype(bool))
        obs, *_ = core.step(_masked_random(rng, core.masks))
