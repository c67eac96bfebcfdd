"""PettingZoo AEC env of `al_cabohne` (MAF-*), 2 players against the bean mafia.

``env(reward_mode="win", auto_forced=True, ...)``; the mafia is not an agent. Options, spaces and the
observation layout: ``bean_env.envs.aec`` and ``docs/variants/al_cabohne.md``; the observation
blocks of both mafia variants are in ``bean_env.envs.obs.mafia``.

Rewards: ``"win"``: +1/k to each of k seats that beat the mafia and rank best (MAF-13), -1 to every
other seat (all -1 when the mafia wins); ``"score"``: own coins; ``"margin"``: own coins minus the best
of the other player's coins and the mafia's treasury.
"""
from __future__ import annotations

from ..engine.game import Game
from .aec import BeanAECEnv, make_env_fn


class raw_env(BeanAECEnv):
    """The raw AEC env of `al_cabohne` (no wrappers)."""

    variant = "al_cabohne"
    metadata = dict(BeanAECEnv.metadata, name="al_cabohne_v1")

    def margin_rewards(self, game: Game) -> list[float]:
        """Own coins minus the best of the other player's coins and the mafia's treasury."""
        sc = game.scores()
        mafia = game.mafia_score()
        return [float(sc[p] - max([mafia] + [sc[q] for q in range(len(sc)) if q != p])) for p in range(len(sc))]


env = make_env_fn(raw_env)
