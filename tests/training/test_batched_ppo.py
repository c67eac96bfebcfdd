"""``bean-env train batched``: per-seat experience, the structured offer head, policy files, stops, variants."""
from __future__ import annotations

import csv
import dataclasses
import json
from collections import defaultdict

import numpy as np
import pytest
import torch
from helpers import load_benchmark

from bean_env.agents import make_agent
from bean_env.agents.offer_head import offer_parts
from bean_env.agents.ppo import PolicyFileError, PolicyNet
from bean_env.engine.catalogue import catalogue_for
from bean_env.engine.config import validate
from bean_env.training import batched_ppo
from bean_env.training.evaluate import play_game
from bean_env.training.batched_ppo import Args, Learner, check_args, train
from bean_env.training.league import League, split_mix
from bean_env.training.opponents import parse_mix
from bean_env.training.options import hidden_widths
from bean_env.training.policy_model import ActorCritic
from bean_env.training.seat_rollout import SeatRollout
from bean_env.vector import ArrayVectorEnv, array_variants

pytest.importorskip("numba")

LEARNING = {"trade_preset": "learning"}


def random_act(seed: int):
    """A learner that picks uniformly among the legal actions (log-probabilities and values 0)."""
    rng = np.random.default_rng(seed)

    def act(obs, masks, pairs=None):
        scores = np.where(masks, rng.random(masks.shape), -1.0)
        n = len(masks)
        return scores.argmax(1), np.zeros(n, np.float32), np.zeros(n, np.float32)
    return act


def seat_sums(variant: str, mix: str, games: int, relative: bool = False, **config):
    """Play until ``games`` games ended, dropping resolved records between rollouts (as the trainer does);
    returns (reward sum per (game, seat) of the learner's records, the finished games, chains seen)."""
    share, opponents = split_mix(mix)
    vec = ArrayVectorEnv(variant, 3, reward_mode="dense", **config)
    league = League(opponents, variant, vec.config, vec.obs_size, vec.num_actions, seed=3)
    rollout = SeatRollout(vec, league, share, seed=4, capacity=300, relative=relative)
    rollout.reset()
    sums: dict = defaultdict(float)
    finished: list = []
    act = random_act(5)
    while len(finished) < games:
        rollout.collect(act, 100)
        rec = rollout.records
        rows = rec.resolved()
        for i in rows.tolist():
            sums[(int(rec.game[i]), int(rec.seat[i]))] += float(rec.rewards[i])
            j = int(rec.nxt[i])
            if j >= 0:  # a chain stays with its seat, slot and game
                assert (rec.seat[j], rec.slot[j], rec.game[j]) == (rec.seat[i], rec.slot[i], rec.game[i])
            else:
                assert rec.done[i]
        rollout.drop(rows)
        finished += rollout.finished
        rollout.finished = []
    return sums, finished


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
def test_each_seat_gets_its_own_rewards(players):
    """Under dense rewards a seat's rewards over a game add up to its final score: only when every record
    is the right seat's (scores differ between seats, so mixed seats would not add up)."""
    edition = "english" if players > 5 else "german"
    sums, finished = seat_sums("bohnanza", "learner:0.6,random:0.4", 2, num_players=players, edition=edition,
                               **LEARNING)
    checked = 0
    for g in finished:
        assert g["learner"] and set(g["opponents"]) == set(range(players)) - set(g["learner"])
        for seat in g["learner"]:
            assert sums[(g["game"], seat)] == pytest.approx(g["scores"][seat], abs=1e-4)
            checked += 1
        for seat in g["opponents"]:  # opponents' decisions are never the learner's
            assert (g["game"], seat) not in sums
    assert checked >= 2 and len({s for g in finished for s in g["scores"]}) > 1


@pytest.mark.parametrize("players", [3, 4])
def test_relative_rewards_add_up_to_the_margin_over_the_table(players):
    """With ``relative`` (``--relative-reward``) a seat's rewards over a game add up to its final score
    minus the mean final score of the other seats, for every seat, and the seats' sums cancel out."""
    sums, finished = seat_sums("bohnanza", "learner:1", 2, relative=True, num_players=players, **LEARNING)
    for g in finished:
        scores = g["scores"]
        assert g["learner"] == list(range(players))
        for seat in range(players):
            others = (sum(scores) - scores[seat]) / (players - 1)
            assert sums[(g["game"], seat)] == pytest.approx(scores[seat] - others, abs=1e-4)
        assert sum(sums[(g["game"], s)] for s in range(players)) == pytest.approx(0.0, abs=1e-4)
    assert len({s for g in finished for s in g["scores"]}) > 1


