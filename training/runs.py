"""Run directories of training: safe checkpoints, provenance, the evaluation log.

A *run directory* ``runs/<name>/`` holds:
- ``args.json`` / ``state.json``: the options and progress of the run (JSON);
- ``provenance.json``: git commit, package and dependency versions, the observation layout hash;
- ``checkpoints/latest.pt`` + ``checkpoints/manifest.json``: the resumable state as plain tensors
  (network and optimizer state dicts, written with ``torch.save`` and read back with
  ``torch.load(weights_only=True)``, so resuming cannot run code), and the sha256 of every checkpoint
  file; a file whose hash differs from the manifest is refused;
- ``snapshots/snap_<timesteps>.pt/.json``: frozen learner policies of the opponent pool (policy files);
- ``eval.csv``: one row per evaluated policy (see ``EvalLog``);
- ``policy.pt``/``policy.json``: the exported policy for the ``ppo`` agent;
- ``tb/``: TensorBoard event files (``tensorboard --logdir runs/<name>``; see ``ScalarLog``).
"""
from __future__ import annotations

import csv
import hashlib
import json
import platform
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

from bean_env.agents.ppo import PolicyFileError, encoder_of, layout_hash

DEPENDENCIES = ("numpy", "gymnasium", "pettingzoo", "torch", "stable-baselines3", "sb3-contrib", "ray")
CHECKPOINT = "latest.pt"
MANIFEST = "manifest.json"


class RunDirError(ValueError):
    """A run directory that cannot be used as asked (exists without --resume/--overwrite, is not a run,
    or holds checkpoint files this run did not write)."""


