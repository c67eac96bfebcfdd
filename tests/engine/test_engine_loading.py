"""Loading saved games (``Game.from_json``, ``replay``, ``bean-env replay``): every malformed file or
record raises ``GameFileError`` naming what is wrong, fast; nothing invalid ever loads (COM-12, AGT-5).

The fuzz tests mutate real game files and records of every variant thousands of times (seeded, so
every run checks the same mutants) and feed hypothesis-generated JSON; a mutant either raises
``GameFileError`` or loads into a game that keeps card conservation and plays on."""
from __future__ import annotations

import copy
import io
import json
import math
import random
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bean_env
from bean_env import Game, GameFileError, new_game, replay
from bean_env.cli import main as cli_main
from helpers import assert_conserved, assert_well_formed, random_playout

CASES = [("bohnanza", {"num_players": 3}), ("bohnanza", {"edition": "english", "num_players": 6}),
         ("bean_duel", {}), ("al_cabohne", {}), ("bean_solitaire", {}), ("hostile_takeover", {"num_players": 3})]


def _game(variant: str, config: dict, seed: int, steps: int):
    game = new_game(variant, seed=seed, **config)
    random_playout(game, random.Random(seed), max_steps=steps)
    return game


def _corpus() -> list:
    """Short real games of every variant (a few ended ones too): (to_json text, record)."""
    out = []
    for k, (variant, config) in enumerate(CASES):
        for steps in (25, 70):
            g = _game(variant, config, seed=k + steps, steps=steps)
            out.append((g.to_json(), g.record()))
    g = _game("bean_solitaire", {}, seed=3, steps=None)
    out.append((g.to_json(), g.record()))
    return out


CORPUS = _corpus()


def _check_loaded(game: Game) -> None:
    """A loaded game is a valid game: conservation, well-formed, and it plays on."""
    assert isinstance(game, Game)
    assert_conserved(game, "after loading")
    assert_well_formed(game)
    random_playout(game, random.Random(0), max_steps=15, check=assert_conserved)


def _attempt(load, data) -> str:
    """'error' (GameFileError) or 'loaded' (and checked); anything else fails the test."""
    start = time.perf_counter()
    try:
        game = load(data)
    except GameFileError as exc:
        assert str(exc), "GameFileError without a message"
        outcome = "error"
    else:
        _check_loaded(game)
        outcome = "loaded"
    assert time.perf_counter() - start < 2.0, f"loading took {time.perf_counter() - start:.1f} s"
    return outcome


# -- round trips and named errors ---------------------------------------------------------------------------
@pytest.mark.parametrize("k", range(len(CORPUS)))
def test_com12_real_files_load_to_the_same_game(k):
    text, record = CORPUS[k]
    game = Game.from_json(text)
    assert game.to_json() == text
    assert replay(record).to_json() == text
    assert Game.from_json(text.encode()).to_json() == text


def test_com12_loaded_game_has_plain_ints_and_a_checked_seed():
    g = new_game("bean_duel", seed=np.int64(7))
    random_playout(g, random.Random(7), max_steps=30)
    record = g.record()
    record["seed"] = np.int64(7)
    record["actions"] = [[np.int64(x) for x in a] for a in record["actions"]]
    again = replay(record)
    assert again.to_json() == g.to_json()
    assert all(type(x) is int for a in again.history for x in a[1:])


def _file(text: str) -> dict:
    return json.loads(text)


NAMED = [  # (change to a game file, words the error must contain)
    (lambda d: d.update(format="bean_env.game/2"), "unsupported version"),
    (lambda d: d.update(format="chess.pgn/1"), "unknown format"),
    (lambda d: d.pop("format"), "unknown format"),
    (lambda d: d.pop("history"), "lacks 'history'"),
    (lambda d: d.update(extra=1), "unknown key 'extra'"),
    (lambda d: d["state"].update(n=10 ** 9), "state field 'n'"),
    (lambda d: d["state"].update(variant="chess"), "unknown variant 'chess'"),
    (lambda d: d["state"].update(seed=10 ** 40), "seed"),
    (lambda d: d["state"].update(seed=2.5), "seed must be an integer"),
    (lambda d: d["state"].update(seed=True), "seed must be an integer"),
    (lambda d: d["state"]["config"].update(num_players=3.0), "config option 'num_players'"),
    (lambda d: d["state"]["config"].update(num_players=9), "config"),
    (lambda d: d["state"]["config"].update(colour="red"), "unknown option 'colour'"),
    (lambda d: d["state"]["deck"].pop(), "state field 'deck'"),
    (lambda d: d["state"]["hands"][0].append(3), "state field 'hands'"),
    (lambda d: d["state"].update(turn=float(d["state"]["turn"])), "state field 'turn'"),
    (lambda d: d["state"].update(bogus=[]), "unknown state field 'bogus'"),
    (lambda d: d["state"].pop("known"), "lacks field 'known'"),
    (lambda d: d["history"].append([99, 0, 0]), "action 26"),
    (lambda d: d["history"].__setitem__(3, [0, 0.0, 0]), "action 4 part must be an integer"),
    (lambda d: d["history"].__setitem__(3, [0, 0]), "action 4 must be a list"),
    (lambda d: d["history"].__setitem__(3, "plant"), "action 4"),
    (lambda d: d.update(history=[[0, 0, 10 ** 12]] * 3), "action 1 part"),
]


