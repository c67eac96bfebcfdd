"""Observation v1 (bean_env.envs.obs): sizes, [0, 1] scaling, card counting, coin stacks by type, the
compact hand, negotiation memory and the layout hash."""
from __future__ import annotations

import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from envcases import CASES, case_id
from helpers import memoryless_encoder

from bean_env import new_game
from bean_env.cards import CODE
from bean_env.engine.positions import make_position
from bean_env.envs.obs import StaleMemoryError, encoder_for
from bean_env.envs.obs.core import Block, register_observation
from bean_env.envs.obs.memory import CANCELLED, DECLINED, EXECUTED, OFFERS_KEPT


def _walk(case, seed: int, every: int, max_steps: int):
    """(game, memory) before each ``every``-th of up to ``max_steps`` random decisions."""
    variant, cfg = case
    game = new_game(variant, seed=seed, **cfg)
    memory = encoder_for(game).new_memory().reset(game)
    rng = random.Random(seed)
    for k in range(max_steps):
        if game.is_over:
            return
        if k % every == 0:
            yield game, memory
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        memory.update(game)


def _part(game, name, seat, memory=None):
    enc = encoder_for(game)
    return enc.split(enc.encode(game.state, seat, memory).copy())[name]


def test_target_sizes():
    """Issue 11 targets: 4-player bohnanza at most 700 floats, bean_duel at most 600."""
    assert encoder_for(new_game("bohnanza", seed=0, num_players=4)).size <= 700
    assert encoder_for(new_game("bean_duel", seed=0)).size <= 600


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_values_in_unit_interval_and_raw_values_within_their_scales(case):
    """Every entry lies in [0, 1]; blocks without a cap never exceed their declared scale (exact bounds)."""
    for game, memory in _walk(case, seed=2, every=9, max_steps=900):
        enc = encoder_for(game)
        p = max(game.current_player, 0)
        obs = enc.encode(game.state, p, memory)
        assert obs.dtype == np.float32 and obs.shape == (enc.size,)
        assert (obs >= 0).all() and (obs <= 1).all()
        raw = enc.encode_raw(game.state, p, memory)
        for block, start in zip(enc.blocks, enc.starts):
            part = raw[start:start + block.size]
            assert (part >= 0).all(), block.name
            if not block.clip:
                assert (part <= enc.raw_high[start:start + block.size] + 1e-9).all(), block.name


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_unseen_block_counts_what_the_player_cannot_locate(case):
    """Card counting: per type the composition minus every card seen where it is, the same numbers as
    ``PlayerView.unseen_cards``, from the real state and from the masked view alike."""
    checked = 0
    for game, memory in _walk(case, seed=4, every=13, max_steps=900):
        enc = encoder_for(game)
        for p in range(game.num_players):
            view = game.view(p)
            expect = Counter(view.unseen_cards())
            want = [expect[c] for c in enc.ctx.types] + [sum(expect.values())]
            for state in (game.state, view.state):
                assert enc.split(enc.encode_raw(state, p)).get("unseen").tolist() == want
            checked += 1
    assert checked > 10


def test_coin_stacks_by_type_are_public():
    """Harvests are public: changing the types in a seat's coin stack changes every seat's observation
    (coins block and card counting), keeping the count changes none of the totals."""
    game = make_position("bohnanza", num_players=3, phase="trade", active=0, hands=[["blue"], ["soy"], ["red"]],
                         coins=[["chili", "chili"], [], ["stink"]])
    other = game.clone()
    other.state.coins[0] = [CODE["chili"], CODE["green"]]
    # conservation: the green coin came from the deck, a chili went back
    deck = other.state.deck
    deck[deck.index(CODE["green"])] = CODE["chili"]
    enc = encoder_for(game)
    t = enc.ctx.t
    for seat in range(3):
        a, b = enc.encode(game.state, seat).copy(), enc.encode(other.state, seat).copy()
        assert not np.array_equal(a, b)
        ca, cb = enc.split(a)["coins"], enc.split(b)["coins"]
        row = ((0 - seat) % 3) * (t + 1)
        assert ca[row] == cb[row]                                   # same number of coins
        assert ca[row + 1 + enc.ctx.tslot[CODE["green"]]] == 0 < cb[row + 1 + enc.ctx.tslot[CODE["green"]]]
        ua, ub = enc.split(a)["unseen"], enc.split(b)["unseen"]
        assert ua[enc.ctx.tslot[CODE["green"]]] > ub[enc.ctx.tslot[CODE["green"]]]


def test_compact_hand_counts_and_first_positions_info_1():
    """The hand is per-type counts plus the first ``hand_k`` positions one-hot (the planting order)."""
    game = make_position("bean_duel", phase="turn_up", hands=[["blue", "soy", "soy", "red", "chili", "green"],
                                                             ["soy"]])
    enc = encoder_for(game)
    ctx = enc.ctx
    raw = enc.split(enc.encode_raw(game.state, 0))["hand"]
    t, k = ctx.t, ctx.hand_k
    assert raw[ctx.tslot[CODE["soy"]]] == 2 and raw[:t].sum() == 6
    for i, name in enumerate(["blue", "soy", "soy", "red", "chili", "green"][:k]):
        row = raw[t + i * t:t + (i + 1) * t]
        assert row[ctx.tslot[CODE[name]]] == 1 and row.sum() == 1
    scaled = enc.split(enc.encode(game.state, 0))["hand"]
    assert scaled[ctx.tslot[CODE["soy"]]] == pytest.approx(2 / ctx.comp[ctx.tslot[CODE["soy"]]])


