"""The batched encoder (``bean_env.envs.obs.batch``) gives the per-state encoder's vectors bit for bit:
every variant and player count, states of many games side by side, any observing seat, finished games
too, with blocks batched or run per state."""
from __future__ import annotations

import random

import numpy as np
import pytest

from envcases import CASES, case_id, env_module

from bean_env.envs.obs import build_encoder
from bean_env.envs.obs.batch import BATCH_WRITERS, BatchEncoder
from bean_env.engine.views import PlayerView


def _tables(variant: str, cfg: dict, games: int, seed: int):
    envs = [env_module(variant).raw_env(**cfg) for _ in range(games)]
    for i, env in enumerate(envs):
        env.reset(seed=seed * 100 + i)
    return envs


@pytest.mark.parametrize("case", CASES + [("hostile_takeover", {"num_players": k}) for k in (2, 3, 5)], ids=case_id)
def test_batched_observations_equal_the_per_state_encoder(case):
    variant, cfg = case
    envs = _tables(variant, cfg, games=6, seed=7)
    batch = BatchEncoder(build_encoder(envs[0].game))
    reference = build_encoder(envs[0].game)
    rng = random.Random(7)

    def check(states, seats, memories):
        got = batch.encode(states, seats, memories)
        for i, state in enumerate(states):
            want = reference.encode(state, seats[i], memories[i])
            assert np.array_equal(got[i], want), (i, state.decision, [
                name for name, lo, hi, _ in reference.layout() if not np.array_equal(got[i][lo:hi], want[lo:hi])])

    def play(env) -> None:
        game = env.game
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        env.memory.update(game)

    for _ in range(160):
        states = [env.game.state for env in envs]
        check(states, [rng.randrange(s.n) for s in states], [env.memory for env in envs])  # any seat
        for env in envs:
            if env.game.state.over:
                env.reset(seed=rng.randrange(10 ** 6))
            else:
                play(env)
    env = envs[0]  # a finished game, every seat
    while not env.game.state.over:
        play(env)
    n = env.game.state.n
    check([env.game.state] * n, list(range(n)), [env.memory] * n)


def test_only_the_trading_offers_and_the_takeover_composite_run_per_state():
    from bean_env.envs.bean_duel_v1 import raw_env as duel
    from bean_env.envs.bohnanza_v1 import raw_env as base
    env = duel()
    env.reset(seed=1)
    assert not BatchEncoder(build_encoder(env.game)).per_state
    env = base(num_players=4)
    env.reset(seed=1)
    per_state = BatchEncoder(build_encoder(env.game)).per_state
    assert len(per_state) == 2 and {"decision", "unseen", "known_hands", "trade_state"} <= set(BATCH_WRITERS)
    from bean_env.envs.hostile_takeover_v1 import raw_env as takeover
    env = takeover(num_players=3)
    env.reset(seed=1)
    assert [only_if is not None for _, _, only_if in BatchEncoder(build_encoder(env.game)).per_state] == [True]


def test_masked_view_states_and_mismatched_lengths_are_refused():
    from bean_env.envs.bean_duel_v1 import raw_env as duel
    env = duel()
    env.reset(seed=2)
    batch = BatchEncoder(build_encoder(env.game))
    masked = PlayerView(env.game, 0).state
    with pytest.raises(ValueError, match="real states"):
        batch.encode([masked], [0])
    with pytest.raises(ValueError, match="2 states need 2 seats"):
        batch.encode([env.game.state] * 2, [0])


def test_an_unknown_decision_point_is_named():
    from bean_env.envs.bean_duel_v1 import raw_env as duel
    env = duel()
    env.reset(seed=3)
    state = env.game.state.clone()
    state.decision = "no_such_point"
    with pytest.raises(ValueError, match="no_such_point"):
        BatchEncoder(build_encoder(env.game)).encode([state], [0])


def test_a_memory_that_missed_an_action_is_refused():
    from bean_env.envs.bohnanza_v1 import raw_env as base
    from bean_env.envs.obs import StaleMemoryError
    env = base(num_players=3)
    env.reset(seed=4)
    batch = BatchEncoder(build_encoder(env.game))
    env.game.apply(env.game.legal_actions()[0])  # the env's memory did not see it
    with pytest.raises(StaleMemoryError):
        batch.encode([env.game.state], [0], [env.memory])


def test_offers_in_every_stage_equal_the_per_state_encoder():
    """Batched observations during offers being built, answered and carried out (TRADE-2..5; the `offer`
    and `negotiation` blocks, per state in a batch, the latter replaying a game's last output): a policy
    that prefers offering, accepting and trading reaches the execution stage (a partner chosen, hand
    cards given) that uniform play seldom does."""
    from bean_env.engine.actions import Kind
    from bean_env.engine.state import EMPTY
    from bean_env.envs.bohnanza_v1 import raw_env
    eager = {Kind.OFFER, Kind.GIVE_HAND, Kind.GIVE_TRADE, Kind.WANT, Kind.SUBMIT, Kind.ACCEPT, Kind.PICK}
    rng = random.Random(3)
    env = raw_env(num_players=4)
    env.reset(seed=0)
    batch = BatchEncoder(build_encoder(env.game))
    reference = build_encoder(env.game)
    seen = {"offer": 0, "answered": 0, "partner": 0, "partner's hand cards": 0, "my hand cards given": 0}
    for game in range(6):
        env.reset(seed=game)
        while not env.game.state.over:
            s = env.game.state
            if s.o_prop != EMPTY:
                n = s.n
                got = batch.encode([s] * n, list(range(n)), [env.memory] * n)
                for seat in range(n):
                    assert np.array_equal(got[seat], reference.encode(s, seat, env.memory)), (game, s.decision, seat)
                seen["offer"] += 1
                seen["answered"] += bool(s.o_accept)
                seen["partner"] += s.x_partner != EMPTY
                seen["partner's hand cards"] += bool(s.x_hand)
                seen["my hand cards given"] += bool(s.o_hand)
            legal = env.game.legal_actions()
            keen = [a for a in legal if a.kind in eager]
            pool = keen if keen and rng.random() < 0.8 else legal
            env.game.apply(pool[rng.randrange(len(pool))])
            env.memory.update(env.game)
    assert all(seen.values()), seen
