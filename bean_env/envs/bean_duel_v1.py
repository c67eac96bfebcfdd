"""PettingZoo AEC env of `bean_duel` (DUEL-*), 2 players.

``env(allow_duplicate_fields=True, reward_mode="win", auto_forced=True, ...)``; options and spaces:
``bean_env.envs.aec`` and ``docs/envs.md``.
"""
from __future__ import annotations

from .aec import BeanAECEnv, make_env_fn


class raw_env(BeanAECEnv):
    """The raw AEC env of `bean_duel` (no wrappers)."""

    variant = "bean_duel"
    metadata = dict(BeanAECEnv.metadata, name="bean_duel_v1")


env = make_env_fn(raw_env)