@pytest.mark.parametrize("penalty,bonus", [(0.5, 0.0), (0.5, 0.25), (0.0, 0.25)])
def test_gift_penalty_and_trade_bonus_shape_a_learner_seats_rewards_by_its_trades(penalty, bonus):
    """TRADE-5: with ``gift_penalty`` p and ``trade_bonus`` b (engine backend) a learner seat's rewards over a
    game add up to its final score minus p times the cards it received as gifts plus b times the executed
    trades in which it both gave and received cards, as the trade counter counts them from a replay of the
    game. Between steps the rules do not listen: an opponent's search plays on clones that share the rules
    object, and its trial trades must not count."""
    from bean_env.engine.trade_stats import count_trades
    from bean_env.vector import VectorEnv

    vec = VectorEnv("bohnanza", 3, reward_mode="dense", num_players=4)
    share, opponents = split_mix("learner:0.5,heuristic:0.5")
    league = League(opponents, "bohnanza", vec.envs[0].config, vec.obs_size, vec.num_actions, seed=3)
    rollout = SeatRollout(vec, league, share, seed=4, capacity=600, gift_penalty=penalty, trade_bonus=bonus)
    rollout.reset()
    act, sums, ended = random_act(5), defaultdict(float), []
    while len(ended) < 4:
        games = [env.game for env in vec.envs]
        rollout.step(act)
        assert all(env.game.rules.events is None for env in vec.envs)
        ended += [(g, games[g["slot"]]) for g in rollout.finished]
        rollout.finished = []
        rec = rollout.records
        if rec.size > 400 or len(ended) >= 4:
            rows = rec.resolved()
            for i in rows.tolist():
                sums[(int(rec.game[i]), int(rec.seat[i]))] += float(rec.rewards[i])
            rollout.drop(rows)
    charged = paid = 0
    for g, game in ended:
        counted = count_trades(game.record())
        for seat in g["learner"]:
            s = counted.seats[seat]
            gifts, two_way = s.gift_cards_received, s.trades - s.gifts_given - s.gifts_received
            assert (g["gift_cards"][seat], g["exchanges"][seat]) == (gifts, two_way)
            assert sums[(g["game"], seat)] == pytest.approx(g["scores"][seat] - penalty * gifts + bonus * two_way,
                                                            abs=1e-4)
            charged, paid = charged + gifts, paid + two_way
    assert charged > 0 and paid > 0  # the test saw gifts and trades of both ways


@pytest.mark.parametrize("bad", [-1.0, float("nan")])
def test_gift_penalty_and_trade_bonus_are_refused_below_zero_and_on_array_kernels(bad):
    config = validate("bohnanza", {"num_players": 4})
    for option in ("gift_penalty", "trade_bonus"):
        flag = "--" + option.replace("_", "-")
        with pytest.raises(ValueError, match=f"{flag}; must be a number >= 0"):
            check_args(Args(backend="engine", **{option: bad}), config)
        with pytest.raises(ValueError, match=f"{flag} reads the engine's trade events"):
            check_args(Args(backend="arrays", **{option: 0.5}), config)


def test_rewards_paid_before_a_seats_first_decision_reach_it():
    """hostile_takeover pays every seat its starting points with the game's first step: those reach each
    seat's first decision (the carry), so the sums still equal the final scores."""
    from bean_env.envs.hostile_takeover_v1 import raw_env

    sums, finished = seat_sums("hostile_takeover", "learner:1", 2, num_players=3)
    for g in finished:
        assert g["learner"] == [0, 1, 2]
        for seat in range(3):  # engine scores count in 1/score_scale coins
            assert sums[(g["game"], seat)] == pytest.approx(g["scores"][seat] / raw_env.score_scale, abs=1e-4)


