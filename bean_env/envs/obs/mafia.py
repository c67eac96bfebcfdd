"""Blocks of the mafia variants (`al_cabohne`, `bean_solitaire`, MAF-*): the mafia's fields and treasury."""
from __future__ import annotations

from ...cards import coins_for
from .common import COIN_CAP, FIELD_CAP, discard_runs_block
from .core import Block, Context, put

MAFIA_DECISIONS = ("leftovers", "yield", "plant", "plant_optional", "turn_up", "place", "fill", "game_over")
BOSS_NAMES = ("Al", "Don", "Joe")
WORTH_CAP = 4  # coins a field can be worth (the highest beanometer step)


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
    """The top of the discard pile, the mafia's fields and treasury (INFO-1)."""
    nb, t = ctx.rules.bosses, ctx.t
    return [discard_runs_block(ctx),
            Block("mafia", nb * (t + 2) + 2, ([1.0] * t + [float(FIELD_CAP), float(WORTH_CAP)]) * nb
                  + [float(COIN_CAP), 2.0],
                  f"per boss ({', '.join(BOSS_NAMES[:nb])}): one-hot type slot, card count (/ {FIELD_CAP}, "
                  f"capped), coins the field is worth now (/ {WORTH_CAP}); then the mafia treasury (coins, "
                  f"/ {COIN_CAP}, capped) and the hand cards planted this turn (/ 2)", _w_mafia, clip=True)]
