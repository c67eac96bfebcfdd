"""The `hostile_takeover` action catalogue (integers for the env, AGT-1)."""
from __future__ import annotations

from ..actions import Kind
from ..catalogue import Span, deck_types, fields, other_seats, register_catalogue
from .shared import MUTA_FLAG
from .textcards import (NUM_TEXTS, TXT_CHEMIEKEULE, TXT_EXTRA_HARVEST, TXT_EXTRAKARTE, TXT_JOKER, TXT_PIRATE,
                        TXT_PLAY_AT_END, TXT_SAMENHANDEL, TXT_SEVEN, TXT_SWAP_FIELDS, TXT_SWAP_HANDS)


def takeover_catalogue(rules) -> list[Span]:
    """Spans of `hostile_takeover`. HT_ATTACK's target seat is seat-relative; the seat inside
    HT_TEXT parameters (TXT-1: ``9 * seat + 3 * field + field``, TXT-5: ``seat``) is absolute."""
    types, n, f = deck_types(rules), rules.config["num_players"], fields()
    texts = tuple(range(NUM_TEXTS))
    return [
        Span(Kind.HT_END_TURN),
        Span(Kind.PASS),
        Span(Kind.DONE),
        Span(Kind.HT_PLAY, f, types + tuple(t + MUTA_FLAG for t in types)),
        Span(Kind.HT_ADD, types),
        Span(Kind.HT_CONFIRM),
        Span(Kind.HT_MERGE, f, f),
        Span(Kind.HT_MERGE_MUTA, f, f),
        Span(Kind.HT_TURN_UP),
        Span(Kind.HT_PLACE, f),
        Span(Kind.HT_HARVEST, f),
        Span(Kind.HT_ATTACK, other_seats(n), tuple(range(9)), seat=True),
        Span(Kind.HT_MODIFY, tuple(c for c in texts if c != TXT_CHEMIEKEULE)),
        Span(Kind.HT_MODIFY, (TXT_CHEMIEKEULE,), f),
        Span(Kind.HT_DEFEND, texts),
        Span(Kind.HT_NO_DEFENCE),
        Span(Kind.HT_OVERRIDE),
        Span(Kind.HT_GIVE_UP),
        Span(Kind.HT_TEXT, (TXT_SWAP_FIELDS,), tuple(range(9 * n))),
        Span(Kind.HT_TEXT, (TXT_EXTRAKARTE, TXT_PLAY_AT_END, TXT_SAMENHANDEL, TXT_SEVEN)),
        Span(Kind.HT_TEXT, (TXT_SWAP_HANDS,), tuple(range(n))),
        Span(Kind.HT_TEXT, (TXT_JOKER, TXT_PIRATE, TXT_EXTRA_HARVEST), f),
        Span(Kind.HT_SHOW, types),
        Span(Kind.HT_COIN, types),
        Span(Kind.HT_REDRAW),
        Span(Kind.HT_KEEP_SHOWN),
        Span(Kind.HT_FINAL, f),
    ]


register_catalogue("hostile_takeover", takeover_catalogue)
