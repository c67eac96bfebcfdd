"""Bad input to the engine (AGT-5): ``Game.apply`` normalises integer action parts (numpy ints too) or
refuses the action, changing nothing; a failure inside a rules step never leaves a half-applied state;
numpy integer seeds work (COM-12)."""
from __future__ import annotations

import json
import math
import random

import numpy as np
import pytest

from bean_env import Action, IllegalActionError, new_game
from bean_env.engine.game import CHECKPOINT_EVERY
from helpers import assert_conserved, random_playout

CASES = [("bohnanza", {"num_players": 4}), ("bean_duel", {}), ("al_cabohne", {}), ("bean_solitaire", {}),
         ("hostile_takeover", {"num_players": 3})]
IDS = [v for v, _ in CASES]


def _midgame(variant: str, config: dict, seed: int = 4, steps: int = 30):
    game = new_game(variant, seed=seed, **config)
    random_playout(game, random.Random(seed), max_steps=steps)
    assert not game.is_over
    return game


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_agt5_non_integer_action_parts_are_refused_and_change_nothing(variant, config):
    """AGT-5: floats (0.0 == 0 included), inf, nan, strings, None and bool as action parts raise
    TypeError naming the value; the game is unchanged and plays on."""
    game = _midgame(variant, config)
    before, legal = game.to_json(), list(game.legal_actions())
    action = legal[0]
    for k in range(3):
        for bad in (float(action[k]), np.float64(action[k]), math.inf, math.nan, str(action[k]), None, True):
            parts = list(action)
            parts[k] = bad
            for shaped in (tuple(parts), parts, Action(*parts)):
                with pytest.raises(TypeError) as err:
                    game.apply(shaped)
                assert repr(bad) in str(err.value)
                assert game.to_json() == before and game.legal_actions() == legal
    game.apply(action)
    assert_conserved(game)


@pytest.mark.parametrize("bad", [None, 3, 1.5, math.inf, b"plant", {"kind": 0}, object()])
def test_agt5_actions_of_another_type_raise_type_error(bad):
    """AGT-5: an action that is not an Action, a tuple/list of integers or a string raises TypeError."""
    game = _midgame("bohnanza", {"num_players": 3})
    before = game.to_json()
    with pytest.raises(TypeError, match="bad action"):
        game.apply(bad)
    assert game.to_json() == before


def test_agt5_wrong_shapes_and_huge_parts_are_illegal():
    """AGT-5: tuples with no or too many parts and out-of-range integers are illegal actions."""
    game = _midgame("bohnanza", {"num_players": 3})
    before = game.to_json()
    for junk in ((), [], (0, 0, 0, 0), [1, 2, 3, 4], (10 ** 30, 0, 0), (0, -1, 0), (np.int64(99), 0, 0)):
        with pytest.raises(IllegalActionError):
            game.apply(junk)
        assert game.to_json() == before


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_agt5_numpy_integer_parts_are_stored_as_int(variant, config):
    """AGT-5: actions with numpy integer parts play like int actions; history, record() and to_json()
    hold plain ints."""
    ref = new_game(variant, seed=11, **config)
    random_playout(ref, random.Random(11), max_steps=200)
    game = new_game(variant, seed=11, **config)
    kinds = (np.int64, np.int32, np.uint8, np.int16)
    for i, a in enumerate(ref.history):
        t = kinds[i % len(kinds)]
        game.apply(tuple(t(x) for x in a) if i % 2 else [t(x) for x in a])
    assert game.to_json() == ref.to_json()
    assert all(type(x) is int for a in game.record()["actions"] for x in a)
    assert all(type(x) is int for a in game.history for x in a[1:])
    json.dumps(game.record())


@pytest.mark.parametrize("seed", [np.int64(3), np.int32(3), np.uint64(3), 3])
def test_com12_numpy_integer_seeds(seed):
    """COM-12: numpy integer seeds give the same game as the int seed, stored as an int."""
    game = new_game("bean_duel", seed=seed)
    assert type(game.seed) is int and game.seed == 3
    assert game.to_json() == new_game("bean_duel", seed=3).to_json()


@pytest.mark.parametrize("seed", [3.0, "3", True, np.float64(3), [3]])
def test_com12_non_integer_seeds_are_refused(seed):
    with pytest.raises(ValueError, match="seed"):
        new_game("bean_duel", seed=seed)


# -- injected faults -------------------------------------------------------------------------------------
# Rules methods that change the state; a fault is injected right after one of them ran, so the step
# has already changed something when it fails.
MUTATORS = ("plant", "plant_front", "harvest", "draw", "reshuffle", "draw_to_hand", "turn_up_cards",
            "end_game", "resolve_leftover", "apply_free", "start_turn", "next_planter", "_execute", "_take",
            "boss_put", "boss_harvest", "give", "place_stack", "match_discards", "put", "hand_take",
            "texts_take", "tdraw", "draw_up", "emptied", "done_regular", "add_card", "merge")


class Fault(RuntimeError):
    pass


def _inject(rules, exc=Fault) -> dict:
    """Make the next call of any mutator raise ``exc`` after it ran; returns the shared flag."""
    if not hasattr(rules, "__dict__"):
        pytest.skip("compiled build (make test-compiled): compiled rules methods cannot be patched")
    flag = {"armed": True, "fired": False}
    for name in MUTATORS:
        original = getattr(rules, name, None)
        if original is None:
            continue

        def wrapper(*args, _original=original, **kwargs):
            out = _original(*args, **kwargs)
            if flag["armed"]:
                flag["armed"], flag["fired"] = False, True
                raise exc("injected fault")
            return out
        setattr(rules, name, wrapper)
    return flag


def _remove(rules) -> None:
    for name in MUTATORS:
        rules.__dict__.pop(name, None)


@pytest.mark.parametrize("variant,config", CASES, ids=IDS)
def test_agt5_a_failing_rules_step_changes_nothing(variant, config):
    """AGT-5: a fault inside a rules step (after it changed the state) restores the state, history and
    to_json() of before the call; the same game then plays on exactly like one that never failed."""
    ref = new_game(variant, seed=21, **config)
    random_playout(ref, random.Random(21), max_steps=3 * CHECKPOINT_EVERY)
    game = new_game(variant, seed=21, **config)
    rng = random.Random(5)
    fired = 0
    for a in ref.history:
        if rng.random() < 0.3:
            before, legal, history = game.to_json(), list(game.legal_actions()), list(game.history)
            flag = _inject(game.rules, KeyboardInterrupt if fired % 5 == 4 else Fault)
            try:
                game.apply(a)
            except (Fault, KeyboardInterrupt):
                assert game.to_json() == before and game.history == history
                assert game.legal_actions() == legal
                fired += 1
            finally:
                _remove(game.rules)
            if flag["fired"]:
                game.apply(a)
        else:
            game.apply(a)
        assert_conserved(game)
    assert fired >= 5
    assert game.to_json() == ref.to_json()
    random_playout(game, random.Random(1), max_steps=50)
    assert_conserved(game)


def test_agt5_a_failing_step_in_a_clone_leaves_the_original_alone():
    """AGT-5: clones share the restore snapshot but never each other's state."""
    game = _midgame("bohnanza", {"num_players": 3}, steps=100)
    copy = game.clone()
    before, copy_before = game.to_json(), copy.to_json()
    action = copy.legal_actions()[0]
    _inject(copy.rules)
    try:
        with pytest.raises(Fault):
            copy.apply(action)
    finally:
        _remove(copy.rules)
    assert copy.to_json() == copy_before and game.to_json() == before
    copy.apply(action)
    game.apply(action)
    assert copy.to_json() == game.to_json()
