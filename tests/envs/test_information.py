"""The observation shows only what the observing seat may know (INFO-1..3, COM-7)."""
from __future__ import annotations

import random

import numpy as np
import pytest
from envcases import CASES, case_id, random_walk

from bean_env import new_game
from bean_env.envs.obs import encoder_for


def _walk_points(case, seed: int, every: int, max_steps: int = 1200):
    variant, cfg = case
    game = new_game(variant, seed=seed, **cfg)
    rng = random.Random(seed)
    for k, g in enumerate(random_walk(game, rng, max_steps)):
        if k % every == 0:
            yield g


def _trading_walk(case, seed: int, every: int, max_steps: int):
    """(game, memory) at points of a game where heuristic players trade (offers, acceptances, trades)."""
    from bean_env.agents.heuristic import HeuristicAgent
    variant, cfg = case
    game = new_game(variant, seed=seed, **cfg)
    memory = encoder_for(game).new_memory().reset(game)
    agents = [HeuristicAgent(seed=seed + p) for p in range(game.num_players)]
    for k in range(max_steps):
        if game.is_over:
            return
        if k % every == 0:
            yield game, memory
        seat = game.current_player
        game.apply(agents[seat].act(game.view(seat), game.legal_actions()))
        memory.update(game)


def _assert_resampling_keeps(game, memory, p, rng) -> None:
    enc = encoder_for(game)
    mine = enc.encode(game.state, p, memory).copy()
    view = game.view(p)
    # agents encode their masked view (hidden cards = -1): it must give the same vector
    assert np.array_equal(enc.encode(view.state, p, memory), mine), f"view encoding differs at {game.decision!r}"
    for _ in range(2):
        other = view.sample_game(rng)
        assert np.array_equal(enc.encode(other.state, p, memory), mine), \
            f"seat {p} sees hidden cards at {game.decision!r}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_resampling_hidden_cards_keeps_the_observation_info_3(case):
    """INFO-3: other hands, deck order (and any variant-hidden cards) resampled -> same observation,
    every block (card counting, coin stacks, known hand positions) included."""
    rng = random.Random(1)
    checked = 0
    for game in _walk_points(case, seed=3, every=7):
        for p in {game.current_player, (game.current_player + 1) % game.num_players}:
            _assert_resampling_keeps(game, None, p, rng)
            checked += 1
    assert checked > 20


@pytest.mark.parametrize("case", [("bohnanza", {"num_players": 3}), ("bohnanza", {"num_players": 5}),
                                  ("bohnanza", {"num_players": 4, "trade_preset": "learning"})], ids=case_id)
def test_resampling_keeps_the_negotiation_memory_info_3(case):
    """INFO-3 with the memory: offers, acceptances and trades are public; resampling what is hidden
    changes nothing, and the memory blocks are non-empty at some of the points checked."""
    rng = random.Random(2)
    remembered = 0
    for game, memory in _trading_walk(case, seed=6, every=5, max_steps=700):
        for p in range(game.num_players):
            _assert_resampling_keeps(game, memory, p, rng)
        enc = encoder_for(game)
        remembered += bool(enc.split(enc.encode(game.state, 0, memory))["negotiation"].any())
    assert remembered > 5


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_own_hand_changes_the_observation_info_1(case):
    """INFO-1: the private hand is observed: changing one own card changes the vector, and so does its
    order among the first positions where hands have an order (COM-1)."""
    changed = 0
    for game in _walk_points(case, seed=5, every=11, max_steps=600):
        p = game.current_player
        hand = game.state.hands[p]
        if not hand:
            continue
        enc = encoder_for(game)
        before = enc.encode(game.state, p).copy()
        other = game.clone()
        types = sorted(game.rules.composition())
        other.state.hands[p][-1] = types[(types.index(hand[-1]) + 1) % len(types)]
        assert not np.array_equal(enc.encode(other.state, p), before)
        if enc.ctx.hand_k and len(set(hand)) > 1:
            i = next(i for i in range(1, len(hand)) if hand[i] != hand[0])
            swapped = game.clone()
            h = swapped.state.hands[p]
            h[0], h[i] = h[i], h[0]
            assert not np.array_equal(enc.encode(swapped.state, p), before)
        changed += 1
    assert changed > 5


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_blocks_write_inside_their_slice_and_bounds(case):
    """Each block writes only its own slice, each entry at most once; every value lies in the Box."""
    for game in _walk_points(case, seed=9, every=5, max_steps=800):
        enc = encoder_for(game)
        for block, start in zip(enc.blocks, enc.starts):
            ix, vx = [], []
            block.write(enc.ctx, game.state, game.current_player, start, ix, vx)
            assert all(start <= i < start + block.size for i in ix), block.name
            assert len(set(ix)) == len(ix), f"{block.name} writes an entry twice"
        obs = enc.encode(game.state, game.current_player)
        assert obs.dtype == np.float32
        assert (obs >= enc.low).all() and (obs <= enc.high).all()


def test_observation_is_seat_relative():
    """Row 0 of every per-seat block is the observer: two seats with swapped roles see mirrored data."""
    game = new_game("bean_duel", seed=11)
    enc = encoder_for(game)
    t = enc.ctx.t
    game.state.coins[0] = [2, 2, 2]
    mine = enc.split(enc.encode_raw(game.state, 0))["coins"]
    theirs = enc.split(enc.encode_raw(game.state, 1))["coins"]
    assert mine[0] == 3 and mine[t + 1] == 0
    assert theirs[0] == 0 and theirs[t + 1] == 3


def test_offer_given_hand_cards_are_public_only_once_shown_trade_2():
    """TRADE-2/INFO-2: during composition others see how many hand cards are given, not which;
    after submission the shown cards are known to everyone."""
    from bean_env.engine.positions import make_position
    game = make_position("bohnanza", num_players=3, phase="trade", active=0,
                         hands=[["blue", "chili"], ["soy"], ["red"]], face_up=["green", "stink"], deck=["red"] * 5)
    game.apply("offer to player 1")
    game.apply("give hand card 2")
    enc = encoder_for(game)
    t = enc.ctx.t
    chili = enc.ctx.tslot[4]
    count_at, types_at = 2 * 3 + 1, 2 * 3 + 2

    def offer(seat):
        return enc.split(enc.encode_raw(game.state, seat))["offer"]
    assert offer(1)[count_at] == 1 and not offer(1)[types_at:types_at + t].any()
    assert offer(0)[types_at + chili] == 1
    game.apply("want soy")
    game.apply("submit offer")
    assert offer(1)[types_at + chili] == 1
    assert offer(2)[types_at + chili] == 1
