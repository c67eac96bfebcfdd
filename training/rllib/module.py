"""An action-masking PPO RLModule for RLlib's current API (``DefaultPPOTorchRLModule``).

Observations are dicts ``{"observations": vector, "action_mask": 0/1 floats}``. The encoder and heads see
the vector only; the mask sets the logits of illegal actions to a huge negative number in every forward
pass (exploration, inference and training), so the sampled and the trained distributions are the same
masked one. The value function ignores the mask.
"""
from __future__ import annotations

from typing import Any

import gymnasium as gym
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

MASK_KEY, OBS_KEY = "action_mask", "observations"
MASKED_LOGIT = -1e8


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """``DefaultPPOTorchRLModule`` over the ``observations`` entry, with the ``action_mask`` applied."""

    def __init__(self, *args: Any, observation_space: gym.Space | None = None, **kwargs: Any):
        if not isinstance(observation_space, gym.spaces.Dict) or set(observation_space.spaces) != {OBS_KEY, MASK_KEY}:
            raise ValueError(f"MaskedPPOTorchRLModule needs a Dict observation space with keys {OBS_KEY!r} "
                             f"and {MASK_KEY!r}, got {observation_space}")
        self._full_space = observation_space
        super().__init__(*args, observation_space=observation_space[OBS_KEY], **kwargs)

    def setup(self):
        super().setup()
        self.observation_space = self._full_space  # what the env runners and connectors see

    @staticmethod
    def _split(batch: dict) -> tuple[torch.Tensor | None, dict]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):
            return None, batch
        inner = dict(batch)
        inner[Columns.OBS] = obs[OBS_KEY]
        return obs[MASK_KEY], inner

    @staticmethod
    def _mask(out: dict, mask: torch.Tensor | None) -> dict:
        if mask is not None:
            logits = out[Columns.ACTION_DIST_INPUTS]
            out[Columns.ACTION_DIST_INPUTS] = torch.where(mask > 0.5, logits, torch.full_like(logits, MASKED_LOGIT))
        return out

    def _forward(self, batch: dict, **kwargs: Any) -> dict:
        mask, inner = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict, **kwargs: Any) -> dict:
        mask, inner = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict, embeddings: Any = None):
        _, inner = self._split(batch)
        return super().compute_values(inner, embeddings)
