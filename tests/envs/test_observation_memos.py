"""The AEC env's observations, built with the encoder's memories (blocks replayed while their inputs are
unchanged, the negotiation block per memory version, the unseen counts per deck version), equal those of
an encoder without memories at every step of 4-player games with offers, answers and trades."""
from __future__ import annotations

import random

import numpy as np
import pytest

from helpers import memoryless_encoder

from bean_env import new_game
from bean_env.envs import bohnanza_v1


@pytest.mark.parametrize("seed", [3, 8])
def test_env_observations_equal_an_encoder_without_memories(seed):
    env = bohnanza_v1.env(num_players=4)
    env.reset(seed=seed)
    raw = env.unwrapped
    plain = memoryless_encoder(raw.game)
    assert raw.encoder.ctx.remember and not plain.ctx.remember
    rng = random.Random(seed)
    negotiated = 0
    for step in range(700):
        obs, _, term, trunc, _ = env.last()
        seat = raw.agent_name_mapping[env.agent_selection]
        state = raw.game.state
        want = plain.encode(state, seat, raw.memory).copy()
        assert np.array_equal(obs["observation"], want), (step, state.decision)
        # another seat's view of the same state (its own memories, out of the acting order)
        other = (seat + 1 + step % 3) % 4
        assert np.array_equal(raw.encoder.encode_new(state, other, raw.memory),
                              plain.encode(state, other, raw.memory)), (step, other)
        negotiated += bool(raw.memory.offers)
        if term or trunc:
            break
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    assert negotiated > 50  # the negotiation block had offers to show


def test_encode_new_equals_encode_and_is_not_reused():
    env = bohnanza_v1.env(num_players=3)
    env.reset(seed=4)
    raw = env.unwrapped
    state = raw.game.state
    first = raw.encoder.encode_new(state, 0, raw.memory)
    second = raw.encoder.encode_new(state, 1, raw.memory)
    assert first is not second
    assert np.array_equal(first, raw.encoder.encode(state, 0, raw.memory))
    assert np.array_equal(second, raw.encoder.encode(state, 1, raw.memory))


def test_memory_version_changes_with_every_offer_record():
    """The negotiation block replays while the memory's version is unchanged: every change of what the
    memory records (an offer made, answered or ended; a new turn) changes it."""
    env = bohnanza_v1.env(num_players=4)
    env.reset(seed=5)
    raw = env.unwrapped
    rng = random.Random(5)
    seen = 0
    for _ in range(600):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        mem = raw.memory
        before = (mem.version, repr(mem.offers), list(mem.made), list(mem.declined), list(mem.executed),
                  [list(r) for r in mem.revealed], mem.turn)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
        after = (mem.version, repr(mem.offers), list(mem.made), list(mem.declined), list(mem.executed),
                 [list(r) for r in mem.revealed], mem.turn)
        if before[1:] != after[1:]:
            seen += 1
            assert after[0] != before[0]
    assert seen > 20


def _card_places(s) -> str:
    """Everything the blocks under ``Memory.cards`` read: where every card is and who saw which."""
    return repr((s.deck, s.discard, s.removed, s.set_aside, s.face_up, s.hands, s.known, s.ftype, s.fcount,
                 s.nfields, s.coins, s.to_plant, s.runouts, s.limit, s.turn, s.end_pending))


@pytest.mark.parametrize("options", [
    {"num_players": 4}, {"num_players": 3, "edition": "english"}, {"num_players": 7, "edition": "english"},
    {"num_players": 5, "trade_preset": "learning"}, {"num_players": 4, "proposals": "active_only",
                                                      "max_offer_cards": 1}])
def test_cards_token_changes_whenever_a_card_moves_or_is_shown(options):
    """The observation replays the card blocks while ``Memory.cards`` is unchanged (``token_writer``): it
    must change with every action that moves a card or shows one (a submitted offer, an executed trade,
    a kept trade-area card, the end of trading, a harvest during trading), checked after every applied
    action of random games; and it must stay for most talk (building and answering offers, passing)."""
    rng = random.Random(11)
    kept = changed = 0
    for seed in range(2):
        game = new_game("bohnanza", seed=seed, **options)
        mem = bohnanza_v1.raw_env(**options).encoder.new_memory().reset(game)
        while not game.is_over and not game.is_truncated:
            token, places = mem.cards, _card_places(game.state)
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            mem.update(game)
            if mem.cards == token:
                assert _card_places(game.state) == places, (seed, len(game.history), game.history[-1])
                kept += 1
            else:
                changed += 1
    assert kept > 30 and changed > 300, (kept, changed)
