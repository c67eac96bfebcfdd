"""The public engine facade: ``new_game``, ``Game``, ``replay`` and ``IllegalActionError``."""
from __future__ import annotations

import json
import numbers
import operator
import secrets
from typing import Any, Iterable, Union

from . import rules_for
from .actions import Action, Kind
from .config import validate
from .state import State

ActionLike = Union[Action, tuple, list, str]

# Game.apply keeps a snapshot of the state at most this many actions old; a rules step that fails is
# undone by restoring the snapshot and re-stepping the actions since (see ``Game.apply``). One clone per
# 256 actions costs about 1% of random play; a restore re-steps at most 255 actions (a few ms).
CHECKPOINT_EVERY = 256


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

    __slots__ = ("rules", "state", "history", "_legal", "_index", "_checkpoint", "_maskers", "_phases")

    def __init__(self, rules, state: State, history: list | None = None):
        self.rules = rules
        self.state = state
        self.history: list[Action] = history if history is not None else []
        self._legal: list[Action] | None = None
        self._index: dict[str, Action] | None = None  # str() of each legal action -> the action (built on first use)
        # (state snapshot, len(history) then); never mutated, shared by clones
        self._checkpoint: tuple[State, int] | None = None
        self._maskers: dict | None = None  # seat -> views.HistoryMasker of this game's history (not shared by clones)
        self._phases: dict | None = None  # trade_phase_memo (not shared by clones: their histories part)

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
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.state.over else self.rules.legal(self.state)
            self._index = None
        return legal

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
    def _illegal(self, action) -> IllegalActionError:
        return IllegalActionError(action, self.state.decision, self.state.actor, self.legal_actions())

    def _resolve(self, action: ActionLike) -> Action:
        """The legal action meant by ``action`` (the legal list's own object, parts plain ints).

        Actions are found with ``list.index`` (legal lists are short, about 5 actions on average, and
        an agent's action is usually the legal list's own object); strings with a dict from ``str()``
        built once per decision point."""
        legal = self.legal_actions()
        if type(action) is str:
            index = self._index
            if index is None:
                index = self._index = {str(a): a for a in reversed(legal)}  # the first wins
            found = index.get(action)
            if found is None:
                raise self._illegal(action)
            return found
        key: Any = action
        if type(action) is not Action or type(action[1]) is not int or type(action[2]) is not int or (
                type(action[0]) is not Kind and type(action[0]) is not int):
            key = normalise_action(action)
        if key is not None:
            try:
                return legal[legal.index(key)]
            except ValueError:
                pass
        raise self._illegal(action if key is None else key)

    def apply(self, action: ActionLike) -> None:
        """Apply a legal action (an ``Action``, a ``(kind, a, b)`` tuple, or its ``str()``) and run
        every automatic step up to the next decision point.

        Action parts may be any integers (``numbers.Integral``, e.g. numpy ints; not bool); they are
        stored as ``int``. Raises ``TypeError`` for parts of another type or an action of another type,
        and ``IllegalActionError`` if it is not legal (AGT-5); both change nothing. If the rules step
        itself fails, the game is restored to its state before the call and the error is re-raised."""
        legal = self._legal
        if legal is not None and type(action) is Action:
            # fast path: the legal list's own object (what agents pass); anything else is resolved
            try:
                found = legal[legal.index(action)]
            except ValueError:
                found = None
            action = found if found is action else self._resolve(action)
        else:
            action = self._resolve(action)
        checkpoint = self._checkpoint
        done = len(self.history)
        if checkpoint is None or done - checkpoint[1] >= CHECKPOINT_EVERY:
            checkpoint = self._checkpoint = (self.state.clone(), done)
        try:
            self.rules.step(self.state, action)
        except BaseException:
            self._restore(checkpoint)
            raise
        self.history.append(action)
        self._legal = None

    def _restore(self, checkpoint: tuple) -> None:
        """Put the state back to the one after ``self.history``: the snapshot plus the actions since."""
        snapshot, at = checkpoint
        state = snapshot.clone()
        for a in self.history[at:]:
            self.rules.step(state, a)
        self.state.__dict__.clear()
        self.state.__dict__.update(state.__dict__)

    # -- copies and serialisation ---------------------------------------------------------------------
    def clone(self) -> "Game":
        """An independent copy. It shares the restore snapshot, taken here if there is none yet, so
        many clones of one game (search agents) need no snapshot of their own."""
        checkpoint = self._checkpoint
        if checkpoint is None:
            checkpoint = self._checkpoint = (self.state.clone(), len(self.history))
        game = Game(self.rules, self.state.clone(), list(self.history))
        game._checkpoint = checkpoint
        return game

    def record(self) -> dict:
        """The game as a replayable record ``{variant, config, seed, actions}``."""
        return {"variant": self.variant, "config": self.config, "seed": self.seed,
                "actions": [a.to_json() for a in self.history]}

    def to_json(self) -> str:
        return json.dumps({"format": "bean_env.game/1", "state": self.state.to_dict(),
                           "history": [a.to_json() for a in self.history]})

    @classmethod
    def from_json(cls, text: str | bytes) -> "Game":
        """The game of a ``to_json()`` text, checked (format, types, sizes, every action replayed from
        the set-up, the state equal to the replay); raises ``loading.GameFileError`` naming what is
        wrong. Only games begun with ``new_game`` load."""
        from .loading import load_game
        return load_game(text)

    def view(self, player: int):
        """What ``player`` may know (INFO-1/2), as a ``PlayerView``."""
        from .views import PlayerView
        return PlayerView(self, player)

    def history_masker(self, player: int):
        """The ``views.HistoryMasker`` of ``player`` over this game's history, made on first use: the
        seat's views share it, so reading a view's history costs the actions since the last read."""
        maskers = self._maskers
        if maskers is None:
            maskers = self._maskers = {}
        masker = maskers.get(player)
        if masker is None:
            from .views import HistoryMasker
            masker = maskers[player] = HistoryMasker(self.history, player)
        return masker

    def trade_phase_memo(self) -> dict:
        """The finished trade phases read from this game's history so far (``views._trade_phases``), made
        on first use and shared by its views, so that each phase is read once per game, not per view."""
        memo = self._phases
        if memo is None:
            memo = self._phases = {}
        return memo

    def render(self) -> str:
        from ..render import render_game
        return render_game(self)

    def __repr__(self) -> str:
        s = self.state
        return (f"<Game {s.variant} players={s.n} turn={s.turn} decision={s.decision!r} "
                f"actor={s.actor} over={s.over}>")


