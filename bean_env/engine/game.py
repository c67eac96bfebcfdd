"""The public engine facade: ``new_game``, ``Game``, ``replay`` and ``IllegalActionError``."""
from __future__ import annotations

import json
import secrets
from typing import Iterable, Union

from . import rules_for
from .actions import Action
from .config import validate
from .state import State

ActionLike = Union[Action, tuple, list, str]


class IllegalActionError(ValueError):
    """An action that is not legal at the current decision point. The game is unchanged."""

    def __init__(self, action, decision: str, player: int, legal: list):
        self.action, self.decision, self.player, self.legal = action, decision, player, legal
        shown = ", ".join(f"'{a}'" for a in legal[:40]) + (" ..." if len(legal) > 40 else "")
        text = f"'{action}'" if isinstance(action, Action) else repr(action)
        super().__init__(f"illegal action {text} at decision point '{decision}' of player {player}; "
                         f"legal: [{shown}]")


class Game:
    """One game: the state, its rules, and the actions applied so far."""

    __slots__ = ("rules", "state", "history", "_legal")

    def __init__(self, rules, state: State, history: list | None = None):
        self.rules = rules
        self.state = state
        self.history: list[Action] = history if history is not None else []
        self._legal = None

    # -- reading ------------------------------------------------------------------------------
    @property
    def variant(self) -> str:
        return self.state.variant

    @property
    def config(self) -> dict:
        return dict(self.state.config)

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def num_players(self) -> int:
        return self.state.n

    @property
    def current_player(self) -> int:
        """The seat that decides next (-1 once the game is over)."""
        return self.state.actor

    @property
    def decision(self) -> str:
        """Short name of the current decision point."""
        return self.state.decision

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def is_truncated(self) -> bool:
        """The game was stopped by a budget without a result (AGT-4)."""
        return bool(self.state.ext.get("truncated", False))

    def legal_actions(self) -> list[Action]:
        """The legal actions at the current decision point (the one source of truth, AGT-1)."""
        if self._legal is None:
            self._legal = [] if self.state.over else self.rules.legal(self.state)
        return self._legal

    def scores(self) -> list[int]:
        """Coins per seat (the mafia's treasury is reported by ``mafia_score``)."""
        return self.rules.scores(self.state)

    def mafia_score(self) -> int | None:
        """The mafia treasury's coins (MAF-13), or None for variants without a mafia."""
        treasury = getattr(self.state, "treasury", None)
        return None if treasury is None else len(treasury)

    def winners(self) -> list[int]:
        """The winning seats once the game is over (several = a shared win)."""
        return self.rules.winners(self.state)

    # -- acting -------------------------------------------------------------------------------------
    def _resolve(self, action: ActionLike) -> Action:
        legal = self.legal_actions()
        if isinstance(action, str):
            for a in legal:
                if str(a) == action:
                    return a
            raise IllegalActionError(action, self.state.decision, self.state.actor, legal)
        if not isinstance(action, Action):
            try:
                action = Action(*action)
            except TypeError:
                raise IllegalActionError(action, self.state.decision, self.state.actor, legal) from None
        if action not in legal:
            raise IllegalActionError(action, self.state.decision, self.state.actor, legal)
        return action

    def apply(self, action: ActionLike) -> None:
        """Apply a legal action (an ``Action``, a ``(kind, a, b)`` tuple, or its ``str()``) and run
        every automatic step up to the next decision point. Raises ``IllegalActionError``, changing
        nothing, if it is not legal (AGT-5)."""
        action = self._resolve(action)
        self.rules.step(self.state, action)
        self.history.append(action)
        self._legal = None

    # -- copies and serialisation ---------------------------------------------------------------------
    def clone(self) -> "Game":
        return Game(self.rules, self.state.clone(), list(self.history))

    def record(self) -> dict:
        """The game as a replayable record ``{variant, config, seed, actions}``."""
        return {"variant": self.variant, "config": self.config, "seed": self.seed,
                "actions": [a.to_json() for a in self.history]}

    def to_json(self) -> str:
        return json.dumps({"format": "bean_env.game/1", "state": self.state.to_dict(),
                           "history": [a.to_json() for a in self.history]})

    @classmethod
    def from_json(cls, text: str) -> "Game":
        data = json.loads(text)
        state = State.from_dict(data["state"])
        rules = rules_for(state.variant, state.config)
        return cls(rules, state, [Action.from_json(a) for a in data["history"]])

    def view(self, player: int):
        """What ``player`` may know (INFO-1/2), as a ``PlayerView``."""
        from .views import PlayerView
        return PlayerView(self, player)

    def render(self) -> str:
        from ..render import render_game
        return render_game(self)

    def __repr__(self) -> str:
        s = self.state
        return (f"<Game {s.variant} players={s.n} turn={s.turn} decision={s.decision!r} "
                f"actor={s.actor} over={s.over}>")


def new_game(variant: str, seed: int | None = None, **config) -> Game:
    """Start a game of ``variant`` with the given rule options (validated)."""
    full = validate(variant, config)
    if seed is None:
        seed = secrets.randbits(62)
    elif not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"bad value {seed!r} for 'seed'; allowed: an int or None")
    rules = rules_for(variant, full)
    state = State(variant, full, seed, full["num_players"])
    rules.setup(state)
    return Game(rules, state)


def replay(record: dict, actions: Iterable | None = None) -> Game:
    """Replay a record ``{variant, config, seed, actions}`` exactly; returns the final game."""
    game = new_game(record["variant"], seed=record["seed"], **record.get("config", {}))
    for a in (record["actions"] if actions is None else actions):
        game.apply(Action.from_json(a) if isinstance(a, list) else a)
    return game
