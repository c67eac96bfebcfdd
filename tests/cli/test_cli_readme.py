"""Every command of the README and of the getting-started page works, in order, on a fresh copy of the checkout.

The ``bash`` blocks of README.md and docs/getting-started.md are run line by line with the installed venv's
``bean-env``/``python`` first on PATH, in a copy of the repository's files (tracked and new, none of the
ignored ``results/``, ``runs/``, ``.venv``). Commands too long for a test run with the documented
reductions of ``REDUCTIONS`` (fewer games, deals or timesteps) or are skipped for the reason given there;
every rule must still match a command of one of the two pages, so the list cannot go stale. The ``python``
blocks of each page run in order in one interpreter. The whole run is ``slow`` (about 2 minutes on 2 cores:
the demo and two short trainings); the agents/tournament/replay sections also run in the fast suite.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
TINY_TRAIN = "--n-envs 1 --n-steps 128 --batch-size 64 --n-epochs 1 --eval-games 2 --eval-every 0 --progress no"

# (pattern, replacement or None to skip, why). A replacement is applied with re.sub to the command.
REDUCTIONS: list[tuple[str, str | None, str]] = [
    (r"^make demo$", "python -m bean_env.demo --deals 1 --simulations 2 --workers 1",
     "the demo (`make demo` runs `python -m bean_env.demo`) with 1 deal per table and 2 MCTS simulations"),
    (r"^make test$", None, "the whole test suite, which this test is part of"),
    (r"^pip install ", None, "an installation; the test runs in the installed venv"),
    (r"^BEAN_ENV_COMPILE=1 pip install ", None,
     "the compiled build's installation; `make test-compiled` (in CI) builds it in its own venv and tests it"),
    (r"--games 100\b", "--games 8 --workers 1 --no-progress", "8 games instead of 100"),
    (r"--total-timesteps 800000\b", f"--total-timesteps 256 {TINY_TRAIN}", "256 timesteps instead of 800k"),
    (r"--total-timesteps 1600000\b", f"--total-timesteps 512 {TINY_TRAIN}", "512 timesteps instead of 1.6M"),
    (r"--games 1200\b", "--games 2 --epochs 1 --eval-games 1",
     "2 recorded games and 1 evaluation game instead of 1200"),
    (r"--total-timesteps 3000000\b", f"--total-timesteps 256 {TINY_TRAIN}", "256 timesteps instead of 3M"),
    (r"^bean-env train rllib .*--address auto", None,
     "needs a running Ray cluster (--address auto); the RLlib path has its own tests in tests/training"),
]
INTERACTIVE = {r"^bean-env play ": "q\n"}   # commands that read the keyboard: this input, exit 0 or 1


README = "README.md"
GETTING_STARTED = "docs/getting-started.md"
PAGES = (README, GETTING_STARTED)   # the pages whose every code block runs


def readme_blocks(lang: str, page: str = README) -> list[tuple[str, str]]:
    """(section heading, block text) of every ``lang`` code block of ``page`` (README.md), in order."""
    text = (ROOT / page).read_text(encoding="utf-8")
    out, section = [], ""
    for m in re.finditer(r"^(## [^\n]*)$|^```(\w*)\n(.*?)^```", text, re.M | re.S):
        if m.group(1):
            section = m.group(1)[3:].strip()
        elif m.group(2) == lang:
            out.append((section, m.group(3)))
    return out


def readme_commands(page: str = README) -> list[tuple[str, str]]:
    """(section, command) for every line of the page's bash blocks, comments removed."""
    cmds = []
    for section, block in readme_blocks("bash", page):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"(^|\s+)#\s.*$", "", line).strip()
            if line:
                cmds.append((section, line))
    return cmds


def reduce(cmd: str) -> str | None:
    """The command as the test runs it, or None if it is skipped."""
    for pattern, replacement, _ in REDUCTIONS:
        if re.search(pattern, cmd):
            if replacement is None:
                return None
            cmd = re.sub(pattern, replacement, cmd)
    return cmd


