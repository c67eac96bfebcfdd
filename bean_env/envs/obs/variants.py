"""Which blocks each variant's observation has (after the common blocks), declared once."""
from __future__ import annotations

from .common import discard_runs_block
from .core import Block, Context, put, register_observation
from .mafia import MAFIA_DECISIONS, mafia_blocks
from .memory import declare_trading
from .takeover import DECISIONS as TAKEOVER_DECISIONS, takeover_blocks
from .trading import bohnanza_blocks


def _w_duel(ctx, s, me, base, ix, vx):
    put(ix, vx, base, s.planted)


def duel_blocks(ctx: Context) -> list[Block]:
    return [discard_runs_block(ctx), Block("duel_state", 1, 2.0, "hand cards planted this turn (/ 2)", _w_duel)]


register_observation("bohnanza", ("plant", "plant_optional", "harvest_window", "offer", "compose", "respond",
                                  "pick", "choose_give", "plant_traded", "game_over"), bohnanza_blocks,
                     history_blocks=("negotiation",), remember=True)  # most steps are offers and answers
declare_trading("bohnanza")
register_observation("bean_duel", ("leftovers", "plant", "plant_optional", "discard_hand", "turn_up",
                                   "plant_face_up", "game_over"), duel_blocks)
register_observation("al_cabohne", MAFIA_DECISIONS, mafia_blocks)
register_observation("bean_solitaire", MAFIA_DECISIONS, mafia_blocks)
# hands have no order in hostile_takeover (HT-3): no positions, of mine or of others
register_observation("hostile_takeover", TAKEOVER_DECISIONS, takeover_blocks, hand_k=0, known_k=0)
