"""The action catalogue: the one place where engine actions map to integers (``Discrete(n)``).

Terms:
- *span*: one action kind with the values its ``a`` and ``b`` may take, ``Span(kind, a, b)``. The
  catalogue lays the spans out one after another; inside a span the index runs over ``a`` (outer) and
  ``b`` (inner): ``index = start + ia * len(b) + ib``.
- *seat-relative*: for spans with ``seat=True`` the ``a`` values are seat offsets from the acting
  player (1 = left neighbour, ...), so "offer to my left neighbour" is the same integer at every seat,
  matching the seat-relative observation. ``ALL`` (offer to all) stays ``ALL``.

A variant declares its spans once with ``register_catalogue(variant, build)``, where
``build(rules) -> list[Span]`` may read the rules object (deck types, player count). Hand positions
run up to the number of cards in the variant's deck, so every legal action is expressible.

Engine-pure: no numpy here; the env builds masks from ``encode_all``.
"""
from __future__ import annotations

from typing import Callable, Iterable, NamedTuple, Sequence, SupportsIndex

from ..cards import NAMES
from . import rules_for
from .actions import ALL, Action, Kind, pack_offer
from .config import validate


class Span(NamedTuple):
    kind: int
    a: tuple = (0,)
    b: tuple = (0,)
    seat: bool = False   # a = seat offset from the actor (ALL kept as is)


def fields() -> tuple:
    """Field numbers 0..2 (the 3rd field is part of every catalogue)."""
    return (0, 1, 2)


def deck_types(rules) -> tuple:
    """The bean type codes of the variant's deck, in code order."""
    return tuple(sorted(rules.composition()))


def hand_positions(rules) -> tuple:
    """Hand positions 0..(cards in the deck - 1): a hand can never be larger."""
    return tuple(range(sum(rules.composition().values())))


def offer_shapes(rules) -> tuple:
    """``b`` of every whole offer (``OFFER_CARDS``) under ``max_offer_cards``: each multiset of at most
    that many given deck types with each multiset of at most that many wanted ones, the empty offer
    left out; in order of (given, wanted), each side by size, then by types."""
    from itertools import combinations_with_replacement
    types, cap = deck_types(rules), rules.offer_cap
    sides = [ms for k in range(cap + 1) for ms in combinations_with_replacement(types, k)]
    return tuple(pack_offer(g, w) for g in sides for w in sides if g or w)


def other_seats(n: int, with_all: bool = False) -> tuple:
    """Seat offsets 1..n-1 (and ``ALL``): the other players, seen from the actor."""
    return tuple(range(1, n)) + ((ALL,) if with_all else ())


class ActionCatalogue:
    """``Discrete(size)`` <-> typed ``Action`` for one variant config."""

    def __init__(self, spans: Sequence[Span], num_players: int):
        self.spans = tuple(spans)
        self.num_players = n = num_players
        rel: list[tuple] = []          # index -> (kind, a as declared, b)
        self.starts: list[int] = []
        for span in self.spans:
            self.starts.append(len(rel))
            rel.extend((int(span.kind), a, b) for a in span.a for b in span.b)
        self.size = len(rel)
        seat_kinds = {int(s.kind) for s in self.spans if s.seat}
        plain_kinds = {int(s.kind) for s in self.spans if not s.seat}
        if seat_kinds & plain_kinds:
            raise ValueError(f"kinds {sorted(seat_kinds & plain_kinds)} are declared both seat-relative and not")
        self.seat_kinds = frozenset(seat_kinds)
        # per acting seat: index -> Action and Action -> index (one dict lookup per encode)
        self._actions: list[list[Action]] = []
        self._index: list[dict[Action, int]] = []
        for actor in range(n):
            acts = []
            for kind, a, b in rel:
                if kind in seat_kinds and a != ALL:
                    a = (actor + a) % n
                acts.append(Action(kind, a, b))
            index = {}
            for i, act in enumerate(acts):
                if act in index:
                    raise ValueError(f"action {act!r} appears twice in the catalogue")
                index[act] = i
            self._actions.append(acts)
            self._index.append(index)

    def encode(self, action: Action, actor: int) -> int:
        """The integer of ``action`` taken by seat ``actor`` (KeyError if not in the catalogue)."""
        return self._index[actor][action]

    def encode_all(self, actions: Iterable[Action], actor: int) -> list[int]:
        index = self._index[actor]
        return [index[a] for a in actions]

    def decode(self, i: SupportsIndex, actor: int) -> Action:
        """The engine action of integer ``i`` for seat ``actor``."""
        return self._actions[actor][i]

    def covers(self, action: Action, actor: int) -> bool:
        return action in self._index[actor]

    def layout(self) -> list[tuple[int, int, str, str]]:
        """Per span: (first index, stop index, kind name, meaning of the values)."""
        out = []
        for start, span in zip(self.starts, self.spans):
            stop = start + len(span.a) * len(span.b)
            out.append((start, stop, Kind(span.kind).name, _span_text(span)))
        return out


