"""PettingZoo AEC env of `al_cabohne` (MAF-*), 2 players against the bean mafia.

``env(reward_mode="win", auto_forced=True, ...)``; the mafia is not an agent. Options, spaces and the
observation layout: ``bean_env.envs.aec`` and ``docs/envs.md`` ("Mafia variants"). This module also
declares the observation blocks of both mafia variants (``mafia_blocks``).

Rewards: ``"win"``: +1/k to each of k seats that beat the mafia and rank best (MAF-13), -1 to every
other seat (all -1 when the mafia wins); ``"score"``: own coins; ``"margin"``: own coins minus the best
of the other player's coins and the mafia's treasury.
"""
from __future__ import annotations

from ..cards import coins_for
from ..engine.game import Game
from .aec import BeanAECEnv, make_env_fn
from .observation import Block, Context, put, register_observation

MAFIA_DECISIONS = ("leftovers", "yield", "plant", "plant_optional", "turn_up", "place", "fill", "game_over")


def _w_mafia(ctx, s, me, base, ix, vx):
    """Per boss: one-hot type slot, card count, coins the field is worth now; then the treasury and
    the hand cards planted this turn."""
    t, tslot = ctx.t, ctx.tslot
    nb = len(s.btype)
    for b in range(nb):
        c = s.bcount[b]
        if c:
            at = base + b * (t + 2)
            bean = s.btype[b]
            ix.append(at + tslot[bean])
            vx.append(1.0)
            ix.append(at + t)
            vx.append(float(c))
            put(ix, vx, at + t + 1, coins_for(bean, c))
    at = base + nb * (t + 2)
    put(ix, vx, at, len(s.treasury))
    put(ix, vx, at + 1, s.planted)


def mafia_blocks(ctx: Context) -> list[Block]:
    """The mafia's fields and treasury (INFO-1), appended after the common blocks."""
    nb = ctx.rules.bosses
    return [Block("mafia", nb * (ctx.t + 2) + 2, float(ctx.cards),
                  f"per boss ({', '.join(('Al', 'Don', 'Joe')[:nb])}): one-hot type slot, card count, coins "
                  "the field is worth now; then the mafia treasury (coins) and the hand cards planted this turn",
                  _w_mafia)]


register_observation("al_cabohne", MAFIA_DECISIONS, mafia_blocks)
register_observation("bean_solitaire", MAFIA_DECISIONS, mafia_blocks)


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
