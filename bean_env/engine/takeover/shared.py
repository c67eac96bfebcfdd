"""Shared pieces of the `hostile_takeover` rules modules: the extra state attributes, action constants
and small helpers (terms: see ``rules``)."""
from __future__ import annotations

from bisect import bisect_left

from ..actions import Action, Kind
from ..state import State
from .textcards import PIZZAS, TXT_CHEMIEKEULE, TXT_MIGHTY, TXT_MUTA, TXT_STRONG, TXT_VARIABLE

HIDDEN = -2      # a defence card whose identity the viewer does not know (masked states only)
MUTA_FLAG = 16   # HT_PLAY b = type + MUTA_FLAG: the play uses Mutabohne (TXT-8)
HAND_LIMIT = 5   # HT-5 draw up to five
ALL_BITS = (1 << 16) - 1

END_TURN = Action(Kind.HT_END_TURN)
CONFIRM = Action(Kind.HT_CONFIRM)
TURN_UP = Action(Kind.HT_TURN_UP)
NO_DEFENCE = Action(Kind.HT_NO_DEFENCE)
OVERRIDE = Action(Kind.HT_OVERRIDE)
GIVE_UP = Action(Kind.HT_GIVE_UP)
REDRAW = Action(Kind.HT_REDRAW)
KEEP_SHOWN = Action(Kind.HT_KEEP_SHOWN)
PASS = Action(Kind.PASS)
DONE = Action(Kind.DONE)

# Text cards never played on their own (they modify a regular action, HT-16, or open the final harvest).
TIED = {TXT_CHEMIEKEULE, TXT_MIGHTY, TXT_MUTA, TXT_STRONG, TXT_VARIABLE, *PIZZAS}


def has_card(sorted_hand: list[int], card: int) -> bool:
    """Whether the sorted hand holds a card of type ``card``."""
    k = bisect_left(sorted_hand, card)
    return k < len(sorted_hand) and sorted_hand[k] == card


def init_fields(s: State) -> None:
    """Add the takeover attributes to a fresh state (flat lists; State.clone copies them)."""
    n = s.n
    s.piles = [[] for _ in range(3 * n)]
    s.joker = -1
    s.guard = [-1] * (3 * n)
    s.texts = [[] for _ in range(n)]
    s.tdeck, s.tdiscard = [], []
    s.bonus = [0] * n
    s.harvested = 0
    s.acts = 0
    s.final = 0
    s.fin_order, s.fin_open = [], 0
    s.ctx, s.owner = "turn", 0
    s.cf, s.ctype, s.ccount, s.cmuta, s.ctarget, s.ckind, s.cchem_type = -1, -1, 0, 0, -1, "", -1
    s.cmods = []
    s.shown = []
    s.cp_leader, s.cp_kind, s.cp_queue, s.cp_ret, s.cp_quota, s.cp_took = -1, "", [], "", 0, []
