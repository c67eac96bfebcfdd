"""Baseline agents for bean_env behind one small interface and a registry.

    from bean_env.agents import make_agent, AGENTS
    agent = make_agent("heuristic", seed=1)
    action = agent.act(game.view(game.current_player), game.legal_actions())

Registered here: ``random``, ``heuristic``, ``mcts``, ``ppo``. Other packages add theirs with
``register_agent(name, factory)`` (a callable or a lazy ``"module:attribute"`` path).
"""
from __future__ import annotations

from .base import Agent, RandomAgent
from .registry import AGENTS, make_agent, register_agent

register_agent("random", RandomAgent)
register_agent("heuristic", "bean_env.agents.heuristic:HeuristicAgent")
register_agent("mcts", "bean_env.agents.mcts:MCTSAgent")
register_agent("ppo", "bean_env.agents.ppo:PPOAgent")  # trained policy; needs torch (train extra)

__all__ = ["AGENTS", "Agent", "RandomAgent", "make_agent", "register_agent"]
