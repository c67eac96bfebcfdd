"""The agent registry: names, lazy factories, clear errors."""
from __future__ import annotations

import pytest

from bean_env.agents import AGENTS, Agent, make_agent, register_agent
from bean_env.agents.heuristic import Family
from bean_env.agents.registry import _load


class LastAction(Family):
    """A family that always takes the last legal action (for the pluggability test)."""

    def choose(self, agent, view, legal):
        return legal[-1]


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
    monkeypatch.setitem(AGENTS, "lazy_random", "bean_env.agents.base:RandomAgent")
    assert type(make_agent("lazy_random")).__name__ == "RandomAgent"
    assert _load("bean_env.agents.heuristic:HeuristicAgent").__name__ == "HeuristicAgent"


def test_unknown_agent_lists_the_registered_names():
    with pytest.raises(ValueError, match=r"unknown agent 'nope'; allowed: .*heuristic.*random"):
        make_agent("nope")


def test_heuristic_families_are_pluggable(monkeypatch):
    """A family registered for a variant is used by the heuristic; unknown variants get the generic core."""
    import bean_env.agents.heuristic as heuristic
    from bean_env.agents.heuristic import Family, HeuristicAgent, family_for, register_family
    from agentcases import positions

    monkeypatch.setattr(heuristic, "FAMILIES", dict(heuristic.FAMILIES))
    monkeypatch.setattr(heuristic, "_LOADED", {})
    register_family("bean_duel", f"{__name__}:LastAction")
    assert type(family_for("bean_duel")) is LastAction
    assert type(family_for("no_such_variant")) is Family
    for game in positions("bean_duel", {}, seed=2, count=5):
        legal = game.legal_actions()
        assert HeuristicAgent(seed=1).act(game.view(game.current_player), legal) == legal[-1]
