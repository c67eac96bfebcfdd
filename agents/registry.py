"""The agent registry: names to factories, so the CLI, tournaments and training pick agents by name.

A factory is any callable ``factory(seed=None, **kw) -> Agent``, or an import path
``"package.module:attribute"`` that is loaded only when the agent is first made (so optional
dependencies such as torch are imported only by the agents that need them).
"""
from __future__ import annotations

import importlib
from typing import Callable, Union

Factory = Union[Callable[..., object], str]

AGENTS: dict[str, Factory] = {}


def register_agent(name: str, factory: Factory, replace: bool = False) -> None:
    """Register ``factory`` under ``name`` (``replace=True`` to overwrite an existing name)."""
    if not name or not isinstance(name, str):
        raise ValueError(f"bad agent name {name!r}")
    if name in AGENTS and not replace and AGENTS[name] is not factory:
        raise ValueError(f"agent {name!r} is already registered; pass replace=True to overwrite it")
    AGENTS[name] = factory


def _load(factory: Factory) -> Callable[..., object]:
    if isinstance(factory, str):
        module, _, attr = factory.partition(":")
        obj = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj
    return factory


def make_agent(name: str, seed: int | None = None, **kw):
    """A new agent of the registered ``name``, seeded with ``seed``."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; allowed: {', '.join(sorted(AGENTS))}")
    return _load(AGENTS[name])(seed=seed, **kw)