def test_structured_head_gives_exactly_the_masks_support():
    config = validate("bohnanza", dict(num_players=4, **LEARNING))
    where = offer_parts(catalogue_for("bohnanza", config))
    assert (where.start, where.stop) == (174, 8270)
    torch.manual_seed(0)
    model = ActorCritic(609, 8270, [32], where, offer_dim=8)
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0, 1.0)  # large logits: a legal action must still keep a positive probability
    rng = np.random.default_rng(0)
    masks = rng.random((6, 8270)) < 0.02
    masks[0] = False
    masks[0, 200:210] = True            # offers only
    masks[1] = False
    masks[1, [3, 8269]] = True          # a flat action and the last offer
    masks[2] = False
    masks[2, 100] = True                # one legal action
    obs = torch.from_numpy(rng.random((6, 609)).astype(np.float32))
    with torch.no_grad():
        p = torch.softmax(model.masked_logits(obs, torch.from_numpy(masks)).double(), 1).numpy()
    assert ((p > 0) == masks).all()
    net = model.policy_net({"variant": "bohnanza", "config": config})
    z = net.masked_logits(obs.numpy(), masks)
    q = np.exp(z - z.max(1, keepdims=True))
    assert ((q > 0) == masks).all()
    # the sparse path of the update: the same log-probabilities as a softmax over the mask
    args = Args(variant="bohnanza", hidden="32", offer_dim=8)
    learner = Learner(model, args)

    class Rec:  # the legal segments of six records
        counts = masks.sum(1)
        legal_count, legal_start = counts, np.cumsum(counts) - counts
        legal = np.flatnonzero(masks.reshape(-1)) % 8270
        action_pos = np.zeros(6, np.int64)
    with torch.no_grad():
        logp, entropy = learner._log_probs(obs, Rec, np.arange(6))
        dense = torch.log_softmax(model.masked_logits(obs, torch.from_numpy(masks)), 1)
    first = torch.from_numpy(masks.argmax(1))
    assert torch.allclose(logp, dense.gather(1, first[:, None]).squeeze(1), atol=1e-4)
    assert entropy[2].abs() < 1e-6


def small_args(tmp_path, **kw) -> Args:
    base = dict(total_timesteps=300, num_envs=4, rollout_steps=128, minibatch_size=64, update_epochs=1,
                hidden="32", offer_dim=8, eval_games=1, eval_opponents="random", snapshot_every=128,
                out_dir=str(tmp_path), run_name="run", progress=False, backend="arrays")
    base.update(kw)
    return Args(**base)


def test_structured_policy_round_trips_and_plays_the_same(tmp_path):
    run = train(small_args(tmp_path, variant="bohnanza", num_players=3, rules=json.dumps(LEARNING),
                           opponent_mix="learner:0.7,self:0.3"))
    meta = json.loads((run / "policy.json").read_text())
    assert meta["format"] == "bean_env.ppo_policy/3" and meta["head"]["kind"] == "offer_parts"
    config = validate("bohnanza", dict(num_players=3, **LEARNING))
    catalogue = catalogue_for("bohnanza", config)
    assert meta["num_actions"] == catalogue.size and meta["head"]["stop"] - meta["head"]["start"] == 3 * 2024
    net = PolicyNet.load(run)
    state = torch.load(run / "checkpoints" / "latest.pt", weights_only=True)
    model = ActorCritic(net.obs_size, net.num_actions, [32], offer_parts(catalogue_for("bohnanza", config)), 8)
    model.load_state_dict(state["model"])
    vec = ArrayVectorEnv("bohnanza", 8, num_players=3, **LEARNING)
    obs, masks, _ = vec.reset(seed=1)
    for _ in range(40):  # into trade phases, where offers are legal
        obs, masks, *_ = vec.step(random_act(1)(obs, masks)[0])
    with torch.no_grad():
        torch_z = model.masked_logits(torch.from_numpy(obs), torch.from_numpy(masks)).numpy()
    np_z = net.masked_logits(obs, masks)
    assert np.allclose(torch_z, np_z, atol=1e-4)
    assert (torch_z.argmax(1) == np_z.argmax(1)).all()
    # the numpy agent plays it from the run directory
    agents = [make_agent("ppo", checkpoint=run, seed=0), make_agent("random", seed=1), make_agent("random", seed=2)]
    game = play_game("bohnanza", config, 2, agents)
    assert game.is_over


def test_flat_policy_files_of_format_2_still_load():
    from bean_env.agents.ppo import shipped_checkpoint

    net = PolicyNet.load(shipped_checkpoint("bean_duel"))
    assert net.meta["format"] == "bean_env.ppo_policy/2" and net.head is None and "head" not in net.meta