def _version(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def git_commit() -> dict:
    """The git commit of the source tree bean_env is imported from (``None`` outside a checkout) and
    whether the tree had uncommitted changes."""
    root = Path(__file__).resolve().parent.parent

    def git(*args: str) -> str | None:
        try:
            out = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    dirty = None
    if commit:
        status = git("status", "--porcelain", "--untracked-files=no")
        dirty = bool(status) if status is not None else None
    return {"commit": commit, "dirty": dirty}


def provenance(variant: str, config: dict) -> dict:
    """What produced a run or policy: code version, library versions, machine, observation layout."""
    return {"git": git_commit(), "bean_env": _version("bean-env") or _version("bean_env"),
            "python": platform.python_version(), "platform": platform.platform(),
            "dependencies": {d: _version(d) for d in DEPENDENCIES},
            "layout_hash": layout_hash(encoder_of(variant, config))}


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class Run:
    """Paths and persistent state of one run directory."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.checkpoints = self.path / "checkpoints"
        self.snapshots = self.path / "snapshots"
        self.eval_csv = self.path / "eval.csv"
        self.state_file = self.path / "state.json"

    @classmethod
    def create(cls, path: Path, overwrite: bool = False) -> "Run":
        """A fresh run directory. An existing run there is refused unless ``overwrite`` (which deletes it)."""
        run = cls(path)
        if run.path.exists() and any(run.path.iterdir()):
            if not overwrite:
                raise RunDirError(f"run directory {run.path} already exists; continue it with --resume "
                                  f"{run.path}, replace it with --overwrite, or pick another --run-name")
            if not (run.state_file.exists() or run.eval_csv.exists() or (run.path / "args.json").exists()):
                raise RunDirError(f"--overwrite: {run.path} does not look like a run directory; not deleting it")
            shutil.rmtree(run.path)
        for d in (run.path, run.checkpoints, run.snapshots):
            d.mkdir(parents=True, exist_ok=True)
        return run

    @classmethod
    def open(cls, path: Path) -> "Run":
        """An existing run directory (for ``--resume``)."""
        run = cls(path)
        if not run.state_file.exists():
            raise RunDirError(f"--resume {path}: not a run directory (no {run.state_file})")
        for d in (run.checkpoints, run.snapshots):
            d.mkdir(parents=True, exist_ok=True)
        return run

    @property
    def latest(self) -> Path:
        return self.checkpoints / CHECKPOINT

    def write_start(self, args, variant: str, config: dict) -> dict:
        """Write ``args.json`` (the run's arguments, a dataclass) and ``provenance.json``; returns the
        provenance."""
        import dataclasses

        prov = provenance(variant, config)
        (self.path / "args.json").write_text(json.dumps(dataclasses.asdict(args), indent=2) + "\n")
        (self.path / "provenance.json").write_text(json.dumps(prov, indent=2) + "\n")
        return prov

    def snapshot_files(self) -> list[Path]:
        return sorted(self.snapshots.glob("snap_*.pt"), key=lambda p: int(p.stem.split("_")[1]))

    # -- checkpoints: plain tensors + a hash manifest ----------------------------------------------------
    def save_checkpoint(self, state: dict) -> Path:
        """Write ``state`` (nested dicts/lists of tensors and numbers) and record its sha256."""
        import torch

        tmp = self.latest.with_suffix(".tmp")
        torch.save(state, tmp)
        tmp.replace(self.latest)
        manifest = {"files": {CHECKPOINT: sha256(self.latest)}}
        (self.checkpoints / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
        return self.latest

    def load_checkpoint(self) -> dict:
        """The resumable state, after checking it against the manifest; loaded with ``weights_only=True``."""
        import torch

        if (self.checkpoints / "latest.zip").exists() and not self.latest.exists():
            raise RunDirError(f"{self.checkpoints / 'latest.zip'} is a stable-baselines3 zip (loading one can "
                              "run code from the file); this version resumes only from plain-tensor checkpoints "
                              "(latest.pt); start a new run")
        manifest_path = self.checkpoints / MANIFEST
        if not self.latest.exists() or not manifest_path.exists():
            raise RunDirError(f"--resume {self.path}: no checkpoint {self.latest} with its {MANIFEST}")
        try:
            expected = json.loads(manifest_path.read_text())["files"][CHECKPOINT]
        except (ValueError, KeyError, TypeError):
            raise RunDirError(f"{manifest_path}: malformed manifest") from None
        if sha256(self.latest) != expected:
            raise RunDirError(f"{self.latest}: sha256 differs from {manifest_path} (not the file this run "
                              "wrote); refusing to load it")
        try:
            return torch.load(self.latest, map_location="cpu", weights_only=True)
        except Exception as exc:  # noqa: BLE001
            raise PolicyFileError(f"{self.latest}: not a plain-tensor checkpoint: {str(exc)[:300]}") from None


class EvalLog:
    """``eval.csv``: one row per evaluated policy. ``timesteps`` is the number of learner decisions the
    measured policy was trained on (the label of exactly the network that played), ``policy`` names it
    (the snapshot file or ``final``); per opponent and play mode (``argmax``: the most likely legal
    action; ``sampled``: drawn from the policy's distribution, as in training) the games, wins, win rate
    with its 95% Wilson interval, mean score, and the policy's trading as means per game (executed trades,
    offers it accepted, cards given and received in trades, gifts received; ``bean_env.engine.trade_stats``)."""

    STATS = ("games", "wins", "win_rate", "ci_low", "ci_high", "mean_score", "trades", "accepts", "cards_given",
             "cards_received", "gifts_received")

    def __init__(self, path: Path, opponents: list[str], modes: tuple[str, ...] = ("argmax", "sampled")):
        self.path = path
        self.columns = ["timesteps", "policy", "seed"] + [f"{o}_{m}_{s}" for o in opponents for m in modes
                                                         for s in self.STATS]

    def rows(self) -> list[dict]:
        """The rows written so far, typed as ``append`` took them (numbers, not the CSV's strings)."""
        if not self.path.exists():
            return []
        with self.path.open(newline="") as fh:
            return [{k: _typed(k, v) for k, v in row.items()} for row in csv.DictReader(fh)]

    def has(self, timesteps: int) -> bool:
        return any(int(r["timesteps"]) == timesteps for r in self.rows())

    def append(self, row: dict) -> None:
        new = not self.path.exists()
        if not new:
            with self.path.open(newline="") as fh:
                header = next(csv.reader(fh), [])
            if header != self.columns:
                raise RunDirError(f"{self.path}: columns differ from this run's evaluation "
                                  f"({len(header)} vs {len(self.columns)}); was --eval-opponents changed?")
        with self.path.open("a", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=self.columns)
            if new:
                w.writeheader()
            w.writerow(row)


def scalar_items(row: dict, skip: tuple[str, ...] = ()) -> list[tuple[str, float]]:
    """The numbers of a progress or ``eval.csv`` row worth a curve: ``(key, value)`` of every int or float
    (not bool) whose key is not in ``skip``."""
    return [(k, float(v)) for k, v in row.items()
            if k not in skip and isinstance(v, (int, float)) and not isinstance(v, bool)]


class ScalarLog:
    """TensorBoard scalars of a run (event files in ``path``); does nothing where the ``tensorboard``
    package is not installed (``writer`` is then ``None``)."""

    def __init__(self, path: Path):
        try:
            from torch.utils.tensorboard import SummaryWriter
        except ImportError:
            self.writer = None
        else:
            self.writer = SummaryWriter(str(path))

    def add(self, prefix: str, row: dict, step: int, skip: tuple[str, ...] = ()) -> None:
        """Every number of ``row`` (``scalar_items``) as ``<prefix>/<key>`` (``<key>`` where ``prefix`` is
        empty) at ``step``."""
        if self.writer is None:
            return
        for key, value in scalar_items(row, skip):
            self.writer.add_scalar(f"{prefix}/{key}" if prefix else key, value, step)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def _typed(column: str, text: str):
    """An ``eval.csv`` cell as a number (``policy`` stays text; counts and labels are integers)."""
    if column == "policy" or text == "":
        return text
    if column in ("timesteps", "seed") or column.endswith(("_games", "_wins")):
        try:
            return int(text)
        except ValueError:
            pass
    return float(text)


class Stop(KeyboardInterrupt):
    """A stop request by signal (Ctrl-C, ``kill -INT`` or ``kill -TERM``); ``reason`` names it."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class stop_signals:
    """While active, SIGINT and SIGTERM stop a run the way Ctrl-C does (checkpoint, export, evaluation), also
    when it runs in the background (where a shell leaves SIGINT ignored) or under a scheduler that sends
    SIGTERM. Elsewhere than the main thread it does nothing.

    By default a signal raises ``Stop`` at once. With ``graceful=True`` the first signal only sets
    ``requested`` (its reason), and the run stops at its next safe point, between two steps, never inside
    an update or a log write; a second signal raises ``Stop``."""

    REASONS = {"SIGINT": "interrupted (Ctrl-C)", "SIGTERM": "terminated (SIGTERM)"}

    def __init__(self, graceful: bool = False):
        self.graceful = graceful
        self.requested: str | None = None

    def _handler(self, reason: str):
        def handler(signum, frame):
            if self.graceful and self.requested is None:
                self.requested = reason
                import os  # os.write, not print: a handler may interrupt a print to the same stream
                os.write(2, f"\n{reason}: stopping after the current step (again to stop at once)\n".encode())
                return
            raise Stop(reason)
        return handler

    def __enter__(self) -> "stop_signals":
        import signal
        import threading

        self.saved: dict = {}
        if threading.current_thread() is threading.main_thread():
            for name, reason in self.REASONS.items():
                sig = getattr(signal, name)
                self.saved[sig] = signal.signal(sig, self._handler(reason))
        return self

    def __exit__(self, *exc) -> None:
        import signal

        for sig, handler in self.saved.items():
            signal.signal(sig, handler)


def deadline_after(minutes: float | None) -> float | None:
    """The ``time.monotonic()`` reading ``minutes`` from now (a run's time limit), or None for no limit."""
    return None if minutes is None else time.monotonic() + 60.0 * minutes


def stop_point(deadline: float | None, minutes: float | None, signals: stop_signals | None) -> str | None:
    """Why a run stops at this safe point: its time limit of ``minutes`` (ending at ``deadline``) passed,
    or a stop signal came (``signals.requested``); None to go on."""
    if deadline is not None and time.monotonic() > deadline:
        return f"time limit ({minutes} min)"
    return signals.requested if signals is not None else None


def final_evaluation(evaluate: Callable[[str], dict | None], log: EvalLog, timesteps: int) -> dict | None:
    """The final evaluation row of a run at ``timesteps`` (``evaluate("final")``, or the row an evaluation at
    that point already wrote to ``log``); None when a signal skips it."""
    try:
        with stop_signals():
            return evaluate("final") or next(r for r in log.rows() if int(r["timesteps"]) == timesteps)
    except KeyboardInterrupt:
        print("final evaluation skipped", flush=True)
        return None


def export_and_evaluate(export: Callable[[Path, dict], None], targets: list[Path], training: dict,
                        evaluate: Callable[[str], dict | None], log: EvalLog, timesteps: int) -> dict | None:
    """The last steps of a run: ``export(path, training)`` to every target (``training["final_eval"]`` None),
    then the final evaluation (``final_evaluation``) and, unless a signal skipped it, the export again with
    its row. A run killed during the evaluation thus leaves every target with its latest policy. Returns
    the row."""
    for path in targets:
        export(path, dict(training, final_eval=None))
    row = final_evaluation(evaluate, log, timesteps)
    if row is not None:
        for path in targets:
            export(path, dict(training, final_eval=row))
    return row


def stop_reason(exc: KeyboardInterrupt) -> str:
    """Why a run stopped: the signal's reason, or Ctrl-C for a plain KeyboardInterrupt."""
    return exc.reason if isinstance(exc, Stop) else "interrupted (Ctrl-C)"


def named_options(parser, argv) -> set[str]:
    """The names (dests) of the options the command line ``argv`` names, whatever their values. Changes
    the parser's defaults: call it after the real parse."""
    import argparse

    for action in parser._actions:
        action.default = argparse.SUPPRESS
    return set(vars(parser.parse_args(argv)))


KEEP_ON_RESUME = ("resume", "overwrite", "time_limit")


def resumed(args, saved: dict):
    """The arguments (a dataclass) of a resumed run: every option the command line did not name takes the
    run's saved value; a named option wins, also when named with its default value. ``args._given`` holds
    the named options (``named_options``); without it (arguments built in code) an option still at its
    default counts as not named. ``resume``, ``overwrite`` and ``time_limit`` always come from ``args``."""
    import dataclasses

    given = getattr(args, "_given", None)
    merged = {}
    for f in dataclasses.fields(args):
        value = getattr(args, f.name)
        named = f.name in given if given is not None else value != f.default
        keep = named or f.name in KEEP_ON_RESUME
        merged[f.name] = value if keep or f.name not in saved else saved[f.name]
    return type(args)(**merged)


def limit_threads(n: int) -> None:
    """Use ``n`` CPU threads in torch and in numpy's BLAS (threadpoolctl, when installed). A threaded
    BLAS made the snapshot opponents' one-row forward passes 5-20x slower on a busy 2-core machine
    (0.4 ms against 2-8 ms per decision of a 4-player ``bohnanza`` network)."""
    import torch

    torch.set_num_threads(n)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(n, user_api="blas")


@contextmanager
def unchecked_distributions() -> Iterator[None]:
    """Within the block, torch's distributions skip their argument checks (restored after).

    MaskablePPO builds three ``Categorical`` distributions per rollout step; their checks took a third
    of each step's policy call (4 ``bean_duel`` envs: 1.3 ms with them, 0.9 ms without). The masks
    come from the rules engine and the checks draw no random numbers, so training is bit-identical
    with or without them (``tests/training/test_train_speed_paths.py``). A diverged run still stops:
    sampling from NaN logits raises in ``torch.multinomial``."""
    import torch

    dist = torch.distributions.Distribution
    before = getattr(dist, "_validate_args", True)
    dist.set_default_validate_args(False)
    try:
        yield
    finally:
        dist.set_default_validate_args(before)