def normalise_action(action) -> Action | None:
    """``action`` (an ``Action`` or a tuple/list of 1-3 parts) as an ``Action`` of plain ints, or None
    for a tuple/list with another number of parts (never legal). Raises ``TypeError`` naming the value
    for anything else (floats, strings, None, bool parts). Legality is not checked here."""
    t = type(action)
    if t is Action:
        k, a, b = action
        if (type(k) is Kind or type(k) is int) and type(a) is int and type(b) is int:
            return action
    elif t is not tuple and t is not list and not isinstance(action, (tuple, list)):
        raise TypeError(f"bad action {action!r} of type {t.__name__}; an action is an Action, a "
                        "(kind, a, b) tuple of integers or its str()")
    if not 1 <= len(action) <= 3:
        return None
    parts = []
    for x in action:
        if type(x) is int:
            parts.append(x)
        elif isinstance(x, numbers.Integral) and not isinstance(x, bool):
            parts.append(operator.index(x))
        else:
            raise TypeError(f"bad action {action!r}: part {x!r} of type {type(x).__name__} is not an "
                            "integer")
    return Action(*parts)


def as_seed(seed) -> int:
    """A seed as a plain int: any integer (``numbers.Integral``, e.g. numpy ints; not bool)."""
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        return operator.index(seed)
    raise ValueError(f"bad value {seed!r} for 'seed'; allowed: an integer or None")


def new_game(variant: str, seed: int | None = None, **config) -> Game:
    """Start a game of ``variant`` with the given rule options (validated)."""
    full = validate(variant, config)
    seed = secrets.randbits(62) if seed is None else as_seed(seed)
    rules = rules_for(variant, full)
    state = State(variant, full, seed, full["num_players"])
    rules.setup(state)
    return Game(rules, state)


def replay(record: dict, actions: Iterable | None = None) -> Game:
    """Replay a record ``{variant, config, seed, actions}`` exactly (or ``actions`` instead of the
    record's); returns the final game. A malformed record or an illegal action raises
    ``loading.GameFileError`` naming it."""
    from .loading import load_record
    return load_record(record, actions)
