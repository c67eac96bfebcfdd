"""``bean_env.envs.wrappers.OrderEnforcer`` gives the same errors and warnings as PettingZoo's
``OrderEnforcingWrapper`` (each case runs against both), and ``env()`` uses it."""
from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.utils import wrappers as pz_wrappers
from pettingzoo.utils.env_logger import EnvLogger

import bean_env
from bean_env.envs.wrappers import OrderEnforcer

WRAPPERS = {"ours": OrderEnforcer, "pettingzoo": pz_wrappers.OrderEnforcingWrapper}


def make(kind: str):
    return WRAPPERS[kind](bean_env.bean_duel_v1.raw_env())


def outcome(call) -> tuple:
    """(error type, message) of a call, or ("ok", None)."""
    try:
        call()
    except (AttributeError, AssertionError, TypeError, ValueError) as err:
        return type(err).__name__, str(err)
    return "ok", None


CALLS_BEFORE_RESET = {
    "step": lambda e: e.step(0), "observe": lambda e: e.observe("player_0"), "render": lambda e: e.render(),
    "state": lambda e: e.state(), "agent_iter": lambda e: e.agent_iter(), "last": lambda e: e.last(),
    **{name: (lambda e, n=name: getattr(e, n)) for name in
       ("rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents",
        "_cumulative_rewards", "_private", "no_such_attribute")},
}


@pytest.mark.parametrize("name", CALLS_BEFORE_RESET)
def test_same_error_before_reset(name):
    results = {kind: outcome(lambda: CALLS_BEFORE_RESET[name](make(kind))) for kind in WRAPPERS}
    assert results["ours"] == results["pettingzoo"]
    if name not in ("no_such_attribute",):
        assert results["ours"][0] != "ok"


@pytest.mark.parametrize("name", ["possible_agents", "metadata", "max_num_agents", "observation_spaces",
                                  "render_mode", "unwrapped"])
def test_same_attributes_before_reset(name):
    ours, theirs = make("ours"), make("pettingzoo")
    a, b = getattr(ours, name), getattr(theirs, name)
    assert type(a) is type(b) and (a == b if name != "unwrapped" else True)
    assert hasattr(ours, "agents") is hasattr(theirs, "agents") is False
    assert str(ours) == str(theirs) == "bean_duel_v1"


def play(env, seed: int, cycles: int = 400) -> list:
    env.reset(seed=seed)
    rng = random.Random(seed)
    trace = []
    for agent in env.agent_iter(cycles):
        obs, reward, termination, truncation, info = env.last()
        trace.append((agent, reward, termination, truncation, obs["observation"].sum()))
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    return trace


def test_same_play_and_attributes_after_reset():
    ours, theirs = make("ours"), make("pettingzoo")
    assert play(ours, 3) == play(theirs, 3)
    for name in ("rewards", "terminations", "truncations", "infos", "agents", "_cumulative_rewards",
                 "num_agents"):
        assert getattr(ours, name) == getattr(theirs, name)
    ours.reset(seed=3)
    theirs.reset(seed=3)
    assert ours.last(observe=False)[0] is None
    assert ours.last(observe=False)[1:] == theirs.last(observe=False)[1:]


@pytest.mark.parametrize("kind", WRAPPERS)
def test_agent_iter_without_step_asserts(kind):
    env = make(kind)
    env.reset(seed=0)
    iterator = iter(env.agent_iter())
    next(iterator)
    with pytest.raises(AssertionError, match="need to call step\\(\\) or reset\\(\\)"):
        next(iterator)


def test_step_after_the_game_warns_the_same():
    messages = {}
    for kind in WRAPPERS:
        env = make(kind)
        env.reset(seed=1)
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            env.step(None if termination or truncation else int(np.flatnonzero(obs["action_mask"])[0]))
        EnvLogger.mqueue.clear()
        env.step(None)
        messages[kind] = list(EnvLogger.mqueue)
    assert messages["ours"] == messages["pettingzoo"] and "step() called after all agents" in messages["ours"][0]


def test_env_uses_the_lean_wrapper_and_refuses_non_aec_envs():
    env = bean_env.bohnanza_v1.env(num_players=3)
    assert isinstance(env, OrderEnforcer) and isinstance(env.unwrapped, bean_env.bohnanza_v1.raw_env)
    with pytest.raises(TypeError, match="AEC env"):
        OrderEnforcer(object())
