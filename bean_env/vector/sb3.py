"""The batched envs as stable-baselines3 ``VecEnv``s (this module imports SB3, the ``[train]`` extra; the
package imports it only when asked for one)."""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from .env import BatchPolicy, VectorEnv
from .learner import LearnerBatch


class BatchVecEnv(VecEnv):
    """What every ``VecEnv`` over one ``VectorEnv`` (``self.vec``) shares: its spaces, one set of attributes
    for all slots, masks through ``action_masks()`` and ``env_method("action_masks")`` (MaskablePPO), and
    the seed of the next ``reset``. Subclasses add ``reset``, ``step_async``/``step_wait`` and the per-game
    methods they answer (``_methods``)."""

    _methods: tuple[str, ...] = ()  # env_method names answered once for every slot, beside action_masks

    def __init__(self, vec: VectorEnv, seed: int | None = None):
        self.render_mode = None
        super().__init__(vec.num_envs, vec.observation_box, spaces.Discrete(vec.num_actions))
        self._seed = seed  # the next reset's
        self._actions: np.ndarray | None = None

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions, dtype=np.int64)

    def action_masks(self) -> np.ndarray:
        return self.vec.masks.copy()

    def close(self) -> None:
        pass

    def seed(self, seed: int | None = None) -> list:
        self._seed = seed
        return [seed] * self.num_envs

    def get_attr(self, attr_name: str, indices=None) -> list:
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list:
        idx = self._indices(indices)
        if method_name == "action_masks":
            return list(self.vec.masks[idx])
        if method_name in self._methods:
            result = getattr(self, method_name)(*args, **kwargs)  # one answer for every slot: once
            return [result] * len(idx)
        raise AttributeError(f"{type(self).__name__} has no per-game method {method_name!r}")

    def env_is_wrapped(self, wrapper_class, indices=None) -> list:
        return [False] * len(self._indices(indices))

    def _indices(self, indices) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)


class LearnerVecEnv(BatchVecEnv):
    """A ``LearnerBatch`` as a ``VecEnv``: rewards are the learner's; a finished game's ``infos[i]`` has
    ``terminal_observation``, ``final_scores`` and ``TimeLimit.truncated``."""

    def __init__(self, core: LearnerBatch):
        self.core = core
        super().__init__(core.vec)

    @property
    def vec(self) -> VectorEnv:
        return self.core.vec

    @property
    def seats(self) -> np.ndarray:
        return self.core.seats

    def reset(self) -> np.ndarray:
        seed, self._seed = self._seed, None
        return self.core.reset(seed)

    def step_wait(self):
        actions, self._actions = self._actions, None
        obs, rewards, terminated, truncated, more = self.core.step(actions)
        done = terminated | truncated
        infos: list[dict] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(done).tolist():
            infos[i] = {"final_scores": more[i]["final_scores"], "terminal_observation": more[i]["final_observation"],
                        "TimeLimit.truncated": bool(truncated[i])}
        return obs, rewards, done, infos


def learner_vec_env(variant: str, num_envs: int, opponent: BatchPolicy | None = None,
                    learner_seat: int | str = "rotate", seed: int | None = None, **options: Any) -> LearnerVecEnv:
    """A stable-baselines3 ``VecEnv`` over a ``LearnerBatch``: the learner plays one seat of each slot
    (``learner_seat``: a seat, ``"rotate"`` or ``"random"``), the other seats are played by ``opponent``
    (batched; default uniform random). ``env_method("action_masks")`` feeds sb3-contrib's ``MaskablePPO``."""
    return LearnerVecEnv(LearnerBatch(variant, num_envs, opponent, learner_seat, seed, **options))
