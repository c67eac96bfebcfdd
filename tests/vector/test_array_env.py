"""The batched env on array kernels (``ArrayVectorEnv``) against ``VectorEnv`` on the engine: the same games,
observations, masks, actors, rewards, ends and infos for the same seed and actions (golden parity, in
every reward mode, with and without forced moves applied, when only some slots step and when
observations are skipped); card conservation on its arrays; bad input raises and changes nothing."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("numba")

from bean_env.cards import DECKS  # noqa: E402
from bean_env.vector import VectorEnv, uniform_random_policy  # noqa: E402
from bean_env.vector.array_env import ArrayVectorEnv, array_variants  # noqa: E402
from bean_env.vector.kernels import solitaire as k  # noqa: E402

VARIANT = "bean_solitaire"


def _same_step(ref_out, arr_out, where: str) -> None:
    for name, x, y in zip(("obs", "masks", "actors", "rewards", "terminated", "truncated"), ref_out, arr_out):
        assert np.array_equal(x, y), f"{where}: {name} differs at {np.argwhere(x != y)[:5].tolist()}"
    for i, (a, b) in enumerate(zip(ref_out[6], arr_out[6])):
        assert a.keys() == b.keys(), f"{where}: infos of slot {i}"
        if a:
            assert (a["final_scores"], a["winners"], a["episode_steps"]) == (
                b["final_scores"], b["winners"], b["episode_steps"]), f"{where}: slot {i}"
            assert np.array_equal(a["final_observations"][0], b["final_observations"][0]), f"{where}: slot {i}"


@pytest.mark.parametrize("options", [{}, {"reward_mode": "dense", "win_bonus": 0.5}, {"reward_mode": "score"},
                                     {"reward_mode": "margin"}, {"auto_forced": False}])
def test_same_games_as_the_engine_env(options):
    """MAF-1 .. MAF-14 as the engine plays them: every output equal over about 60 whole games."""
    ref, arr = VectorEnv(VARIANT, 6, **options), ArrayVectorEnv(VARIANT, 6, **options)
    obs, masks, actors = ref.reset(seed=11)
    for x, y in zip((obs, masks, actors), arr.reset(seed=11)):
        assert np.array_equal(x, y)
    policy = uniform_random_policy(3)
    games = 0
    for step in range(1500):
        actions = policy(obs, masks)
        out = ref.step(actions)
        _same_step(out, arr.step(actions), f"step {step}")
        obs, masks = out[0], out[1]
        games += int(out[4].sum())
    assert games > 40


def test_some_slots_and_skipped_observations_match_the_engine_env():
    """``step_slots`` on random subsets, half of them without observations until ``refresh``."""
    ref, arr = VectorEnv(VARIANT, 5), ArrayVectorEnv(VARIANT, 5)
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


def test_the_same_seed_replays_and_cards_are_conserved():
    """Reset with a seed replays the slots' games; after every step each game's cards, by type, are the
    deck's (deck, discard pile, face-up cards, hand, fields, coins, bosses, treasury)."""
    env = ArrayVectorEnv(VARIANT, 4)
    policy = uniform_random_policy(5)
    runs = []
    composition = np.zeros(15, np.int64)
    for bean, count in DECKS["AC"].items():
        composition[bean] = count
    for _ in range(2):
        obs, masks, _ = env.reset(seed=9)
        trace = [obs]
        for _ in range(400):
            obs, masks, *_ = env.step(policy(obs, masks))
            trace.append(obs)
            a = env.arrays
            for g in range(env.num_envs):
                counts = np.zeros(15, np.int64)
                for row in (k.DECK, k.DISC, k.FACE, k.HAND):
                    np.add.at(counts, a.L[g, row, :a.S[g, row]], 1)
                counts += a.C[g, k.COINS] + a.C[g, k.TREASURY]
                for j in range(3):
                    counts[a.S[g, k.F_TYPE + j]] += a.S[g, k.F_COUNT + j]
                    counts[a.S[g, k.B_TYPE + j]] += a.S[g, k.B_COUNT + j]
                assert np.array_equal(counts, composition), g
        runs.append(np.stack(trace))
        policy = uniform_random_policy(5)
    assert np.array_equal(runs[0], runs[1])


def test_bad_input_raises_and_changes_nothing():
    env = ArrayVectorEnv(VARIANT, 3)
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
    with pytest.raises(ValueError, match="no array kernels"):
        ArrayVectorEnv("bean_duel", 2)
    with pytest.raises(ValueError, match="unknown variant"):
        ArrayVectorEnv("chess", 2)
    with pytest.raises(ValueError, match="reward_mode"):
        ArrayVectorEnv(VARIANT, 2, reward_mode="coins")
    with pytest.raises(ValueError, match="num_envs"):
        ArrayVectorEnv(VARIANT, 0)
    assert array_variants() == (VARIANT,)


def test_without_numba_it_names_the_extra(monkeypatch):
    from bean_env import _numba
    monkeypatch.setattr(_numba, "AVAILABLE", False)
    with pytest.raises(ImportError, match=r"bean-env\[fast\]"):
        ArrayVectorEnv(VARIANT, 2)
