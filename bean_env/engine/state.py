"""The game state: a flat record of ints and short int lists, and its JSON form.

Terms:
- *seat*: players are seats ``0..n-1``; clockwise is increasing seat number mod n.
- *hand*: an ordered queue of type codes, front = index 0 (COM-1). ``known[p][i]`` is a bitmask of the
  seats that know the identity of ``hands[p][i]`` (the owner always; everyone once it was shown).
- *field*: fields are flat over seats: field ``f`` of seat ``p`` is index ``p * 3 + f`` in ``ftype``
  (type code, -1 when empty) and ``fcount`` (cards on it). ``nfields[p]`` is 2 or 3.
- *coins*: a stack of the harvested cards that became coins (top = last); the score is its length.
- *deck*, *discard*: top = last element. *face_up*: the trade area / face-up stacks (order irrelevant).
- *to_plant*: per seat, the public cards that seat must plant (multiset).
- *decision*: the short name of the current decision point; ``actor`` is the seat that decides.
Variant modules keep any extra data in ``ext`` (JSON-able values only).
"""
from __future__ import annotations

import json
import random

EMPTY = -1


class State:
    """Mutable game state. Rules modules change it; ``Game`` guards it."""

    def __init__(self, variant: str, config: dict, seed: int, num_players: int):
        n = num_players
        self.variant = variant
        self.config = dict(config)
        self.seed = seed
        self.shuffles = 0          # shuffles made so far; each one draws its own generator
        self.n = n
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.removed: list[int] = []   # out of the game (Duel field payments, player-count removals)
        self.set_aside: list[int] = []  # shuffled into the next new deck (mafia 3rd-field coins)
        self.face_up: list[int] = []
        self.runouts = 0
        self.limit = 3
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.known: list[list[int]] = [[] for _ in range(n)]
        self.ftype: list[int] = [EMPTY] * (3 * n)
        self.fcount: list[int] = [0] * (3 * n)
        self.nfields: list[int] = [2] * n
        self.coins: list[list[int]] = [[] for _ in range(n)]
        self.to_plant: list[list[int]] = [[] for _ in range(n)]
        self.dealer = 0
        self.active = 0
        self.actor = 0
        self.decision = "start"
        self.turn = 0
        self.planted = 0            # hand cards planted in this turn's planting step
        self.end_pending = False    # the game-end run-out happened; finish the phase, then end
        self.over = False
        self.window: list[int] = []  # seats still to act in a harvest window (BASE-9)
        self.window_next = ""
        self.pt = 0                 # plant-traded: offset of the seat now planting
        # trading (TRADE-*): round, slot offset from the active seat, any offer made this round
        self.t_round = 0
        self.t_slot = 0
        self.t_any = False
        self.o_prop = EMPTY         # proposer of the offer being built or answered
        self.o_to = EMPTY           # addressee seat, or actions.ALL
        self.o_hand: list[int] = []   # given hand positions (increasing)
        self.o_trade: list[int] = []  # given trade-area types
        self.o_want: list[int] = []   # wanted types (non-decreasing)
        self.o_pending: list[int] = []  # addressees still to respond
        self.o_accept: list[int] = []   # addressees who accepted
        self.x_want: list[int] = []     # wanted types still to be chosen at execution
        self.x_hand: list[int] = []     # giver's chosen hand positions
        self.x_trade: list[int] = []    # giver's chosen trade-area types
        self.x_partner = EMPTY          # the seat trading with the proposer
        self.made: list[list[list]] = [[] for _ in range(n)]  # offers per proposer since the last trade
        self.ext: dict = {}

    # -- copying and JSON -------------------------------------------------------------------
    def clone(self) -> "State":
        """An independent copy: lists of lists two levels deep, ``made`` and dicts (config, ext) at
        every level (``_copy``), without a JSON round trip."""
        src = self.__dict__
        d = src.copy()  # scalars (most attributes) are shared as they are
        for key, value in src.items():
            t = type(value)
            if t is list:
                if not value:
                    d[key] = []
                elif type(value[0]) is list:
                    d[key] = [x[:] if type(x) is list else x for x in value]
                else:
                    d[key] = value[:]
            elif t is dict:
                d[key] = _copy(value) if value else {}
        # `made` (offers made per proposer, TRADE-7) is nested deeper
        d["made"] = [_copy(per) if per else [] for per in self.made]
        new = State.__new__(State)
        new.__dict__ = d
        return new

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}

    @classmethod
    def from_dict(cls, data: dict) -> "State":
        new = cls.__new__(cls)
        new.__dict__.update(json.loads(json.dumps(data)))
        return new

    # -- helpers used by every rules module ---------------------------------------------------
    def rng(self) -> random.Random:
        """A fresh generator for the next shuffle, derived from the seed (COM-12)."""
        r = random.Random(f"bean_env/{self.seed}/{self.shuffles}")
        self.shuffles += 1
        return r

    def field_range(self, p: int) -> range:
        return range(p * 3, p * 3 + self.nfields[p])


# Random.shuffle draws each index through Random._randbelow (two Python calls per card); ``shuffle``
# makes the same draws inline, where this Python's Random draws indices that way (else it calls it).
_INLINE_SHUFFLE = getattr(random.Random, "_randbelow", None) is getattr(random.Random, "_randbelow_with_getrandbits",
                                                                         False)


_BITS = [n.bit_length() for n in range(256)]


def shuffle(r: random.Random, x: list) -> None:
    """``r.shuffle(x)``: the same permutation from the same draws of ``r``, faster."""
    if not _INLINE_SHUFFLE or type(r) is not random.Random:
        r.shuffle(x)
        return
    getrandbits = r.getrandbits
    bits = _BITS
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = bits[n] if n < 256 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _copy(value):
    """A copy of a JSON-like value (config, ext): dicts and lists copied at every level."""
    t = type(value)
    if t is dict:
        return {k: _copy(v) if type(v) in (dict, list) else v for k, v in value.items()}
    if t is list:
        return [_copy(x) if type(x) in (dict, list) else x for x in value]
    return value
