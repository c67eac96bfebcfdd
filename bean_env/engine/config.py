"""Rule options per variant, validated (a bad key or value raises ``ValueError`` naming it)."""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    allowed: str                       # human description of the allowed values
    check: Callable[[Any], bool]
    doc: str


def _choice(*values):
    """Exactly one of ``values``, type included (``2.0`` and ``True`` are not ``2`` and ``1``)."""
    return lambda v: any(v == x and type(v) is type(x) for x in values)


def _normalise(value: Any) -> Any:
    """Integers of any integral type (numpy's too) become ``int``; bools and the rest stay as given."""
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return int(value)
    return value


def _int_range(lo, hi=None):
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= lo and (hi is None or v <= hi)


def _bool(v) -> bool:
    return isinstance(v, bool)


def _none_or(check):
    return lambda v: v is None or check(v)


# Trade presets: named sets of trading options (``trade_preset``). Options given explicitly win over
# the preset's values (docs/rules-decisions.md, "Trading controls"). "learning": only the active player
# proposes, one whole offer a turn (short games, little trading); "learning2": every seat has a slot for
# one whole offer in each of two rounds a turn (games still short, as many trades as the printed rules).
TRADE_PRESETS: dict[str, dict[str, Any]] = {
    "learning": {"max_offer_cards": 2, "offer_actions": "macro", "proposals": "active_only",
                 "max_trade_rounds": 1},
    "learning2": {"max_offer_cards": 2, "offer_actions": "macro", "proposals": "all",
                  "max_trade_rounds": 2},
}
MACRO_MAX_CARDS = 2  # offer_actions="macro" enumerates offers of at most this many cards per side


OPTIONS: dict[str, dict[str, Option]] = {}


def register_options(variant: str, *options: Option) -> None:
    OPTIONS[variant] = {o.name: o for o in options}


register_options(
    "bohnanza",
    Option("edition", "german", "'german' or 'english'", _choice("german", "english"),
           "BASE-1: German (104 cards, 3-5 players) or English (154 cards, 3-7 players) edition"),
    Option("num_players", 4, "3-5 (german) or 3-7 (english)", _int_range(3, 7), "number of players"),
    Option("max_trade_rounds", 4, "a whole number >= 0", _int_range(0),
           "TRADE-6: trading rounds per turn; 0 disables trading"),
    Option("allow_duplicate_fields", True, "True or False", _bool,
           "COM-3: may two fields of one player grow the same type"),
    Option("max_offer_cards", None, "None (no cap) or a whole number >= 1", _none_or(_int_range(1)),
           "TRADE-2: at most this many cards given and at most this many wanted in one offer"),
    Option("offer_actions", "composed", "'composed' or 'macro'", _choice("composed", "macro"),
           "AGT-2: 'composed' builds an offer card by card; 'macro': each offer (by types, within "
           "max_offer_cards <= 2) is one action"),
    Option("proposals", "all", "'all' or 'active_only'", _choice("all", "active_only"),
           "TRADE-3: who makes offers: every player in turn, or only the active player"),
    Option("trade_preset", None, "None or " + " or ".join(repr(k) for k in TRADE_PRESETS),
           _none_or(_choice(*TRADE_PRESETS)),
           "a named set of the trading options above (explicit options win)"),
)
register_options(
    "bean_duel",
    Option("num_players", 2, "2", _choice(2), "Bean Duel is for exactly 2 players"),
    Option("allow_duplicate_fields", True, "True or False", _bool,
           "COM-3: may two fields of one player grow the same type"),
)
register_options(
    "al_cabohne",
    Option("num_players", 2, "2", _choice(2), "Al Cabohne is for exactly 2 players (MAF-3)"),
)
register_options(
    "bean_solitaire",
    Option("num_players", 1, "1", _choice(1), "Bean Solitaire is for exactly 1 player (MAF-4)"),
)
register_options(
    "hostile_takeover",
    Option("num_players", 4, "2-5", _int_range(2, 5), "HT: 2-5 players"),
    Option("max_actions_per_turn", 200, "a whole number >= 1", _int_range(1),
           "HT-17: top-level actions of the active player per turn before only 'end turn' is legal"),
    Option("max_turns", 400, "a whole number >= 1", _int_range(1),
           "HT-17: turns before the game stops as a truncation without a result"),
)


def validate(variant: str, config: dict) -> dict:
    """Fill defaults and check every key and value; returns the full config."""
    from . import VARIANTS  # late import: the registry lives in the package

    if variant not in OPTIONS:
        raise ValueError(f"unknown variant {variant!r}; allowed values: {', '.join(VARIANTS)}")
    options = OPTIONS[variant]
    for key in config:
        if key not in options:
            raise ValueError(f"unknown option {key!r} for variant {variant!r}; "
                             f"allowed options: {', '.join(options)}")
    named = config.get("trade_preset") if "trade_preset" in options else None
    preset = TRADE_PRESETS.get(named, {}) if isinstance(named, str) else {}
    full = {}
    for name, opt in options.items():
        value = _normalise(config.get(name, preset.get(name, opt.default)))
        if not opt.check(value):
            raise ValueError(f"bad value {value!r} for option {name!r} of {variant!r}; allowed: {opt.allowed}")
        full[name] = value
    if variant == "bohnanza" and full["edition"] == "german" and full["num_players"] > 5:
        raise ValueError(f"bad value {full['num_players']!r} for option 'num_players' of 'bohnanza' with "
                         "edition 'german'; allowed: 3-5 (use edition='english' for 6-7 players)")
    if full.get("offer_actions") == "macro" and (full["max_offer_cards"] is None
                                                 or full["max_offer_cards"] > MACRO_MAX_CARDS):
        raise ValueError(f"bad value 'macro' for option 'offer_actions' of {variant!r} with max_offer_cards="
                         f"{full['max_offer_cards']!r}; allowed: 'macro' only with max_offer_cards 1 to "
                         f"{MACRO_MAX_CARDS}")
    return full
