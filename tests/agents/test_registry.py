"""The agent registry: names, lazy factories, clear errors."""
from __future__ import annotations

import pytest

from agents import AGENTS, Agent, make_agent, register_agent
from agents.registry import _load


class _First(Agent):
    name = "first"

    def act(self, view, legal_actions):
        return legal_actions[0]


def test_builtin_agents_are_registered():
    for name in ("random", "heuristic", "mcts"):
        assert name in AGENTS
        assert isinstance(make_agent(name, seed=1), Agent)


def test_register_agent_and_make_it(monkeypatch):
    monkeypatch.setitem(AGENTS, "first", _First)
    agent = make_agent("first", seed=7)
    assert isinstance(agent, _First) and agent.seed == 7
    with pytest.raises(ValueError, match="already registered"):
        register_agent("first", lambda seed=None: _First(seed))
    register_agent("first", _First)  # the same factory again is fine


def test_lazy_factory_paths_load_on_first_use(monkeypatch):
    monkeypatch.setitem(AGENTS, "lazy_random", "agents.base:RandomAgent")
    assert type(make_agent("lazy_random")).__name__ == "RandomAgent"
    assert _load("agents.heuristic:HeuristicAgent").__name__ == "HeuristicAgent"


def test_unknown_agent_lists_the_registered_names():
    with pytest.raises(ValueError, match=r"unknown agent 'nope'; allowed: .*heuristic.*random"):
        make_agent("nope")
