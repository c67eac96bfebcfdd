"""Typed engine actions: one vocabulary for every variant.

An action is a small immutable tuple ``(kind, a, b)``. Each kind's comment gives the meaning of ``a``
and ``b`` (unused ones are 0). Fields and hand positions are 0-based inside the engine and printed
1-based by ``str()``; players are seat numbers; bean types are codes of ``bean_env.cards``.
Actions are hashable and compare by value, so ``action in game.legal_actions()`` works, and they
serialise to JSON as ``[kind, a, b]``.
"""
from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from ..cards import NAMES

ALL = 15  # OFFER target meaning "all other players" (larger than any seat)


class Kind(IntEnum):
    PLANT = 0          # a = field: plant the front hand card there
    PLANT_CARD = 1     # a = type, b = field: plant a card to plant / face-up card of that type
    HARVEST = 2        # a = field: harvest and sell it (free action)
    BUY_FIELD = 3      # buy the 3rd field (free action)
    STOP_PLANTING = 4  # do not plant the next hand card
    DONE = 5           # end the current optional step (harvest window, face-up planting, placements)
    PASS = 6           # make no offer in this trading round
    END_TRADING = 7    # the active player ends trading (TRADE-3)
    KEEP = 8           # a = type: keep a trade-area card of that type (into cards to plant)
    OFFER = 9          # a = seat or ALL: start building an offer to that addressee
    GIVE_HAND = 10     # a = hand position: add that hand card to the offer / give it at execution
    GIVE_TRADE = 11    # a = type: add a trade-area card of that type / give it at execution
    WANT = 12          # a = type: add one card of that type to the offer's want
    SUBMIT = 13        # make the offer that was built
    CANCEL = 14        # withdraw the offer being built (counts as a pass) or the acceptor choice
    ACCEPT = 15        # accept the offer addressed to you
    DECLINE = 16       # decline it
    PICK = 17          # a = seat: trade with this acceptor
    DISCARD = 18       # a = type: put a face-up card of that type on the discard pile
    DISCARD_HAND = 19  # a = hand position: discard that hand card
    KEEP_HAND = 20     # discard nothing from hand (Duel step 2)
    TURN_UP = 21       # continue: turn up the cards of this step
    GIVE_MAFIA = 22    # a = hand position, b = boss: give a hand card to the mafia
    PLACE_STACK = 23   # a = type, b = target (field, or 3 + boss): place a whole face-up stack
    CONTINUE = 24      # go on to the next step of the turn
    OFFER_CARDS = 25   # a = seat or ALL, b = pack_offer(give types, want types): a whole offer (macro)
    # hostile_takeover (HT-*, TXT-*); hand cards are named by type (HT-3), text cards by code 0..17
    HT_END_TURN = 40   # the active player ends the turn (HT-4)
    HT_PLAY = 41       # a = field, b = type (+ 16: with Mutabohne, TXT-8): start action a) with one card
    HT_ADD = 42        # a = type: put one more hand card of that type into the play being built
    HT_CONFIRM = 44    # carry out the composite action being built
    HT_MERGE = 45      # a = field moved, b = field it goes onto: action b) (HT-8)
    HT_MERGE_MUTA = 46  # a, b as HT_MERGE, with Mutabohne (TXT-8)
    HT_TURN_UP = 47    # action c): turn up the top deck card (HT-9)
    HT_PLACE = 48      # a = field: put the turned-up card on that empty field
    HT_HARVEST = 49    # a = field: start action d) (or its copy) on that field (HT-10)
    HT_ATTACK = 50     # a = target seat, b = 3 * own field + target field: start action e) (HT-11)
    HT_MODIFY = 51     # a = text card, b = field (Chemiekeule) or 0: add a text card to the action built
    HT_DEFEND = 52     # a = text card: lay it as defence on the attacked field (HT-12)
    HT_NO_DEFENCE = 53  # do not defend
    HT_OVERRIDE = 54   # play Starke Uebernahme after a defence (TXT-16)
    HT_GIVE_UP = 55    # accept the defence
    HT_TEXT = 56       # a = text card, b = its parameter: play a text card not tied to an action
    HT_SHOW = 57       # a = type: show a hand card of that type (Samenhandel, TXT-14)
    HT_COIN = 58       # a = type: the shown card that becomes a coin (TXT-14)
    HT_REDRAW = 59     # discard the other four shown cards and draw five (TXT-14)
    HT_KEEP_SHOWN = 60  # keep the other four shown cards (TXT-14)
    HT_FINAL = 61      # a = field: harvest that field in the final harvest (HT-19)