@pytest.mark.parametrize("change,words", NAMED, ids=[w for _, w in NAMED])
def test_com12_malformed_game_files_name_what_is_wrong(change, words):
    """Format, version, schema, bounds, the state against its replay: each names the fault."""
    data = _file(CORPUS[0][0])
    assert len(data["history"]) == 25
    change(data)
    with pytest.raises(GameFileError, match=words.replace("(", r"\(")):
        Game.from_json(json.dumps(data))


def test_com12_history_length_is_bounded(monkeypatch):
    from bean_env.engine import loading
    monkeypatch.setattr(loading, "MAX_ACTIONS", 20)
    with pytest.raises(GameFileError, match="at most 20"):
        Game.from_json(CORPUS[0][0])


@pytest.mark.parametrize("text", ["", "{", "[" * 100_000, "null", "[]", '"x"', "1e999", "NaN",
                                  '{"format": "bean_env.game/1", "state": "x", "history": []}',
                                  b"\xff\xfe", "9" * 5000])
def test_com12_garbage_text_raises_game_file_error(text):
    with pytest.raises(GameFileError):
        Game.from_json(text)


RECORD_FAULTS = [
    (lambda r: r.update(actions=r["actions"] + [[99, 0, 0]]), "action 26"),
    (lambda r: r.pop("seed"), "lacks 'seed'"),
    (lambda r: r.update(seeds=1), "unknown record key 'seeds'"),
    (lambda r: r.update(variant=None), "unknown variant"),
    (lambda r: r.update(config=[]), "'config' must be an object"),
    (lambda r: r.update(actions={"a": 1}), "must be a list"),
    (lambda r: r["config"].update(edition=3), "config"),
    (lambda r: r["config"].update(seed=3), "unknown option 'seed'"),
]


@pytest.mark.parametrize("change,words", RECORD_FAULTS, ids=[w for _, w in RECORD_FAULTS])
def test_com12_malformed_records_name_what_is_wrong(change, words):
    record = copy.deepcopy(CORPUS[0][1])
    change(record)
    with pytest.raises(GameFileError, match=words):
        replay(record)
    assert issubclass(GameFileError, ValueError) and bean_env.GameFileError is GameFileError


def test_com12_actions_after_the_end_are_refused():
    text, record = CORPUS[-1]
    assert Game.from_json(text).is_over
    record = copy.deepcopy(record)
    record["actions"].append(record["actions"][-1])
    with pytest.raises(GameFileError, match="after the end"):
        replay(record)


def test_com12_positions_do_not_load_from_files():
    """Only games begun with new_game load: a hand-built position cannot be checked by a replay."""
    from bean_env.engine.positions import make_position
    game = make_position("bohnanza", num_players=3, active=0, phase="plant",
                         hands=[["blue", "chili"], ["soy"], []], deck=["red", "red", "garden"])
    with pytest.raises(GameFileError, match="does not match"):
        Game.from_json(game.to_json())


@pytest.mark.parametrize("content", ["{", '{"format": "bean_env.game/1", "state": {}, "history": []}',
                                     '{"variant": "bean_duel", "seed": 1, "actions": [[99, 0, 0]]}',
                                     '{"what": 1}', "[1, 2]"])
