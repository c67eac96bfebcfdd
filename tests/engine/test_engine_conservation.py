"""Card conservation and state invariants over many seeded random games and random action sequences
(COM-5, COM-8, COM-9, COM-10 keep every card in exactly one place; AGT-1 a legal action always exists)."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bean_env import new_game
from helpers import assert_conserved, assert_well_formed, random_playout

# (variant, config) pairs: every edition and player count, max_trade_rounds 0, 1 and 4, and the duel.
CONFIGS = [("bohnanza", {"edition": ed, "num_players": n, "max_trade_rounds": r})
           for ed, counts in (("german", (3, 4, 5)), ("english", (3, 4, 5, 6, 7)))
           for n in counts for r in (0, 1, 4)]
CONFIGS.append(("bean_duel", {}))
GAMES_PER_CONFIG = {0: 100, 1: 80, 4: 60}   # by max_trade_rounds; longer games get fewer seeds
DUEL_GAMES = 300


def _games(variant: str, config: dict) -> int:
    return DUEL_GAMES if variant == "bean_duel" else GAMES_PER_CONFIG[config["max_trade_rounds"]]


def total_games() -> int:
    return sum(_games(v, c) for v, c in CONFIGS)


def _check(game) -> None:
    assert_conserved(game)
    assert_well_formed(game)


def _id(vc) -> str:
    v, c = vc
    return v if not c else f"{c['edition']}-{c['num_players']}p-r{c['max_trade_rounds']}"


def test_sweep_plays_at_least_two_thousand_games():
    """The conservation sweep below covers >= 2,000 seeded random games."""
    assert total_games() >= 2000


@pytest.mark.slow
@pytest.mark.parametrize("variant_config", CONFIGS, ids=[_id(vc) for vc in CONFIGS])
def test_com5_com9_com10_cards_conserved_after_every_action(variant_config):
    """COM-5 / COM-9 / COM-10: after every action of many random games each card is in exactly one
    place; AGT-1: a legal action exists until the game is over, and every game ends."""
    variant, config = variant_config
    for seed in range(_games(variant, config)):
        game = new_game(variant, seed=seed, **config)
        random_playout(game, random.Random(seed), max_steps=20_000, check=_check)
        assert game.is_over, f"seed {seed} did not end"
        assert game.state.runouts == game.state.limit
        assert game.winners(), "a finished game has at least one winner"
        assert all(c == 0 for c in game.state.fcount)  # COM-10: every field sold


def _strategy_config():
    return st.sampled_from(CONFIGS)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vc=_strategy_config(), seed=st.integers(0, 2**40), prefix=st.integers(0, 1500),
       choices=st.lists(st.integers(0, 2**16), min_size=1, max_size=300))
def test_com4_com6_invariants_under_random_action_sequences(vc, seed, prefix, choices):
    """Property (COM-2, COM-3, COM-4, COM-6, COM-8): for any action sequence (a seeded random prefix
    to reach any phase of the game, then the drawn choices): cards conserved, a legal action until the
    end, no field holds two types, hand and known lists aligned, at most 3 fields, harvests only where
    COM-6 allows, buying only with enough coins."""
    variant, config = vc
    game = new_game(variant, seed=seed, **config)
    rules = game.rules
    random_playout(game, random.Random(seed), max_steps=prefix, check=_check)
    for pick in choices:
        if game.is_over:
            break
        legal = game.legal_actions()
        action = legal[pick % len(legal)]
        p = game.current_player
        if action.kind == 2:  # HARVEST: COM-6
            counts = [game.state.fcount[p * 3 + f] for f in range(game.state.nfields[p])]
            assert counts[action.a] >= 2 or (counts[action.a] == 1 and max(counts) == 1)
        if action.kind == 3:  # BUY_FIELD: COM-8
            assert len(game.state.coins[p]) >= rules.field_cost and game.state.nfields[p] == 2
        game.apply(action)
        _check(game)


@settings(max_examples=40, deadline=None)
@given(vc=_strategy_config(), seed=st.integers(0, 2**40), steps=st.integers(0, 1500))
def test_com12_every_legal_action_applies_cleanly(vc, seed, steps):
    """AGT-1 / COM-12: at a random point every legal action applies to a clone without error, keeps
    the cards conserved, and leaves the original untouched."""
    variant, config = vc
    game = new_game(variant, seed=seed, **config)
    random_playout(game, random.Random(seed), max_steps=steps)
    before = game.to_json()
    for action in game.legal_actions():
        copy = game.clone()
        copy.apply(action)
        _check(copy)
    assert game.to_json() == before
