"""The agent interface: ``act(view, legal_actions) -> action``.

An *agent* decides for one seat from that seat's ``PlayerView`` only (never the game). Every agent
owns a ``random.Random`` seeded at construction, so the same seed and the same views give the same
actions; agents never touch the global random generators.
"""
from __future__ import annotations

import random
from typing import Sequence

from bean_env.engine.actions import Action
from bean_env.engine.views import PlayerView


class Agent:
    """Base class of the baseline agents."""

    name = "agent"

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """Return one of ``legal_actions`` for the decision ``view`` shows."""
        raise NotImplementedError

    def reset(self) -> None:
        """Forget per-game memory before a new game (the generator keeps going)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed}>"


class RandomAgent(Agent):
    """Uniform choice over the legal actions."""

    name = "random"

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        return legal_actions[self.rng.randrange(len(legal_actions))]
