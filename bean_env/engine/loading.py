"""Loading saved games, checked before use: ``Game.to_json()`` files and ``Game.record()`` records.

A *game file* is ``{"format": "bean_env.game/1", "state": {...}, "history": [[kind, a, b], ...]}``;
a *record* is ``{"variant", "config", "seed", "actions"}``. Both are checked the same way: the shape
and types of every part (variant, rule options, seed, actions of three integers, bounded sizes), then
the actions are replayed from the game's set-up, each one checked for legality (AGT-5). A game file's
state must then equal the replayed state field by field, so a loaded game holds every invariant the
engine keeps (card conservation included, checked once more at the end). Anything wrong raises
``GameFileError`` naming it; loading costs one replay, linear in the number of actions.

Consequence: only games that began with ``new_game`` load from a file (a hand-built position or a
sampled game cannot be checked against a replay and is refused).
"""
from __future__ import annotations

import json
import numbers
from collections import Counter
from typing import Any, Iterable

from . import implemented
from .actions import Action
from .config import validate
from .game import Game, IllegalActionError, new_game

FORMAT = "bean_env.game"
VERSION = 1
MAX_ACTIONS = 2_000_000   # longest history loaded (far beyond any real game)
MAX_SEED = 2 ** 128       # seeds are integers with |seed| < MAX_SEED
MAX_PART = 2 ** 31        # action parts are integers with |part| < MAX_PART (legality does the rest)
RECORD_KEYS = ("variant", "config", "seed", "actions")


class GameFileError(ValueError):
    """A saved game file or record that cannot be loaded; the message names what is wrong."""


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def _parse(text) -> Any:
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise GameFileError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if not isinstance(text, str):
        raise GameFileError(f"expected JSON text, got {_kind(text)}")
    try:
        return json.loads(text)
    except RecursionError:
        raise GameFileError("not valid JSON (nested too deeply)") from None
    except ValueError as exc:  # JSONDecodeError, or an integer literal too long to convert
        raise GameFileError(f"not valid JSON ({exc})") from None


def _int(value: Any, what: str, bound: int) -> int:
    if type(value) is not int:
        raise GameFileError(f"{what} must be an integer, not {_kind(value)} {_short(value)}")
    if not -bound < value < bound:
        raise GameFileError(f"{what} {_short(value)} is out of range")
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _config(config: Any) -> dict:
    if not isinstance(config, dict):
        raise GameFileError(f"'config' must be an object, not {_kind(config)}")
    for key, value in config.items():
        if not isinstance(key, str):
            raise GameFileError(f"config key {_short(key)} is not a string")
        # rule options are ints, bools, strings or null; a float such as 2.0 is refused here
        if value is not None and not isinstance(value, (int, str)):
            raise GameFileError(f"config option {key!r} has a value of type {_kind(value)}: {_short(value)}")
    return config


def _action(item: Any, i: int) -> Any:
    """Action ``i`` (1-based) of a history: ``[kind, a, b]`` of bounded ints, or (only in actions
    passed to ``replay`` by code) an ``Action`` or its ``str()``."""
    if isinstance(item, str):
        return item
    if not isinstance(item, (list, tuple)) or len(item) != 3:
        raise GameFileError(f"action {i} must be a list [kind, a, b], not {_short(item)}")
    parts = []
    for x in item:
        if isinstance(x, numbers.Integral) and not isinstance(x, bool):
            x = int(x)
        parts.append(_int(x, f"action {i} part", MAX_PART))
    return Action(*parts)


def _actions(actions: Any, what: str) -> Iterable:
    if isinstance(actions, (list, tuple)):
        if len(actions) > MAX_ACTIONS:
            raise GameFileError(f"'{what}' has {len(actions)} actions; at most {MAX_ACTIONS} are loaded")
        return actions
    raise GameFileError(f"'{what}' must be a list of actions, not {_kind(actions)}")


def replay_checked(variant: Any, config: Any, seed: Any, actions: Any, what: str = "actions") -> Game:
    """Start the game and apply ``actions`` one by one, each checked; raises ``GameFileError``."""
    if not isinstance(variant, str) or variant not in implemented():
        raise GameFileError(f"unknown variant {_short(variant)}; allowed: {', '.join(implemented())}")
    config = _config({} if config is None else config)
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        seed = int(seed)
    seed = _int(seed, "seed", MAX_SEED)
    actions = _actions(actions, what)
    try:
        game = new_game(variant, seed=seed, **validate(variant, config))
    except ValueError as exc:
        raise GameFileError(f"config: {exc}") from None
    for i, item in enumerate(actions, start=1):
        action = _action(item, i)
        if game.is_over:
            raise GameFileError(f"action {i} of {len(actions)} comes after the end of the game")
        try:
            game.apply(action)
        except IllegalActionError as exc:
            raise GameFileError(f"action {i} {_short(item)} is illegal at decision point {exc.decision!r} "
                                f"of player {exc.player}") from None
        except TypeError as exc:
            raise GameFileError(f"action {i}: {exc}") from None
    check_conservation(game)
    return game