def _offer_to_all(respond: list[str], after: list[str]):
    """Seat 0 (active) offers its chili to everybody for a soy; both others hold soy."""
    game = make_position("bohnanza", num_players=3, phase="trade", active=0,
                         hands=[["blue", "chili"], ["soy", "red"], ["soy"]], face_up=["green", "stink"],
                         deck=["red"] * 5)
    memory = encoder_for(game).new_memory().reset(game)
    for action in ["offer to all", "give hand card 2", "want soy", "submit offer"] + respond + after:
        game.apply(action)
        memory.update(game)
    return game, memory


def test_acceptance_is_remembered_by_everyone_trade_4():
    """TRADE-4: accepting shows the wanted cards are held. Two acceptances then a cancelled choice leave
    the same state as two refusals; the memory tells them apart for every observer, the state does not."""
    accepted, mem_a = _offer_to_all(["accept", "accept"], ["cancel"])
    refused, mem_r = _offer_to_all(["decline", "decline"], [])
    assert accepted.state.to_dict() == refused.state.to_dict()
    enc = encoder_for(accepted)
    t, soy = enc.ctx.t, enc.ctx.tslot[CODE["soy"]]
    for seat in range(3):
        a = enc.encode(accepted.state, seat, mem_a).copy()
        r = enc.encode(refused.state, seat, mem_r).copy()
        assert not np.array_equal(a, r), seat
        assert np.array_equal(enc.encode(accepted.state, seat).copy(), enc.encode(refused.state, seat).copy())
        neg = enc.split(enc.encode_raw(accepted.state, seat, mem_a))["negotiation"]
        for q in (1, 2):                       # both acceptors revealed a soy, to every observer
            if q != seat:
                k = (q - seat) % 3
                assert neg[(k - 1) * t + soy] == 1
    assert mem_a.offers[-1].outcome == CANCELLED and mem_a.offers[-1].acceptors == [1, 2]
    assert mem_r.offers[-1].outcome == DECLINED and mem_r.declined[0] == 1


def test_executed_offer_and_offer_counts_trade_5():
    game, memory = _offer_to_all(["accept", "decline"], [])
    rec = memory.offers[-1]
    assert rec.outcome == EXECUTED and rec.partner == 1 and memory.executed[0] == 1 and memory.made[0] == 1
    assert memory.revealed[1] == []             # it gave the soy it showed
    enc = encoder_for(game)
    n, t = 3, enc.ctx.t
    neg = enc.split(enc.encode_raw(game.state, 2, memory))["negotiation"]
    counts_at = (n - 1) * t
    row = ((0 - 2) % n) * 3                     # seat 0 seen by seat 2
    assert neg[counts_at + row:counts_at + row + 3].tolist() == [1, 0, 1]
    first = counts_at + 3 * n                   # the most recent offer
    assert neg[first + (0 - 2) % n] == 1        # proposer offset
    assert neg[first + n + n] == 1              # addressee: all
    assert neg[first + 2 * n + 1 + enc.ctx.tslot[CODE["chili"]]] == 1
    assert neg[first + 2 * n + 1 + t + enc.ctx.tslot[CODE["soy"]]] == 1
    assert neg[first + 3 * n + 1 + 2 * t + EXECUTED] == 1
    assert OFFERS_KEPT >= 1


def test_memory_forgets_at_the_next_turn():
    game, memory = _offer_to_all(["decline", "decline"], [])
    assert memory.offers and memory.made == [1, 0, 0]
    turn = game.state.turn
    rng = random.Random(0)
    while game.state.turn == turn and not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        memory.update(game)
    assert memory.offers == [] and memory.made == [0, 0, 0]


def test_shown_hand_cards_by_position_info_2():
    """Offered hand cards are shown to everyone (INFO-2): their type and, where public, position."""
    game, memory = _offer_to_all(["decline", "decline"], [])
    enc = encoder_for(game)
    t, kk = enc.ctx.t, enc.ctx.known_k
    for seat in (1, 2):
        known = enc.split(enc.encode_raw(game.state, seat, memory))["known_hands"]
        at = ((0 - seat) % 3 - 1) * (t + kk * t)
        assert known[at + enc.ctx.tslot[CODE["chili"]]] == 1 and known[at:at + t].sum() == 1
        assert known[at + t + 1 * t + enc.ctx.tslot[CODE["chili"]]] == 1   # position 2 (index 1)
        assert known[at + t:at + t + t].sum() == 0                           # position 1 not shown


