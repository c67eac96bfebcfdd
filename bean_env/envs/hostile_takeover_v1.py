"""PettingZoo AEC env of `hostile_takeover` (Telebohn, HT-* and TXT-*), 2-5 players.

``env(num_players=4, max_actions_per_turn=200, max_turns=400, reward_mode="win", auto_forced=True, ...)``.
Every decision is an agent step of the player who makes it: the active player's actions, the passive
players' copy prompts (HT-13), defence prompts (HT-16), and everybody's final-harvest decisions (HT-19).
Reaching ``max_turns`` truncates the episode (HT-17). The engine scores in integer hundredths (HT-14); the
rewards are in coins (``score_scale``). Options and spaces: ``bean_env.envs.aec``; the observation blocks
are in ``bean_env.envs.obs.takeover``, documented in ``docs/variants/hostile_takeover.md``.
"""
from __future__ import annotations

from .aec import BeanAECEnv, make_env_fn


class raw_env(BeanAECEnv):
    """The raw AEC env of `hostile_takeover` (no wrappers)."""

    variant = "hostile_takeover"
    metadata = dict(BeanAECEnv.metadata, name="hostile_takeover_v1")
    score_scale = 100  # HT-14: the engine scores in hundredths of a coin (10 per unused text card)


env = make_env_fn(raw_env)
