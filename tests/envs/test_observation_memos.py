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


def _off_board(s) -> str:
    """What the blocks under ``Memory.cards`` read: the cards off the board and who saw which."""
    return repr((s.deck, s.removed, s.set_aside, s.face_up, s.hands, s.known, s.to_plant, s.runouts, s.limit,
                 s.turn, s.end_pending))


def _board(s) -> str:
    """What the blocks under ``Memory.board`` read: fields, coin stacks, discard pile."""
    return repr((s.ftype, s.fcount, s.nfields, s.coins, s.discard))


@pytest.mark.parametrize("options", [
    {"num_players": 4}, {"num_players": 3, "edition": "english"}, {"num_players": 7, "edition": "english"},
    {"num_players": 5, "trade_preset": "learning"}, {"num_players": 4, "proposals": "active_only",
                                                      "max_offer_cards": 1}])
def test_memory_tokens_change_whenever_their_cards_move_or_are_shown(options):
    """The observation replays the card blocks while a ``Memory`` token is unchanged (``token_writer``):
    ``cards`` must change with every action that moves a card off the board or shows one (a submitted
    offer, an executed trade, a kept trade-area card, the end of trading, planting, drawing), ``board``
    with every change of fields, coin stacks or discard pile (planting, harvesting, buying a field),
    checked after every applied action of random games; and each must stay for many actions (talk:
    building and answering offers, passing; harvests keep ``cards``, trade steps keep ``board``)."""
    rng = random.Random(11)
    kept = {"cards": 0, "board": 0}
    for seed in range(2):
        game = new_game("bohnanza", seed=seed, **options)
        mem = bohnanza_v1.raw_env(**options).encoder.new_memory().reset(game)
        while not game.is_over and not game.is_truncated:
            before = (mem.cards, mem.board, _off_board(game.state), _board(game.state))
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            mem.update(game)
            where = (seed, len(game.history), game.history[-1])
            if mem.cards == before[0]:
                assert _off_board(game.state) == before[2], where
                kept["cards"] += 1
            if mem.board == before[1]:
                assert _board(game.state) == before[3], where
                kept["board"] += 1
    assert kept["cards"] > 30 and kept["board"] > 30, kept


def test_hands_version_changes_with_the_hands_and_what_was_shown():
    """``hands_version`` (the key of the hand, hand size, shown-cards and unseen memos) stays while the
    hands and their shown bits are unchanged and changes with either, on the same state object with or
    without a memory, and for another state object whose hands differ."""
    from bean_env.envs.obs.core import hands_version

    game = new_game("bohnanza", seed=2, num_players=4)
    ctx = bohnanza_v1.raw_env(num_players=4).encoder.ctx
    s = game.state
    ctx.mem = None
    first = hands_version(ctx, s)
    assert hands_version(ctx, s) == first
    s.known[1][0] |= 1 << 2                      # a card of seat 1 shown to seat 2, no card moved
    shown = hands_version(ctx, s)
    assert shown != first and hands_version(ctx, s) == shown
    s.hands[3].append(s.deck.pop())              # a card moved into a hand
    s.known[3].append(1 << 3)
    moved = hands_version(ctx, s)
    assert moved != shown
    other = new_game("bohnanza", seed=3, num_players=4).state
    assert hands_version(ctx, other) != moved


@pytest.mark.parametrize("seed", [1, 6])
def test_memos_stay_exact_when_real_and_seat_view_states_alternate(seed):
    """One remembering encoder fed the game's state and the seats' masked views (hidden cards -1) in turn,
    as agents that encode views beside an env do, gives what an encoder without memories gives."""
    from bean_env.engine.views import PlayerView

    env = bohnanza_v1.env(num_players=4)
    env.reset(seed=seed)
    raw = env.unwrapped
    plain = memoryless_encoder(raw.game)
    rng = random.Random(seed)
    for step in range(300):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        seat = raw.agent_name_mapping[env.agent_selection]
        view = PlayerView(raw.game, (seat + step) % 4)
        for state, me in ((view.state, view.player), (raw.game.state, seat), (view.state, view.player)):
            assert np.array_equal(raw.encoder.encode_new(state, me, raw.memory),
                                  plain.encode(state, me, raw.memory)), (step, me)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))


def test_unseen_counts_follow_a_hand_whose_cards_change_in_place():
    """The unseen block counts another hand again when its cards change while its length and shown bits
    stay (a card planted from the front, another drawn at the back, between two observations of one
    seat): its per-hand memo compares copies of the hand, not the hand list itself."""
    game = new_game("bohnanza", seed=5, num_players=4)
    encoder = bohnanza_v1.raw_env(num_players=4).encoder
    plain = memoryless_encoder(game)
    s = game.state
    assert np.array_equal(encoder.encode(s, 0), plain.encode(s, 0))
    hand = s.hands[1]
    other = next(c for c in s.deck if c != hand[0])
    s.deck.remove(other)                         # keep the cards conserved: the first one goes to the deck
    s.deck.append(hand.pop(0))
    hand.append(other)                           # same length, nothing shown: only the types differ
    assert np.array_equal(encoder.encode(s, 0), plain.encode(s, 0))


def test_entry_arrays_equal_numpys_conversion():
    """``entry_arrays`` (struct-packed) gives the arrays ``np.fromiter`` gives, for every kind of value the
    writers append, at any length; they are read-only, and the packer cache stays bounded."""
    from bean_env.envs.obs import core

    rng = np.random.default_rng(3)
    for n in (0, 1, 7, 38, 600, 2500):
        ix = [int(i) for i in rng.integers(0, 10_000, n)]
        vx = [float(v) for v in rng.random(n) * 40]
        if n >= 7:  # ints, bools and numpy scalars as well as floats; thirds and other inexact values
            vx[:6] = [3, True, np.float32(0.5), np.int64(7), 1 / 3, 2.0 / 3.0]
            ix[:2] = [np.int64(5), np.intp(9)]
        indices, values = core.entry_arrays(ix, vx)
        assert indices.dtype == np.intp and values.dtype == np.float32
        assert np.array_equal(indices, np.fromiter(ix, np.intp, n))
        assert values.tobytes() == np.fromiter(vx, np.float32, n).tobytes()  # bit for bit
        assert not indices.flags.writeable and not values.flags.writeable
    for n in range(core._PACKERS_KEPT + 5):
        core.entry_arrays([0] * n, [1.0] * n)
    assert len(core._PACKERS) <= core._PACKERS_KEPT
