"""The batched learner env as a Gymnasium ``VectorEnv``: what ``gymnasium.make_vec`` gives with its
``"sync"`` mode (the learner's observations, rewards and masks of N games), stepped as one batch.

Autoreset (``autoreset_mode``, Gymnasium's ``AutoresetMode``; ``metadata["autoreset_mode"]``):
- ``NEXT_STEP`` (Gymnasium's default): the step that ends a slot's game returns that game's final
  observation; the slot's next step ignores its action and returns the first observation of the slot's
  next game, with reward 0, not terminated.
- ``SAME_STEP``: the step that ends a game returns the next game's first observation;
  ``infos["final_obs"]`` (an object array, ``None`` for the other slots) holds the final one and
  ``infos["final_info"]`` what ended.

``infos`` holds, as arrays over the slots with their ``_key`` masks: ``action_mask`` ``(N, actions)``
bool (the learner's legal actions; all False in a final observation), ``seat`` (the learner's), and for
the slots whose game ended in the step (``NEXT_STEP``) or in ``final_info`` (``SAME_STEP``):
``final_scores`` ``(N, players)`` and ``winners`` (lists of seats).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv as GymVectorEnv
from gymnasium.vector.utils import batch_space

from .env import BatchPolicy
from .learner import LearnerBatch


def _autoreset_mode(mode: Any) -> AutoresetMode:
    modes = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
    for m in modes:
        if mode is m or mode == m.value:
            return m
    raise ValueError(f"bad autoreset_mode {mode!r}; allowed: "
                     + ", ".join(f"AutoresetMode.{m.name} ({m.value!r})" for m in modes))


class LearnerGymVectorEnv(GymVectorEnv):
    """``num_envs`` games of ``variant`` for one learner (see the module doc and ``LearnerBatch``)."""

    def __init__(self, variant: str, num_envs: int, opponent: BatchPolicy | None = None,
                 learner_seat: int | str = "rotate", seed: int | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP, **options: Any):
        mode = _autoreset_mode(autoreset_mode)
        self.core = LearnerBatch(variant, num_envs, opponent, learner_seat, seed, **options)
        vec = self.core.vec
        self.num_envs = num_envs
        self.metadata = {"autoreset_mode": mode}
        self.render_mode = None
        self.single_observation_space = vec.observation_box
        self.single_action_space = spaces.Discrete(vec.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._ended = np.zeros(num_envs, bool)  # NEXT_STEP: slots that showed a final observation last step

    @property
    def seats(self) -> np.ndarray:
        """The learner's seat in the game each slot plays (a copy)."""
        return self.core.seats.copy()

    def _infos(self) -> dict[str, Any]:
        n = self.num_envs
        every = np.ones(n, bool)
        return {"action_mask": self.core.masks.copy(), "_action_mask": every, "seat": self.core.seats.copy(),
                "_seat": every.copy()}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if options:
            raise ValueError(f"LearnerGymVectorEnv.reset takes no options, got {options!r}")
        obs = self.core.reset(seed)
        self._ended[:] = False
        return obs, self._infos()

    def step(self, actions):
        actions = np.asarray(actions)
        waiting = ~self._ended  # NEXT_STEP: the slots that showed a final observation start their next game
        obs, rewards, terminated, truncated, more = self.core.step(actions, waiting)
        infos = self._infos()
        ended = np.flatnonzero(terminated | truncated).tolist()
        same_step = self.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
        self._ended[:] = False
        for i in ended:
            final = {"final_scores": np.asarray(more[i]["final_scores"], np.float64),
                     "winners": list(more[i]["winners"])}
            if same_step:
                final["seat"] = more[i]["seat"]
                infos = self._add_info(infos, {"final_obs": more[i]["final_observation"], "final_info": final}, i)
            else:  # the final observation now, the next game at the slot's next step
                obs[i] = more[i]["final_observation"]
                infos["action_mask"][i] = False
                infos["seat"][i] = more[i]["seat"]
                infos = self._add_info(infos, final, i)
                self._ended[i] = True
        return obs, rewards.astype(np.float64), terminated, truncated, infos

    def close_extras(self, **kwargs: Any) -> None:
        pass


def learner_gym_vector_env(variant: str, num_envs: int, opponent: BatchPolicy | None = None,
                           learner_seat: int | str = "rotate", seed: int | None = None,
                           autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                           **options: Any) -> LearnerGymVectorEnv:
    """A Gymnasium ``VectorEnv`` over a ``LearnerBatch`` (see the module doc)."""
    return LearnerGymVectorEnv(variant, num_envs, opponent, learner_seat, seed, autoreset_mode, **options)
