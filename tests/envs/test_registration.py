"""Registries: gymnasium and PettingZoo ids exist after ``import bean_env``, whatever the import order,
and ``import bean_env`` does not import either library."""
from __future__ import annotations

import subprocess
import sys

import pytest


def run(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_import_bean_env_stays_light():
    assert run("import sys, bean_env; print('gymnasium' in sys.modules, 'pettingzoo' in sys.modules)") == "False False"


@pytest.mark.parametrize("order", ["import bean_env, gymnasium", "import gymnasium, bean_env"])
def test_gymnasium_make_after_either_import_order(order):
    code = f"""{order}
env = gymnasium.make("bean_env/BeanDuel-v1")
obs, info = env.reset(seed=0)
env2 = gymnasium.make("bean_env/Bohnanza-v1", num_players=5, learner_seat=2)
obs2, _ = env2.reset(seed=0)
print(env.action_space.n, obs.shape == env.observation_space.shape, env2.unwrapped.seat)"""
    n, same, seat = run(code).split()
    assert int(n) > 0 and same == "True" and seat == "2"


@pytest.mark.parametrize("order", ["import bean_env, pettingzoo", "import pettingzoo, bean_env"])
def test_pettingzoo_make_after_either_import_order(order):
    code = f"""{order}
env = pettingzoo.make("aec", "bean_env/bohnanza-v1", num_players=3)
env.reset(seed=0)
duel = pettingzoo.make("aec", "bean_env/bean_duel-v1")
print(len(env.possible_agents), type(env.unwrapped).__module__, len(duel.possible_agents))"""
    assert run(code) == "3 bean_env.envs.bohnanza_v1 2"


def test_every_env_module_is_an_attribute_of_the_package():
    import bean_env
    from bean_env.envs import available_variants, env_ids
    assert {"bohnanza", "bean_duel"} <= set(available_variants())
    for v in available_variants():
        module = getattr(bean_env, f"{v}_v1")
        assert callable(module.env) and module.raw_env.variant == v
        assert module.raw_env.metadata["name"] == f"{v}_v1"
        assert env_ids()[f"bean_env/{v}-v1"] == v


def test_retired_v0_ids_name_v1_and_the_changelog():
    """Every way of asking for a ``_v0`` env raises an error naming the ``_v1`` id and the changelog."""
    code = """import importlib, bean_env, gymnasium, pettingzoo
from bean_env.envs import make_env
attempts = [lambda: bean_env.bohnanza_v0, lambda: importlib.import_module("bean_env.envs.bean_duel_v0"),
            lambda: make_env("bean_env/bohnanza-v0"), lambda: gymnasium.make("bean_env/BeanDuel-v0"),
            lambda: pettingzoo.make("aec", "bean_env/hostile_takeover-v0")]
for attempt in attempts:
    try:
        attempt()
    except (AttributeError, ImportError) as error:
        text = str(error)
        assert "_v1" in text or "-v1" in text, text
        assert "changelog" in text and "docs/envs.md" in text, text
        print(type(error).__name__)
    else:
        print("no error")
print(hasattr(bean_env, "bohnanza_v0"))"""
    lines = run(code).splitlines()
    assert lines == ["AttributeError"] + ["RetiredEnvError"] * 4 + ["False"]
