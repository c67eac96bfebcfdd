"""Batched self-play: N games of one variant stepped together in one process.

- ``env``: ``VectorEnv``, the games of every seat side by side (one shared policy can drive every
  seat of every game in one forward pass), ``uniform_random_policy``, ``random_rollout``.
- ``array_env``: ``ArrayVectorEnv``, the same API and games on array kernels compiled by numba (the
  ``fast`` extra; ``array_variants()``: all but `hostile_takeover`), and ``make_vector_env`` choosing by
  ``backend``.
- ``learner``: ``LearnerBatch``, one learner seat per game, the other seats played by a batched opponent
  policy; its faces ``learner_vec_env`` (stable-baselines3 ``VecEnv``, in ``sb3``) and
  ``learner_gym_vector_env`` (Gymnasium ``VectorEnv``, in ``gymnasium_face``).
"""
from __future__ import annotations

from typing import Any

from .array_env import ArrayVectorEnv, array_variants, make_vector_env
from .env import BatchPolicy, VectorEnv, random_rollout, uniform_random_policy
from .learner import LearnerBatch, add_learner_rewards

__all__ = ["ArrayVectorEnv", "BatchPolicy", "LearnerBatch", "VectorEnv", "add_learner_rewards", "array_variants",
           "learner_gym_vector_env", "learner_vec_env", "make_vector_env", "random_rollout", "uniform_random_policy"]


def learner_vec_env(variant: str, num_envs: int, opponent: BatchPolicy | None = None,
                    learner_seat: int | str = "rotate", seed: int | None = None, **options: Any):
    """A stable-baselines3 ``VecEnv`` of ``num_envs`` learner games (``sb3.learner_vec_env``; needs the
    ``[train]`` extra)."""
    from .sb3 import learner_vec_env as make
    return make(variant, num_envs, opponent, learner_seat, seed, **options)


def learner_gym_vector_env(variant: str, num_envs: int, opponent: BatchPolicy | None = None,
                           learner_seat: int | str = "rotate", seed: int | None = None,
                           autoreset_mode: Any = "NextStep", **options: Any):
    """A Gymnasium ``VectorEnv`` of ``num_envs`` learner games (``gymnasium_face``)."""
    from .gymnasium_face import learner_gym_vector_env as make
    return make(variant, num_envs, opponent, learner_seat, seed, autoreset_mode, **options)
