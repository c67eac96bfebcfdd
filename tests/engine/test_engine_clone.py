"""State.clone (COM-12): a clone shares no mutable part with its original, whatever the variant."""
from __future__ import annotations

import random

import pytest

from bean_env import new_game
from helpers import random_playout

CASES = [("bohnanza", {"num_players": 4}), ("bean_duel", {}), ("al_cabohne", {}), ("bean_solitaire", {}),
         ("hostile_takeover", {"num_players": 3})]


def _mutables(value, path="state"):
    """(path, object) of every list and dict inside a state value."""
    if isinstance(value, (list, dict)):
        yield path, value
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            yield from _mutables(v, f"{path}[{k!r}]")


@pytest.mark.parametrize("variant,config", CASES, ids=[v for v, _ in CASES])
def test_com12_clone_shares_no_list_or_dict(variant, config):
    game = new_game(variant, seed=8, **config)
    random_playout(game, random.Random(8), max_steps=150)
    game.state.ext["note"] = {"deep": [1, [2, 3]]}   # any JSON-able ext value is copied too
    copy = game.state.clone()
    assert copy.to_dict() == game.state.to_dict()
    ours = {id(obj): path for path, obj in _mutables(game.state.__dict__)}
    shared = [path for path, obj in _mutables(copy.__dict__) if id(obj) in ours]
    assert shared == []
    copy.ext["note"]["deep"][1].append(4)
    copy.config["num_players"] = 99
    assert game.state.ext["note"] == {"deep": [1, [2, 3]]} and game.state.config["num_players"] != 99
