"""The batched env on array kernels (``ArrayVectorEnv``) against ``VectorEnv`` on the engine, for each
variant: the same games, observations, masks, actors, rewards, ends and infos for the same
seed and actions (golden parity, in every reward mode, with and without forced moves applied, with and
without duplicate fields, when only some slots step and when observations are skipped, and through the
learner's Gymnasium face, and for any seed, play and reward mode hypothesis draws); card conservation on
its arrays after every step; bad input raises and changes nothing."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from bean_env.engine.game import new_game  # noqa: E402
from bean_env.vector import (ArrayVectorEnv, VectorEnv, array_variants, learner_gym_vector_env,  # noqa: E402
                             make_vector_env, uniform_random_policy)
from bean_env.vector.kernels import takeover  # noqa: E402
from bean_env.vector.kernels.bohnanza import DECISIONS  # noqa: E402
from bean_env.vector.kernels.common import card_counts  # noqa: E402

VARIANTS = ("al_cabohne", "bean_duel", "bean_solitaire", "bohnanza", "hostile_takeover")
OPTIONS = [{}, {"reward_mode": "dense", "win_bonus": 0.5}, {"reward_mode": "score"}, {"reward_mode": "margin"},
           {"auto_forced": False}]


def _same_step(ref_out, arr_out, where: str) -> None:
    for name, x, y in zip(("obs", "masks", "actors", "rewards", "terminated", "truncated"), ref_out, arr_out):
        assert np.array_equal(x, y), f"{where}: {name} differs at {np.argwhere(x != y)[:5].tolist()}"
    for i, (a, b) in enumerate(zip(ref_out[6], arr_out[6])):
        assert a.keys() == b.keys(), f"{where}: infos of slot {i}"
        if a:
            assert (a["final_scores"], a["winners"], a["episode_steps"]) == (
                b["final_scores"], b["winners"], b["episode_steps"]), f"{where}: slot {i}"
            assert np.array_equal(a["final_observations"][0], b["final_observations"][0]), f"{where}: slot {i}"


# `bohnanza`: each edition and player count (BASE-2), and the trading options (TRADE-2, TRADE-3, TRADE-6; AGT-2
# whole offers, with both learning presets and with several rounds of them, where TRADE-7 blocks repeats)
BOHNANZA_RULES = [{"num_players": 3}, {"num_players": 5, "allow_duplicate_fields": False},
                  {"edition": "english", "num_players": 3}, {"edition": "english", "num_players": 6},
                  {"edition": "english", "num_players": 7, "max_offer_cards": 2},
                  {"max_trade_rounds": 0}, {"max_trade_rounds": 1, "proposals": "active_only", "max_offer_cards": 1},
                  {"trade_preset": "learning"}, {"trade_preset": "learning", "edition": "english", "num_players": 7},
                  {"trade_preset": "learning2"},
                  {"offer_actions": "macro", "max_offer_cards": 2, "num_players": 3},
                  {"offer_actions": "macro", "max_offer_cards": 1, "num_players": 5, "reward_mode": "dense"}]


# `hostile_takeover`: each player count (HT-1, HT-6, HT-13's quotas) and the turn budget and limit (HT-17: a
# truncated game is reported as truncated, not terminated)
TAKEOVER_RULES = [{"num_players": 2}, {"num_players": 3, "reward_mode": "dense"},
                  {"num_players": 5, "reward_mode": "margin"},
                  {"max_turns": 6, "max_actions_per_turn": 3, "reward_mode": "dense", "win_bonus": 1.0}]


def _conserved(env, g: int, composition: np.ndarray) -> bool:
    """Game ``g``'s bean cards are the deck's, and (`hostile_takeover`) each text card is in one place."""
    if env.variant != "hostile_takeover":
        return np.array_equal(card_counts(env.arrays, g, env.num_players), composition)
    return (np.array_equal(takeover.card_counts(env.arrays, g, env.num_players), composition)
            and (takeover.text_counts(env.arrays, g, env.num_players) == 1).all())


@pytest.mark.parametrize("variant, options", [(v, o) for v in VARIANTS for o in OPTIONS]
                         + [("bean_duel", {"allow_duplicate_fields": False, "reward_mode": "margin"})]
                         + [("bohnanza", o) for o in BOHNANZA_RULES]
                         + [("hostile_takeover", o) for o in TAKEOVER_RULES])
def test_same_games_as_the_engine_env(variant, options):
    """DUEL-1 .. DUEL-7, MAF-1 .. MAF-14, BASE-1 .. BASE-11 with TRADE-1 .. TRADE-8 and HT-1 .. HT-19 with
    TXT-1 .. TXT-18 as the engine plays them (reshuffles and text-deck rebuilds included, COM-9, HT-6):
    every output equal over at least 12 whole games."""
    ref, arr = VectorEnv(variant, 6, **options), ArrayVectorEnv(variant, 6, **options)
    obs, masks, actors = ref.reset(seed=11)
    for x, y in zip((obs, masks, actors), arr.reset(seed=11)):
        assert np.array_equal(x, y)
    policy = uniform_random_policy(3)
    games = 0
    decisions = np.zeros(obs.shape[1], bool)  # the decision points met (the first block's one-hot)
    truncated = 0
    for step in range(1500 if variant in ("al_cabohne", "bean_duel", "bean_solitaire") else 3000):
        actions = policy(obs, masks)
        out = ref.step(actions)
        _same_step(out, arr.step(actions), f"step {step}")
        obs, masks = out[0], out[1]
        decisions |= obs.any(axis=0)
        games += int(out[4].sum() + out[5].sum())
        truncated += int(out[5].sum())
    assert games >= 12
    assert (truncated > 0) == ("max_turns" in options)
    if variant == "hostile_takeover" and "max_turns" not in options:  # every decision point but TXT-4's
        met = {d for i, d in enumerate(takeover.DECISIONS) if decisions[i]}
        assert met >= set(takeover.DECISIONS[:-2]), set(takeover.DECISIONS) - met
    if variant == "bohnanza":  # every decision point was met (the game's end only in the infos)
        trading, macro = arr.config["max_trade_rounds"] != 0, arr.config["offer_actions"] == "macro"
        met = {d for i, d in enumerate(DECISIONS) if decisions[i]}
        assert met == {d for d in DECISIONS[:-1] if (trading and not (macro and d == "compose"))
                       or d in ("plant", "plant_optional", "harvest_window", "plant_traded")}


@pytest.mark.parametrize("variant", VARIANTS)
def test_some_slots_and_skipped_observations_match_the_engine_env(variant):
    """``step_slots`` on random subsets, half of them without observations until ``refresh``."""
    ref, arr = VectorEnv(variant, 5), ArrayVectorEnv(variant, 5)
    ref.reset(seed=2)
    arr.reset(seed=2)
    rng = np.random.default_rng(0)
    policy = uniform_random_policy(1)
    for step in range(800):
        stepped = np.flatnonzero(rng.random(5) < 0.6)
        observe = bool(step % 2)
        actions = policy(ref.obs, ref.masks)
        for x, y in zip(ref.step_slots(actions, stepped, observe), arr.step_slots(actions, stepped, observe)):
            if isinstance(x, list):
                assert [sorted(i) for i in x] == [sorted(i) for i in y]
            else:
                assert np.array_equal(x, y)
        assert np.array_equal(ref.masks, arr.masks) and np.array_equal(ref.stale, arr.stale)
        if step % 7 == 0:
            ref.refresh()
            arr.refresh()
            assert not arr.stale.any() and np.array_equal(ref.obs, arr.obs)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_same_seed_replays_and_cards_are_conserved(variant):
    """Reset with a seed replays the slots' games; after every step each game's cards, by type, are the
    deck's (deck, discard pile, face-up cards, hands, fields, coins, bosses, treasury, out of the game)."""
    env = ArrayVectorEnv(variant, 4)
    policy = uniform_random_policy(5)
    runs = []
    composition = np.zeros(15, np.int64)
    for bean, count in new_game(variant, seed=0).rules.composition().items():
        composition[bean] = count
    for _ in range(2):
        obs, masks, _ = env.reset(seed=9)
        trace = [obs]
        for _ in range(400):
            obs, masks, *_ = env.step(policy(obs, masks))
            trace.append(obs)
            for g in range(env.num_envs):
                assert _conserved(env, g, composition), g
        runs.append(np.stack(trace))
        policy = uniform_random_policy(5)
    assert np.array_equal(runs[0], runs[1])