class Action(NamedTuple):
    kind: int
    a: int = 0
    b: int = 0

    def __str__(self) -> str:
        return describe(self)

    def to_json(self) -> list:
        return [int(self.kind), self.a, self.b]

    @classmethod
    def from_json(cls, data) -> "Action":
        return cls(int(data[0]), int(data[1]), int(data[2]))


def _who(seat: int) -> str:
    return "all" if seat == ALL else f"player {seat}"


# -- whole offers (Kind.OFFER_CARDS) -------------------------------------------------------------
# ``b`` packs the given and the wanted types of an offer, each side sorted and at most OFFER_SLOTS cards:
# 4 bits per card slot (a type code < 15), unused slots NO_CARD; the given side in the low 12 bits.
OFFER_SLOTS = 3
NO_CARD = 15
_SIDE_BITS = 4 * OFFER_SLOTS


def pack_side(types) -> int:
    """The 12-bit code of one side of an offer (``types`` sorted, at most OFFER_SLOTS of them)."""
    code = 0
    for i in range(OFFER_SLOTS):
        code |= (types[i] if i < len(types) else NO_CARD) << (4 * i)
    return code


def pack_offer(give, want) -> int:
    """``b`` of an ``OFFER_CARDS`` action giving the types ``give`` for the types ``want``."""
    return pack_side(sorted(give)) | (pack_side(sorted(want)) << _SIDE_BITS)


