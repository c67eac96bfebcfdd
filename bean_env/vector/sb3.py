"""The batched learner env as a stable-baselines3 ``VecEnv`` (imported only when asked for: SB3 is the
``[train]`` extra)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .env import BatchPolicy
from .learner import LearnerBatch


def learner_vec_env(variant: str, num_envs: int, opponent: BatchPolicy | None = None,
                    learner_seat: int | str = "rotate", seed: int | None = None, **options: Any):
    """A stable-baselines3 ``VecEnv`` over a ``LearnerBatch``: the learner plays one seat of each slot
    (``learner_seat``: a seat, ``"rotate"`` or ``"random"``), the other seats are played by ``opponent``
    (batched; default uniform random). Rewards are the learner's; a finished game's ``infos[i]`` has
    ``terminal_observation``, ``final_scores`` and ``TimeLimit.truncated``. ``env_method("action_masks")``
    feeds sb3-contrib's ``MaskablePPO``."""
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import VecEnv

    class LearnerVecEnv(VecEnv):
        def __init__(self):
            self.core = LearnerBatch(variant, num_envs, opponent, learner_seat, seed, **options)
            self.render_mode = None
            super().__init__(num_envs, self.core.vec.observation_box, spaces.Discrete(self.core.vec.num_actions))
            self._next_seed: int | None = None
            self._actions: np.ndarray | None = None

        @property
        def vec(self):
            return self.core.vec

        @property
        def seats(self) -> np.ndarray:
            return self.core.seats

        # -- VecEnv API ------------------------------------------------------------------------------
        def reset(self):
            seed, self._next_seed = self._next_seed, None
            return self.core.reset(seed)

        def step_async(self, actions):
            self._actions = np.asarray(actions, dtype=np.int64)

        def step_wait(self):
            actions, self._actions = self._actions, None
            obs, rewards, terminated, truncated, more = self.core.step(actions)
            done = terminated | truncated
            infos: list[dict] = [{} for _ in range(self.num_envs)]
            for i in np.flatnonzero(done).tolist():
                infos[i] = {"final_scores": more[i]["final_scores"],
                            "terminal_observation": more[i]["final_observation"],
                            "TimeLimit.truncated": bool(truncated[i])}
            return obs, rewards, done, infos

        def action_masks(self) -> np.ndarray:
            return self.core.masks.copy()

        def close(self) -> None:
            pass

        def get_attr(self, attr_name, indices=None):
            return [getattr(self, attr_name)] * len(self._indices(indices))

        def set_attr(self, attr_name, value, indices=None):
            setattr(self, attr_name, value)

        def env_method(self, method_name, *args, indices=None, **kwargs):
            if method_name == "action_masks":
                return list(self.core.masks[self._indices(indices)])
            raise AttributeError(f"LearnerVecEnv has no per-game method {method_name!r}")

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False] * len(self._indices(indices))

        def seed(self, seed=None):
            self._next_seed = seed
            return [seed] * self.num_envs

        def _indices(self, indices):
            if indices is None:
                return list(range(self.num_envs))
            return [indices] if isinstance(indices, int) else list(indices)

    return LearnerVecEnv()
