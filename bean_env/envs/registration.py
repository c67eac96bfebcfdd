"""Environment ids and registries.

- ``bean_env.envs.make_env("bean_env/bohnanza-v0", **options)``: the AEC env, no registry needed.
- PettingZoo 1.27's registry: ``pettingzoo.make("aec", "bean_env/bohnanza-v0", **options)``.
- Gymnasium (single-agent wrapper, ``single_agent.py``): ``gymnasium.make("bean_env/Bohnanza-v0")``,
  ``"bean_env/BeanDuel-v0"``, ...

Every variant with a ``bean_env/envs/<variant>_v0.py`` module is registered, so a new env module needs
no change here. ``import bean_env`` registers with gymnasium and PettingZoo without importing them:
if they are already imported it registers at once, otherwise right after they are first imported
(a one-shot import hook), so ``import bean_env`` stays fast.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from typing import Any, Callable

from ..engine import VARIANTS

# gymnasium ids use CamelCase names
GYM_NAMES = {"bohnanza": "Bohnanza", "bean_duel": "BeanDuel", "al_cabohne": "AlCabohne",
             "bean_solitaire": "BeanSolitaire", "hostile_takeover": "HostileTakeover"}


def available_variants() -> tuple[str, ...]:
    """Variants that have an env module ``bean_env.envs.<variant>_v0``."""
    return tuple(v for v in VARIANTS if importlib.util.find_spec(f"{__package__}.{v}_v0") is not None)


def aec_id(variant: str) -> str:
    return f"bean_env/{variant}-v0"


def gym_id(variant: str) -> str:
    return f"bean_env/{GYM_NAMES[variant]}-v0"


def env_ids() -> dict[str, str]:
    """AEC env id -> variant, for every available variant."""
    return {aec_id(v): v for v in available_variants()}


def make_env(env_id: str, **options: Any):
    """The AEC env (``env()`` with the standard wrapper) of an id such as ``"bean_env/bohnanza-v0"``
    (``"bohnanza_v0"`` and ``"bohnanza"`` work too)."""
    name = env_id.split("/")[-1].replace("-v0", "").replace("_v0", "")
    if name not in available_variants():
        raise ValueError(f"unknown env id {env_id!r}; allowed: {', '.join(env_ids())}")
    module = importlib.import_module(f"{__package__}.{name}_v0")
    return module.env(**options)


def register_gymnasium(gymnasium_module=None) -> None:
    """Register the single-agent envs with gymnasium (idempotent)."""
    gym = gymnasium_module or importlib.import_module("gymnasium")
    registry = gym.envs.registration.registry
    for v in available_variants():
        if gym_id(v) not in registry:
            gym.register(id=gym_id(v), entry_point=f"{__package__}.single_agent:SingleAgentEnv",
                         kwargs={"variant": v})


def register_pettingzoo(pettingzoo_module=None) -> None:
    """Register the AEC envs with PettingZoo's registry (idempotent)."""
    pz = pettingzoo_module or importlib.import_module("pettingzoo")
    for v in available_variants():
        if aec_id(v) not in pz.aec_registry:
            pz.register("aec", aec_id(v), entry_point=f"{__package__}.{v}_v0:env")


_PENDING: dict[str, Callable] = {}


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs a callback right after a pending top-level module finishes importing."""

    def find_spec(self, fullname, path, target=None):
        callback = _PENDING.get(fullname)
        if callback is None:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module):
            run(module)
            if _PENDING.pop(fullname, None) is not None:
                callback(module)
            if not _PENDING and self in sys.meta_path:
                sys.meta_path.remove(self)

        loader.exec_module = exec_module
        return spec


_HOOK = _AfterImport()


def register_all() -> None:
    """Register with gymnasium and PettingZoo now if imported, else right after their import."""
    for name, register in (("gymnasium", register_gymnasium), ("pettingzoo", register_pettingzoo)):
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "register"):
            register(module)
        else:
            _PENDING[name] = register
    if _PENDING and _HOOK not in sys.meta_path:
        sys.meta_path.insert(0, _HOOK)