def test_cli_replay_of_a_bad_file_prints_one_line(tmp_path, capsys, content):
    """`bean-env replay FILE`: one line `bean-env: error: FILE: what`, exit code 2, no traceback."""
    path = tmp_path / "bad.json"
    path.write_text(content)
    code = cli_main(["replay", str(path)], stdout=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith(f"bean-env: error: {path}: ") and "Traceback" not in err
    code = cli_main(["replay", str(tmp_path / "missing.json")], stdout=io.StringIO())
    assert code == 2 and capsys.readouterr().err.startswith("bean-env: error: ")


# -- fuzzing: mutations of real files ---------------------------------------------------------------------
ODD_VALUES = [None, True, False, 0, -1, 1, 2, 3, 15, 10 ** 9, -10 ** 9, 2 ** 70, 0.0, 1.5, math.inf, math.nan,
              "", "x", "plant", [], [0], [[0]], [0, 0, 0], {}, {"a": 1}, [-1] * 5]


def _nodes(data, path=()):
    """Every (path, value) in a JSON tree."""
    yield path, data
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _nodes(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _nodes(v, path + (i,))


def _set(data, path, value):
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _mutate(data, rng: random.Random):
    """One structural mutation of a JSON tree (in place; returns the new root)."""
    nodes = list(_nodes(data))
    path, value = rng.choice(nodes)
    op = rng.randrange(9)
    if not path:
        return rng.choice(ODD_VALUES) if op == 0 else data
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if op <= 2:
        _set(data, path, copy.deepcopy(rng.choice(ODD_VALUES)))
    elif op == 3 and type(value) is int:
        _set(data, path, value + rng.choice((-1, 1, -2, 2, 100)))
    elif op == 4:
        del parent[path[-1]]
    elif op == 5 and isinstance(parent, list):
        parent.insert(rng.randrange(len(parent) + 1), copy.deepcopy(value))
    elif op == 6 and isinstance(parent, list) and len(parent) > 1:
        i, j = rng.randrange(len(parent)), rng.randrange(len(parent))
        parent[i], parent[j] = parent[j], parent[i]
    elif op == 7 and isinstance(value, list) and value:
        del value[rng.randrange(len(value)):]
    elif op == 8 and isinstance(parent, dict):
        parent[rng.choice(("n", "deck", "extra", "seed", "config", "hands", "ext"))] = copy.deepcopy(value)
    else:
        _set(data, path, copy.deepcopy(rng.choice(ODD_VALUES)))
    return data


def _text_mutation(text: str, rng: random.Random) -> str:
    i = rng.randrange(len(text))
    op = rng.randrange(3)
    if op == 0:
        return text[:i]
    if op == 1:
        return text[:i] + rng.choice("0123456789[]{},:\"-.eE ") + text[i + 1:]
    return text[:i] + text[i + 1:]


def test_com12_fuzz_mutated_files_and_records():
    """Thousands of seeded mutations of real game files and records of every variant: each raises
    GameFileError or loads into a valid game; none hangs, none raises anything else."""
    rng = random.Random(2024)
    counts = {"error": 0, "loaded": 0}
    start = time.perf_counter()
    for n in range(3000):
        text, record = CORPUS[n % len(CORPUS)]
        which = rng.randrange(10)
        if which < 5:
            data = json.loads(text)
            for _ in range(rng.choice((1, 1, 2, 3))):
                data = _mutate(data, rng)
            counts[_attempt(Game.from_json, json.dumps(data))] += 1
        elif which < 8:
            data = copy.deepcopy(record)
            for _ in range(rng.choice((1, 1, 2))):
                data = _mutate(data, rng)
            counts[_attempt(replay, data)] += 1
        else:
            counts[_attempt(Game.from_json, _text_mutation(text, rng))] += 1
    elapsed = time.perf_counter() - start
    assert counts["error"] > 2000 and counts["loaded"] > 20, counts  # the mutants hit both sides
    assert elapsed < 60, f"{elapsed:.1f} s"


def test_com12_every_single_field_mutation_of_a_state_is_refused():
    """Changing any one number of a saved state (every variant) is refused: the state must equal the
    replay of its history."""
    checked = 0
    for text, _ in CORPUS[1::2]:
        data = json.loads(text)
        for path, value in list(_nodes(data["state"])):
            if type(value) is not int or not path or path[0] in ("config", "seed"):
                continue
            changed = copy.deepcopy(data)
            _set(changed["state"], path, value + 1)
            with pytest.raises(GameFileError):
                Game.from_json(json.dumps(changed))
            checked += 1
            if checked % 7 == 0:
                break
    assert checked > 30


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70)
                    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                max_size=4),
                    max_leaves=12)
KEYS = ["format", "state", "history", "variant", "config", "seed", "deck", "hands", "n", "decision", "ext"]


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(key=st.sampled_from(KEYS), value=JSON, where=st.sampled_from(("top", "state", "record")))
def test_com12_hypothesis_any_json_in_any_key(key, value, where):
    """Any JSON value in any key of a game file's top level, its state or a record: GameFileError or a
    valid game."""
    text, record = CORPUS[2]
    if where == "record":
        data = copy.deepcopy(record)
        data[key] = value
        _attempt(replay, data)
        return
    data = json.loads(text)
    (data if where == "top" else data["state"])[key] = value
    _attempt(Game.from_json, json.dumps(data))


@settings(max_examples=100)
@given(value=JSON)
def test_com12_hypothesis_any_json_document(value):
    _attempt(Game.from_json, json.dumps(value))
    if isinstance(value, dict):
        _attempt(replay, value)
