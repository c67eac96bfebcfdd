"""End-to-end smoke tests: each training entry point in a subprocess with a tiny budget, resume from
its checkpoint, and the result loaded as a ``ppo`` agent."""
from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bean_env.agents import make_agent
from bean_env import new_game
from helpers import play_agents

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], timeout: int = 900) -> str:
    proc = subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    return proc.stdout


def play_with(checkpoint: Path, variant: str, seed: int = 3, **config) -> None:
    game = new_game(variant, seed=seed, **config)
    agents = [make_agent("ppo", seed=1, checkpoint=checkpoint)] + \
             [make_agent("random", seed=q) for q in range(1, game.num_players)]
    play_agents(game, agents)


def scalar_tags(rundir) -> set[str]:
    """The TensorBoard scalar tags under a run's ``tb*`` folders (as the three trainers name them: evaluations
    as ``eval/<eval.csv column>``)."""
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    tags: set[str] = set()
    for folder in {p.parent for p in rundir.glob("tb*/events.out.tfevents.*")}:
        events = EventAccumulator(str(folder))
        events.Reload()
        tags |= set(events.Tags()["scalars"])
    return tags


@pytest.mark.slow
def test_maskable_ppo_train_resume_and_load(tmp_path):
    pytest.importorskip("sb3_contrib")
    common = ["--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--hidden", "16",
              "--snapshot-every", "100", "--eval-every", "200", "--eval-games", "2", "--checkpoint-every", "100",
              "--out-dir", str(tmp_path), "--run-name", "run", "--progress", "false"]
    out = run(["-m", "bean_env.cli", "train", "--total-timesteps", "256", "--variant", "bohnanza",
               "--num-players", "3", "--rules", '{"max_trade_rounds": 1}', *common])
    assert "vs random" in out and "vs heuristic" in out
    rundir = tmp_path / "run"
    assert out.startswith(f"run directory: {rundir}")  # printed at the start
    state = json.loads((rundir / "state.json").read_text())
    assert state["timesteps"] >= 256
    assert (rundir / "checkpoints" / "latest.pt").exists() and (rundir / "checkpoints" / "manifest.json").exists()
    assert not list(rundir.rglob("*.zip"))
    assert len(list((rundir / "snapshots").glob("snap_*.pt"))) >= 2
    assert list(rundir.glob("tb*/events.out.tfevents.*"))
    assert {"eval/heuristic_argmax_win_rate", "eval/random_argmax_trades"} <= scalar_tags(rundir)  # eval.csv's columns
    # resume to a larger budget: continues the step count, appends to eval.csv
    run(["-m", "bean_env.training.selfplay", "--total-timesteps", "512", "--resume", str(rundir),
         "--progress", "false"])
    assert json.loads((rundir / "args.json").read_text())["variant"] == "bohnanza"  # taken from the run
    state2 = json.loads((rundir / "state.json").read_text())
    assert state2["timesteps"] >= 512
    rows = list(csv.DictReader((rundir / "eval.csv").open()))
    steps = [int(r["timesteps"]) for r in rows]
    assert steps == sorted(set(steps)) and steps[-1] >= 512  # one row per evaluated policy
    assert {"random_argmax_ci_low", "heuristic_sampled_win_rate"} <= set(rows[0])
    meta = json.loads((rundir / "policy.json").read_text())
    assert meta["training"]["timesteps"] >= 512 and meta["config"]["num_players"] == 3
    play_with(rundir / "policy.pt", "bohnanza", num_players=3, max_trade_rounds=1)
    # a mismatching resume is refused with a clear message
    proc = subprocess.run([sys.executable, "-m", "bean_env.training.selfplay", "--num-players", "4", "--resume",
                           str(rundir)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode != 0 and "the run was trained on 'bohnanza'" in proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("option, refused", [
    (["--rules", "{"], "for --rules: not JSON"), (["--rules", "[1]"], "for --rules: expected a JSON object"),
    (["--num-players", "9"], "num_players"), (["--opponent-mix", "random:1"], "positive 'learner' weight"),
    (["--eval-opponents", "random,foo"], "for --eval-opponents: unknown agent 'foo'"),
    (["--hidden", "16,x"], "for --hidden")])
def test_rllib_train_refuses_bad_options_before_making_a_run_directory(tmp_path, option, refused):
    pytest.importorskip("ray.rllib")
    from bean_env.training.rllib.trainer import parse_args, train

    args = parse_args(["--variant", "bohnanza", "--out-dir", str(tmp_path), "--run-name", "bad", *option])
    with pytest.raises(ValueError, match=refused):
        train(args)
    assert not (tmp_path / "bad").exists()


def test_rllib_train_resume_and_load(tmp_path):
    pytest.importorskip("ray.rllib")
    common = ["--train-batch", "300", "--minibatch", "100", "--epochs", "1", "--hidden", "16", "--eval-every", "1",
              "--eval-games", "2", "--num-cpus", "1", "--checkpoint-every", "1", "--out-dir", str(tmp_path)]
    out = run(["-m", "bean_env.training.rllib", "--iterations", "1", "--run-name", "rl", *common])
    assert out.startswith("run directory:")
    assert "PPOTorchRLModule` has been deprecated" not in out
    rundir = tmp_path / "rl"
    assert json.loads((rundir / "state.json").read_text())["iterations"] == 1
    run(["-m", "bean_env.training.rllib", "--iterations", "2", "--resume", str(rundir), *common])
    rows = list(csv.DictReader((rundir / "progress.csv").open()))
    assert [r["iteration"] for r in rows] == ["1", "2"]
    assert float(rows[1]["env_steps"]) > float(rows[0]["env_steps"])  # resumed, not restarted
    meta = json.loads((rundir / "policy.json").read_text())
    assert meta["algorithm"].startswith("PPO (Ray RLlib") and meta["hidden"] == [16]
    play_with(rundir, "bean_duel")
    # same evaluation log and TensorBoard logs as the MaskablePPO path
    evals = list(csv.DictReader((rundir / "eval.csv").open()))
    assert [int(r["timesteps"]) for r in evals] == sorted({int(r["timesteps"]) for r in evals})
    assert {"heuristic_argmax_ci_low", "random_sampled_win_rate"} <= set(evals[0])
    assert list((rundir / "tb").glob("events.out.tfevents.*"))
    tags = scalar_tags(rundir)
    assert {"eval/heuristic_argmax_win_rate", "env_runners/num_env_steps_sampled_lifetime"} <= tags
    assert "eval/seed" not in tags
    assert meta["layout_hash"] == json.loads((rundir / "provenance.json").read_text())["layout_hash"]
    # a checkpoint file the run did not write is refused before anything is loaded
    victim = next(p for p in (rundir / "checkpoint").rglob("*") if p.is_file())
    victim.write_bytes(victim.read_bytes() + b"x")
    proc = subprocess.run([sys.executable, "-m", "bean_env.training.rllib", "--iterations", "3",
                           "--resume", str(rundir)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode != 0 and "sha256 differs" in proc.stderr
