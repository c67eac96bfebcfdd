"""The core install (``pip install bean-env``: numpy, gymnasium and pettingzoo only) is a working library.

The test venv has every extra installed, so a child process hides them: an import hook refuses every
module of an optional dependency (the extras of ``pyproject.toml``, mapped to their import names below),
as if it were not installed. Under it the engine, every variant's AEC env, the baseline agents, the text
interface, the replay page, the batched env and ``bean-env list`` work, and the ``ppo`` agent and the array
batched env say which extra they need.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = {"numpy", "gymnasium", "pettingzoo"}
# distribution name in an extra -> the top-level modules it installs
EXTRA_MODULES = {
    "pytest": ["pytest", "_pytest"], "hypothesis": ["hypothesis"], "pytest-xdist": ["xdist"],
    "nbmake": ["nbmake"], "ipykernel": ["ipykernel"], "openskill": ["openskill"],
    "matplotlib": ["matplotlib"], "tqdm": ["tqdm"], "torch": ["torch"], "stable-baselines3": ["stable_baselines3"],
    "sb3-contrib": ["sb3_contrib"], "tensorboard": ["tensorboard"], "threadpoolctl": ["threadpoolctl"],
    "ray": ["ray"], "rlcard": ["rlcard"], "open-spiel": ["pyspiel", "open_spiel"], "pillow": ["PIL"],
    "textarena": ["textarena"], "numba": ["numba", "llvmlite"],
    "mkdocs": ["mkdocs"], "mkdocs-material": ["material"], "mkdocstrings": ["mkdocstrings"],
    "mkdocstrings-python": ["mkdocstrings_handlers"],
}

HIDE = """
import importlib.abc, sys
HIDDEN = set(sys.argv[1].split(","))
class Hide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in HIDDEN:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Hide())
"""

PLAY = HIDE + """
import json
import numpy as np
import bean_env
from bean_env.agents import make_agent
from bean_env.agents.base import play_out
report = {}
for variant in ("bohnanza", "bean_duel", "al_cabohne", "bean_solitaire", "hostile_takeover"):
    game = bean_env.new_game(variant, seed=3)
    play_out(game, [make_agent("heuristic", seed=p) for p in range(game.num_players)])
    env = getattr(bean_env, variant + "_v1").env()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    report[variant] = {"engine_over": game.is_over, "env_steps": steps, "env_agents_left": len(env.agents)}
game = bean_env.new_game("bean_duel", seed=1)
play_out(game, [make_agent("mcts", seed=0, simulations=4), make_agent("random", seed=1)])
report["mcts_game_over"] = game.is_over
from bean_env.text import TextEnv
text_env = TextEnv("bean_duel", opponents={1: make_agent("random", seed=2)})
observation, info = text_env.reset(seed=4)
report["text_env_legal"] = len(info["legal"])
from bean_env.replay_html import replay_html
report["replay_page"] = replay_html(game).startswith("<!DOCTYPE html>")
try:
    play_out(bean_env.new_game("bean_duel", seed=1), [make_agent("ppo"), make_agent("random", seed=1)])
    report["ppo"] = "played"
except ImportError as exc:
    report["ppo"] = str(exc)
from bean_env.vector import VectorEnv
from bean_env.vector.array_env import ArrayVectorEnv
report["vector_env"] = VectorEnv("bean_solitaire", 2).reset(seed=0)[0].shape[0]
try:
    ArrayVectorEnv("bean_solitaire", 2)
    report["array_env"] = "built"
except ImportError as exc:
    report["array_env"] = str(exc)
hidden = sorted(m for m in sys.modules if m.split(".")[0] in HIDDEN)
report["hidden_loaded"] = hidden
print(json.dumps(report))
"""


def _hidden() -> str:
    return ",".join(sorted({m for mods in EXTRA_MODULES.values() for m in mods}))


def test_every_optional_dependency_is_hidden():
    """A new extra dependency must be added to EXTRA_MODULES, or this test would stop testing the core."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0].lower() for d in project["dependencies"]}
    assert core == CORE
    extras = {re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0].lower()
              for deps in project["optional-dependencies"].values() for d in deps}
    assert extras - CORE <= set(EXTRA_MODULES), sorted(extras - CORE - set(EXTRA_MODULES))


def test_core_install_plays_every_variant_without_the_extras():
    out = subprocess.run([sys.executable, "-c", PLAY, _hidden()], capture_output=True, text=True, cwd=ROOT,
                         timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    for variant in ("bohnanza", "bean_duel", "al_cabohne", "bean_solitaire", "hostile_takeover"):
        assert report[variant]["engine_over"], variant
        assert report[variant]["env_steps"] > 20 and report[variant]["env_agents_left"] == 0, variant
    assert report["mcts_game_over"] and report["replay_page"] and report["text_env_legal"] > 0
    assert report["ppo"] == "the 'ppo' agent needs torch: pip install 'bean-env[train]'"
    assert report["vector_env"] == 2
    assert report["array_env"] == "ArrayVectorEnv needs numba: pip install 'bean-env[fast]'"
    assert report["hidden_loaded"] == []


def test_core_install_cli_lists_variants_and_agents():
    code = HIDE + "from bean_env.cli import main\nsys.exit(main(['list']))"
    out = subprocess.run([sys.executable, "-c", code, _hidden()], capture_output=True, text=True, cwd=ROOT,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    for name in ("bohnanza", "bean_duel", "al_cabohne", "bean_solitaire", "hostile_takeover", "heuristic", "mcts"):
        assert name in out.stdout