def test_structured_policy_ships_with_its_head(tmp_path):
    from bean_env.training.ship import ship

    run = train(small_args(tmp_path, variant="bohnanza", num_players=3, rules=json.dumps(LEARNING),
                           total_timesteps=100, opponent_mix="learner:1"))
    shipped = PolicyNet.load(ship(run, "b3", int8=True, weights_dir=tmp_path / "weights"))
    net = PolicyNet.load(run)
    assert shipped.meta["head"] == net.meta["head"] and shipped.meta["dtype"] == "int8"
    obs = np.random.default_rng(0).random((4, net.obs_size)).astype(np.float32)
    assert np.allclose(shipped.logits(obs), net.logits(obs), atol=0.05)


def test_structured_policy_file_is_checked(tmp_path):
    run = train(small_args(tmp_path, variant="bohnanza", num_players=3, rules=json.dumps(LEARNING),
                           total_timesteps=100, opponent_mix="learner:1"))
    meta = json.loads((run / "policy.json").read_text())
    meta["head"]["start"] -= 1  # same sizes, but not where the catalogue has its offers
    meta["head"]["stop"] -= 1
    (run / "policy.json").write_text(json.dumps(meta))
    with pytest.raises(PolicyFileError, match="does not match the offers"):
        PolicyNet.load(run)
    meta["head"]["start"] += 1
    meta["head"]["stop"] += 1
    (run / "policy.json").write_text(json.dumps(meta))
    PolicyNet.load(run)
    meta["format"] = "bean_env.ppo_policy/2"  # a flat-head format with a head
    (run / "policy.json").write_text(json.dumps(meta))
    with pytest.raises(PolicyFileError, match="head"):
        PolicyNet.load(run)


def test_time_limit_exports_the_latest_policy(tmp_path):
    # a first run compiles the array kernels (cold, that alone can outlast the 3-second limit)
    train(small_args(tmp_path, variant="bean_duel", total_timesteps=1, run_name="warm"))
    run = train(small_args(tmp_path, variant="bean_duel", total_timesteps=10 ** 9, time_limit=0.05))
    state = json.loads((run / "state.json").read_text())
    assert state["stopped"].startswith("time limit") and state["timesteps"] > 0
    meta = json.loads((run / "policy.json").read_text())
    assert meta["training"]["timesteps"] == state["timesteps"] and meta["training"]["final_eval"] is not None
    assert (run / "eval.csv").read_text().count("\n") == 2


