"""Baseline agents for bean_env behind one small interface and a registry.

    from bean_env.agents import make_agent, AGENTS
    agent = make_agent("heuristic", seed=1)                  # or a spec: make_agent("mcts:simulations=50")
    action = agent.act(game.view(game.current_player), game.legal_actions())

The registry is ``bean_env.registry`` (re-exported here), where the built-in agents ``random``,
``heuristic``, ``mcts`` and ``ppo`` are registered as lazy entry points of this package, so the envs name
opponents without importing it. Other packages add theirs with ``register_agent(name, factory)`` (a
callable or a lazy ``"module:attribute"`` path).
"""
from __future__ import annotations

from .base import Agent, RandomAgent
from .registry import (AGENTS, agent_names, agent_options, check_options, describe_agent, make_agent, parse_spec,
                       register_agent)

__all__ = ["AGENTS", "Agent", "RandomAgent", "agent_names", "agent_options", "check_options", "describe_agent",
           "make_agent", "parse_spec", "register_agent"]