@pytest.mark.parametrize("variant", ["bean_duel", "bohnanza", "hostile_takeover"])
def test_learner_face_on_arrays_plays_the_same_games(variant):
    """``backend="arrays"`` through ``LearnerBatch`` and its Gymnasium face: the same learner games as on
    the engine, random opponents seeded alike."""
    envs = [learner_gym_vector_env(variant, 4, seed=6, backend=b, reward_mode="dense")
            for b in ("engine", "arrays")]
    assert isinstance(envs[1].core.vec, ArrayVectorEnv) and isinstance(envs[0].core.vec, VectorEnv)
    outs = [env.reset() for env in envs]
    rng = np.random.default_rng(1)
    for _ in range(300):
        masks = outs[0][1]["action_mask"]
        assert np.array_equal(masks, outs[1][1]["action_mask"]) and np.array_equal(outs[0][0], outs[1][0])
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        outs = [env.step(actions) for env in envs]
        for x, y in zip(outs[0][1:4], outs[1][1:4]):
            assert np.array_equal(x, y)
        outs = [(o[0], o[4]) for o in outs]


def test_backends_choose_the_env():
    assert isinstance(make_vector_env("bean_duel", 2, backend="auto"), ArrayVectorEnv)
    assert isinstance(make_vector_env("bean_duel", 2), VectorEnv)
    assert isinstance(make_vector_env("bohnanza", 2, backend="auto"), ArrayVectorEnv)
    assert isinstance(make_vector_env("bohnanza", 2, backend="auto", trade_preset="learning"), ArrayVectorEnv)
    assert isinstance(make_vector_env("hostile_takeover", 2, backend="auto"), ArrayVectorEnv)
    with pytest.raises(ValueError, match="bad backend 'numba'"):
        make_vector_env("bean_duel", 2, backend="numba")