def _values(values: tuple, what: str) -> str:
    if len(values) == 1:
        return ""
    if what == "type":
        return "type in [" + ", ".join(NAMES[v] for v in values) + "]"
    if what == "offer":
        return f"{len(values)} offers: given x wanted types (catalogue.offer_shapes)"
    if what == "seat":
        return "seat offset in [" + ", ".join("all" if v == ALL else str(v) for v in values) + "]"
    lo, hi = min(values), max(values)
    if list(values) == list(range(lo, hi + 1)):
        return f"{what} {lo}..{hi}"
    return f"{what} in {list(values)}"


_A_MEANING: dict[int, str] = {Kind.PLANT: "field", Kind.PLANT_CARD: "type", Kind.HARVEST: "field", Kind.KEEP: "type",
              Kind.OFFER: "seat", Kind.GIVE_HAND: "hand position", Kind.GIVE_TRADE: "type",
              Kind.WANT: "type", Kind.PICK: "seat", Kind.DISCARD: "type",
              Kind.DISCARD_HAND: "hand position", Kind.OFFER_CARDS: "seat", Kind.GIVE_MAFIA: "hand position",
              Kind.PLACE_STACK: "type",
              Kind.HT_PLAY: "field", Kind.HT_ADD: "type", Kind.HT_MERGE: "field", Kind.HT_MERGE_MUTA: "field",
              Kind.HT_PLACE: "field", Kind.HT_HARVEST: "field", Kind.HT_MODIFY: "text card",
              Kind.HT_DEFEND: "text card", Kind.HT_TEXT: "text card", Kind.HT_SHOW: "type",
              Kind.HT_COIN: "type", Kind.HT_FINAL: "field"}
_B_MEANING: dict[int, str] = {Kind.PLANT_CARD: "field", Kind.GIVE_MAFIA: "boss", Kind.PLACE_STACK: "target",
              Kind.OFFER_CARDS: "offer",
              Kind.HT_MERGE: "field", Kind.HT_MERGE_MUTA: "field", Kind.HT_ATTACK: "3 x own field + target field",
              Kind.HT_MODIFY: "field", Kind.HT_TEXT: "parameter"}


def _span_text(span: Span) -> str:
    kind = span.kind
    a_what = "seat" if span.seat else _A_MEANING.get(kind, "a")
    parts = [p for p in (_values(span.a, a_what), _values(span.b, _B_MEANING.get(kind, "b"))) if p]
    return " x ".join(parts) if parts else "-"


# -- registry ----------------------------------------------------------------------------------------
_BUILDERS: dict[str, Callable] = {}
_CACHE: dict[tuple, ActionCatalogue] = {}


def register_catalogue(variant: str, build: Callable) -> None:
    """Declare a variant's spans: ``build(rules) -> list[Span]``."""
    _BUILDERS[variant] = build
    for key in [k for k in _CACHE if k[0] == variant]:
        del _CACHE[key]


def catalogue_for(variant: str, config: dict | None = None, rules=None) -> ActionCatalogue:
    """The catalogue of ``variant`` under ``config`` (validated; cached per full config)."""
    full = validate(variant, dict(config or {}))
    key = (variant, tuple(sorted(full.items())))
    cat = _CACHE.get(key)
    if cat is None:
        if variant not in _BUILDERS:
            raise ValueError(f"no action catalogue for variant {variant!r}; registered: {', '.join(_BUILDERS)}")
        rules = rules if rules is not None else rules_for(variant, full)
        cat = _CACHE[key] = ActionCatalogue(_BUILDERS[variant](rules), full["num_players"])
    return cat


def catalogue_of(game) -> ActionCatalogue:
    """The catalogue of a running ``Game``."""
    return catalogue_for(game.variant, game.state.config, game.rules)


# -- the two base variants --------------------------------------------------------------------------
def _planting(types) -> list[Span]:
    """Planting, harvesting and buying: the first spans of both base variants."""
    return [
        Span(Kind.PLANT, fields()),
        Span(Kind.PLANT_CARD, types, fields()),
        Span(Kind.HARVEST, fields()),
        Span(Kind.BUY_FIELD),
        Span(Kind.STOP_PLANTING),
        Span(Kind.DONE),
    ]


def _bohnanza(rules) -> list[Span]:
    types, n = deck_types(rules), rules.n
    return _planting(types) + [
        Span(Kind.PASS),
        Span(Kind.END_TRADING),
        Span(Kind.KEEP, types),
        Span(Kind.OFFER, other_seats(n, with_all=True), seat=True),
        Span(Kind.GIVE_HAND, hand_positions(rules)),
        Span(Kind.GIVE_TRADE, types),
        Span(Kind.WANT, types),
        Span(Kind.SUBMIT),
        Span(Kind.CANCEL),
        Span(Kind.ACCEPT),
        Span(Kind.DECLINE),
        Span(Kind.PICK, other_seats(n), seat=True),
    ] + ([Span(Kind.OFFER_CARDS, other_seats(n, with_all=True), offer_shapes(rules), seat=True)]
         if rules.macro else [])


def _bean_duel(rules) -> list[Span]:
    types = deck_types(rules)
    return _planting(types) + [
        Span(Kind.DISCARD, types),
        Span(Kind.DISCARD_HAND, hand_positions(rules)),
        Span(Kind.KEEP_HAND),
        Span(Kind.TURN_UP),
    ]


register_catalogue("bohnanza", _bohnanza)
register_catalogue("bean_duel", _bean_duel)
