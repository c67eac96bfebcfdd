"""Training runs: no second run under one name, safe resume (plain tensors + hash manifest, no pickle),
provenance recorded, Ctrl-C and the time limit still export the latest policy, one eval.csv row per
evaluated policy with intervals for argmax and sampled play."""
from __future__ import annotations

import csv
import dataclasses
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

pytest.importorskip("sb3_contrib")

from bean_env.agents import make_agent  # noqa: E402
from bean_env.agents.ppo import PolicyNet, encoder_of, layout_hash  # noqa: E402
from bean_env.training.runs import Run, RunDirError, provenance  # noqa: E402
from bean_env.training.selfplay import Args, parse_args, train  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--n-envs", "1", "--n-steps", "64", "--batch-size", "64", "--n-epochs", "1", "--hidden", "8",
        "--snapshot-every", "64", "--eval-every", "64", "--eval-games", "2", "--checkpoint-every", "64",
        "--progress", "false", "--variant", "bean_duel"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs")
    return train(parse_args([*TINY, "--total-timesteps", "128", "--out-dir", str(out), "--run-name", "r"]))


def test_second_run_with_the_same_name_is_refused(finished):
    before = (finished / "eval.csv").read_text()
    with pytest.raises(RunDirError, match="already exists; continue it with --resume"):
        train(parse_args([*TINY, "--total-timesteps", "64", "--out-dir", str(finished.parent), "--run-name", "r"]))
    assert (finished / "eval.csv").read_text() == before  # nothing appended or overwritten


def test_overwrite_replaces_only_a_run_directory(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "notes.txt").write_text("mine")
    with pytest.raises(RunDirError, match="does not look like a run directory"):
        Run.create(tmp_path / "x", overwrite=True)
    assert (tmp_path / "x" / "notes.txt").exists()


def test_eval_csv_has_one_row_per_policy_with_intervals(finished):
    rows = list(csv.DictReader((finished / "eval.csv").open()))
    steps = [int(r["timesteps"]) for r in rows]
    assert steps == sorted(set(steps)) and steps[-1] == 128
    assert rows[-1]["policy"] == "final" and rows[0]["policy"] == f"step_{steps[0]}"
    for r in rows:
        for opp in ("random", "heuristic"):
            for mode in ("argmax", "sampled"):
                lo, rate, hi = (float(r[f"{opp}_{mode}_{k}"]) for k in ("ci_low", "win_rate", "ci_high"))
                assert 0 <= lo <= rate <= hi <= 1 and int(r[f"{opp}_{mode}_games"]) == 2
    # the final row measured exactly the exported policy
    meta = json.loads((finished / "policy.json").read_text())
    assert meta["training"]["final_eval"]["timesteps"] == 128


def test_provenance_is_recorded(finished):
    prov = json.loads((finished / "provenance.json").read_text())
    meta = json.loads((finished / "policy.json").read_text())
    assert meta["provenance"] == prov
    expected = layout_hash(encoder_of("bean_duel", {}))
    assert prov["layout_hash"] == meta["layout_hash"] == expected
    assert prov["dependencies"]["torch"] == torch.__version__.split("+")[0] or prov["dependencies"]["torch"]
    assert {"numpy", "gymnasium", "pettingzoo", "stable-baselines3", "sb3-contrib"} <= set(prov["dependencies"])
    assert len(prov["git"]["commit"] or "0" * 40) == 40
    assert provenance("bean_duel", {})["dependencies"] == prov["dependencies"]


def test_run_directory_is_a_checkpoint_for_make_agent(finished):
    agent = make_agent("ppo", checkpoint=finished)
    assert agent.net.meta["training"]["timesteps"] == 128