def fresh_copy(dest: Path) -> Path:
    """The checkout's files (tracked and untracked, not ignored) copied to ``dest``."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def run(cmd: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", OMP_NUM_THREADS="1",
               MPLBACKEND="Agg", PYTHONSAFEPATH="1")   # the installed bean_env, not the copy's folder
    stdin = next((text for p, text in INTERACTIVE.items() if re.search(p, cmd)), "")
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, input=stdin, capture_output=True, text=True,
                          timeout=timeout)


def failure(cmd: str, proc: subprocess.CompletedProcess) -> str | None:
    """Why the command failed (exit code, a traceback), or None."""
    interactive = any(re.search(p, cmd) for p in INTERACTIVE)
    if proc.returncode in ((0, 1) if interactive else (0,)) and "Traceback" not in proc.stderr:
        return None
    return (f"README command failed: {cmd}\nexit {proc.returncode}\n--- stdout\n{proc.stdout[-1500:]}\n"
            f"--- stderr\n{proc.stderr[-2500:]}")


def run_in_order(cmds: list[str], cwd: Path) -> int:
    """Run the commands in order (skips and reductions applied); fail listing every failed command."""
    failed, ran = [], 0
    for cmd in cmds:
        reduced = reduce(cmd)
        if reduced is None:
            continue
        ran += 1
        why = failure(cmd, run(reduced, cwd))
        if why:
            failed.append(why)
    assert not failed, "\n\n".join(failed)
    return ran


def test_every_reduction_matches_a_readme_command():
    for page in PAGES:
        assert readme_commands(page), f"{page} has no bash blocks"
    cmds = [c for page in PAGES for _, c in readme_commands(page)]
    for pattern, _, why in REDUCTIONS:
        assert any(re.search(pattern, c) for c in cmds), f"stale reduction {pattern!r} ({why})"
    for page in PAGES:
        tournament = [c for _, c in readme_commands(page) if c.startswith("bean-env tournament")]
        assert tournament and all("--save-records" in c for c in tournament), f"{page}: the replay line needs records"


@pytest.mark.parametrize("page", PAGES)
def test_readme_python_blocks_run_in_order(tmp_path, page):
    blocks = readme_blocks("python", page)
    assert blocks, f"{page} has no python blocks"
    code = "\n\n".join(block for _, block in blocks)
    proc = subprocess.run([sys.executable, "-c", code], cwd=fresh_copy(tmp_path), capture_output=True,
                          text=True, timeout=300, env=dict(os.environ, PYTHONSAFEPATH="1", MPLBACKEND="Agg"))
    assert proc.returncode == 0, f"{page}:\n{proc.stderr[-3000:]}"


@pytest.mark.parametrize("page", PAGES)
def test_readme_agents_section_runs_in_order(tmp_path, page):
    """The `bean-env` block (list, tournament --save-records, replay, ...) of the page on a fresh copy."""
    cwd = fresh_copy(tmp_path)
    cmds = [c for s, c in readme_commands(page) if s.startswith("Agents")]
    assert any(c.startswith("bean-env replay") for c in cmds)
    run_in_order(cmds, cwd)


@pytest.mark.slow
@pytest.mark.parametrize("page, at_least", [(README, 8), (GETTING_STARTED, 3)])
def test_every_readme_command_runs_in_order(tmp_path, page, at_least):
    assert run_in_order([c for _, c in readme_commands(page)], fresh_copy(tmp_path)) >= at_least


def test_readme_names_only_files_that_exist_and_links_the_seat_and_interface_docs():
    """Every docs/ or notebooks/ path the README names exists; the information and interface docs are
    linked from the sections they belong to."""
    text = (ROOT / "README.md").read_text()
    named = set(re.findall(r"\b((?:docs|notebooks)/[\w./-]+\.(?:md|ipynb|png|csv))", text))
    assert {"docs/information.md", "docs/interfaces.md"} <= named
    assert [p for p in sorted(named) if not (ROOT / p).is_file()] == []
    assert "[`docs/information.md`](docs/information.md)" in text
    assert "[`docs/interfaces.md`](docs/interfaces.md)" in text
