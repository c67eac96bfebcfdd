"""The mafia variants' environments: PettingZoo conformance, masks, rewards, the solitaire gymnasium env."""
from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import bean_env
from bean_env.engine.catalogue import catalogue_for
from bean_env.engine.positions import make_position

MODULES = {"al_cabohne": "al_cabohne_v1", "bean_solitaire": "bean_solitaire_v1"}


def module(variant):
    return getattr(bean_env, MODULES[variant])


@pytest.mark.parametrize("variant", MODULES)
def test_pettingzoo_api_test(variant):
    """PettingZoo's AEC API conformance test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Dict observations are the documented contract
        api_test(module(variant).env(), num_cycles=400)


@pytest.mark.parametrize("variant", MODULES)
def test_pettingzoo_seed_test(variant):
    """Same seed, same episode (PettingZoo's seed test)."""
    seed_test(module(variant).env, num_cycles=300)


@pytest.mark.parametrize("variant", MODULES)
def test_agents_and_spaces(variant):
    """One agent per seat; the mafia is not an agent; Discrete actions and a Dict observation."""
    env = module(variant).env()
    env.reset(seed=1)
    n = 2 if variant == "al_cabohne" else 1
    assert env.possible_agents == [f"player_{i}" for i in range(n)]
    space = env.action_space("player_0")
    assert space.n == catalogue_for(variant).size
    obs = env.observe("player_0")
    assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
    assert env.observation_space("player_0").contains(obs)


@pytest.mark.parametrize("variant", MODULES)
def test_mask_equals_the_engine_legal_set(variant):
    """AGT-1: the action mask is exactly the engine's legal actions, through whole episodes."""
    for seed in range(4):
        env = module(variant).raw_env(auto_forced=False)
        env.reset(seed=seed)
        rng = random.Random(seed)
        cat = env.catalogue
        while not all(env.terminations.values()):
            agent = env.agent_selection
            seat = env.agent_name_mapping[agent]
            game = env.unwrapped.game
            mask = env.observe(agent)["action_mask"]
            legal = {cat.decode(i, seat) for i in np.flatnonzero(mask)}
            assert legal == set(game.legal_actions())
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(list(np.flatnonzero(mask)))))
        assert env.unwrapped.game.is_over


@pytest.mark.parametrize("variant", MODULES)
def test_observation_shows_the_mafia(variant):
    """INFO-1: the mafia block holds each boss's type, card count and worth, and the treasury."""
    n = 2 if variant == "al_cabohne" else 1
    boss = [("chili", 7), ("blue", 1)] + ([("green", 2)] if n == 1 else [])
    game = make_position(variant, phase="place", hands=[["stink"]] + [[]] * (n - 1),
                         areas={"bosses": boss, "treasury": 4})
    env = module(variant).raw_env()
    env.reset(seed=0)
    env.game = game
    obs = env.observe("player_0")["observation"]
    layout = {name: (lo, hi) for name, lo, hi, _ in env.encoder.layout()}
    lo, hi = layout["mafia"]
    block = np.round(obs[lo:hi] * env.encoder.raw_high[lo:hi], 4)  # observation v1 scales entries to [0, 1]
    t = len(env.encoder.ctx.types)
    slot = env.encoder.ctx.tslot
    from bean_env.cards import CODE
    assert block[slot[CODE["chili"]]] == 1 and block[t] == 7 and block[t + 1] == 2   # 7 chili = 2 coins
    assert block[(t + 2) + slot[CODE["blue"]]] == 1 and block[(t + 2) + t] == 1
    assert block[len(boss) * (t + 2)] == 4


def _finished(variant, coins, treasury):
    n = 2 if variant == "al_cabohne" else 1
    return make_position(variant, phase="draw", runouts=2 if n == 2 else 0, fill_deck=False, deck=["green"],
                         coins=coins, hands=[[] for _ in range(n)], areas={"treasury": treasury})


def test_al_cabohne_rewards_mafia_wins_ties():
    """MAF-13: everyone loses when the mafia has as many coins as the best player."""
    env = bean_env.al_cabohne_v1.raw_env()
    game = _finished("al_cabohne", [3, 1], 3)
    assert env.win_rewards(game) == [-1.0, -1.0]
    assert env.margin_rewards(game) == [0.0, -2.0]
    game = _finished("al_cabohne", [5, 1], 3)
    assert env.win_rewards(game) == [1.0, -1.0]
    assert env.margin_rewards(game) == [2.0, -4.0]


@pytest.mark.parametrize("coins, reward", [(5, 1.0), (4, 0.0), (1, -1.0)])
def test_solitaire_rewards_win_draw_loss(coins, reward):
    """MAF-13: solitaire +1 win, 0 draw, -1 loss; score/margin = coins - 2 x mafia."""
    env = bean_env.bean_solitaire_v1.raw_env()
    game = _finished("bean_solitaire", [coins], 2)
    assert game.is_over
    assert env.win_rewards(game) == [reward]
    assert env.margin_rewards(game) == [float(coins - 4)]


def test_solitaire_gymnasium_env_checker_and_action_masks():
    """The solitaire single-agent env passes Gymnasium's checker and exposes action_masks()."""
    from gymnasium.utils.env_checker import check_env
    env = gymnasium.make("bean_env/BeanSolitaire-v1")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=3)
    total_steps = 0
    done = False
    rng = np.random.default_rng(3)
    while not done:
        mask = env.unwrapped.action_masks()
        assert mask.dtype == bool and mask.any()
        game = env.unwrapped.game
        legal = {env.unwrapped.catalogue.decode(i, 0) for i in np.flatnonzero(mask)}
        assert legal == set(game.legal_actions())
        obs, reward, done, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total_steps += 1
    assert reward in (-1.0, 0.0, 1.0) and total_steps > 10


def test_solitaire_sb3_env_checker():
    """Stable-Baselines3's env checker accepts the solitaire env."""
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    env = gymnasium.make("bean_env/BeanSolitaire-v1").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # large Box bounds advice
        sb3.check_env(env, warn=True)


def test_al_cabohne_single_agent_against_random_opponent():
    """The 2-player variant also runs as a single-agent gymnasium env (learner vs random seat)."""
    env = gymnasium.make("bean_env/AlCabohne-v1").unwrapped
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    done = False
    while not done:
        mask = env.action_masks()
        _, reward, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
    assert reward in (-1.0, 1.0)


@pytest.mark.parametrize("variant", MODULES)
def test_render_ansi_shows_the_mafia(variant):
    env = module(variant).env(render_mode="ansi")
    env.reset(seed=2)
    assert "Al Cabohne" in env.render()
