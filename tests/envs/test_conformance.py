"""Conformance: PettingZoo api_test / seed_test for every config; Gymnasium and SB3 env checkers for
the single-agent wrapper."""
from __future__ import annotations

import warnings

import gymnasium
import pytest
from envcases import CASES, case_id, env_module
from pettingzoo.test import api_test, seed_test

import bean_env  # noqa: F401  (registers the gymnasium ids)
from bean_env.envs.single_agent import SingleAgentEnv

# api_test warns about every Dict observation (it only knows PettingZoo's own classic envs)
_DICT_OBS_WARNINGS = ("Observation space for each agent probably should be", "Observation is not a NumPy array")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_api_test(case):
    variant, cfg = case
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env_module(variant).env(**cfg), num_cycles=200)
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(_DICT_OBS_WARNINGS)]
    assert not unexpected


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_pettingzoo_seed_test(case):
    variant, cfg = case
    module = env_module(variant)
    seed_test(lambda: module.env(**cfg), num_cycles=50)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_gymnasium_check_env_single_agent(case):
    from gymnasium.utils.env_checker import check_env
    variant, cfg = case
    from bean_env.envs.registration import gym_id
    env = gymnasium.make(gym_id(variant), render_mode="ansi", **cfg)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("case", [c for c in CASES if c[1].get("num_players") in (None, 3, 7)], ids=case_id)
def test_sb3_check_env_single_agent(case):
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env
    variant, cfg = case
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(SingleAgentEnv(variant, **cfg))
