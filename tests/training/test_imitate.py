"""Behaviour cloning (``training/imitate.py``): recorded samples, the fit, and ``--init-policy``."""
from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from bean_env.agents import make_agent  # noqa: E402
from bean_env.training import imitate  # noqa: E402
from bean_env.training.selfplay_env import make_aec  # noqa: E402

PRESET = {"num_players": 3, "trade_preset": "learning"}


def spaces(variant: str, config: dict):
    aec = make_aec(variant, **config)
    inner = aec.observation_space(aec.possible_agents[0])["observation"]
    return gym.spaces.Box(low=inner.low, high=inner.high, dtype=np.float32), gym.spaces.Discrete(aec.catalogue.size)


def test_discounted_returns():
    assert imitate.discounted([1.0, 0.0, 2.0], 0.5) == [1.5, 1.0, 2.0]
    assert imitate.discounted([], 0.9) == []


def test_record_replays_the_teacher_and_sums_the_dense_reward():
    samples = imitate.record("bohnanza", PRESET, "heuristic", games=2, seed=3, reward_mode="dense", gamma=1.0)
    assert len(samples) == len(samples.actions) == len(samples.returns) == samples.obs.shape[0] > 100
    masks = samples.masks(np.arange(len(samples)), make_aec("bohnanza", **PRESET).catalogue.size)
    assert masks[np.arange(len(samples)), samples.actions].all()  # every recorded action was legal
    assert (masks.sum(1) > 1).all()  # forced decisions are applied by the env, never asked
    # the same games replayed by the heuristic at every seat: each seat's first undiscounted return is its
    # final score (dense reward = coins as earned), plus 5 x its win reward with a win bonus of 5
    bonus = imitate.record("bohnanza", PRESET, "heuristic", games=2, seed=3, reward_mode="dense", win_bonus=5.0,
                           gamma=1.0)
    for i in range(2):
        aec = make_aec("bohnanza", **PRESET)
        aec.reset(seed=3 * 1_000_003 + i)
        agents = [make_agent("heuristic", seed=3 * 7919 + i * 3 + q) for q in range(3)]
        game = aec.game
        while not game.is_over:
            seat = game.current_player
            game.apply(agents[seat].act(game.view(seat), game.legal_actions()))
        for seat, score in enumerate(game.scores()):
            rows = np.flatnonzero((samples.game == i) & (samples.seat == seat))
            assert samples.returns[rows[0]] == pytest.approx(score)
            win = 1.0 / len(game.winners()) if seat in game.winners() else -1.0
            assert bonus.returns[rows[0]] == pytest.approx(score + 5.0 * win)


def test_record_one_seat_records_only_that_seat():
    all_seats = imitate.record("bean_duel", {}, games=1, seed=5)
    one = imitate.record("bean_duel", {}, games=1, seed=5, seats="one", others="random")
    assert 0 < len(one) < len(all_seats)
    with pytest.raises(ValueError, match="seats"):
        imitate.record("bean_duel", {}, games=1, seats="two")


def test_fit_learns_the_teacher_and_the_returns():
    samples = imitate.record("bean_duel", {}, games=4, seed=1, reward_mode="dense")
    obs_space, act_space = spaces("bean_duel", {})
    policy = imitate.build_policy(obs_space, act_space, [64, 64])
    stats = imitate.fit(policy, samples, epochs=12, batch_size=64, learning_rate=3e-3, seed=1, holdout=0.1,
                        log=lambda _: None)
    first, last = stats["epochs"][0], stats["epochs"][-1]
    assert stats["samples"] == len(samples)
    assert last["held_out_cross_entropy"] < first["held_out_cross_entropy"]
    assert last["held_out_accuracy"] > 0.6  # a uniform guess over the legal actions gets far less
    legal_counts = np.diff(samples.offsets)
    assert last["held_out_accuracy"] > float(np.mean(1.0 / legal_counts)) + 0.2