def test_resume_refuses_a_tampered_checkpoint(finished, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(finished, copy)
    state = torch.load(copy / "checkpoints" / "latest.pt", weights_only=True)
    state["timesteps"] = 1
    torch.save(state, copy / "checkpoints" / "latest.pt")
    with pytest.raises(RunDirError, match="sha256 differs"):
        train(parse_args(["--resume", str(copy), "--total-timesteps", "256"]))


def test_resume_refuses_an_sb3_zip(tmp_path):
    run = Run.create(tmp_path / "old")
    run.state_file.write_text("{}")
    (run.checkpoints / "latest.zip").write_bytes(b"PK")
    with pytest.raises(RunDirError, match="can run code"):
        run.load_checkpoint()


def test_resume_continues_from_tensors(finished, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(finished, copy)
    before = PolicyNet.load(copy)
    train(parse_args(["--resume", str(copy), "--total-timesteps", "192"]))
    state = json.loads((copy / "state.json").read_text())
    assert state["timesteps"] == 192
    after = PolicyNet.load(copy)
    assert after.meta["training"]["timesteps"] == 192 and not (after.layers[0][0] == before.layers[0][0]).all()


def test_same_seed_and_options_train_the_same_policy(tmp_path):
    """A run is reproducible: the same seed and options (self-play and random opponents included) give a
    byte-identical policy file; another seed gives another policy."""
    def policy(name: str, seed: int) -> bytes:
        rundir = train(parse_args([*TINY, "--total-timesteps", "128", "--opponent-mix", "self:0.5,random:0.5",
                                   "--seed", str(seed), "--out-dir", str(tmp_path), "--run-name", name]))
        return (rundir / "policy.pt").read_bytes()

    first = policy("a", 7)
    assert policy("b", 7) == first
    assert policy("c", 8) != first


def test_time_limit_still_exports(tmp_path):
    rundir = train(parse_args([*TINY, "--total-timesteps", "10000000", "--time-limit", "0.02",
                               "--out-dir", str(tmp_path), "--run-name", "t"]))
    meta = json.loads((rundir / "policy.json").read_text())
    assert meta["training"]["stopped"].startswith("time limit")
    state = json.loads((rundir / "state.json").read_text())
    assert state["timesteps"] == meta["training"]["timesteps"] < 10000000


def _ignore_stop_signals() -> None:
    """As a shell leaves a background job (``cmd &``): SIGINT ignored; SIGTERM too, to prove the run
    installs its own handlers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


@pytest.mark.parametrize("sig, reason", [(signal.SIGINT, "interrupted (Ctrl-C)"),
                                         (signal.SIGTERM, "terminated (SIGTERM)")], ids=["SIGINT", "SIGTERM"])
def test_a_stop_signal_still_exports_the_latest_policy(tmp_path, sig, reason):
    """Ctrl-C, and kill -INT / kill -TERM of a run started in the background, stop it the same way:
    checkpoint, export, final evaluation, exit 0."""
    proc = subprocess.Popen([sys.executable, "-m", "bean_env.training.selfplay", *TINY, "--total-timesteps",
                             "10000000", "--eval-every", "0", "--out-dir", str(tmp_path), "--run-name", "c"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ignore_stop_signals)
    snaps = tmp_path / "c" / "snapshots"
    # snapshots are written inside ``learn()``, so once there are two the run's signal handlers are in
    # place; a signal sent before then would be ignored (the run starts with both ignored, as in the
    # background) and leave the test waiting for 10M steps, so wait for them however slow the machine is
    deadline = time.monotonic() + 600
    while len(list(snaps.glob("snap_*.pt"))) < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    try:
        assert proc.poll() is None and len(list(snaps.glob("snap_*.pt"))) >= 2, \
            "the run ended or took 10 minutes before its second snapshot"
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:  # never leave a 10M-step training running behind a failed test
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err[-3000:]
    assert reason in out
    meta = json.loads((tmp_path / "c" / "policy.json").read_text())
    assert meta["training"]["stopped"] == reason and meta["training"]["timesteps"] >= 64
    PolicyNet.load(tmp_path / "c")


def test_a_graceful_stop_records_the_first_signal_and_raises_on_the_second():
    """``stop_signals(graceful=True)``: the first signal is a request the run reads at a safe point (nothing
    is raised inside, say, a log write); a second stops at once; the old handlers come back afterwards."""
    from bean_env.training.runs import Stop, stop_signals

    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    with stop_signals(graceful=True) as signals:
        assert signals.requested is None
        signal.raise_signal(signal.SIGTERM)
        assert signals.requested == "terminated (SIGTERM)"
        with pytest.raises(Stop, match="Ctrl-C"):
            signal.raise_signal(signal.SIGINT)
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)) == before
    with pytest.raises(Stop, match="SIGTERM"), stop_signals():  # not graceful: the first signal raises
        signal.raise_signal(signal.SIGTERM)


def test_a_stop_point_names_the_time_limit_or_the_signal_and_else_goes_on():
    """``stop_point``, read by every trainer at its safe points: the time limit first, then a signal's request."""
    from bean_env.training.runs import deadline_after, stop_point, stop_signals

    assert deadline_after(None) is None
    future, past = deadline_after(10), time.monotonic() - 1
    assert future > time.monotonic() + 590
    signals = stop_signals(graceful=True)
    assert stop_point(None, None, None) is None and stop_point(future, 10, signals) is None
    assert stop_point(past, 0.5, None) == "time limit (0.5 min)"
    signals.requested = "terminated (SIGTERM)"
    assert stop_point(future, 10, signals) == "terminated (SIGTERM)"
    assert stop_point(past, 0.5, signals) == "time limit (0.5 min)"


def test_the_final_evaluation_is_run_or_read_back_and_a_signal_skips_it(tmp_path, capsys):
    """``final_evaluation``, the last step of both local trainers: the evaluation's row; when an evaluation at
    the same point already wrote its row (``evaluate`` returns None), that row from eval.csv; when a signal
    comes during the evaluation, None (the policy is already exported) and a line that says so."""
    from bean_env.training.runs import EvalLog, final_evaluation

    log = EvalLog(tmp_path / "eval.csv", ["random"], modes=("argmax",))
    fresh = {"timesteps": 200, "policy": "final"}
    assert final_evaluation(lambda label: fresh, log, 200) is fresh
    log.append({"timesteps": 100, "policy": "p100", "seed": 1})
    log.append({"timesteps": 200, "policy": "p200", "seed": 1})
    assert final_evaluation(lambda label: None, log, 200)["policy"] == "p200"

    def interrupted(label: str) -> dict:
        signal.raise_signal(signal.SIGTERM)
        raise AssertionError("the signal should have stopped the evaluation")

    assert final_evaluation(interrupted, log, 200) is None
    assert "final evaluation skipped" in capsys.readouterr().out


def test_every_trainer_exports_before_the_final_evaluation_and_again_with_its_row(tmp_path, capsys):
    """``export_and_evaluate``, the end of all three trainers: each target gets the policy with
    ``final_eval`` None before the evaluation starts, then again with the evaluation's row; a signal during
    the evaluation leaves the first export in place."""
    from bean_env.training.runs import EvalLog, export_and_evaluate

    log = EvalLog(tmp_path / "eval.csv", ["random"], modes=("argmax",))
    targets = [tmp_path / "run" / "policy", tmp_path / "export"]
    written: list[tuple] = []

    def export(path, meta):
        written.append((path, meta["timesteps"], meta["final_eval"]))

    row = {"timesteps": 300, "policy": "final"}
    assert export_and_evaluate(export, targets, {"timesteps": 300}, lambda label: row, log, 300) is row
    assert written == [(targets[0], 300, None), (targets[1], 300, None), (targets[0], 300, row),
                       (targets[1], 300, row)]

    def interrupted(label: str) -> dict:
        assert [w[0] for w in written] == targets  # both targets hold the policy before the evaluation
        signal.raise_signal(signal.SIGINT)
        raise AssertionError("the signal should have stopped the evaluation")

    written.clear()
    assert export_and_evaluate(export, targets, {"timesteps": 300}, interrupted, log, 300) is None
    assert written == [(targets[0], 300, None), (targets[1], 300, None)]
    assert "final evaluation skipped" in capsys.readouterr().out


def test_resume_keeps_saved_options_unless_named():
    """--resume: options the command line does not name take the run's saved values; a named option wins,
    also when it is named with its default value."""
    from bean_env.training.selfplay import resumed_args

    saved = dataclasses.asdict(parse_args(["--eval-games", "20", "--learning-rate", "0.0001", "--seed", "4"]))
    args = resumed_args(parse_args(["--resume", "r", "--eval-games", "100", "--time-limit", "3"]), saved)
    assert args.eval_games == 100          # named, although 100 is the default
    assert args.learning_rate == 0.0001    # not named: the run's value
    assert args.seed == 4 and args.resume == "r" and args.time_limit == 3
    coded = resumed_args(Args(resume="r"), saved)  # built in code: defaults count as not named
    assert coded.eval_games == 20 and coded.learning_rate == 0.0001


def test_retired_batched_options_are_refused_and_old_runs_still_resume():
    """``--batched``/``--backend`` were retired (``bean-env train batched`` replaces them): the command line
    refuses them, and a run saved with them still resumes (unknown saved options are ignored)."""
    from bean_env.training.selfplay import resumed_args

    for old in (["--batched", "true"], ["--backend", "arrays"]):
        with pytest.raises(SystemExit):
            parse_args(old)
    saved = dict(dataclasses.asdict(parse_args(["--seed", "4"])), batched=True, backend="arrays")
    args = resumed_args(parse_args(["--resume", "r"]), saved)
    assert args.seed == 4 and not hasattr(args, "batched") and not hasattr(args, "backend")


def test_limit_threads_sets_torch_and_blas_threads():
    """Training processes run torch and numpy's BLAS on the asked thread count (a threaded BLAS slowed
    the snapshot opponents' one-row forward passes several-fold on a busy machine)."""
    threadpoolctl = pytest.importorskip("threadpoolctl")
    import torch

    from bean_env.training.runs import limit_threads
    before_torch = torch.get_num_threads()
    restore = threadpoolctl.threadpool_limits(None)  # remembers the current limits
    try:
        limit_threads(1)
        assert torch.get_num_threads() == 1
        blas = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
        assert blas and all(p["num_threads"] == 1 for p in blas)
    finally:
        restore.restore_original_limits()
        torch.set_num_threads(before_torch)