def test_bad_input_raises_and_changes_nothing(monkeypatch):
    env = ArrayVectorEnv("bean_duel", 3)
    obs, masks, _ = env.reset(seed=1)
    before = [x.copy() for x in (env.arrays.L, env.arrays.S, env.arrays.C, env.obs, env.masks)]
    illegal = np.array([int(np.flatnonzero(~m)[0]) for m in masks])
    with pytest.raises(ValueError, match="not legal in game slot 0"):
        env.step(illegal)
    with pytest.raises(TypeError, match="3 integers"):
        env.step(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match="ascending and distinct"):
        env.step_slots(np.zeros(3, np.int64), [2, 1])
    after = (env.arrays.L, env.arrays.S, env.arrays.C, env.obs, env.masks)
    assert all(np.array_equal(x, y) for x, y in zip(before, after))
    assert array_variants() == VARIANTS
    from bean_env.vector import array_env
    monkeypatch.delitem(array_env.KERNELS, "hostile_takeover")  # a variant without kernels
    with pytest.raises(ValueError, match="no array kernels"):
        ArrayVectorEnv("hostile_takeover", 2)
    with pytest.raises(ValueError, match="unknown variant"):
        ArrayVectorEnv("chess", 2)
    with pytest.raises(ValueError, match="reward_mode"):
        ArrayVectorEnv("bean_duel", 2, reward_mode="coins")
    with pytest.raises(ValueError, match="num_players"):
        ArrayVectorEnv("bean_duel", 2, num_players=3)
    with pytest.raises(ValueError, match="num_envs"):
        ArrayVectorEnv("bean_duel", 0)


def test_without_numba_it_names_the_extra(monkeypatch):
    from bean_env import _numba
    monkeypatch.setattr(_numba, "AVAILABLE", False)
    with pytest.raises(ImportError, match=r"bean-env\[fast\]"):
        ArrayVectorEnv("bean_duel", 2)


@settings(max_examples=12, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2 ** 62), policy_seed=st.integers(0, 2 ** 31),
       mode=st.sampled_from(["win", "score", "margin", "dense"]))
def test_property_any_seed_and_play_gives_the_engine_env_outputs_and_keeps_every_card(variant, seed, policy_seed,
                                                                                       mode):
    ref, arr = VectorEnv(variant, 2, reward_mode=mode), ArrayVectorEnv(variant, 2, reward_mode=mode)
    obs, masks, _ = ref.reset(seed=seed)
    assert np.array_equal(obs, arr.reset(seed=seed)[0])
    policy = uniform_random_policy(policy_seed)
    composition = np.zeros(15, np.int64)
    for bean, count in new_game(variant, seed=0).rules.composition().items():
        composition[bean] = count
    for step in range(250):
        actions = policy(obs, masks)
        out = ref.step(actions)
        _same_step(out, arr.step(actions), f"step {step}")
        obs, masks = out[0], out[1]
        for g in range(2):
            assert _conserved(arr, g, composition)


def _loaded_row_is_the_engines(arr, kernel, probe, game, legal, seed) -> None:
    """Load ``game``'s state into slot 0 of ``arr`` with ``kernel.load``: its mask is ``legal`` and its
    observation the AEC env ``probe``'s (with a memory that starts there)."""
    s = game.state
    kernel.load(arr.arrays, 0, s)
    arr._observe(np.array([0]))
    mask = np.zeros(arr.num_actions, bool)
    mask[probe.catalogue.encode_all(legal, s.actor)] = True
    assert np.array_equal(arr.masks[0], mask), (s.decision, seed)
    memory = probe.encoder.new_memory().reset(game)
    assert np.array_equal(arr.obs[0], probe.encoder.encode(s, s.actor, memory)), (s.decision, seed)


@pytest.mark.parametrize("options", [{}, {"trade_preset": "learning", "proposals": "all", "max_trade_rounds": 3},
                                     {"num_players": 5, "max_offer_cards": 2}])
