"""Observation v1 machinery: context, blocks with per-entry scales, the encoder, the layout hash.

Terms:
- *me*: the observing seat; per-seat rows are seat offsets from me (0 = me, 1 = my left neighbour ...,
  COM-13 clockwise).
- *type slot*: bean types are indexed by their position in the variant's deck (``ctx.types``).
- *block*: a named slice of the vector. A writer appends (index, raw value) pairs of its non-zero
  entries; the encoder divides each entry by its *scale* (the block's ``high``, one number or one per
  entry), so every value of the observation lies in [0, 1]. Entries whose raw value has no useful
  exact bound (turn number, hand size, coins) use a documented cap and saturate at 1 (``clip``).
- *memory*: what the table revealed earlier in the game (``memory.Memory``); writers that need it read
  ``ctx.mem``, set by ``encode`` for the duration of one call.
"""
from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ...cards import NUM_TYPES
from ...engine.compiled import mypyc_attr
from ...engine.state import State

VERSION = "bean_env.observation/1"
_multiply, _minimum, _INTP, _F32 = np.multiply, np.minimum, np.intp, np.float32
_frombuffer = np.frombuffer
_PACKERS: dict[int, tuple[Callable, Callable]] = {}  # entry count -> packers of n intp and n float32
_PACKERS_KEPT = 1024


def entry_arrays(ix: list, vx: list) -> tuple[np.ndarray, np.ndarray]:
    """The entry lists ``ix`` (indices) and ``vx`` (values, each cast to float32 as numpy casts it) as
    read-only intp and float32 arrays. Packed with ``struct``: about half the machine instructions per
    entry of ``np.fromiter`` (counted with callgrind), which every observation pays for its entries."""
    packers = _packers(len(ix))
    return _frombuffer(packers[0](*ix), _INTP), _frombuffer(packers[1](*vx), _F32)


def int_array(values: Iterable, n: int) -> np.ndarray:
    """The ``n`` integers (or bools) of ``values`` as a read-only intp array (``np.fromiter(values,
    np.intp, n)``, packed as ``entry_arrays`` packs)."""
    return _frombuffer(_packers(n)[0](*values), _INTP)


def _packers(n: int) -> tuple[Callable, Callable]:
    """``struct`` packers of ``n`` intp and of ``n`` float32 values (cached by ``n``)."""
    packers = _PACKERS.get(n)
    if packers is None:
        if len(_PACKERS) >= _PACKERS_KEPT:  # batches of many sizes: start over rather than grow
            _PACKERS.clear()
        packers = _PACKERS[n] = (struct.Struct(f"{n}n").pack, struct.Struct(f"{n}f").pack)
    return packers

Writer = Callable  # (ctx, s, me, base, ix, vx) -> None: append (index, raw value) pairs


@dataclass
class Context:
    """What the blocks of one variant config need to know."""
    variant: str
    rules: Any
    n: int                      # seats
    types: tuple                # type codes of the deck, in slot order
    tslot: list                 # type code -> slot (-1 if not in the deck)
    comp: list                  # cards of each type slot in the deck (the exact bound of a type count)
    decisions: tuple            # decision point names, in slot order
    hand_k: int                 # own hand positions encoded one-hot (front first)
    known_k: int                # positions of other hands encoded one-hot where known (0: hands unordered)
    dslot: dict = field(default_factory=dict)
    cards: int = 0              # cards in the deck
    t: int = 0                  # number of type slots
    remember: bool = False      # blocks replay their last output while their inputs are unchanged
    mem: Any = None             # the memory of the current encode call (or None)
    piles: dict = field(default_factory=dict)  # name -> PileCounts shared by the blocks
    chunks: Any = None          # replayed token groups as (indices, values) arrays, or None: into the lists
    coin_piles: list = field(default_factory=list)  # per seat: PileCounts of its coin stack
    deck_pile: Any = None       # PileCounts of the deck (made after init)
    hand_snap: Any = None       # what ``hands_version`` compared last (see there)

    def __post_init__(self):
        self.t = len(self.types)
        self.coin_piles = [PileCounts(self) for _ in range(self.n)]
        self.deck_pile = PileCounts(self)