def test_imitation_run_initialises_training_and_is_checked(tmp_path):
    from bean_env.training import selfplay

    out = imitate.run(imitate.Args(variant="bean_duel", games=2, epochs=1, hidden="16", eval_games=2,
                                   eval_opponents="random", out_dir=str(tmp_path), run_name="bc"))
    meta = json.loads((out / "init.json").read_text())
    assert meta["format"] == imitate.INIT_FORMAT and meta["hidden"] == [16] and meta["teacher"] == "heuristic"
    assert (out / "policy.pt").is_file() and (out / "eval.csv").is_file()
    agent = make_agent("ppo", seed=1, checkpoint=out / "policy")  # the clone plays as a ppo agent
    from helpers import play_agents
    from bean_env import new_game

    play_agents(new_game("bean_duel", seed=2), [agent, make_agent("random", seed=2)])

    state = imitate.load_init(out, meta["layout_hash"], [16])
    args = selfplay.parse_args(["--variant", "bean_duel", "--hidden", "16", "--init-policy", str(out),
                                "--total-timesteps", "0", "--eval-games", "1", "--eval-opponents", "random",
                                "--out-dir", str(tmp_path), "--run-name", "ppo", "--progress", "false"])
    run_dir = selfplay.train(args)
    import torch

    started = torch.load(run_dir / "checkpoints" / "latest.pt", weights_only=True)["policy"]
    assert set(started) == set(state)
    assert all(torch.equal(started[k], state[k]) for k in state)  # zero steps: exactly the clone

    with pytest.raises(ValueError, match="hidden widths"):
        imitate.load_init(out, meta["layout_hash"], [32])
    with pytest.raises(ValueError, match="observation layout"):
        imitate.load_init(out, "0" * 64, [16])
    with pytest.raises(ValueError, match="no init.json"):
        imitate.load_init(tmp_path, meta["layout_hash"], [16])
    (out / "init.json").write_text("{")
    with pytest.raises(ValueError, match="unreadable init.json"):
        imitate.load_init(out, meta["layout_hash"], [16])
    (tmp_path / "empty").mkdir()
    bad = selfplay.parse_args(["--variant", "bean_duel", "--hidden", "16", "--init-policy", str(tmp_path / "empty"),
                               "--total-timesteps", "0",
                               "--out-dir", str(tmp_path), "--run-name", "ppo2", "--progress", "false"])
    with pytest.raises(ValueError, match="init-policy"):
        selfplay.train(bad)


def _train_args(tmp_path, name, *extra):
    from bean_env.training import selfplay

    return selfplay.parse_args(["--variant", "bean_duel", "--hidden", "16", "--n-envs", "1", "--n-steps", "32",
                                "--batch-size", "32", "--n-epochs", "1", "--learning-rate", "0.01",
                                "--eval-every", "0", "--eval-games", "1", "--eval-opponents", "random",
                                "--opponent-mix", "random:1", "--out-dir", str(tmp_path), "--run-name", name,
                                "--progress", "false", *extra])


def _actor_and_critic(run_dir):
    import torch

    state = torch.load(run_dir / "checkpoints" / "latest.pt", weights_only=True)["policy"]
    actor = {k: v for k, v in state.items() if "policy_net" in k or k.startswith("action_net")}
    critic = {k: v for k, v in state.items() if "value_net" in k}
    assert actor and critic
    return actor, critic


