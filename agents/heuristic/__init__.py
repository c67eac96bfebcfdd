"""The heuristic agent: a generic core (evaluation + one-ply lookahead) plus per-family modules.

Per-family modules follow one pattern: a module ``agents/heuristic/<family>.py`` defines a subclass of
``core.Family`` and is registered for its variants in ``FAMILIES`` below (a lazy ``"module:Class"``
path; add a line, or call ``register_family`` from your module). Present: ``bohnanza`` (planting and
the whole trading protocol), ``duel`` (Bean Duel), ``takeover`` (hostile takeover: a rule-based turn
plan with takeovers, defence and text cards), ``mafia`` (the bosses' fields count as the mafia's
coins to come). Variants without a module use ``core.Family``,
which plays every variant legally.
"""
from __future__ import annotations

import importlib
from typing import Sequence

from bean_env.engine.actions import Action

from ..base import Agent
from .core import Family

FAMILIES: dict[str, str] = {
    "bohnanza": "bean_env.agents.heuristic.bohnanza:BohnanzaFamily",
    "bean_duel": "bean_env.agents.heuristic.duel:DuelFamily",
    "hostile_takeover": "bean_env.agents.heuristic.takeover:TakeoverFamily",
    "al_cabohne": "bean_env.agents.heuristic.mafia:MafiaFamily",
    "bean_solitaire": "bean_env.agents.heuristic.mafia:MafiaFamily",
}
_LOADED: dict[str, Family] = {}


def register_family(variant: str, path: str) -> None:
    """Use the ``Family`` subclass at ``"module:Class"`` for ``variant``."""
    FAMILIES[variant] = path
    _LOADED.pop(variant, None)


def family_for(variant: str) -> Family:
    """The (shared, stateless) family object of a variant."""
    fam = _LOADED.get(variant)
    if fam is None:
        path = FAMILIES.get(variant)
        if path is None:
            fam = Family()
        else:
            module, _, name = path.partition(":")
            fam = getattr(importlib.import_module(module), name)()
        _LOADED[variant] = fam
    return fam


TRADING = ("generous", "fair")


class HeuristicAgent(Agent):
    """Plays like a sensible human: plants and harvests by beanometer value and field fit, buys the
    3rd field when it pays, and (in `bohnanza`) trades cards it cannot use for cards it needs."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, trading: str = "generous"):
        """``trading``: ``generous`` (default) also gives cards away and accepts offers that help the
        proposer more than itself; ``fair`` never gives a card for nothing and accepts only offers that
        help it at least as much as the proposer (`bohnanza` trading; other variants ignore it)."""
        if trading not in TRADING:
            raise ValueError(f"bad trading {trading!r}; allowed: {', '.join(TRADING)}")
        super().__init__(seed)
        self.trading = trading
        self.memory: dict = {}

    def reset(self) -> None:
        self.memory = {}

    def act(self, view, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        family = family_for(view.variant)
        action = family.choose(self, view, legal_actions)
        if action is None or action not in legal_actions:
            action = family.lookahead(self, view, legal_actions)
        return action


__all__ = ["FAMILIES", "Family", "HeuristicAgent", "family_for", "register_family"]
