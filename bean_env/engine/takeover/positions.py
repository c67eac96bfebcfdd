"""Exact `hostile_takeover` positions (with text cards, mixed piles, Jokerbohne and protection) for tests.

::

    from bean_env.engine.takeover.positions import takeover_position
    game = takeover_position(num_players=3, active=0,
                             hands=[["blue", "blue"], ["soy"], []],
                             fields=[[("blue", 3), ["cutting", "garden"], None], [], []],
                             texts=[[5, "TXT-8"], [], [15]],
                             joker=(0, 0), guards={(1, 0): 2},
                             deck=["red", "chili"])          # top card first

- ``fields``: per seat, per field: None, ``(type, count)``, or a list of type names (pile bottom first).
- ``texts``: per seat, text cards by code 0..17 or as ``"TXT-k"``. ``joker``: ``(seat, field)`` where the
  Jokerbohne lies. ``guards``: ``{(seat, field): text card}`` defence cards lying on fields.
- ``tdeck``: text cards on the text deck (top first); ``tdiscard``: the text discard pile (bottom first).
  Text cards not placed anywhere go under ``tdeck`` (shuffled by ``seed``).
- ``under``: Garden beans lying under the deck (2, 1 or 0; HT-1/HT-6); ``runouts``: run-outs so far.
- Bean cards the position does not place go under ``deck`` (shuffled by ``seed``), or out of the game
  (``removed``) with ``fill_deck=False`` -- so both card conservation checks hold for every position.

The game is entered at the ``turn`` decision of ``active`` (``turn`` 1 unless given: not the first turn).
"""
from __future__ import annotations

import random
from collections import Counter

from ...cards import CODE, GARDEN, NAMES
from ..config import validate
from ..game import Game
from ..state import State
from .rules import TakeoverRules
from .shared import init_fields
from .textcards import NUM_TEXTS


def _bean(name: str, what: str) -> int:
    if name not in CODE:
        raise ValueError(f"unknown bean type {name!r} in {what}; allowed: {', '.join(NAMES)}")
    return CODE[name]


def text_code(card) -> int:
    """A text card given as 0..17 or ``"TXT-1"``..``"TXT-18"``."""
    if isinstance(card, str) and card.upper().startswith("TXT-"):
        card = int(card[4:]) - 1
    if not isinstance(card, int) or not 0 <= card < NUM_TEXTS:
        raise ValueError(f"bad text card {card!r}; allowed: 0..17 or 'TXT-1'..'TXT-18'")
    return card


def takeover_position(num_players: int = 3, *, active: int = 0, hands=None, fields=None, texts=None,
                      coins=None, joker=None, guards=None, deck=None, discard=None, tdeck=None,
                      tdiscard=None, under: int = 2, runouts: int = 0, turn: int = 1, harvested: bool = False,
                      seed: int = 0, fill_deck: bool = True, **config) -> Game:
    """A `hostile_takeover` game set up exactly as given, at the ``turn`` decision of ``active``."""
    full = validate("hostile_takeover", dict(config, num_players=num_players))
    rules = TakeoverRules(full)
    n = num_players
    s = State("hostile_takeover", full, seed, n)
    init_fields(s)
    s.nfields = [2 if n == 2 else 3] * n
    s.limit = 1 if n == 2 else 3
    s.shuffles = 1000
    s.runouts, s.turn, s.active, s.harvested = runouts, turn, active, int(harvested)
    placed = Counter()
    for p, hand in enumerate(hands or []):
        for name in hand:
            rules.hand_add(s, p, _bean(name, f"hands[{p}]"), 1 << p)
        placed.update(s.hands[p])
    for p, row in enumerate(fields or []):
        for f, spec in enumerate(row):
            if not spec:
                continue
            if f >= s.nfields[p]:
                raise ValueError(f"fields[{p}] has field {f + 1} but the seat has {s.nfields[p]} fields")
            if isinstance(spec, tuple):
                pile = [_bean(spec[0], f"fields[{p}]")] * int(spec[1])
            else:
                pile = [_bean(c, f"fields[{p}]") for c in spec]
            rules.put(s, p * 3 + f, pile)
            placed.update(pile)
    for p, c in enumerate(coins or []):
        s.coins[p] = [CODE["blue"]] * c if isinstance(c, int) else [_bean(x, f"coins[{p}]") for x in c]
        placed.update(s.coins[p])
    s.discard = [_bean(c, "discard") for c in discard or []]
    top_first = [_bean(c, "deck") for c in deck or []]
    s.set_aside = [GARDEN] * under
    placed.update(s.discard + top_first + s.set_aside)
    rest = Counter(rules.composition())
    rest.subtract(placed)
    if any(c < 0 for c in rest.values()):
        over = ", ".join(NAMES[t] for t, c in rest.items() if c < 0)
        raise ValueError(f"position uses more cards than the deck has: {over}")
    leftovers = sorted(rest.elements())
    rng = random.Random(seed)
    rng.shuffle(leftovers)
    if fill_deck:
        s.deck = leftovers + top_first[::-1]
    else:
        s.deck = top_first[::-1]
        s.removed = leftovers
    # text cards
    used: Counter = Counter()
    for p, cards in enumerate(texts or []):
        s.texts[p] = sorted(text_code(c) for c in cards)
        used.update(s.texts[p])
    if joker is not None:
        s.joker = joker[0] * 3 + joker[1]
        if not s.piles[s.joker]:
            raise ValueError("the Jokerbohne must lie on a field with beans")
        used[5] += 1
    for (p, f), card in (guards or {}).items():
        s.guard[p * 3 + f] = text_code(card)
        used[s.guard[p * 3 + f]] += 1
    s.tdiscard = [text_code(c) for c in tdiscard or []]
    top = [text_code(c) for c in tdeck or []]
    used.update(s.tdiscard + top)
    if any(c > 1 for c in used.values()):
        raise ValueError(f"a text card is placed twice: {sorted(c for c, k in used.items() if k > 1)}")
    free = [c for c in range(NUM_TEXTS) if not used[c]]
    rng.shuffle(free)
    s.tdeck = free + top[::-1]
    rules.to_turn(s)
    return Game(rules, s)
