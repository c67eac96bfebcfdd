"""Determinism (COM-12): same seed and actions give the same game; clone, the JSON round trip and
replay play on identically; the global random generators are never touched."""
from __future__ import annotations

import random

import numpy as np
import pytest

from bean_env import Game, new_game, replay
from helpers import random_playout

CASES = [("bohnanza", {"num_players": 4}), ("bohnanza", {"edition": "english", "num_players": 7,
                                                         "max_trade_rounds": 1}),
         ("bohnanza", {"edition": "english", "num_players": 3, "max_trade_rounds": 0}), ("bean_duel", {})]
IDS = ["german4", "english7", "english3", "duel"]


def _scramble() -> None:
    """Reseed Python's and numpy's global generators from a fresh entropy source."""
    random.seed()
    np.random.seed()
    random.random()
    np.random.random()


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_com12_same_seed_and_actions_give_the_same_game(variant, config):
    """COM-12: the same seed and the same actions give the same game, bit for bit."""
    a = new_game(variant, seed=99, **config)
    b = new_game(variant, seed=99, **config)
    assert a.to_json() == b.to_json()
    random_playout(a, random.Random(1))
    for action in a.history:
        assert action in b.legal_actions()
        b.apply(action)
    assert a.to_json() == b.to_json()
    assert a.scores() == b.scores() and a.winners() == b.winners()


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_com12_different_seeds_give_different_deals(variant, config):
    """COM-12: the seed drives the shuffle (different seeds, different games)."""
    deals = {tuple(map(tuple, new_game(variant, seed=s, **config).state.hands)) for s in range(8)}
    assert len(deals) == 8


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_com12_global_rng_scrambling_changes_nothing(variant, config):
    """COM-12: scrambling Python's and numpy's global generators between steps changes nothing."""
    ref = new_game(variant, seed=7, **config)
    random_playout(ref, random.Random(3))
    g = new_game(variant, seed=7, **config)
    for action in ref.history:
        _scramble()
        g.apply(action)
        _scramble()
        g.legal_actions()
    assert g.to_json() == ref.to_json()


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_com12_clone_plays_on_identically_and_independently(variant, config):
    """COM-12: a clone taken at any point plays on exactly like the original; playing the clone
    leaves the original unchanged."""
    ref = new_game(variant, seed=21, **config)
    random_playout(ref, random.Random(21))
    actions = ref.history
    for cut in (0, 1, len(actions) // 3, len(actions) // 2, len(actions) - 1):
        g = new_game(variant, seed=21, **config)
        for a in actions[:cut]:
            g.apply(a)
        snapshot = g.to_json()
        c = g.clone()
        assert c.to_json() == snapshot
        for a in actions[cut:]:
            c.apply(a)
        assert c.to_json() == ref.to_json()
        assert g.to_json() == snapshot  # the original did not move
        for a in actions[cut:]:
            g.apply(a)
        assert g.to_json() == ref.to_json()


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_com12_json_round_trip_plays_on_identically(variant, config):
    """COM-12: Game.from_json(game.to_json()) is the same game and plays on identically."""
    ref = new_game(variant, seed=5, **config)
    random_playout(ref, random.Random(5))
    actions = ref.history
    for cut in (0, len(actions) // 4, len(actions) // 2, len(actions) - 2, len(actions)):
        g = new_game(variant, seed=5, **config)
        for a in actions[:cut]:
            g.apply(a)
        text = g.to_json()
        h = Game.from_json(text)
        assert h.to_json() == text
        assert h.legal_actions() == g.legal_actions()
        assert (h.decision, h.current_player, h.is_over) == (g.decision, g.current_player, g.is_over)
        for a in actions[cut:]:
            h.apply(a)
        assert h.to_json() == ref.to_json()


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_com12_replay_reproduces_the_game(variant, config):
    """COM-12: replay(record) reproduces the game, also for a game started without a seed."""
    g = new_game(variant, **config)  # seed drawn at random, kept in the record
    random_playout(g, random.Random(2))
    record = g.record()
    again = replay(record)
    assert again.to_json() == g.to_json()
    assert again.scores() == g.scores() and again.winners() == g.winners()
    import json
    assert replay(json.loads(json.dumps(record))).to_json() == g.to_json()  # the record is JSON-able


def test_com12_actions_given_as_strings_tuples_or_actions_are_the_same():
    """COM-12: apply accepts an Action, its (kind, a, b) tuple or its str(), with the same result."""
    ref = new_game("bohnanza", seed=8, num_players=3)
    random_playout(ref, random.Random(8), max_steps=300)
    by_str = new_game("bohnanza", seed=8, num_players=3)
    by_tuple = new_game("bohnanza", seed=8, num_players=3)
    for a in ref.history:
        by_str.apply(str(a))
        by_tuple.apply(tuple(a))
    assert by_str.to_json() == by_tuple.to_json() == ref.to_json()


def test_com12_same_game_in_processes_with_different_hash_seeds():
    """COM-12: the game does not depend on Python's per-process string hashing (PYTHONHASHSEED)."""
    import hashlib
    import os
    import pathlib
    import subprocess
    import sys

    root = pathlib.Path(__file__).resolve().parents[2]
    script = ("import random, hashlib, bean_env\n"
              "g = bean_env.new_game('bohnanza', seed=12, num_players=5)\n"
              "r = random.Random(0)\n"
              "while not g.is_over: g.apply(r.choice(g.legal_actions()))\n"
              "print(hashlib.sha256(g.to_json().encode()).hexdigest())\n")
    here = new_game("bohnanza", seed=12, num_players=5)
    random_playout_choice(here, random.Random(0))
    expected = hashlib.sha256(here.to_json().encode()).hexdigest()
    for hash_seed in ("1", "977"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(root))
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                             timeout=120, cwd=root)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == expected


def random_playout_choice(game, rng) -> None:
    """Play ``rng.choice`` of the legal actions to the end (the loop of the subprocess above)."""
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
