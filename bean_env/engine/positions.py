"""Exact positions for scenario tests and analyses.

``make_position`` builds a game in a chosen phase with the given hands, fields, coins, deck order,
discard pile, face-up cards and cards to plant, then runs the rules from the start of that phase::

    from bean_env.engine.positions import make_position
    game = make_position("bohnanza", num_players=3, active=0, phase="plant",
                         hands=[["blue", "chili"], ["soy"], []],
                         fields=[[("blue", 2), None], [], []],
                         deck=["red", "red", "garden"])     # top card first

Cards are bean type names. Every card of the variant's deck that the position does not place goes
under the given deck cards (shuffled by ``seed``), or out of play (``removed``) with
``fill_deck=False``, so card conservation holds for every position. Phases: see ``PHASES``.
"""
from __future__ import annotations

import random
from collections import Counter

from ..cards import CODE
from . import rules_for
from .config import validate
from .game import Game
from .state import EMPTY, State


def _codes(names, what: str) -> list[int]:
    out = []
    for n in names or ():
        if n not in CODE:
            raise ValueError(f"unknown bean type {n!r} in {what}; allowed: {', '.join(CODE)}")
        out.append(CODE[n])
    return out


def _bohnanza_phase(rules, s: State, phase: str) -> None:
    if phase == "plant":
        rules.start_turn(s)
    elif phase == "turn_up":
        s.planted = 2
        rules.begin_turn_up(s)
    elif phase == "trade":
        rules.begin_trading(s)
    elif phase == "plant_traded":
        rules.begin_plant_traded(s)
    elif phase == "draw":
        s.pt = s.n
        rules.next_planter(s)


def _duel_phase(rules, s: State, phase: str) -> None:
    if phase == "turn_start":
        rules.start_turn(s)
    elif phase == "turn_up":
        s.decision, s.actor = "turn_up", s.active
    elif phase == "plant_face_up":
        s.decision, s.actor = ("plant_face_up", s.active) if s.face_up else ("turn_up", s.active)
    elif phase == "draw":
        rules.finish_step3(s)


def _mafia_phase(rules, s: State, phase: str) -> None:
    if phase == "turn_start":
        rules.start_turn(s)
    elif phase == "plant":
        rules.begin_plant(s)
    elif phase == "turn_up":
        s.decision, s.actor = "turn_up", s.active
    elif phase == "place":
        rules.begin_place(s)
    elif phase == "draw":
        rules.end_step5(s)


_MAFIA_PHASES = (("turn_start", "plant", "turn_up", "place", "draw"), _mafia_phase)


def _takeover_phase(rules, s: State, phase: str) -> None:
    rules.enter_phase(s, phase)  # text cards as dealt; richer positions: engine/takeover/positions.py

# Phase name -> how the rules are entered. Mafia and takeover modules add their own.
PHASES = {
    "bohnanza": (("plant", "turn_up", "trade", "plant_traded", "draw"), _bohnanza_phase),
    "bean_duel": (("turn_start", "turn_up", "plant_face_up", "draw"), _duel_phase),
    "al_cabohne": _MAFIA_PHASES,
    "bean_solitaire": _MAFIA_PHASES,
    "hostile_takeover": (("turn",), _takeover_phase),
}


def make_position(variant: str, *, phase: str, active: int = 0, hands=None, fields=None, coins=None,
                  deck=None, discard=None, face_up=None, to_plant=None, nfields=None, runouts: int = 0,
                  seed: int = 0, fill_deck: bool = True, turn: int = 1, areas: dict | None = None,
                  **config) -> Game:
    """A game of ``variant`` set up exactly as given and entered at ``phase`` (see module docs).

    ``fields``: per seat, a list of ``(type, count)`` or None per field. ``coins``: per seat a list of
    type names (bottom to top), or an int meaning that many ``blue`` coins. ``nfields``: per seat
    2 or 3 (default: the variant's start). ``deck``: top card first. ``areas``: variant card places
    set by the rules' ``place_areas`` (mafia: ``{"bosses": [("chili", 3), None], "treasury": 2}``).
    """
    full = validate(variant, config)
    if variant not in PHASES:
        raise ValueError(f"no positions for variant {variant!r} yet; allowed: {', '.join(PHASES)}")
    phases, enter = PHASES[variant]
    if phase not in phases:
        raise ValueError(f"bad phase {phase!r} for {variant!r}; allowed: {', '.join(phases)}")
    rules = rules_for(variant, full)
    n = full["num_players"]
    s = State(variant, full, seed, n)
    rules.setup(s)  # variant defaults (fields, limit, ...) then overwrite every card location
    s.over, s.end_pending, s.runouts, s.turn, s.active = False, False, runouts, turn, active
    s.shuffles = 1000  # later shuffles differ from those of a fresh game with this seed
    s.face_up, s.discard, s.removed, s.set_aside = [], [], [], []
    s.hands = [[] for _ in range(n)]
    s.known = [[] for _ in range(n)]
    s.coins = [[] for _ in range(n)]
    s.to_plant = [[] for _ in range(n)]
    s.ftype, s.fcount = [EMPTY] * (3 * n), [0] * (3 * n)
    if nfields is not None:
        s.nfields = list(nfields)
    for p, hand in enumerate(hands or []):
        s.hands[p] = _codes(hand, f"hands[{p}]")
        s.known[p] = [1 << p] * len(s.hands[p])
    for p, row in enumerate(fields or []):
        for f, spec in enumerate(row):
            if spec:
                if f >= s.nfields[p]:
                    raise ValueError(f"fields[{p}] has field {f + 1} but the seat has {s.nfields[p]} fields")
                s.ftype[p * 3 + f] = _codes([spec[0]], f"fields[{p}]")[0]
                s.fcount[p * 3 + f] = int(spec[1])
    for p, c in enumerate(coins or []):
        s.coins[p] = [CODE["blue"]] * c if isinstance(c, int) else _codes(c, f"coins[{p}]")
    for p, cards in enumerate(to_plant or []):
        s.to_plant[p] = _codes(cards, f"to_plant[{p}]")
    s.face_up = _codes(face_up, "face_up")
    s.discard = _codes(discard, "discard")
    top_first = _codes(deck, "deck")
    placed = Counter(top_first)
    if hasattr(rules, "place_areas"):
        placed.update(rules.place_areas(s, areas or {}))
    elif areas:
        raise ValueError(f"variant {variant!r} has no extra card areas; got {sorted(areas)}")
    for cards in (s.face_up, s.discard, *s.hands, *s.coins, *s.to_plant):
        placed.update(cards)
    for i, c in enumerate(s.fcount):
        if c:
            placed[s.ftype[i]] += c
    rest = Counter(rules.composition())
    rest.subtract(placed)
    over = {t: -c for t, c in rest.items() if c < 0}
    if over:
        from ..cards import NAMES
        raise ValueError("position uses more cards than the deck has: "
                         + ", ".join(f"{-rest[t] + rules.composition().get(t, 0)} {NAMES[t]}" for t in over))
    leftovers = sorted(rest.elements())
    random.Random(seed).shuffle(leftovers)
    if fill_deck:
        s.deck = leftovers + top_first[::-1]
    else:
        s.deck = top_first[::-1]
        s.removed = leftovers
    enter(rules, s, phase)
    return Game(rules, s)
