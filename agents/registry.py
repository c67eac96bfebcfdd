"""The agent registry (``bean_env.registry``), re-exported where the agents live.

Names to factories (callables or lazy ``"module:attribute"`` entry points) and agent specs
``name:key=value,...`` checked before anything is built; see ``bean_env.registry``.
"""
from __future__ import annotations

from bean_env.registry import (AGENTS, AgentOption, Factory, _load, agent_names, agent_options, check_options,
                               describe_agent, load_factory, make_agent, parse_bool, parse_spec, register_agent,
                               split_spec)

__all__ = ["AGENTS", "AgentOption", "Factory", "agent_names", "agent_options", "check_options", "describe_agent",
           "load_factory", "make_agent", "parse_bool", "parse_spec", "register_agent", "split_spec"]