def test_init_policy_from_a_policy_file_trains_the_critic_first(tmp_path):
    """A policy file holds only the actor: the run starts its actor from it, and while the critic warms up
    (two rollouts by default) only the critic learns; then both do."""
    import torch

    from bean_env.agents.ppo import PolicyNet
    from bean_env.training import selfplay

    source = selfplay.train(_train_args(tmp_path, "source", "--total-timesteps", "32"))
    net = PolicyNet.load(source)  # a finished run directory's exported policy
    fresh = selfplay.train(_train_args(tmp_path, "fresh", "--total-timesteps", "0", "--seed", "5"))
    warm = selfplay.train(_train_args(tmp_path, "warm", "--init-policy", str(source / "policy.pt"),
                                      "--total-timesteps", "64", "--seed", "5"))
    actor, critic = _actor_and_critic(warm)
    _, fresh_critic = _actor_and_critic(fresh)
    layers = [t for k, t in sorted(actor.items(), key=lambda kv: (kv[0].startswith("action_net"), kv[0]))]
    for (w, b), (tw, tb) in zip(net.layers, zip(layers[1::2], layers[0::2])):  # bias sorts before weight
        assert np.array_equal(tw.numpy(), w) and np.array_equal(tb.numpy(), b)  # the actor did not move
    assert any(not torch.equal(critic[k], fresh_critic[k]) for k in critic)  # the critic learned
    shipped = _train_args(tmp_path, "x", "--init-policy", "shipped")
    assert selfplay.warmup_steps(shipped, selfplay.rule_config(shipped)) == 64

    moved = selfplay.train(_train_args(tmp_path, "moved", "--init-policy", str(source), "--critic-warmup", "0",
                                       "--total-timesteps", "32", "--seed", "5"))
    actor2, _ = _actor_and_critic(moved)
    assert any(not torch.equal(actor2[k], actor[k]) for k in actor)  # no warm-up: the actor learns at once

    for option, match in [(str(tmp_path / "nowhere.pt"), "not found"),
                          ("shipped", "hidden widths .* --hidden 256,256"),  # the shipped bean_duel policy is 256-256
                          (str(tmp_path / "fresh"), "not a finished training run|policy.json")]:
        if option.endswith("fresh"):
            (tmp_path / "fresh" / "policy.json").unlink()
        with pytest.raises(ValueError, match=match):
            selfplay.train(_train_args(tmp_path, "bad", "--init-policy", option, "--total-timesteps", "0"))
        assert not (tmp_path / "bad").exists()  # refused before a run directory is made
    for option in ("--critic-warmup", "-1"), ("--init-policy", str(tmp_path / "nowhere")), ("--gift-penalty", "-1"), \
            ("--trade-bonus", "-1"), ("--eval-opponents", "random,foo"), ("--hidden", "32,x"):
        refused = "critic-warmup|not found|(gift-penalty|trade-bonus) must be a number >= 0|unknown agent 'foo'|" \
            "for --hidden"
        with pytest.raises(ValueError, match=refused):
            selfplay.train(_train_args(tmp_path, "early", *option, "--total-timesteps", "0"))
        assert not (tmp_path / "early").exists()  # refused before a run directory is made


def test_init_policy_shipped_without_one_names_the_closest_shipped_config(tmp_path):
    from bean_env.training import selfplay

    # the learning preset's options one by one, without the preset's name: no policy has exactly these
    rules = '{"max_offer_cards": 2, "offer_actions": "macro", "proposals": "active_only", "max_trade_rounds": 1}'
    args = selfplay.parse_args(["--variant", "bohnanza", "--num-players", "4", "--rules", rules,
                                "--init-policy", "shipped", "--out-dir", str(tmp_path)])
    config = selfplay.rule_config(args)
    with pytest.raises(ValueError, match="no policy is shipped for 'bohnanza'") as err:
        selfplay.init_source(args, config)
    assert "closest differs in" in str(err.value) and "trade_preset='learning'" in str(err.value)


def test_same_seed_and_options_clone_the_same_policy(tmp_path):
    """Behaviour cloning is reproducible: the same seed and options give byte-identical weights."""
    def clone(name: str) -> bytes:
        out = imitate.run(imitate.Args(variant="bean_duel", games=2, epochs=1, hidden="16", eval_games=1,
                                       eval_opponents="random", out_dir=str(tmp_path), run_name=name))
        return (out / "policy.pt").read_bytes()

    assert clone("a") == clone("b")


def test_samples_concat_keeps_every_row_and_its_mask():
    a = imitate.record("bean_duel", {}, games=1, seed=5)
    b = imitate.record("bean_duel", {}, games=1, seed=5, first_game=7)
    both = a.concat(b)
    size = make_aec("bean_duel").catalogue.size
    assert len(both) == len(a) + len(b) and set(both.game.tolist()) == {0, 7}
    assert (both.masks(np.arange(len(both)), size)
            == np.concatenate([a.masks(np.arange(len(a)), size), b.masks(np.arange(len(b)), size)])).all()
    assert (both.actions == np.concatenate([a.actions, b.actions])).all()
    # game 7 of seed 5 is another deal than game 0
    assert len(a) != len(b) or not (a.obs == b.obs).all()


