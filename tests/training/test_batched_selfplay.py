"""``bean-env train --batched``: learner-vs-pool self-play on the batched env (``BatchedSelfPlayVecEnv``)."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from bean_env.agents.ppo import PolicyNet  # noqa: E402
from bean_env.training.batched_selfplay import BatchedSelfPlayVecEnv  # noqa: E402
from bean_env.training.opponents import OpponentPool, SnapshotPlayer, parse_mix  # noqa: E402


def _net(obs_size: int, actions: int, seed: int = 0) -> PolicyNet:
    rng = np.random.default_rng(seed)
    sizes = [obs_size, 16, actions]
    return PolicyNet([(rng.normal(0, 0.5, (b, a)).astype(np.float32), rng.normal(0, 0.1, b).astype(np.float32))
                      for a, b in zip(sizes, sizes[1:])], "tanh")


def _env(mix: str = "random:1,heuristic:1", n: int = 3, seed: int = 5, variant: str = "bean_duel", **config):
    env = BatchedSelfPlayVecEnv(variant, config, n, OpponentPool(parse_mix(mix), seed=seed), seed=seed)
    net = _net(env.observation_space.shape[0], int(env.action_space.n))
    env.env_method("add_snapshot", net.layers, net.activation, {})
    return env


def _rollout(env, steps: int, seed: int = 0, reset: bool = True):
    rng = np.random.default_rng(seed)
    obs = env.reset() if reset else env.vec.obs.copy()
    trace, ends = [obs.copy()], []
    for _ in range(steps):
        masks = np.stack(env.env_method("action_masks"))
        assert masks.any(axis=1).all()  # every slot waits for a learner decision
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        obs, rewards, dones, infos = env.step(actions)
        trace.append((obs.copy(), rewards.copy(), dones.copy()))
        ends += [infos[i] for i in np.flatnonzero(dones)]
    return trace, ends


def test_every_slot_waits_for_its_learner_and_games_end_with_learner_rewards():
    env = _env("self:1,heuristic:1,random:1")
    trace, ends = _rollout(env, 400)
    assert ends, "games finish within 400 learner steps"
    for info in ends:
        assert set(info) >= {"seat", "win", "scores", "opponents", "terminal_observation"}
        assert info["terminal_observation"].shape == env.observation_space.shape
    rewards = np.concatenate([t[1] for t in trace[1:]])
    assert set(np.unique(rewards)) <= {-1.0, 0.0, 0.5, 1.0}  # win mode: the learner's own reward only
    assert {s for info in ends for s in [info["seat"]]} == {0, 1}  # the learner's seat rotates
    assert (env.vec.actors == env.seats).all()


def test_same_seed_same_training_games():
    a, _ = _rollout(_env(seed=9), 150)
    b, _ = _rollout(_env(seed=9), 150)
    assert all(np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1]) for x, y in zip(a[1:], b[1:]))


def test_snapshot_opponents_decide_from_the_batched_forward_pass():
    """The batched (torch) logits are the policy network's, for rows of several slots at once; every
    opponent seat is a snapshot, and their sampled actions are legal (an illegal one would raise)."""
    env = _env("self:1", n=4, variant="bohnanza", num_players=3)
    env.reset()
    net = env.pool.snapshots[-1]
    assert all(isinstance(p, SnapshotPlayer) for opp in env.opponents for p in opp.values())
    obs = env.vec.obs
    assert np.allclose(env._logits(net, obs), net.logits(obs), atol=1e-4)
    histories = [len(e.game.history) for e in env.vec.envs]
    _rollout(env, 40, reset=False)
    assert all(len(e.game.history) > h + 40 for e, h in zip(env.vec.envs, histories))


def test_pool_methods_and_unknown_methods():
    env = _env()
    assert env.env_method("snapshot_count") == [1, 1, 1]
    net = _net(env.observation_space.shape[0], int(env.action_space.n), seed=1)
    env.env_method("add_snapshot", net.layers, net.activation, {})
    assert env.env_method("snapshot_count", indices=[0]) == [2]
    with pytest.raises(AttributeError, match="render"):
        env.env_method("render")


def test_trainer_runs_batched(tmp_path):
    from bean_env.training.selfplay import parse_args, train
    args = parse_args(["--variant", "bean_duel", "--batched", "true", "--n-envs", "4", "--n-steps", "32",
                       "--batch-size", "64", "--n-epochs", "1", "--hidden", "16", "--total-timesteps", "256",
                       "--eval-every", "0", "--eval-games", "2", "--snapshot-every", "128", "--out-dir", str(tmp_path),
                       "--run-name", "b", "--progress", "false"])
    run = train(args)
    assert (run / "policy.pt").exists() and len(list((run / "snapshots").glob("*.json"))) >= 2


def test_dense_episode_returns_add_up_to_the_learners_final_score():
    """Under ``dense`` the learner's rewards follow its score: what a new game pays before the learner's
    first decision in it (``hostile_takeover``'s starting points, the opponents' first moves) comes with
    that decision's step, never with the step that ended the game before, and ``reset`` keeps it."""
    env = BatchedSelfPlayVecEnv("hostile_takeover", {"num_players": 3}, 3,
                                OpponentPool(parse_mix("random:1,heuristic:1"), seed=4), reward_mode="dense", seed=4)
    rng = np.random.default_rng(1)
    env.reset()
    sums = np.zeros(3)
    ended = 0
    while ended < 6:
        masks = np.stack(env.env_method("action_masks"))
        obs, rewards, dones, infos = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
        sums += rewards
        for i in range(3):
            if dones[i]:
                info = infos[i]
                assert sums[i] == pytest.approx(info["scores"][info["seat"]] / 100, abs=1e-5)
                sums[i] = 0.0
                ended += 1
            else:
                assert sums[i] == pytest.approx(env.vec.envs[i].game.scores()[env.seats[i]] / 100, abs=1e-5)


