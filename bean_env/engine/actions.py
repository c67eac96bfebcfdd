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
}


def describe(action: Action) -> str:
    """Readable text of an action, e.g. ``plant field 2``."""
    try:
        return _TEXT[Kind(action.kind)](action.a, action.b)
    except (ValueError, KeyError, IndexError):
        return f"<unknown action {tuple(action)}>"


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