def test_bohnanza_rows_load_any_state(options):
    """``kernels.bohnanza.load`` copies a game at any decision (an offer being built or answered, offers made
    this turn that may not be repeated, TRADE-7, cards to plant, a harvest window): the kernels' mask and
    observation there are the engine's, the memory starting there as ``Memory.reset`` starts it."""
    import random

    from bean_env.envs.bohnanza_v1 import raw_env
    from bean_env.vector.kernels import bohnanza

    arr = ArrayVectorEnv("bohnanza", 1, **options)
    probe = raw_env(**options)
    rng = random.Random(4)
    seen = set()
    for seed in range(3):
        game = new_game("bohnanza", seed=seed, **probe.config)
        while not game.is_over:
            s = game.state
            if any(s.made):
                seen.add(s.decision)
            legal = game.legal_actions()
            _loaded_row_is_the_engines(arr, bohnanza, probe, game, legal, seed)
            game.apply(rng.choice(legal))
    assert {"offer", "respond", "plant_traded"} <= seen


def test_bohnanza_room_for_offer_keys_grows(monkeypatch):
    """The offers each seat made since the last trade (TRADE-7) outgrow their first room: ``reserve`` makes
    more before a step, and the games stay the engine's."""
    from bean_env.vector.kernels import bohnanza
    monkeypatch.setattr(bohnanza, "MADE_ROOM", 1)
    ref, arr = VectorEnv("bohnanza", 4, max_trade_rounds=6), ArrayVectorEnv("bohnanza", 4, max_trade_rounds=6)
    assert arr.arrays.X.shape[2] == 1
    obs, masks, _ = ref.reset(seed=3)
    arr.reset(seed=3)
    policy = uniform_random_policy(2)
    for step in range(1500):
        actions = policy(obs, masks)
        out = ref.step(actions)
        _same_step(out, arr.step(actions), f"step {step}")
        obs, masks = out[0], out[1]
    assert arr.arrays.X.shape[2] >= 4


@pytest.mark.parametrize("options", [{}, {"num_players": 2}, {"num_players": 5}])
def test_takeover_rows_load_any_state(options):
    """``kernels.takeover.load`` copies a game at any decision (a copying round, a composite being built, an
    attack and its defence, Samenhandel, the final harvest and TXT-4): the kernels' mask and observation
    there are the engine's. Random games until every decision point was met (the rarer ones, TXT-4's and
    TXT-14's, come every few dozen games); compared at every decision but the common ones (turn, copy,
    play), which are compared at every 7th."""
    import random

    from bean_env.envs.hostile_takeover_v1 import raw_env

    arr = ArrayVectorEnv("hostile_takeover", 1, **options)
    probe = raw_env(**options)
    rng = random.Random(4)
    seen = set()
    k = 0
    for seed in range(120):
        game = new_game("hostile_takeover", seed=seed, **probe.config)
        while not game.is_over:
            s = game.state
            seen.add(s.decision)
            legal = game.legal_actions()
            k += 1
            if s.decision not in ("turn", "copy", "play") or k % 7 == 0:
                _loaded_row_is_the_engines(arr, takeover, probe, game, legal, seed)
            game.apply(rng.choice(legal))
        if seen >= set(takeover.DECISIONS[:-1]):
            break
    assert seen >= set(takeover.DECISIONS[:-1]), set(takeover.DECISIONS) - seen


def test_takeover_without_generators_left_a_step_raises():
    """A step that must shuffle (COM-12) with no pre-seeded generator left in the ring stops with an error
    rather than play a game the engine would not (``reserve`` normally tops the ring up before each step)."""
    env = ArrayVectorEnv("hostile_takeover", 4, max_actions_per_turn=2)
    obs, masks, _ = env.reset(seed=1)
    env._reserve = None
    S = env.arrays.S
    S[:, takeover.GEN_END] = S[:, takeover.SHUFFLED]
    policy = uniform_random_policy(0)
    with pytest.raises(RuntimeError, match="ring of generators"):
        for _ in range(20000):
            obs, masks, *_ = env.step(policy(obs, masks))
            S[:, takeover.GEN_END] = np.minimum(S[:, takeover.GEN_END], S[:, takeover.SHUFFLED])


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(-2 ** 63, 2 ** 64), k=st.integers(0, 10 ** 7))
def test_generators_are_seeded_as_the_engine_seeds_its_shuffles(seed, k):
    """COM-12: ``load_generator`` gives the state of ``random.Random("bean_env/{seed}/{k}")``, the engine's
    generator of that shuffle."""
    import random

    from bean_env.vector.kernels.common import MT_N, load_generator
    M = np.zeros((1, 2, MT_N + 1), np.int64)
    load_generator(M, 0, 1, seed, k)
    assert M[0, 1].tolist() == list(random.Random(f"bean_env/{seed}/{k}").getstate()[1])
    assert not M[0, 0].any()