def test_array_backend_trains_on_the_kernels_with_self_and_random_opponents(tmp_path, monkeypatch):
    """``--backend arrays``: the games on ``ArrayVectorEnv``, snapshots batched as before and ``random``
    drawing from the slot's mask; a baseline that needs the engine's games is refused up front."""
    pytest.importorskip("numba")
    from bean_env.training.selfplay import parse_args, train
    from bean_env.vector import ArrayVectorEnv
    env = BatchedSelfPlayVecEnv("al_cabohne", {}, 3, OpponentPool(parse_mix("self:1,random:1"), seed=2), seed=2,
                                backend="arrays")
    net = _net(env.observation_space.shape[0], int(env.action_space.n))
    env.env_method("add_snapshot", net.layers, net.activation, {})
    assert isinstance(env.vec, ArrayVectorEnv)
    trace, ends = _rollout(env, 300)
    assert ends and {o for info in ends for o in info["opponents"]} == {"self", "random"}
    assert (env.vec.actors == env.seats).all()
    with pytest.raises(ValueError, match=r"opponents \['heuristic'\] need the engine's games"):
        BatchedSelfPlayVecEnv("bean_duel", {}, 2, OpponentPool(parse_mix("self:1,heuristic:1")), backend="arrays")
    common = ["--variant", "bean_duel", "--n-envs", "4", "--n-steps", "32", "--batch-size", "64", "--n-epochs", "1",
              "--hidden", "16", "--total-timesteps", "128", "--eval-every", "0", "--eval-games", "2",
              "--opponent-mix", "self:1,random:1", "--out-dir", str(tmp_path), "--progress", "false"]
    from bean_env.vector import array_env
    monkeypatch.delitem(array_env.KERNELS, "hostile_takeover")  # as a variant without kernels
    for bad, match in ((["--backend", "arrays"], "--backend arrays needs --batched"),
                       (["--batched", "true", "--backend", "numba"], "bad value 'numba' for --backend"),
                       (["--batched", "true", "--backend", "arrays", "--opponent-mix", "heuristic:1"],
                        r"opponents \['heuristic'\] need the engine's games"),
                       (["--batched", "true", "--backend", "arrays", "--variant", "hostile_takeover"],
                        "'hostile_takeover' has no array kernels")):
        with pytest.raises(ValueError, match=match):
            train(parse_args(common + bad + ["--run-name", "a"]))
        assert not (tmp_path / "a").exists()  # refused before a run directory is made
    run = train(parse_args(common + ["--batched", "true", "--backend", "arrays", "--run-name", "b"]))
    assert (run / "policy.pt").exists()


def test_observations_read_are_fresh_and_baseline_turns_skip_the_encoder():
    """Steps encode only the rows something reads (the learner's, snapshot opponents'): every returned
    learner observation is its AEC env's, and rows of slots where a baseline moves are left stale."""
    env = _env("self:1,heuristic:1,random:1", n=4, variant="bohnanza", num_players=3)
    rng = np.random.default_rng(2)
    obs = env.reset()
    left_stale = []
    refresh = env.vec.refresh

    def spy(only=None):
        left_stale.append(int((env.vec.stale & ~only).sum()) if only is not None else 0)
        refresh(only)
    env.vec.refresh = spy
    for _ in range(120):
        for i, aec in enumerate(env.vec.envs):
            agent = aec.possible_agents[int(env.seats[i])]
            assert np.array_equal(obs[i], aec.observe(agent)["observation"])
        masks = np.stack(env.env_method("action_masks"))
        obs, *_ = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
    assert sum(left_stale) > 50