def test_stale_memory_is_refused():
    game = new_game("bohnanza", seed=1, num_players=3)
    enc = encoder_for(game)
    memory = enc.new_memory().reset(game)
    game.apply(game.legal_actions()[0])
    with pytest.raises(StaleMemoryError, match="update"):
        enc.encode(game.state, 0, memory)
    memory.update(game)
    enc.encode(game.state, 0, memory)
    with pytest.raises(StaleMemoryError):
        memory.update(game)                     # the same action twice


def test_layout_hash_is_stable_and_changes_with_the_layout():
    game = new_game("bohnanza", seed=0, num_players=4)
    h = encoder_for(game).layout_hash()
    assert len(h) == 64 and h == encoder_for(new_game("bohnanza", seed=9, num_players=4)).layout_hash()
    code = ("from bean_env import new_game; from bean_env.envs.obs import encoder_for; "
            "print(encoder_for(new_game('bohnanza', seed=0, num_players=4)).layout_hash())")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == h                      # no per-process salt
    others = {encoder_for(new_game(v, seed=0, **cfg)).layout_hash()
              for v, cfg in [("bohnanza", {"num_players": 3}), ("bohnanza", {"num_players": 4, "max_trade_rounds": 2}),
                             ("bohnanza", {"num_players": 4, "edition": "english"}), ("bean_duel", {})]}
    assert h not in others and len(others) == 4


def test_layout_hash_changes_with_a_scale_even_when_sizes_agree():
    from bean_env.envs.obs.core import _SPECS
    game = new_game("bean_duel", seed=0)
    before = encoder_for(game)
    spec = _SPECS["bean_duel"]

    def rescaled(ctx):
        blocks = spec.blocks(ctx)
        last = blocks[-1]
        return blocks[:-1] + [Block(last.name, last.size, 3.0, last.doc, last.write)]
    try:
        register_observation("bean_duel", spec.decisions, rescaled, hand_k=spec.hand_k, known_k=spec.known_k)
        after = encoder_for(game)
        assert after.size == before.size and after.layout_hash() != before.layout_hash()
    finally:
        register_observation("bean_duel", spec.decisions, spec.blocks, hand_k=spec.hand_k, known_k=spec.known_k,
                             history_blocks=spec.history_blocks)
    assert encoder_for(game).layout_hash() == before.layout_hash()


def test_env_spaces_are_the_unit_box():
    from bean_env.envs.single_agent import SingleAgentEnv
    env = SingleAgentEnv("bean_duel")
    assert (env.observation_space.low == 0).all() and (env.observation_space.high == 1).all()
    obs, _ = env.reset(seed=3)
    assert env.observation_space.contains(obs)


def test_env_memory_follows_every_applied_action():
    """The AEC env updates its memory after forced and chosen actions alike (no StaleMemoryError)."""
    from bean_env.envs import bohnanza_v1
    env = bohnanza_v1.env(num_players=3)
    env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(300):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    raw = env.unwrapped
    assert raw.memory.seen == len(raw.game.history)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_remembered_writers_replay_exactly(case):
    """Blocks that replay their last output while the state values they read are unchanged give the same
    vector as an encoder with no memories, for states in game order, shuffled, from several games, for
    every seat, and for masked views."""
    variant, cfg = case
    states = []
    for seed in (1, 2):
        game = new_game(variant, seed=seed, **cfg)
        rng = random.Random(seed)
        while not game.is_over and len(states) < 200 * seed:
            states.append((game.state.clone(), max(game.current_player, 0)))
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    order = list(range(len(states)))
    shuffled = order[:]
    random.Random(7).shuffle(shuffled)
    enc = encoder_for(game)
    for i in order + shuffled:
        state, seat = states[i]
        for me in {seat, (seat + 1) % state.n}:
            got = enc.encode(state, me).copy()
            assert np.array_equal(got, memoryless_encoder(game).encode(state, me)), (i, me)
    view = game.view(0)  # a masked state (hidden cards are -1)
    assert np.array_equal(enc.encode(view.state, 0).copy(), memoryless_encoder(game).encode(view.state, 0))


def test_each_env_keeps_its_own_encoder_memos():
    """Two envs of one config have separate encoders (memos such as pile counts and replayed blocks are
    per game), and stepping them interleaved gives the observations each gives stepped alone."""
    from bean_env.envs import bohnanza_v1

    def play(envs, seeds, steps=120):
        seen = {i: [] for i in range(len(envs))}
        rngs = [random.Random(s) for s in seeds]
        for e, s in zip(envs, seeds):
            e.reset(seed=s)
        for _ in range(steps):
            for i, e in enumerate(envs):
                obs, _, term, trunc, _ = e.last()
                seen[i].append(obs["observation"].copy())
                legal = np.flatnonzero(obs["action_mask"])
                e.step(None if term or trunc else int(legal[rngs[i].randrange(len(legal))]))
        return seen

    a, b = bohnanza_v1.env(num_players=4), bohnanza_v1.env(num_players=4)
    assert a.unwrapped.encoder is not b.unwrapped.encoder
    assert a.unwrapped.encoder.ctx.deck_pile is not b.unwrapped.encoder.ctx.deck_pile
    together = play([a, b], [11, 12])
    alone = play([bohnanza_v1.env(num_players=4)], [12])
    assert all(np.array_equal(x, y) for x, y in zip(together[1], alone[0]))