def check_conservation(game: Game) -> None:
    """Every card of the variant's deck is in exactly one place (``rules.locations``)."""
    total = Counter()
    for place in game.rules.locations(game.state).values():
        total.update(place)
    expected = Counter(game.rules.composition())
    if total != expected:
        raise GameFileError(f"card conservation broken: extra {dict(total - expected)}, "
                            f"missing {dict(expected - total)}")


def load_record(record: Any, actions: Iterable | None = None) -> Game:
    """The game of a record ``{variant, config, seed, actions}`` (``actions`` replaces the record's)."""
    if not isinstance(record, dict):
        raise GameFileError(f"a record must be an object, not {_kind(record)}")
    unknown = [k for k in record if k not in RECORD_KEYS]
    if unknown:
        raise GameFileError(f"unknown record key {_short(unknown[0])}; allowed: {', '.join(RECORD_KEYS)}")
    for key in ("variant", "seed") + (("actions",) if actions is None else ()):
        if key not in record:
            raise GameFileError(f"the record lacks {key!r}")
    if actions is not None and not isinstance(actions, (list, tuple)):
        actions = list(actions)
    return replay_checked(record["variant"], record.get("config", {}), record["seed"],
                          record["actions"] if actions is None else actions)


def load_game(text) -> Game:
    """The game of a ``Game.to_json()`` text (str or bytes)."""
    return game_from_data(_parse(text))


def game_from_data(data: Any) -> Game:
    """The game of a parsed ``Game.to_json()`` object."""
    if not isinstance(data, dict):
        raise GameFileError(f"a game file must be a JSON object, not {_kind(data)}")
    fmt = data.get("format")
    if not isinstance(fmt, str) or not fmt.startswith(FORMAT + "/"):
        raise GameFileError(f"unknown format {_short(fmt)}; expected '{FORMAT}/{VERSION}'")
    if fmt != f"{FORMAT}/{VERSION}":
        raise GameFileError(f"unsupported version {_short(fmt)}; this bean_env reads '{FORMAT}/{VERSION}'")
    extra = sorted(set(data) - {"format", "state", "history"}, key=str)
    if extra:
        raise GameFileError(f"unknown key {_short(extra[0])} in the game file")
    for key in ("state", "history"):
        if key not in data:
            raise GameFileError(f"the game file lacks {key!r}")
    state = data["state"]
    if not isinstance(state, dict):
        raise GameFileError(f"'state' must be an object, not {_kind(state)}")
    for key in ("variant", "config", "seed"):
        if key not in state:
            raise GameFileError(f"the state lacks {key!r}")
    game = replay_checked(state["variant"], state["config"], state["seed"], data["history"], "history")
    compare_state(state, game)
    return game


def _canonical(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return "<not JSON>"


def compare_state(stored: dict, game: Game) -> None:
    """The stored state must be the replayed one, field by field, types included (1.0 is not 1)."""
    replayed = game.state.to_dict()
    for key in stored:
        if key not in replayed:
            raise GameFileError(f"unknown state field {_short(key)}")
    for key, value in replayed.items():
        if key not in stored:
            raise GameFileError(f"the state lacks field {key!r}")
        if _canonical(stored[key]) != _canonical(value):
            raise GameFileError(f"state field {key!r} does not match the game replayed from its history "
                                f"(file {_short(stored[key])}, replay {_short(value)})")


def load_path(path) -> Game:
    """The game of a file holding either a game file or a record; errors name the file."""
    from pathlib import Path

    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise GameFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        data = _parse(raw)
        if isinstance(data, dict) and "format" in data:
            return game_from_data(data)
        if isinstance(data, dict) and "actions" in data:
            return load_record(data)
        raise GameFileError("neither a game file (keys format, state, history) nor a record "
                            "(keys variant, config, seed, actions)")
    except GameFileError as exc:
        raise GameFileError(f"{path}: {exc}") from None
