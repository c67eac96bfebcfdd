"""The agent registry (bean_env.registry): specs checked up front with clear messages, lazy entry points."""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bean_env import registry
from bean_env.registry import agent_options, make_agent, parse_bool, parse_spec, register_agent

BIN = Path(sys.executable).parent / "bean-env"


def test_registry_imports_no_agent_code():
    """The registry sits beside the engine: importing it (and listing names) loads no agent module."""
    code = ("import sys, bean_env.registry as r; r.agent_names(); "
            "print(sorted(m for m in sys.modules if m.startswith('bean_env.agents') or m in ('torch',)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_builtin_agents_are_known_without_importing_the_agents_package():
    assert set(registry.agent_names()) >= {"random", "heuristic", "mcts", "ppo"}


def test_specs_are_parsed_and_typed_by_the_factory_signature():
    assert parse_spec("mcts:simulations=5,rollout=heuristic,seconds=none") == (
        "mcts", {"simulations": 5, "rollout": "heuristic", "seconds": None})
    assert parse_spec("mcts:simulations=5:c=1") == ("mcts", {"simulations": 5, "c": 1.0})
    assert parse_spec("ppo:deterministic=no") == ("ppo", {"deterministic": False})
    assert parse_spec("random:seed=4") == ("random", {"seed": 4})
    assert parse_spec(" heuristic ") == ("heuristic", {})


@pytest.mark.parametrize("spec, message", [
    ("mcts:sims=5", r"unknown option 'sims' for agent 'mcts'; allowed options: simulations: int = 100; .*rollout"),
    ("mcts:simulations=abc", r"bad value 'abc' for option 'simulations' of agent 'mcts'; allowed: simulations: int"),
    ("mcts:rollout=greedy", r"bad value 'greedy' for option 'rollout' .* allowed: 'random', 'heuristic'"),
    ("mcts:delegate=maybe", r"bad value 'maybe' for option 'delegate' .* bool"),
    ("heuristic:depth=2", r"unknown option 'depth' for agent 'heuristic'; allowed options: trading: one of "
                          r"'generous', 'fair'"),
    ("nope:x=1", r"unknown agent 'nope'; allowed: heuristic, (llm, )?mcts, ppo, random"),
    ("mcts:simulations", r"bad agent spec 'mcts:simulations'"),
    ("mcts:c=1,c=2", r"option 'c' given twice"),
    ("", r"bad agent spec"),
])
def test_bad_specs_give_one_clear_message(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_spec(spec)


def test_make_agent_takes_names_specs_and_keywords():
    agent = make_agent("mcts:simulations=7", seed=3)
    assert agent.simulations == 7 and agent.seed == 3
    assert make_agent("mcts", seed=3, simulations=np.int64(9)).simulations == 9   # numpy integers work
    assert make_agent("random:seed=11", seed=3).seed == 11                      # the spec's seed wins
    seeded = make_agent("random", seed=np.int64(5))                              # numpy seeds work
    assert seeded.seed == 5 and type(seeded.seed) is int
    with pytest.raises(ValueError, match="bad seed 'x'"):
        make_agent("random", seed="x")
    with pytest.raises(ValueError, match="given both in the spec"):
        make_agent("mcts:simulations=7", simulations=8)
    with pytest.raises(ValueError, match="bad value 'x' for option 'simulations'"):
        make_agent("mcts", simulations="x")
    with pytest.raises(ValueError, match="bad value True for option 'simulations'"):
        make_agent("mcts", simulations=True)


def test_options_come_from_the_signature_with_docs():
    opts = agent_options("mcts")
    assert opts["simulations"].types == ("int",) and opts["simulations"].default == 100
    assert opts["rollout"].choices == ("random", "heuristic")
    assert "play-outs" in opts["simulations"].doc
    assert "seed" not in opts


def test_registering_callables_and_entry_points(monkeypatch):
    monkeypatch.setattr(registry, "AGENTS", dict(registry.AGENTS))

    def factory(seed=None, depth: int = 2, greedy: bool = False):
        return ("made", seed, depth, greedy)

    register_agent("mine", factory, doc="a test agent")
    assert make_agent("mine:depth=4,greedy=on", seed=1) == ("made", 1, 4, True)
    with pytest.raises(ValueError, match="already registered"):
        register_agent("mine", lambda seed=None: None)
    register_agent("lazy", "bean_env.agents.base:RandomAgent")
    assert type(make_agent("lazy")).__name__ == "RandomAgent"
    register_agent("anykw", lambda seed=None, **kw: kw)
    assert make_agent("anykw:a=1,b=x") == {"a": 1, "b": "x"}
    with pytest.raises(ValueError, match="bad agent name"):
        register_agent("a:b", factory)
    with pytest.raises(ValueError, match="bad factory"):
        register_agent("broken", "no_colon_path")


@pytest.mark.parametrize("text, value", [("1", True), ("yes", True), ("On", True), ("TRUE", True),
                                         ("0", False), ("no", False), ("off", False), ("False", False)])
def test_bool_spellings(text, value):
    assert parse_bool(text) is value


def test_tournament_refuses_bad_specs_before_any_worker_starts():
    """`mcts:sims=5` and `mcts:simulations=abc` give one error line, exit 2, no traceback, at once."""
    for spec, words in (("mcts:sims=5", "unknown option 'sims'"), ("mcts:simulations=abc", "bad value 'abc'")):
        start = time.perf_counter()
        proc = subprocess.run([str(BIN), "tournament", "bean_duel", "heuristic", spec, "--games", "200",
                               "--workers", "2", "--no-progress", "--out", "/nonexistent/never"],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2
        assert "Traceback" not in proc.stderr and words in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert time.perf_counter() - start < 20
