"""PettingZoo AEC env of `bean_solitaire` (MAF-*), 1 player against the bean mafia.

Also a single-agent gymnasium env: ``gymnasium.make("bean_env/BeanSolitaire-v1")`` (with
``action_masks()`` for MaskablePPO). Observation blocks are shared with `al_cabohne`
(``bean_env.envs.obs.mafia``).

Rewards: ``"win"``: +1 for a win (score > 0), 0 for a draw, -1 for a loss (MAF-13); ``"score"`` and
``"margin"``: the score, player coins - 2 x mafia coins.
"""
from __future__ import annotations

from ..engine.game import Game
from .aec import BeanAECEnv, make_env_fn


class raw_env(BeanAECEnv):
    """The raw AEC env of `bean_solitaire` (no wrappers)."""

    variant = "bean_solitaire"
    metadata = dict(BeanAECEnv.metadata, name="bean_solitaire_v1")

    def win_rewards(self, game: Game) -> list[float]:
        score = game.scores()[0]
        return [1.0 if score > 0 else (0.0 if score == 0 else -1.0)]


env = make_env_fn(raw_env)
