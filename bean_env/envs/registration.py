"""Environment ids and registries.

- ``bean_env.envs.make_env("bean_env/bohnanza-v1", **options)``: the AEC env, no registry needed.
- PettingZoo 1.27's registry: ``pettingzoo.make("aec", "bean_env/bohnanza-v1", **options)``.
- Gymnasium (single-agent wrapper, ``single_agent.py``): ``gymnasium.make("bean_env/Bohnanza-v1")``,
  ``"bean_env/BeanDuel-v1"``, ...

Every variant with a ``bean_env/envs/<variant>_v1.py`` module is registered, so a new env module needs
no change here. Retired versions (``_v0``) stay known: asking for one (module attribute, module import,
``make_env``, gymnasium or PettingZoo id) raises an error naming the current id and the changelog.
``import bean_env`` registers with gymnasium and PettingZoo without importing them: if they are already
imported it registers at once, otherwise right after they are first imported (a one-shot import hook), so
``import bean_env`` stays fast.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
from typing import Any, Callable

from ..engine import VARIANTS

#: the current env version (observation, actions, rules and rewards); older ones are retired
VERSION = 1
RETIRED_VERSIONS = (0,)
CHANGELOG = "the changelog in docs/envs.md"

# gymnasium ids use CamelCase names
GYM_NAMES = {"bohnanza": "Bohnanza", "bean_duel": "BeanDuel", "al_cabohne": "AlCabohne",
             "bean_solitaire": "BeanSolitaire", "hostile_takeover": "HostileTakeover"}


def available_variants() -> tuple[str, ...]:
    """Variants that have an env module ``bean_env.envs.<variant>_v1``."""
    return tuple(v for v in VARIANTS
                 if importlib.util.find_spec(f"{__package__}.{v}_v{VERSION}") is not None)


def aec_id(variant: str, version: int = VERSION) -> str:
    return f"bean_env/{variant}-v{version}"


def gym_id(variant: str, version: int = VERSION) -> str:
    return f"bean_env/{GYM_NAMES[variant]}-v{version}"


def module_name(variant: str, version: int = VERSION) -> str:
    """The env module's short name, e.g. ``bohnanza_v1``."""
    return f"{variant}_v{version}"


class RetiredEnvError(ImportError):
    """An env id or module of a retired version (``_v0``) was asked for."""


def retired_message(asked: str, current: str) -> str:
    return (f"{asked} is retired: use {current} (env version {VERSION}: observation v1, "
            f"rewards, strict action checks; see {CHANGELOG})")


def retired_module(name: str) -> str | None:
    """The current module name if ``name`` is a retired env module name (``bohnanza_v0``), else None."""
    for version in RETIRED_VERSIONS:
        suffix = f"_v{version}"
        if name.endswith(suffix) and name[: -len(suffix)] in VARIANTS:
            return module_name(name[: -len(suffix)])
    return None


def _retired_entry_point(asked: str, current: str) -> Callable[..., Any]:
    def refuse(*args: Any, **kwargs: Any):
        raise RetiredEnvError(retired_message(asked, current))
    return refuse


class _RetiredModules(importlib.abc.MetaPathFinder):
    """``import bean_env.envs.bohnanza_v0`` raises an error naming ``bohnanza_v1``."""

    def find_spec(self, fullname, path, target=None):
        package, _, name = fullname.rpartition(".")
        if package == __package__:
            current = retired_module(name)
            if current is not None:
                raise RetiredEnvError(retired_message(fullname, f"{package}.{current}"))
        return None


def env_ids() -> dict[str, str]:
    """AEC env id -> variant, for every available variant."""
    return {aec_id(v): v for v in available_variants()}


def make_env(env_id: str, **options: Any):
    """The AEC env (``env()`` with the standard wrapper) of an id such as ``"bean_env/bohnanza-v1"``
    (``"bohnanza_v1"`` and ``"bohnanza"`` work too)."""
    if not isinstance(env_id, str):
        raise TypeError(f"env id must be a string, got {env_id!r}")
    name = env_id.split("/")[-1].replace("-", "_")
    current = retired_module(name)
    if current is not None:
        raise RetiredEnvError(retired_message(repr(env_id), repr(aec_id(current.rsplit("_v", 1)[0]))))
    suffix = f"_v{VERSION}"
    if name.endswith(suffix):
        name = name[: -len(suffix)]
    if name not in available_variants():
        raise ValueError(f"unknown env id {env_id!r}; allowed: {', '.join(env_ids())}")
    module = importlib.import_module(f"{__package__}.{module_name(name)}")
    return module.env(**options)


def register_gymnasium(gymnasium_module=None) -> None:
    """Register the single-agent envs with gymnasium (idempotent)."""
    gym = gymnasium_module or importlib.import_module("gymnasium")
    registry = gym.envs.registration.registry
    for v in available_variants():
        if gym_id(v) not in registry:
            gym.register(id=gym_id(v), entry_point=f"{__package__}.single_agent:SingleAgentEnv",
                         kwargs={"variant": v})
        for old in RETIRED_VERSIONS:
            if gym_id(v, old) not in registry:
                gym.register(id=gym_id(v, old),
                             entry_point=_retired_entry_point(repr(gym_id(v, old)), repr(gym_id(v))))


def register_pettingzoo(pettingzoo_module=None) -> None:
    """Register the AEC envs with PettingZoo's registry (idempotent)."""
    pz = pettingzoo_module or importlib.import_module("pettingzoo")
    for v in available_variants():
        if aec_id(v) not in pz.aec_registry:
            pz.register("aec", aec_id(v), entry_point=f"{__package__}.{module_name(v)}:env")
        for old in RETIRED_VERSIONS:
            if aec_id(v, old) not in pz.aec_registry:
                pz.register("aec", aec_id(v, old),
                            entry_point=_retired_entry_point(repr(aec_id(v, old)), repr(aec_id(v))))


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


_RETIRED_FINDER = _RetiredModules()


def register_all() -> None:
    """Register with gymnasium and PettingZoo now if imported, else right after their import."""
    if _RETIRED_FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _RETIRED_FINDER)
    for name, register in (("gymnasium", register_gymnasium), ("pettingzoo", register_pettingzoo)):
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "register"):
            register(module)
        else:
            _PENDING[name] = register
    if _PENDING and _HOOK not in sys.meta_path:
        sys.meta_path.insert(0, _HOOK)
