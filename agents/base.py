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


def show_views(game, followers: Sequence[tuple[int, "Agent"]]) -> None:
    """Show each following agent (one with an ``observe(view)`` method, e.g. ``ppo``) its seat's view."""
    for seat, agent in followers:
        agent.observe(game.view(seat))


def play_out(game, agents: Sequence["Agent"], max_steps: int | None = None, counter=None) -> int:
    """Play ``game`` on with ``agents[seat]`` until it ends (or ``max_steps`` actions); returns the actions
    applied. Agents that follow the public history (an ``observe(view)`` method) are shown their view at
    the start and after every action, forced ones included. With ``counter`` (a
    ``bean_env.engine.trade_stats.TradeCounter`` of ``game``) the actions go through it and are counted."""
    apply = game.apply if counter is None else counter.apply
    followers = [(q, a) for q, a in enumerate(agents) if hasattr(a, "observe")]
    show_views(game, followers)
    steps = 0
    while not game.is_over and not game.is_truncated and (max_steps is None or steps < max_steps):
        seat = game.current_player
        apply(agents[seat].act(game.view(seat), game.legal_actions()))
        steps += 1
        show_views(game, followers)
    return steps