def test_record_with_a_student_plays_the_student_and_labels_with_the_teacher():
    """A DAgger round: the student's actions are played, the teacher's choices in those positions recorded."""
    def first_legal(vector, legal):
        return legal[0]

    samples = imitate.record("bean_solitaire", {}, games=1, seed=4, student=first_legal, first_game=3)
    aec = make_aec("bean_solitaire")
    aec.reset(seed=4 * 1_000_003 + 3)
    teacher = make_agent("heuristic", seed=4 * 7919 + 3)
    row, differ = 0, 0
    while not any(aec.terminations.values()):
        agent = aec.agent_selection
        idx = aec.legal_indices()
        game = aec.game
        label = aec.catalogue.encode(teacher.act(game.view(game.current_player), game.legal_actions()),
                                     game.current_player)
        assert samples.actions[row] == label and samples.game[row] == 3
        assert (samples.obs[row] == aec.observe(agent)["observation"].astype(np.float16)).all()
        assert samples.legal[samples.offsets[row]:samples.offsets[row + 1]].tolist() == list(idx)
        differ += label != idx[0]
        aec.step(idx[0])
        row += 1
    assert row == len(samples) and differ > 0  # the game followed the student, not the teacher


def test_dagger_rounds_add_the_clones_own_positions(tmp_path):
    out = imitate.run(imitate.Args(variant="bean_solitaire", games=3, epochs=1, hidden="16", eval_games=1,
                                   dagger_rounds=2, dagger_games=2, dagger_epochs=1, out_dir=str(tmp_path),
                                   run_name="dagger"))
    meta = json.loads((out / "init.json").read_text())
    rounds = meta["fit"]["dagger"]
    assert [r["round"] for r in rounds] == [1, 2] and all(r["games"] == 2 for r in rounds)
    assert all(0.0 <= r["agreement_on_own_decisions"] <= 1.0 and r["decisions"] > 0 for r in rounds)
    first = meta["fit"]["first_fit"]["samples"]
    assert rounds[-1]["samples"] == meta["fit"]["samples"] == first + sum(r["decisions"] for r in rounds)
    policy_meta = json.loads((out / "policy.json").read_text())
    assert "2 DAgger rounds" in policy_meta["training"]["algorithm"] and policy_meta["training"]["games"] == 7
    agent = make_agent("ppo", seed=1, checkpoint=out / "policy")
    from helpers import play_agents
    from bean_env import new_game

    play_agents(new_game("bean_solitaire", seed=2), [agent])


@pytest.mark.parametrize("rounds, games", [(-1, 5), (1, 0)])
def test_bad_dagger_options_are_refused_before_the_run_starts(tmp_path, rounds, games):
    with pytest.raises(ValueError, match="dagger"):
        imitate.run(imitate.Args(variant="bean_duel", games=1, dagger_rounds=rounds, dagger_games=games,
                                 out_dir=str(tmp_path), run_name="bad"))
    assert not (tmp_path / "bad").exists()


@pytest.mark.parametrize("option, refused", [
    ({"teacher": "foo"}, "for --teacher: unknown agent 'foo'"), ({"others": "mcts:simulatons=2"}, "for --others"),
    ({"seats": "some"}, "for --seats"), ({"eval_opponents": "random,foo"}, "for --eval-opponents"),
    ({"hidden": "0"}, "for --hidden")])
def test_bad_agents_and_seats_are_refused_before_the_run_starts(tmp_path, option, refused):
    with pytest.raises(ValueError, match=refused):
        imitate.run(imitate.Args(variant="bean_duel", games=1, out_dir=str(tmp_path), run_name="bad", **option))
    assert not (tmp_path / "bad").exists()


def test_fit_with_held_out_games_needs_both_parts():
    samples = imitate.record("bean_duel", {}, games=1, seed=1)
    obs_space, act_space = spaces("bean_duel", {})
    policy = imitate.build_policy(obs_space, act_space, [8])
    assert (imitate.held_out_games(samples) == (samples.game % imitate.HELD_GAMES == 0)).all()
    with pytest.raises(ValueError, match="held-out"):
        imitate.fit(policy, samples, epochs=1, held=imitate.held_out_games(samples), log=lambda _: None)
    stats = imitate.fit(policy, samples, epochs=1, held=np.arange(len(samples)) % 4 == 0, log=lambda _: None)
    assert stats["held_out"] == len(range(0, len(samples), 4))
