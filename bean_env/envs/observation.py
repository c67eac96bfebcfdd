"""The observation vector: float32, seat-relative, built only from what the observing player may know.

Terms:
- *me*: the observing seat. Every per-seat block lists seats relative to me: row 0 = me, row 1 = my
  left neighbour, ... (COM-13 clockwise).
- *block*: a named slice of the vector with a fixed size. A variant's layout is the common blocks
  followed by its own blocks (``register_observation``), so mafia fields or text cards are appended
  by their variant module without touching the common part.
- *type slot*: bean types are indexed by their position in the variant's deck (``ctx.types``), not by
  the global code, so no slot is wasted on types the deck does not have.

Encoding reads the real game state, but only its visible parts (INFO-1/2): other hands only where
``state.known`` says the card was shown to me, the deck only by size. No masked copy is built per
step; ``tests/envs/test_information.py`` checks INFO-3 against ``PlayerView.sample_game``.

Values are raw counts (cards, coins, rounds) and 0/1 flags; ``ObservationEncoder.high`` gives an
upper bound per entry. The full layout of a config is ``ObservationEncoder.layout()`` and is
documented in ``docs/envs.md``.
"""
from __future__ import annotations

import importlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..cards import NUM_TYPES
from ..engine.actions import ALL
from ..engine.state import EMPTY, State


@dataclass
class Context:
    """What the blocks of one variant config need to know."""
    variant: str
    rules: object
    n: int                      # seats
    types: tuple                # type codes of the deck, in slot order
    tslot: list                 # type code -> slot (-1 if not in the deck)
    hand_slots: int             # hand positions encoded (= cards in the deck)
    decisions: tuple            # decision point names, in slot order
    dslot: dict = field(default_factory=dict)
    cards: int = 0              # cards in the deck (upper bound of most counts)
    t: int = 0                  # number of type slots

    def __post_init__(self):
        self.t = len(self.types)


Writer = Callable  # (ctx, s, me, base, ix, vx) -> None: append (index, value) pairs


@dataclass
class Block:
    """A named slice of ``size`` entries, each at most ``high``; ``write`` appends its non-zeros."""
    name: str
    size: int
    high: float
    doc: str
    write: Writer