def test_no_periodic_evaluation_one_update_before_the_final_one(tmp_path):
    """A periodic evaluation is skipped when the next update ends the run: the final one follows it."""
    run = train(small_args(tmp_path, variant="bean_duel", eval_every=100))
    with open(run / "eval.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) >= 2 and rows[-1]["policy"] == "final"
    final = int(rows[-1]["timesteps"])
    assert all(final - int(r["timesteps"]) > 128 for r in rows[:-1])


def test_run_writes_tensorboard_scalars(tmp_path):
    """``tb/`` holds the progress rows (``train/...``) and the evaluations (``eval/...``) at their decisions."""
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    run = train(small_args(tmp_path, variant="bean_duel", total_timesteps=150))
    events = EventAccumulator(str(run / "tb"))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    assert {"train/policy_loss", "train/entropy", "train/decisions_per_s"} <= tags
    final = int(json.loads((run / "state.json").read_text())["timesteps"])
    wins = events.Scalars("eval/random_argmax_win_rate")
    assert [w.step for w in wins] == [final] and 0.0 <= wins[0].value <= 1.0
    assert "eval/random_argmax_trades" in tags and "eval/seed" not in tags


def test_interrupt_exports_the_latest_policy(tmp_path, monkeypatch):
    calls = []
    update = Learner.update

    def interrupted(self, rollout, rows):
        calls.append(len(rows))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return update(self, rollout, rows)

    monkeypatch.setattr(Learner, "update", interrupted)
    run = train(small_args(tmp_path, variant="bean_duel", total_timesteps=10 ** 9))
    meta = json.loads((run / "policy.json").read_text())
    assert meta["training"]["stopped"] == "interrupted (Ctrl-C)"
    assert meta["training"]["timesteps"] == calls[0]  # the one update that finished
    assert (run / "checkpoints" / "latest.pt").exists()
    make_agent("ppo", checkpoint=run)  # loads


def test_a_stop_signal_during_an_update_lets_it_finish(tmp_path, monkeypatch):
    """A signal arriving inside an update (here kill -TERM) stops the run at the next step: the update it
    interrupted finishes and counts, and the exported policy is the network after it."""
    import signal

    calls = []
    update = Learner.update

    def signalled(self, rollout, rows):
        calls.append(len(rows))
        if len(calls) == 2:
            signal.raise_signal(signal.SIGTERM)
        return update(self, rollout, rows)

    monkeypatch.setattr(Learner, "update", signalled)
    run = train(small_args(tmp_path, variant="bean_duel", total_timesteps=10 ** 9))
    meta = json.loads((run / "policy.json").read_text())
    assert meta["training"]["stopped"] == "terminated (SIGTERM)" and len(calls) == 2
    assert meta["training"]["timesteps"] == sum(calls) and meta["training"]["final_eval"] is not None
    state = torch.load(run / "checkpoints" / "latest.pt", weights_only=False)
    assert state["timesteps"] == sum(calls)


@pytest.mark.parametrize("variant", array_variants())
def test_tiny_run_on_every_kernel_variant(tmp_path, variant):
    run = train(small_args(tmp_path, variant=variant, total_timesteps=150))
    progress = (run / "progress.csv").read_text().splitlines()
    assert len(progress) >= 2 and int(progress[1].split(",")[0]) >= 128
    assert PolicyNet.load(run).meta["variant"] == variant
    assert (run / "eval.csv").exists() and "trades" in (run / "eval.csv").read_text().splitlines()[0]


def test_bad_options_raise_clear_errors(tmp_path):
    config = validate("bean_duel", {})
    with pytest.raises(ValueError, match="--head"):
        check_args(dataclasses.replace(Args(), head="wide"), config)
    with pytest.raises(ValueError, match="no whole offers"):
        check_args(dataclasses.replace(Args(), head="offers"), config)
    with pytest.raises(ValueError, match="--backend engine"):
        check_args(dataclasses.replace(Args(), opponent_mix="learner:1,heuristic:1"), config)
    with pytest.raises(ValueError, match="learner"):
        split_mix("self:1,random:1")
    with pytest.raises(ValueError, match="--device"):
        check_args(dataclasses.replace(Args(), device="tpu"), config)
    for bad in ("32,x", "0", "", "-5"):
        with pytest.raises(ValueError, match="for --hidden: expected positive whole numbers"):
            check_args(dataclasses.replace(Args(), hidden=bad), config)
    assert hidden_widths("256, 192") == [256, 192]
    with pytest.raises(ValueError, match="for --eval-opponents: unknown agent 'foo'"):
        check_args(dataclasses.replace(Args(), eval_opponents="random,foo"), config)
    with pytest.raises(ValueError, match="for --eval-opponents: .*simulations"):
        batched_ppo.train(dataclasses.replace(Args(), eval_opponents="mcts:simulations=x", out_dir=str(tmp_path),
                                              run_name="early"))
    assert not (tmp_path / "early").exists()  # refused before a run directory is made
    assert split_mix("learner:1,self:1,random:2") == (0.25, parse_mix("self:1,random:2"))
    parsed = batched_ppo.parse_args(["--variant", "bohnanza", "--head", "flat"])
    assert parsed.head == "flat" and parsed.eval_opponents == "auto"
    assert "heuristic:trading=fair" in batched_ppo.eval_opponents(parsed, validate("bohnanza", {}))


def test_speed_benchmark_measures_the_batched_trainer():
    """benchmarks/train_speed.py --both: each trainer's rate, time shares and head size."""
    bench = load_benchmark("train_speed")
    r = bench.batched_measure("bean_duel", None, "{}", 256, "flat", num_envs=8, rollout_steps=128, hidden="32")
    assert r["rate"] > 0 and 0 < r["update"] < 1 and r["env"] + r["forward"] + r["update"] <= 1.01
    pytest.importorskip("sb3_contrib")
    r = bench.sb3_measure("bean_duel", None, "{}", 64, "self:1,random:1", warmup=64, n_envs=2, n_steps=32,
                          batch_size=32)
    assert r["rate"] > 0 and 0 < r["env"] < 1 and r["head_params"] == 257 * 191  # 256 wide, 191 bean_duel actions


def test_engine_backend_league_and_resume(tmp_path):
    """On the engine backend the league may hold engine agents (heuristic) and the shipped policy (ppo); a
    resumed run continues from its checkpoint and snapshots."""
    args = small_args(tmp_path, variant="bean_duel", backend="engine", total_timesteps=200,
                      opponent_mix="learner:0.4,heuristic:0.3,ppo:0.3")
    run = train(args)
    first = json.loads((run / "state.json").read_text())["timesteps"]
    assert first >= 128
    train(dataclasses.replace(args, resume=str(run), total_timesteps=first + 100))
    state = json.loads((run / "state.json").read_text())
    assert state["timesteps"] > first and state["args"]["opponent_mix"] == "learner:0.4,heuristic:0.3,ppo:0.3"
    assert len(list((run / "snapshots").glob("snap_*.json"))) >= 2


def test_league_seats_engine_agents_and_fixed_policies():
    from bean_env.training.opponents import BaselinePlayer, SnapshotPlayer
    from bean_env.vector import VectorEnv

    share, mix = split_mix("learner:0.2,heuristic:0.4,ppo:0.4")
    vec = VectorEnv("bean_duel", 16)
    rollout = SeatRollout(vec, League(mix, "bean_duel", vec.envs[0].config, vec.obs_size, vec.num_actions, seed=1),
                          share, seed=2, capacity=2000)
    rollout.reset()
    players = [p for seats in rollout.players for p in seats.values()]
    assert {type(p) for p in players if p.kind == "heuristic"} == {BaselinePlayer}
    assert {type(p) for p in players if p.kind == "ppo"} == {SnapshotPlayer}
    assert rollout.learner.sum(1).min() >= 1
    for _ in range(20):
        rollout.step(random_act(0))
    assert rollout.records.size > 0


def test_cli_runs_the_batched_trainer(tmp_path, capsys):
    from bean_env.training.cli import main

    assert main(["batched", "--variant", "bean_duel", "--total-timesteps", "100", "--num-envs", "4",
                 "--rollout-steps", "64", "--hidden", "16", "--eval-games", "1", "--eval-opponents", "random",
                 "--out-dir", str(tmp_path), "--run-name", "cli", "--progress", "false"]) == 0
    assert "eval after" in capsys.readouterr().out
    assert make_agent("ppo", checkpoint=tmp_path / "cli").net.meta["algorithm"] == batched_ppo.ALGORITHM


def test_anneal_lr_lowers_the_rate_linearly_to_the_budget(tmp_path):
    """``--anneal-lr``: each update's rate is ``--learning-rate`` times the share of the budget left, written to
    progress.csv; without it the rate stays put."""
    run = train(small_args(tmp_path, variant="bean_duel", total_timesteps=400, anneal_lr=True, learning_rate=1e-3))
    rows = list(csv.DictReader((run / "progress.csv").open()))
    assert len(rows) >= 3
    before = 0
    for row in rows:
        assert float(row["learning_rate"]) == pytest.approx(1e-3 * (1 - before / 400), abs=1e-6)
        before = int(row["timesteps"])
    assert float(rows[0]["learning_rate"]) == pytest.approx(1e-3)
    assert float(rows[-1]["learning_rate"]) < float(rows[1]["learning_rate"]) < 1e-3
    flat = train(small_args(tmp_path, variant="bean_duel", run_name="flat", total_timesteps=300))
    assert {float(r["learning_rate"]) for r in csv.DictReader((flat / "progress.csv").open())} == {3e-4}
    learner = Learner(ActorCritic(4, 3, [8]), Args(anneal_lr=True, total_timesteps=100))
    assert learner.set_learning_rate(150) == 0.0  # never below zero past the budget


def test_progress_rows_keep_an_older_files_columns(tmp_path):
    """A run resumed from a version without the learning-rate column appends rows under its file's own
    header (no shifted columns)."""
    from types import SimpleNamespace

    from bean_env.training.batched_ppo import PROGRESS, Trainer

    old = [c for c in PROGRESS if c != "learning_rate"]
    (tmp_path / "progress.csv").write_text(",".join(old) + "\n")
    added = []
    fake = SimpleNamespace(run=SimpleNamespace(path=tmp_path),
                           scalars=SimpleNamespace(add=lambda *a, **k: added.append(a)))
    row = {c: i for i, c in enumerate(PROGRESS)}
    Trainer._progress_row(fake, row)
    rows = list(csv.DictReader((tmp_path / "progress.csv").open()))
    assert list(rows[0]) == old and rows[0]["policy_loss"] == str(row["policy_loss"]) and added
