"""PettingZoo AEC env of `bohnanza` (BASE-*, TRADE-*): German 3-5 or English 3-7 players.

``env(edition="german", num_players=4, max_trade_rounds=4, reward_mode="win", auto_forced=True, ...)``;
options and spaces: ``bean_env.envs.aec`` and ``docs/envs.md``.
"""
from __future__ import annotations

from .aec import BeanAECEnv, make_env_fn


class raw_env(BeanAECEnv):
    """The raw AEC env of `bohnanza` (no wrappers)."""

    variant = "bohnanza"
    metadata = dict(BeanAECEnv.metadata, name="bohnanza_v1")


env = make_env_fn(raw_env)