class ObservationEncoder:
    """Encodes a state for one seat into a float32 vector of fixed size."""

    def __init__(self, ctx: Context, blocks: list[Block]):
        self.ctx = ctx
        self.blocks = blocks
        self.starts = []
        size = 0
        for b in blocks:
            self.starts.append(size)
            size += b.size
        self.size = size
        self.high = np.zeros(size, dtype=np.float32)
        for start, b in zip(self.starts, blocks):
            self.high[start:start + b.size] = b.high
        self._writers = [(b.write, start) for b, start in zip(blocks, self.starts)]
        self._buf = np.zeros(size, dtype=np.float32)

    def encode(self, s: State, me: int, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of seat ``me``, written into ``out`` (default: a reused internal buffer,
        valid until the next call; copy it to keep it)."""
        ix: list[int] = []
        vx: list[float] = []
        ctx = self.ctx
        for write, start in self._writers:
            write(ctx, s, me, start, ix, vx)
        buf = self._buf if out is None else out
        buf.fill(0.0)
        if ix:
            buf[ix] = vx
        return buf

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The blocks of an observation vector by name (views into ``vector``), for reading and debugging."""
        return {b.name: vector[st:st + b.size] for b, st in zip(self.blocks, self.starts)}

    def layout(self) -> list[tuple[str, int, int, str]]:
        """Per block: (name, first index, stop index, meaning)."""
        return [(b.name, st, st + b.size, b.doc) for b, st in zip(self.blocks, self.starts)]


# -- common blocks ------------------------------------------------------------------------------------
def rel(s: State, me: int, seat: int) -> int:
    """Seat as an offset from the observing seat ``me`` (0 = me, 1 = my left neighbour, ...)."""
    return (seat - me) % s.n


def put(ix: list, vx: list, at: int, value: float) -> None:
    """Write ``value`` at index ``at`` of the sparse observation (zeros are left out)."""
    if value:
        ix.append(at)
        vx.append(float(value))


def mark_seats(s: State, me: int, seats, at: int, ix: list, vx: list) -> None:
    """One-hot marks, relative to ``me``, for each seat in ``seats`` (a block of ``s.n`` slots)."""
    for q in seats:
        ix.append(at + (q - me) % s.n)
        vx.append(1.0)



def _w_decision(ctx, s, me, base, ix, vx):
    slot = ctx.dslot.get(s.decision)
    if slot is None:
        raise ValueError(f"decision point {s.decision!r} of {ctx.variant!r} has no observation slot; "
                         f"declare it with register_observation (known: {', '.join(ctx.decisions)})")
    ix.append(base + slot)
    vx.append(1.0)


def _w_actor(ctx, s, me, base, ix, vx):
    if s.actor >= 0 and not s.over:
        ix.append(base + rel(s, me, s.actor))
        vx.append(1.0)
    ix.append(base + ctx.n + rel(s, me, s.active))
    vx.append(1.0)


def _w_hand(ctx, s, me, base, ix, vx):
    t, tslot, hand = ctx.t, ctx.tslot, s.hands[me]
    ix += [base + i * t + tslot[card] for i, card in enumerate(hand)]
    vx += [1.0] * len(hand)


def _counts(cards, tslot, base, ix, vx):
    """Append per-type counts of ``cards`` at ``base + slot``."""
    if not cards:
        return
    if len(cards) > 12:
        seen = Counter(cards)  # counts in C for long piles (discard)
    else:
        seen = {}
        for c in cards:
            seen[c] = seen.get(c, 0) + 1
    for c, k in seen.items():
        ix.append(base + tslot[c])
        vx.append(float(k))


def _w_hand_counts(ctx, s, me, base, ix, vx):
    _counts(s.hands[me], ctx.tslot, base, ix, vx)


def _w_hand_sizes(ctx, s, me, base, ix, vx):
    for k in range(s.n):
        put(ix, vx, base + k, len(s.hands[(me + k) % s.n]))


def _w_known(ctx, s, me, base, ix, vx):
    """INFO-2: cards of other hands that were shown to me, as type counts per other seat."""
    n, t, bit = s.n, ctx.t, 1 << me
    for k in range(1, n):
        q = (me + k) % n
        known = s.known[q]
        if known.count(1 << q) == len(known):  # fast path: nothing of this hand was shown
            continue
        shown = [c for c, k in zip(s.hands[q], known) if k & bit]
        _counts(shown, ctx.tslot, base + (k - 1) * t, ix, vx)


def _w_fields(ctx, s, me, base, ix, vx):
    n, t, tslot = s.n, ctx.t, ctx.tslot
    width = 3 * (t + 2)
    ftype, fcount, nfields = s.ftype, s.fcount, s.nfields
    for k in range(n):
        q = (me + k) % n
        at = base + k * width
        for i in range(q * 3, q * 3 + nfields[q]):
            c = fcount[i]
            if c:
                ix += (at + tslot[ftype[i]], at + t, at + t + 1)  # type, count, owned
                vx += (1.0, float(c), 1.0)
            else:
                ix.append(at + t + 1)      # field owned
                vx.append(1.0)
            at += t + 2


def _w_coins(ctx, s, me, base, ix, vx):
    for k in range(s.n):
        put(ix, vx, base + k, len(s.coins[(me + k) % s.n]))


def _w_face_up(ctx, s, me, base, ix, vx):
    _counts(s.face_up, ctx.tslot, base, ix, vx)


def _w_to_plant(ctx, s, me, base, ix, vx):
    n, t, to_plant = s.n, ctx.t, s.to_plant
    for k in range(n):
        cards = to_plant[(me + k) % n]
        if cards:
            _counts(cards, ctx.tslot, base + k * t, ix, vx)


def _w_discard(ctx, s, me, base, ix, vx):
    d = s.discard
    if d:
        ix.append(base + ctx.tslot[d[-1]])
        vx.append(1.0)
        _counts(d, ctx.tslot, base + ctx.t, ix, vx)
        ix.append(base + 2 * ctx.t)
        vx.append(float(len(d)))


DISCARD_RUNS = 6  # runs of equal types read from the top of the discard pile


def _w_discard_runs(ctx, s, me, base, ix, vx):
    """The top of the discard pile in order, as runs of one type: one-hot type and run length."""
    d = s.discard
    i = len(d) - 1
    at, t, tslot = base, ctx.t, ctx.tslot
    for _ in range(DISCARD_RUNS):
        if i < 0:
            return
        bean = d[i]
        j = i
        while j >= 0 and d[j] == bean:
            j -= 1
        ix += (at + tslot[bean], at + t)
        vx += (1.0, float(i - j))
        at += t + 1
        i = j


def _w_deck(ctx, s, me, base, ix, vx):
    vals = (len(s.deck), s.runouts, max(s.limit - s.runouts, 0), s.turn, 1.0 if s.end_pending else 0.0,
            len(s.removed), len(s.set_aside))
    for k, v in enumerate(vals):
        if v:
            ix.append(base + k)
            vx.append(float(v))


def common_blocks(ctx: Context) -> list[Block]:
    """Blocks every variant has (INFO-1 public facts and the private hand)."""
    n, t, cards = ctx.n, ctx.t, float(ctx.cards)
    return [
        Block("decision", len(ctx.decisions), 1.0,
              "one-hot decision point: " + ", ".join(ctx.decisions), _w_decision),
        Block("actor_active", 2 * n, 1.0,
              "one-hot seat offset of the deciding player (zeros at game end), then of the active player",
              _w_actor),
        Block("hand", ctx.hand_slots * t, 1.0,
              "my hand in order: per position (front first) a one-hot type slot", _w_hand),
        Block("hand_counts", t, cards, "my hand as counts per type slot", _w_hand_counts),
        Block("hand_sizes", n, cards, "hand size per seat offset", _w_hand_sizes),
        Block("known_hands", (n - 1) * t, cards,
              "per other seat offset 1..n-1: counts per type of its hand cards shown to me (INFO-2)", _w_known),
        Block("fields", n * 3 * (t + 2), cards,
              "per seat offset, per field 1..3: one-hot type slot, card count, field owned flag", _w_fields),
        Block("coins", n, cards, "coins per seat offset", _w_coins),
        Block("face_up", t, cards, "trade area / face-up cards: counts per type", _w_face_up),
        Block("to_plant", n * t, cards, "cards to plant per seat offset: counts per type", _w_to_plant),
        Block("discard", 2 * t + 1, cards,
              "discard pile: one-hot top type, counts per type, size", _w_discard),
        Block("discard_runs", DISCARD_RUNS * (t + 1), cards,
              f"top of the discard pile in order (DUEL-5 and MAF-8 take from it): the first {DISCARD_RUNS} runs "
              "of equal types from the top, each a one-hot type slot and the run length", _w_discard_runs),
        Block("deck", 7, max(cards, 1000.0),
              "deck size, run-outs so far, run-outs left to game end, turn number, game-end run-out "
              "happened flag, cards out of the game, cards set aside", _w_deck),
    ]


# -- registry -------------------------------------------------------------------------------------
_VARIANT_SPECS: dict[str, tuple[tuple, Callable]] = {}
_ENCODERS: dict[tuple, ObservationEncoder] = {}


def register_observation(variant: str, decisions: tuple, blocks: Callable[[Context], list[Block]]) -> None:
    """Declare a variant's decision point names and its extra blocks (``blocks(ctx) -> [Block]``,
    appended after the common blocks). ``game_over`` is added if missing."""
    if "game_over" not in decisions:
        decisions = tuple(decisions) + ("game_over",)
    _VARIANT_SPECS[variant] = (tuple(decisions), blocks)
    for key in [k for k in _ENCODERS if k[0] == variant]:
        del _ENCODERS[key]


def make_context(variant: str, rules, n: int) -> Context:
    if variant not in _VARIANT_SPECS:
        try:  # the variant's env module declares its observation
            importlib.import_module(f"{__package__}.{variant}_v1")
        except ImportError:
            pass
    if variant not in _VARIANT_SPECS:
        raise ValueError(f"no observation declared for variant {variant!r}; "
                         f"registered: {', '.join(_VARIANT_SPECS)}")
    decisions, _ = _VARIANT_SPECS[variant]
    comp = rules.composition()
    types = tuple(sorted(comp))
    tslot = [-1] * NUM_TYPES
    for i, code in enumerate(types):
        tslot[code] = i
    cards = sum(comp.values())
    return Context(variant=variant, rules=rules, n=n, types=types, tslot=tslot, hand_slots=cards,
                   decisions=decisions, dslot={d: i for i, d in enumerate(decisions)}, cards=cards)


def encoder_for(game) -> ObservationEncoder:
    """The (cached) encoder of a game's variant config."""
    key = (game.variant, tuple(sorted(game.state.config.items())))
    enc = _ENCODERS.get(key)
    if enc is None:
        ctx = make_context(game.variant, game.rules, game.num_players)
        _, extra = _VARIANT_SPECS[game.variant]
        enc = _ENCODERS[key] = ObservationEncoder(ctx, common_blocks(ctx) + list(extra(ctx)))
    return enc


# -- blocks of the base variants ----------------------------------------------------------------------
def _w_trade(ctx, s, me, base, ix, vx):
    """Trading round, rounds left, slot holder, harvest window seats, hand cards planted this turn."""
    rules = ctx.rules
    n = s.n
    vals = [(0, s.t_round), (1, max(rules.max_rounds - s.t_round, 0) if s.t_round else 0),
            (2, s.planted), (3, 1.0 if s.t_any else 0.0)]
    for k, v in vals:
        put(ix, vx, base + k, v)
    if s.t_round:
        ix.append(base + 4 + rel(s, me, (s.active + s.t_slot) % n))
        vx.append(1.0)
    if s.decision == "harvest_window":
        mark_seats(s, me, s.window, base + 4 + n, ix, vx)


def _w_offer(ctx, s, me, base, ix, vx):
    """The offer being built or answered (TRADE-2..5), as far as I can see it."""
    if s.o_prop == EMPTY:
        return
    n, t, tslot = s.n, ctx.t, ctx.tslot
    prop = s.o_prop
    ix.append(base + rel(s, me, prop))
    vx.append(1.0)
    at = base + n
    if s.o_to == ALL:
        ix.append(at + n)
    else:
        ix.append(at + rel(s, me, s.o_to))
    vx.append(1.0)
    at += n + 1
    # given hand cards: their number, and the types I know
    if s.o_hand:
        ix.append(at)
        vx.append(float(len(s.o_hand)))
        hand, known, bit = s.hands[prop], s.known[prop], 1 << me
        _counts([hand[i] for i in s.o_hand if known[i] & bit], tslot, at + 1, ix, vx)
    at += 1 + t
    _counts(s.o_trade, tslot, at, ix, vx)
    at += t
    _counts(s.o_want, tslot, at, ix, vx)
    at += t
    mark_seats(s, me, s.o_pending, at, ix, vx)
    at += n
    mark_seats(s, me, s.o_accept, at, ix, vx)
    at += n
    if s.x_partner != EMPTY:
        ix.append(at + rel(s, me, s.x_partner))
        vx.append(1.0)
        _counts(s.x_want, tslot, at + n, ix, vx)
        _counts(s.x_trade, tslot, at + n + t, ix, vx)
        if s.x_hand:
            ix.append(at + n + 2 * t)
            vx.append(float(len(s.x_hand)))
    at += n + 2 * t + 1
    # my own hand positions committed to the offer (as proposer, or as the giver at execution)
    mine = s.o_hand if prop == me else (s.x_hand if s.x_partner == me else ())
    for i in mine:
        ix.append(at + i)
        vx.append(1.0)


def bohnanza_blocks(ctx: Context) -> list[Block]:
    n, t, cards = ctx.n, ctx.t, float(ctx.cards)
    return [
        Block("trade_state", 4 + 2 * n, float(max(cards, ctx.rules.max_rounds, 1000)),
              "trade round (0 outside trading), rounds left in the budget (TRADE-6), hand cards planted "
              "this turn, offer made this round flag, one-hot seat offset holding the trading slot, "
              "seat offsets still to act in the harvest window (BASE-9)", _w_trade),
        Block("offer", 5 * n + 5 * t + 3 + ctx.hand_slots, cards,
              "offer: one-hot proposer offset, one-hot addressee offset (+ 'all'), number of given hand "
              "cards, counts of given hand cards whose type I know, given trade-area counts, wanted "
              "counts, offsets still to answer, offsets that accepted; execution: one-hot partner offset, "
              "wanted types still to choose, trade-area cards chosen, number of hand cards chosen; "
              "my hand positions committed to the offer", _w_offer),
    ]


def _w_duel(ctx, s, me, base, ix, vx):
    if s.planted:
        ix.append(base)
        vx.append(float(s.planted))


def duel_blocks(ctx: Context) -> list[Block]:
    return [Block("duel_state", 1, 2.0, "hand cards planted this turn", _w_duel)]


register_observation("bohnanza", ("plant", "plant_optional", "harvest_window", "offer", "compose", "respond",
                                  "pick", "choose_give", "plant_traded", "game_over"), bohnanza_blocks)
register_observation("bean_duel", ("leftovers", "plant", "plant_optional", "discard_hand", "turn_up",
                                   "plant_face_up", "game_over"), duel_blocks)