@dataclass
class Block:
    """A named slice of ``size`` entries; raw values are divided by ``high`` (a number or one per entry)."""
    name: str
    size: int
    high: float | Sequence[float]
    doc: str
    write: Writer
    clip: bool = False          # raw values may exceed ``high`` (a cap); they read as 1
    token: str = ""             # a ``Memory`` token that changes whenever the output may (``token_writer``)

    def highs(self) -> np.ndarray:
        h = np.asarray(self.high, dtype=np.float64)
        h = np.full(self.size, float(h)) if h.ndim == 0 else h
        if h.shape != (self.size,) or (h <= 0).any():
            raise ValueError(f"block {self.name!r}: high must be positive, one number or {self.size} numbers")
        return h


@mypyc_attr(native_class=False)  # compiled classes cannot subclass built-in exceptions
class StaleMemoryError(RuntimeError):
    """The memory passed to ``encode`` has not seen every action of its game."""


class ObservationEncoder:
    """Encodes a state for one seat into a float32 vector in [0, 1] of fixed size."""

    def __init__(self, ctx: Context, blocks: list[Block], history_blocks: tuple = ()):
        self.ctx = ctx
        self.blocks = blocks
        self.history_blocks = tuple(history_blocks)  # blocks that read the memory
        self.starts = []
        size = 0
        for b in blocks:
            self.starts.append(size)
            size += b.size
        self.size = size
        self.raw_high = np.concatenate([b.highs() for b in blocks]) if blocks else np.zeros(0)
        self.scale = (1.0 / self.raw_high).astype(np.float32)
        self.low = np.zeros(size, dtype=np.float32)
        self.high = np.ones(size, dtype=np.float32)
        self._writers = [(b.write, start) for b, start in zip(blocks, self.starts)]
        if ctx.remember:  # blocks with a memory token: one writer per token, first
            tokens = sorted({b.token for b in blocks if b.token})
            self._writers = [(token_writer(name, [(b.write, st) for b, st in zip(blocks, self.starts)
                                                  if b.token == name]), 0) for name in tokens]
            self._writers += [(b.write, st) for b, st in zip(blocks, self.starts) if not b.token]
        self._buf = np.zeros(size, dtype=np.float32)
        self._blank = np.zeros(size, dtype=np.float32)  # never written: ``encode_new`` copies it

    # -- encoding ------------------------------------------------------------------------------------
    def _raw(self, s: State, me: int, memory, chunks: list | None = None) -> tuple[list, list]:
        """The entries as lists; with ``chunks``, replayed token groups are appended to it as arrays
        instead (see ``token_writer``)."""
        ctx = self.ctx
        if memory is not None:
            h = memory._history
            if h is not None and len(h) != memory.seen:
                memory.check()  # raises StaleMemoryError
        ctx.mem = memory  # read by the history blocks; the next call replaces it
        ix: list[int] = []
        vx: list[float] = []
        ctx.chunks = chunks
        try:
            for write, start in self._writers:
                write(ctx, s, me, start, ix, vx)
        finally:
            ctx.chunks = None  # writers called on their own write into the lists
        return ix, vx

    def encode(self, s: State, me: int, memory=None, out: np.ndarray | None = None) -> np.ndarray:
        """The observation of seat ``me`` written into ``out`` (default: a reused internal buffer, valid
        until the next call; copy it to keep it). ``memory``: the game's ``Memory`` (see ``new_memory``);
        without it the history blocks read as "nothing revealed yet"."""
        buf = self._buf if out is None else out
        buf.fill(0.0)
        return self._fill(buf, s, me, memory)

    def encode_new(self, s: State, me: int, memory=None) -> np.ndarray:
        """``encode`` into a new array that the caller owns (cheaper than copying the internal buffer)."""
        return self._fill(self._blank.copy(), s, me, memory)  # copying zeros costs less than np.zeros

    def _fill(self, buf: np.ndarray, s: State, me: int, memory) -> np.ndarray:
        """Write the observation into the zeroed ``buf``, scaled into [0, 1]: the replayed token groups
        from their arrays, the other entries from the lists."""
        chunks: list = []
        ix, vx = self._raw(s, me, memory, chunks)
        for indices, values in chunks:
            buf[indices] = values
        if ix:
            indices, values = entry_arrays(ix, vx)  # cheaper than buf[ix] = vx converting the lists
            buf[indices] = values
        elif not chunks:
            return buf
        _multiply(buf, self.scale, out=buf)
        _minimum(buf, self.high, out=buf)  # capped entries read 1
        return buf

    def entries(self, s: State, me: int, memory=None) -> tuple[list, list]:
        """The non-zero entries of seat ``me``'s observation before scaling: (indices, raw values), for
        callers that scatter many observations into one batch (``bean_env.vector``)."""
        return self._raw(s, me, memory)

    def encode_raw(self, s: State, me: int, memory=None) -> np.ndarray:
        """Unscaled values (counts and flags), for tests and debugging."""
        ix, vx = self._raw(s, me, memory)
        raw = np.zeros(self.size, dtype=np.float64)
        raw[ix] = vx
        return raw

    def new_memory(self):
        """A fresh ``Memory`` for one game of this config (reset it with the game, update it after
        every applied action)."""
        from .memory import Memory
        return Memory(self.ctx)

    # -- layout --------------------------------------------------------------------------------------
    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The blocks of an observation vector by name (views into ``vector``)."""
        return {b.name: vector[st:st + b.size] for b, st in zip(self.blocks, self.starts)}

    def layout(self) -> list[tuple[str, int, int, str]]:
        """Per block: (name, first index, stop index, meaning)."""
        return [(b.name, st, st + b.size, b.doc) for b, st in zip(self.blocks, self.starts)]

    def layout_hash(self) -> str:
        """A stable sha256 (hex) of everything that fixes the meaning of each entry: the encoder version,
        variant, seats, type slots, decision points, hand positions, and per block its name, size, scales
        and clipping. Any change of layout changes it; policy files store it."""
        ctx = self.ctx
        desc = {"version": VERSION, "variant": ctx.variant, "n": ctx.n, "types": list(ctx.types),
                "decisions": list(ctx.decisions), "hand_k": ctx.hand_k, "known_k": ctx.known_k,
                "blocks": [[b.name, b.size, b.clip, [round(float(h), 6) for h in b.highs()]]
                           for b in self.blocks]}
        return hashlib.sha256(json.dumps(desc, sort_keys=True).encode()).hexdigest()


# -- remembered writers ----------------------------------------------------------------------------------
def remembered(ctx: Context, write: Writer, reads: Callable) -> Writer:
    """``write`` with a memory of its last output per observing seat (only where ``ctx.remember``): while
    every state value it reads (``reads(s, me)``: a tuple of the state's lists and numbers) equals what it
    was last time, the output is replayed instead of recomputed. Exact: the values are compared, never
    assumed unchanged. Most env steps of a trading game leave the table as it was (offers and answers),
    so most blocks repeat; in the other variants nearly every step changes hands or fields and the memory
    costs more than it saves (measured), so they do not use it. Each encoder has its own memories.
    Used inside ``token_writer`` groups, for blocks whose inputs mostly stay when their token changes."""
    if not ctx.remember:
        return write
    return keyed_writer(write, lambda ctx, s, me: reads(s, me), _frozen)


def _frozen(now: tuple) -> tuple:
    """A copy of ``reads``' tuple that later in-place changes of the state's lists cannot reach."""
    return tuple([[y[:] if y.__class__ is list else y for y in x] if x.__class__ is list else x for x in now])


def keyed_writer(write: Writer, key: Callable, keep: Callable | None = None) -> Writer:
    """``write`` replaying a seat's last output while ``key(ctx, s, me)`` equals what it was at that
    output (``keep`` turns a key into what is stored: a copy where the key holds the state's own lists)."""
    last: dict[int, tuple] = {}

    def write_keyed(ctx, s, me, base, ix, vx):
        now = key(ctx, s, me)
        hit = last.get(me)
        if hit is not None and hit[0] == now:
            ix.extend(hit[1])
            vx.extend(hit[2])
            return
        start = len(ix)
        write(ctx, s, me, base, ix, vx)
        last[me] = (now if keep is None else keep(now), ix[start:], vx[start:])

    return write_keyed


def token_writer(token: str, writers: list) -> Writer:
    """Writers (``(write, start)`` pairs) of blocks that read only what the ``Memory`` token ``token``
    follows (``Memory.cards``: the cards off the board and who saw them; ``Memory.board``: fields,
    coin stacks and discard pile; ``Memory.version``: everything the memory records), as one writer
    that replays a seat's last output of all of them while the state is the same object, followed by
    the same memory, at the same token. Without a memory it always writes. A replay goes into the
    lists, or, where the encoder collects them (``ctx.chunks``), as one (indices, values) array pair
    made at the group's first replay: one numpy assignment instead of converting its entries again."""
    last: dict[int, tuple] = {}  # seat -> (memory, token, state, indices, values, arrays or None)

    def write_token(ctx, s, me, base, ix, vx):
        mem = ctx.mem
        if mem is None or not mem.active:
            for write, start in writers:
                write(ctx, s, me, start, ix, vx)
            return
        now = getattr(mem, token)
        hit = last.get(me)
        if hit is not None and hit[0] is mem and hit[1] == now and hit[2] is s:
            chunks = ctx.chunks
            if chunks is None:
                ix.extend(hit[3])
                vx.extend(hit[4])
                return
            arrays = hit[5]
            if arrays is None:
                k = len(hit[3])
                if not k:
                    return
                arrays = entry_arrays(hit[3], hit[4])
                last[me] = hit[:5] + (arrays,)
            chunks.append(arrays)
            return
        at = len(ix)
        for write, start in writers:
            write(ctx, s, me, start, ix, vx)
        last[me] = (mem, now, s, ix[at:], vx[at:], None)

    return write_token


def hands_version(ctx: Context, s: State, me: int = -1) -> int:
    """A number that changes whenever the hands or what was shown of them (``s.known``) may differ from
    what they were at the last call, for memos of blocks that read only those (and the observing seat;
    ``me`` is not read: the number is the same for every seat, and the signature is a ``keyed_writer`` key).
    Exact: the values are compared with a copy kept from the last change, except while the same state
    is followed by the same active ``Memory`` at the same ``cards`` token (no card moved, none shown).
    One snapshot per context, shared by the seats: the first block to ask after a change pays for it."""
    snap = ctx.hand_snap  # (state, memory, cards token, hands copy, known copy, version)
    mem = ctx.mem
    live = mem is not None and mem.active
    if snap is not None and snap[0] is s:
        if live and snap[1] is mem and snap[2] == mem.cards:
            return snap[5]
        if snap[3] == s.hands and snap[4] == s.known:
            if live:
                ctx.hand_snap = (s, mem, mem.cards) + snap[3:]
            return snap[5]
    version = 0 if snap is None else snap[5] + 1
    ctx.hand_snap = (s, mem, mem.cards if live else None, [h[:] for h in s.hands], [k[:] for k in s.known],
                     version)
    return version


def hand_writer(ctx: Context, write: Writer) -> Writer:
    """``write`` (a writer that reads only ``s.hands``, ``s.known`` and the observing seat) replaying a
    seat's last output while ``hands_version`` is unchanged; only where ``ctx.remember``."""
    if not ctx.remember:
        return write
    return keyed_writer(write, hands_version)


# -- small writer helpers ------------------------------------------------------------------------------
def rel(s: State, me: int, seat: int) -> int:
    """Seat as an offset from the observing seat ``me`` (0 = me, 1 = my left neighbour, ...)."""
    return (seat - me) % s.n


def put(ix: list, vx: list, at: int, value: float) -> None:
    """Write ``value`` at index ``at`` (zeros are left out)."""
    if value:
        ix.append(at)
        vx.append(float(value))


def mark_seats(s: State, me: int, seats, at: int, ix: list, vx: list) -> None:
    """One-hot marks, relative to ``me``, for each seat in ``seats`` (a block of ``s.n`` slots)."""
    for q in seats:
        ix.append(at + (q - me) % s.n)
        vx.append(1.0)


def counts(cards, tslot, base, ix, vx) -> None:
    """Append per-type counts of ``cards`` at ``base + slot``."""
    if not cards:
        return
    seen: dict[int, int] = {}
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
    for c, k in seen.items():
        ix.append(base + tslot[c])
        vx.append(float(k))


class PileCounts:
    """Per-type counts of a pile that mostly grows or shrinks at its top (discard pile, deck, a coin
    stack, a hand), updated from the difference to the pile seen last instead of recounted (exact: any
    other change recounts). ``of`` gives the counts per type slot, ``items`` the non-zero
    ``(slot, count)`` pairs."""

    __slots__ = ("snap", "per", "t", "tslot", "_items", "version", "_entries")

    def __init__(self, ctx: Context):
        self.t, self.tslot = ctx.t, ctx.tslot
        self.snap: list = []
        self.per = [0] * ctx.t
        self._items: list | None = []
        self.version = 0             # changes whenever the counts may have changed
        self._entries: tuple = (-1, -1, [], [])  # (version, at, indices, values) of the last ``entries``

    def of(self, pile: list) -> list[int]:
        snap, per, tslot = self.snap, self.per, self.tslot
        m, k = len(snap), len(pile)
        if k == m:
            if pile == snap:
                return per
        elif k < m:
            if snap[:k] == pile:     # cards taken from the top
                for c in snap[k:]:
                    per[tslot[c]] -= 1
                del snap[k:]
                self._items = None
                self.version += 1
                return per
        elif pile[:m] == snap:       # cards put on top
            new = pile[m:]
            for c in new:
                per[tslot[c]] += 1
            snap.extend(new)
            self._items = None
            self.version += 1
            return per
        per = self.per = [0] * self.t
        for c in pile:
            per[tslot[c]] += 1
        self.snap = pile[:]
        self._items = None
        self.version += 1
        return per

    def items(self, pile: list) -> list[tuple[int, int]]:
        per = self.of(pile)
        found = self._items
        if found is None:
            found = self._items = [(slot, k) for slot, k in enumerate(per) if k]
        return found

    def entries(self, pile: list, at: int) -> tuple[list[int], list[float]]:
        """The non-zero counts as observation entries: indices ``at + slot`` and float values (kept while
        the pile and ``at`` stay the same, so a writer extends its lists with them)."""
        items = self.items(pile)
        version, last_at, ixs, vxs = self._entries
        if version != self.version or last_at != at:
            ixs = [at + slot for slot, _ in items]
            vxs = [float(k) for _, k in items]
            self._entries = (self.version, at, ixs, vxs)
        return ixs, vxs


def pile(ctx: Context, name: str) -> PileCounts:
    """The shared ``PileCounts`` of ``name`` (e.g. ``"discard"``, ``"coins3"``) for this config."""
    found = ctx.piles.get(name)
    if found is None:
        found = ctx.piles[name] = PileCounts(ctx)
    return found


# -- registry ------------------------------------------------------------------------------------------
@dataclass
class VariantSpec:
    decisions: tuple
    blocks: Callable            # ctx -> list[Block] (appended after the common blocks)
    hand_k: int = 4
    known_k: int = 3
    history_blocks: tuple = ()  # names of blocks that read the memory
    remember: bool = False      # see ``remembered``


_SPECS: dict[str, VariantSpec] = {}
_ENCODERS: dict[tuple, ObservationEncoder] = {}


def register_observation(variant: str, decisions: tuple, blocks: Callable[[Context], list[Block]], *,
                         hand_k: int = 4, known_k: int = 3, history_blocks: tuple = (),
                         remember: bool = False) -> None:
    """Declare a variant's decision point names, its extra blocks (``blocks(ctx) -> [Block]``), how
    many own hand positions (``hand_k``) and known positions of other hands (``known_k``, 0 when hands
    have no order) are one-hot encoded, and whether blocks replay unchanged output (``remember``, for
    variants where most steps leave the table unchanged). ``game_over`` is added if missing."""
    if "game_over" not in decisions:
        decisions = tuple(decisions) + ("game_over",)
    _SPECS[variant] = VariantSpec(tuple(decisions), blocks, hand_k, known_k, tuple(history_blocks), remember)
    for key in [k for k in _ENCODERS if k[0] == variant]:
        del _ENCODERS[key]


def make_context(variant: str, rules, n: int) -> Context:
    spec = _SPECS.get(variant)
    if spec is None:
        raise ValueError(f"no observation declared for variant {variant!r}; registered: {', '.join(_SPECS)}")
    comp = rules.composition()
    types = tuple(sorted(comp))
    tslot = [-1] * NUM_TYPES
    for i, code in enumerate(types):
        tslot[code] = i
    return Context(variant=variant, rules=rules, n=n, types=types, tslot=tslot, comp=[comp[c] for c in types],
                   decisions=spec.decisions, hand_k=spec.hand_k, known_k=spec.known_k,
                   dslot={d: i for i, d in enumerate(spec.decisions)}, cards=sum(comp.values()),
                   remember=spec.remember)


def build_encoder(game) -> ObservationEncoder:
    """A new v1 encoder of a game's variant config with its own memos (pile counts, remembered blocks):
    one per env, so games stepped side by side do not overwrite each other's memos."""
    from .common import common_blocks
    state = game.state
    ctx = make_context(state.variant, game.rules, state.n)
    spec = _SPECS[state.variant]
    return ObservationEncoder(ctx, common_blocks(ctx) + list(spec.blocks(ctx)), spec.history_blocks)


def encoder_for(game) -> ObservationEncoder:
    """The cached v1 encoder of a game's variant config (``game`` may also be a ``PlayerView``), shared
    by every caller: the memos it keeps pay off while one game is encoded at a time (an env builds its
    own with ``build_encoder``)."""
    state = game.state
    key = (state.variant, tuple(sorted(state.config.items())))
    enc = _ENCODERS.get(key)
    if enc is None:
        enc = _ENCODERS[key] = build_encoder(game)
    return enc