def unpack_offer(b: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(given types, wanted types) of an ``OFFER_CARDS`` action's ``b``."""
    sides = []
    for code in (b & ((1 << _SIDE_BITS) - 1), b >> _SIDE_BITS):
        cards = tuple((code >> (4 * i)) & 15 for i in range(OFFER_SLOTS))
        sides.append(tuple(t for t in cards if t != NO_CARD))
    return sides[0], sides[1]


def _offer_text(a: int, b: int) -> str:
    give, want = unpack_offer(b)
    side = lambda types: " + ".join(NAMES[t] for t in types) or "nothing"  # noqa: E731
    return f"offer {side(give)} for {side(want)} to {_who(a)}"


_TEXT = {
    Kind.PLANT: lambda a, b: f"plant field {a + 1}",
    Kind.PLANT_CARD: lambda a, b: f"plant {NAMES[a]} on field {b + 1}",
    Kind.HARVEST: lambda a, b: f"harvest field {a + 1}",
    Kind.BUY_FIELD: lambda a, b: "buy 3rd field",
    Kind.STOP_PLANTING: lambda a, b: "stop planting",
    Kind.DONE: lambda a, b: "done",
    Kind.PASS: lambda a, b: "pass",
    Kind.END_TRADING: lambda a, b: "end trading",
    Kind.KEEP: lambda a, b: f"keep {NAMES[a]}",
    Kind.OFFER: lambda a, b: f"offer to {_who(a)}",
    Kind.GIVE_HAND: lambda a, b: f"give hand card {a + 1}",
    Kind.GIVE_TRADE: lambda a, b: f"give trade-area {NAMES[a]}",
    Kind.WANT: lambda a, b: f"want {NAMES[a]}",
    Kind.SUBMIT: lambda a, b: "submit offer",
    Kind.CANCEL: lambda a, b: "cancel",
    Kind.ACCEPT: lambda a, b: "accept",
    Kind.DECLINE: lambda a, b: "decline",
    Kind.PICK: lambda a, b: f"trade with player {a}",
    Kind.DISCARD: lambda a, b: f"discard {NAMES[a]}",
    Kind.DISCARD_HAND: lambda a, b: f"discard hand card {a + 1}",
    Kind.KEEP_HAND: lambda a, b: "discard nothing",
    Kind.TURN_UP: lambda a, b: "turn up",
    Kind.GIVE_MAFIA: lambda a, b: f"give hand card {a + 1} to boss {b}",
    Kind.PLACE_STACK: lambda a, b: (f"place {NAMES[a]} stack on field {b + 1}" if b < 3
                                    else f"place {NAMES[a]} stack on boss {b - 3}"),
    Kind.CONTINUE: lambda a, b: "continue",
    Kind.OFFER_CARDS: _offer_text,
    Kind.HT_END_TURN: lambda a, b: "end turn",
    Kind.HT_PLAY: lambda a, b: f"play {NAMES[b % 16]} onto field {a + 1}" + (" with Mutabohne" if b >= 16 else ""),
    Kind.HT_ADD: lambda a, b: f"add {NAMES[a]}",
    Kind.HT_CONFIRM: lambda a, b: "confirm",
    Kind.HT_MERGE: lambda a, b: f"merge field {a + 1} onto field {b + 1}",
    Kind.HT_MERGE_MUTA: lambda a, b: f"merge field {a + 1} onto field {b + 1} with Mutabohne",
    Kind.HT_TURN_UP: lambda a, b: "turn up a card",
    Kind.HT_PLACE: lambda a, b: f"place it on field {a + 1}",
    Kind.HT_HARVEST: lambda a, b: f"harvest field {a + 1}",
    Kind.HT_ATTACK: lambda a, b: f"attack player {a} field {b % 3 + 1} with field {b // 3 + 1}",
    Kind.HT_MODIFY: lambda a, b: _text_name(a) + (f" with field {b + 1}" if a == 1 else ""),
    Kind.HT_DEFEND: lambda a, b: f"defend with {_text_name(a)}",
    Kind.HT_NO_DEFENCE: lambda a, b: "no defence",
    Kind.HT_OVERRIDE: lambda a, b: "play Starke Uebernahme",
    Kind.HT_GIVE_UP: lambda a, b: "accept the defence",
    Kind.HT_TEXT: lambda a, b: _text_play(a, b),
    Kind.HT_SHOW: lambda a, b: f"show {NAMES[a]}",
    Kind.HT_COIN: lambda a, b: f"{NAMES[a]} becomes a coin",
    Kind.HT_REDRAW: lambda a, b: "discard four, draw five",
    Kind.HT_KEEP_SHOWN: lambda a, b: "keep the shown cards",
    Kind.HT_FINAL: lambda a, b: f"final harvest field {a + 1}",
}


# Text cards of hostile_takeover (TXT-1..18 are codes 0..17); names as printed on the German cards.
TEXT_NAMES: tuple[str, ...] = (
    "Bohnenfelder tauschen", "Chemiekeule", "Extrakarte", "Handkarten ausspielen bei Spielende",
    "Handkarten tauschen", "Jokerbohne", "Maechtiges Bohnenfeld", "Mutabohne", "Piratenangriff",
    "Pizza Bohnbastica", "Pizza Bohnotoni", "Pizza Calzbohne", "Pizza Diabohno", "Samenhandel",
    "Sieben neue Handkarten", "Starke Uebernahme", "Variables Bohnenfeld", "Zusaetzliche Ernte",
)


def _text_name(code: int) -> str:
    return TEXT_NAMES[code]


def _text_play(code: int, b: int) -> str:
    """str() of HT_TEXT: the card and its parameter (see takeover.py for the encoding)."""
    name = TEXT_NAMES[code]
    if code == 0:
        return f"{name}: player {b // 9} fields {b // 3 % 3 + 1} and {b % 3 + 1}"
    if code == 4:
        return f"{name} with player {b}"
    if code in (5, 8, 17):
        return f"{name} on field {b + 1}"
    return name


_HIDDEN_TEXT = {Kind.HT_DEFEND: "defend with a face-down text card", Kind.GIVE_HAND: "give a hand card"}


_DESCRIBED: dict = {}  # action -> its text: a text interface lists thousands of whole offers per decision
_DESCRIBED_MAX = 1 << 17


def describe(action: Action) -> str:
    """Readable text of an action, e.g. ``plant field 2``."""
    text = _DESCRIBED.get(action)
    if text is not None:
        return text
    if action.a == -1 and action.kind in _HIDDEN_TEXT:  # a part masked in a player's view (views.HIDDEN_PART)
        text = _HIDDEN_TEXT[action.kind]
    else:
        try:
            text = _TEXT[Kind(action.kind)](action.a, action.b)
        except (ValueError, KeyError, IndexError):
            return f"<unknown action {tuple(action)}>"
    if len(_DESCRIBED) >= _DESCRIBED_MAX:  # only made-up actions get this far
        _DESCRIBED.clear()
    _DESCRIBED[action] = text
    return text


# Shorthand constructors used by the rules modules and tests.
def plant(field: int) -> Action: return Action(Kind.PLANT, field)
def plant_card(bean: int, field: int) -> Action: return Action(Kind.PLANT_CARD, bean, field)
def harvest(field: int) -> Action: return Action(Kind.HARVEST, field)


BUY_FIELD = Action(Kind.BUY_FIELD)
STOP_PLANTING = Action(Kind.STOP_PLANTING)
DONE = Action(Kind.DONE)
PASS = Action(Kind.PASS)
END_TRADING = Action(Kind.END_TRADING)
SUBMIT = Action(Kind.SUBMIT)
CANCEL = Action(Kind.CANCEL)
ACCEPT = Action(Kind.ACCEPT)
DECLINE = Action(Kind.DECLINE)
KEEP_HAND = Action(Kind.KEEP_HAND)
TURN_UP = Action(Kind.TURN_UP)
CONTINUE = Action(Kind.CONTINUE)
