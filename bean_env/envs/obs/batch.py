"""Batched observation v1: many (state, seat) pairs encoded together with numpy, for ``bean_env.vector``.

The per-state encoder (``core.ObservationEncoder``) runs a Python writer per block and state. Here most
blocks have a *batch writer* instead, which reads its inputs from all the states in one pass (flat
arrays of card codes, seats and lengths) and computes the block for all of them with a few numpy
operations; a block without one (`bohnanza`'s `offer` and `negotiation`, `hostile_takeover`'s
`ht_composite`) runs its per-state writer for each state that has anything to write (``negotiation``
replaying a game's last output while its memory's token is unchanged). The result is the same vector,
bit for bit (tested per variant).

Terms:
- *batch*: the M (state, seat) pairs being encoded, rows ``0..M-1``; ``me`` is each row's seat.
- *raw*: the unscaled (M, size) values (counts and flags), scaled into [0, 1] at the end exactly as the
  per-state encoder does (``raw * scale``, then capped at 1).
- *owner*: for lists held per seat (hands, coin stacks, cards to plant), ``row * n + seat``.
- *key*: a flat index ``row * size + column`` into raw. Writers queue count increments (``count``),
  ones (``one``), values (``put``) and whole columns (``columns``); ``Batch.apply`` writes them all once
  every writer ran (the counts first: their ``bincount`` fills every entry, so raw needs no zeroing).

Batched states must be real (no hidden -1 cards of a masked ``PlayerView``): the batched env's are.
"""
from __future__ import annotations

from itertools import chain
from typing import Callable, Sequence

import numpy as np

from ...cards import NUM_TYPES, coins_for
from ...engine.common import Rules
from ...engine.state import State
from ...engine.takeover.textcards import NUM_TEXTS
from .common import DISCARD_RUNS
from .core import ObservationEncoder, entry_arrays, int_array
from .takeover import COPY_KINDS, RUNS as TAKEOVER_RUNS, composing
from .trading import offer_open

_from_chain = chain.from_iterable
_I = np.intp


def _flat(lists: list, owners: np.ndarray, table: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The concatenated lists of card codes as type slots (``table``: code -> slot, a ``bytes.translate``
    table), the owner of each card (``owners[i]`` for the i-th list), and the lengths of the lists."""
    lens = int_array(map(len, lists), len(lists))
    try:
        slots = b"".join(map(bytes, lists)).translate(table)
    except ValueError:  # bytes() takes 0..255 only
        raise ValueError("batched observations need real states (a masked PlayerView state has -1 cards)")
    return np.frombuffer(slots, np.uint8).astype(_I), np.repeat(owners, lens), lens


def _ragged(lists: list, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lists of integers (one per row of ``rows``) flattened: (the row of each value, the values)."""
    lens = int_array(map(len, lists), len(lists))
    return np.repeat(rows, lens), int_array(_from_chain(lists), int(lens.sum()))


_PER_SEAT = ("coins", "to_plant")  # card lists the state holds per seat


class Batch:
    """The states of one batched encode, the arrays its writers share, and their queued writes. Cards
    are read as type slots (``ctx.tslot``)."""

    def __init__(self, encoder: "BatchEncoder", states: Sequence[State], me: Sequence[int], memories: Sequence):
        ctx = encoder.ctx
        self.ctx, self.rules = ctx, ctx.rules
        self.states, self.memories = states, memories
        self.m = m = len(states)
        self.n, self.t, self.size = ctx.n, ctx.t, encoder.size
        self.me = int_array(me, m)
        self.rows = np.arange(m, dtype=_I)
        self.owners = np.arange(m * ctx.n, dtype=_I)
        self.table, self.tslot, self.comp = encoder.table, encoder.tslot, encoder.comp
        self.extra_places = encoder.extra_places
        self.raw: np.ndarray = np.zeros(0, np.float32)  # set by ``BatchEncoder.encode``
        self._counts: list[np.ndarray] = []         # keys to increment
        self._ones: list[np.ndarray] = []           # keys set to 1
        self._put_keys: list[np.ndarray] = []       # keys set to values
        self._put_values: list[np.ndarray] = []
        self._columns: list[tuple] = []             # (first column, values per row) of dense columns
        self._hands = self._fields = self._scalars = None
        self._piles: dict[str, tuple] = {}

    # -- queued writes -------------------------------------------------------------------------------
    def one(self, rows: np.ndarray, cols: np.ndarray) -> None:
        """raw[rows, cols] = 1, applied at the end."""
        self._ones.append(rows * self.size + cols)

    def put(self, rows: np.ndarray, cols: np.ndarray, values: np.ndarray) -> None:
        """raw[rows, cols] = values, applied at the end."""
        self._put_keys.append(rows * self.size + cols)
        self._put_values.append(values)

    def count(self, rows: np.ndarray, cols: np.ndarray) -> None:
        """raw[rows, cols] += 1 for each pair (repeated pairs count), applied at the end."""
        self._counts.append(rows * self.size + cols)

    def columns(self, col: int, values: np.ndarray) -> None:
        """raw[:, col] = values (one per row) or raw[:, col:col + k] = values (m, k), applied at the end."""
        self._columns.append((col, values))

    def apply(self) -> None:
        """Write the queued values into ``raw`` (every entry: no need to zero it first)."""
        flat, raw = self.raw.reshape(-1), self.raw
        if self._counts:  # counts first: they fill every entry, zeros included
            np.copyto(flat, np.bincount(np.concatenate(self._counts), minlength=len(flat)), casting="unsafe")
        else:
            flat.fill(0.0)
        for col, values in self._columns:
            if values.ndim == 1:
                raw[:, col] = values
            else:
                raw[:, col:col + values.shape[1]] = values
        if self._ones:
            flat[np.concatenate(self._ones)] = 1.0
        if self._put_keys:
            flat[np.concatenate(self._put_keys)] = np.concatenate(self._put_values)

    # -- shared inputs, read once per batch ------------------------------------------------------------
    def scalars(self) -> np.ndarray:
        """Per row: decision slot (-1 if none), active, actor (-1 if none or game over), deck size,
        run-outs, run-outs left, turn, game-end flag, cards removed, cards set aside, planted."""
        if self._scalars is None:
            dslot = self.ctx.dslot
            self._scalars = int_array(_from_chain([
                (dslot.get(s.decision, -1), s.active, -1 if s.over else s.actor, len(s.deck), s.runouts,
                 max(s.limit - s.runouts, 0), s.turn, s.end_pending, len(s.removed), len(s.set_aside), s.planted)
                for s in self.states]), 11 * self.m).reshape(self.m, 11)
        return self._scalars

    def hands(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every hand card of every seat, row-major: (type slots, owners, positions, known bitmasks, rows,
        the hand size of each owner)."""
        if self._hands is None:
            states = self.states
            slots, owner, lens = _flat([h for s in states for h in s.hands], self.owners, self.table)
            knowns = [k for s in states for k in s.known]
            try:
                known = np.frombuffer(b"".join(map(bytes, knowns)), np.uint8).astype(_I)
            except ValueError:  # bitmasks beyond 8 bits
                known = int_array(_from_chain(knowns), len(slots))
            starts = np.cumsum(lens) - lens
            self._hands = (slots, owner, np.arange(len(slots), dtype=_I) - starts[owner], known,
                           owner // self.n, lens)
        return self._hands

    def pile(self, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The state's card list ``name`` of every row flattened (``discard``, ``face_up``), or of every
        seat where it is held per seat (``coins``, ``to_plant``): (type slots, rows or owners, sizes)."""
        found = self._piles.get(name)
        if found is None:
            states = self.states
            if name in _PER_SEAT:
                found = _flat([x for s in states for x in getattr(s, name)], self.owners, self.table)
            else:
                found = _flat([getattr(s, name) for s in states], self.rows, self.table)
            self._piles[name] = found
        return found

    def fields(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(field types (m, n, 3), card counts (m, n, 3), fields owned (m, n))."""
        if self._fields is None:
            m, n, states = self.m, self.n, self.states
            ftype = int_array(_from_chain([s.ftype for s in states]), m * 3 * n).reshape(m, n, 3)
            fcount = int_array(_from_chain([s.fcount for s in states]), m * 3 * n).reshape(m, n, 3)
            nfields = int_array(_from_chain([s.nfields for s in states]), m * n).reshape(m, n)
            self._fields = (ftype, fcount, nfields)
        return self._fields

    def offsets(self, seats: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Each seat as an offset from its row's seat (0 = me, 1 = my left neighbour ...)."""
        return (seats - self.me[rows]) % self.n


# -- batch writers, one per block name: (batch, base) -> None ----------------------------------------------
def _b_decision(b: Batch, base: int) -> None:
    slots = b.scalars()[:, 0]
    if (slots < 0).any():
        bad = b.states[int(np.flatnonzero(slots < 0)[0])].decision
        raise ValueError(f"decision point {bad!r} of {b.ctx.variant!r} has no observation slot; "
                         f"declare it with register_observation (known: {', '.join(b.ctx.decisions)})")
    b.one(b.rows, base + slots)


def _b_actor(b: Batch, base: int) -> None:
    sc, n = b.scalars(), b.n
    b.one(b.rows, base + n + (sc[:, 1] - b.me) % n)
    acting = np.flatnonzero(sc[:, 2] >= 0)
    b.one(acting, base + (sc[acting, 2] - b.me[acting]) % n)


def _b_hand(b: Batch, base: int) -> None:
    """My hand: counts per type slot, then the first ``hand_k`` positions one-hot."""
    slots, owner, pos, _, rows, _ = b.hands()
    mine = owner == rows * b.n + b.me[rows]
    rows, pos, slots = rows[mine], pos[mine], slots[mine]
    t = b.t
    b.count(rows, base + slots)
    front = pos < b.ctx.hand_k
    b.one(rows[front], base + t + pos[front] * t + slots[front])


def _b_hand_sizes(b: Batch, base: int) -> None:
    n = b.n
    sizes = b.hands()[5].reshape(b.m, n)
    b.columns(base, sizes[b.rows[:, None], (b.me[:, None] + np.arange(n)) % n])


def _b_known(b: Batch, base: int) -> None:
    """Per other seat offset: counts per type of its hand cards shown to me, then the first ``known_k``
    positions one-hot where shown."""
    slots, owner, pos, known, rows, _ = b.hands()
    me = b.me[rows]
    shown = ((known >> me) & 1).astype(bool)
    shown &= owner != rows * b.n + me
    if not shown.any():
        return
    n, t, kk = b.n, b.t, b.ctx.known_k
    rows, pos, slots = rows[shown], pos[shown], slots[shown]
    at = base + (b.offsets(owner[shown] % n, rows) - 1) * (t + kk * t)
    b.count(rows, at + slots)
    front = pos < kk
    b.one(rows[front], at[front] + t + pos[front] * t + slots[front])


def _b_fields(b: Batch, base: int) -> None:
    """Per seat offset, per owned field: one-hot type slot and card count where planted, owned flag."""
    t = b.t
    width = t + 2
    ftype, fcount, nfields = b.fields()
    rows, q, f = np.nonzero(np.arange(3) < nfields[:, :, None])
    at = base + b.offsets(q, rows) * 3 * width + f * width
    b.one(rows, at + t + 1)
    count = fcount[rows, q, f]
    full = count > 0
    rows, at = rows[full], at[full]
    b.put(rows, at + t, count[full].astype(np.float32))
    b.one(rows, at + b.tslot[ftype[rows, q[full], f[full]]])


def _b_coins(b: Batch, base: int) -> None:
    """Per seat offset: coins, then the coin stack's counts per type slot."""
    n, t = b.n, b.t
    slots, who, sizes = b.pile("coins")
    at = base + ((np.arange(n) - b.me[:, None]) % n).reshape(-1) * (t + 1)  # per owner
    b.put(np.repeat(b.rows, n), at, sizes.astype(np.float32))
    b.count(who // n, at[who] + 1 + slots)


def _b_face_up(b: Batch, base: int) -> None:
    slots, rows, _ = b.pile("face_up")
    b.count(rows, base + slots)


def _b_to_plant(b: Batch, base: int) -> None:
    slots, who, _ = b.pile("to_plant")
    if len(slots):
        n = b.n
        rows = who // n
        b.count(rows, base + b.offsets(who % n, rows) * b.t + slots)


def _b_discard(b: Batch, base: int) -> None:
    """One-hot top type, counts per type slot, pile size."""
    slots, rows, lens = b.pile("discard")
    t = b.t
    b.count(rows, base + t + slots)
    some = np.flatnonzero(lens)
    b.one(some, base + slots[np.cumsum(lens)[some] - 1])
    b.columns(base + 2 * t, lens)


def _b_deck(b: Batch, base: int) -> None:
    b.columns(base, b.scalars()[:, 3:10])


def _b_unseen(b: Batch, base: int) -> None:
    """Per type slot, the cards the row's seat has not seen and cannot locate, then their total: the
    deck composition minus every card whose place it knows (as ``counting._unseen_by_elimination``; on a
    real state card conservation makes this the per-state writer's count of the deck and the hidden hand
    cards, without reading the deck)."""
    t, m, n, tslot = b.t, b.m, b.n, b.tslot
    slots, owner, _, known, rows, _ = b.hands()
    me = b.me[rows]
    seen = ((known >> me) & 1).astype(bool)
    seen |= owner == rows * n + me
    keys = [rows[seen] * t + slots[seen]]
    for name in ("discard", "face_up", "coins", "to_plant"):
        cards, owner, _ = b.pile(name)
        keys.append((owner // n if name in _PER_SEAT else owner) * t + cards)
    states = b.states
    gone, grows, _ = _flat([x for s in states for x in (s.removed, s.set_aside)], np.repeat(b.rows, 2), b.table)
    keys.append(grows * t + gone)
    ftype, fcount, _ = b.fields()
    full = fcount > 0
    keys.append(np.repeat(np.nonzero(full)[0] * t + tslot[ftype[full]], fcount[full]))
    seen_per = np.bincount(np.concatenate(keys), minlength=m * t).reshape(m, t)
    if b.extra_places:
        rules = b.rules
        for i, s in enumerate(states):
            for c, k in rules.extra_seen(s).items():
                seen_per[i, tslot[c]] += k
            for c in rules.extra_unseen(s):
                seen_per[i, tslot[c]] -= 1
    per = b.comp - seen_per
    b.columns(base, per)
    b.columns(base + t, per.sum(axis=1))


def _top_runs(slots: np.ndarray, owners: np.ndarray, limit: int):
    """Runs of equal type slots from the top (last element) of each owner's flattened pile, the first
    ``limit`` of each: (owner, rank from the top, type slot, length) per run."""
    slots, owners = slots[::-1], owners[::-1]  # each pile from its top (owners descending)
    starts = np.flatnonzero(np.concatenate(([True], (slots[1:] != slots[:-1]) | (owners[1:] != owners[:-1]))))
    run_owners = owners[starts]
    first = np.flatnonzero(np.concatenate(([True], run_owners[1:] != run_owners[:-1])))  # each pile's top run
    rank = np.arange(len(starts)) - np.repeat(first, np.diff(np.append(first, len(starts))))
    keep = rank < limit
    length = np.diff(np.append(starts, len(slots)))[keep]
    return run_owners[keep], rank[keep], slots[starts[keep]], length.astype(np.float32)


def _b_discard_runs(b: Batch, base: int) -> None:
    """The first ``DISCARD_RUNS`` runs of equal types from the top of each discard pile: one-hot type
    slot and run length."""
    slots, rows, _ = b.pile("discard")
    if not len(slots):
        return
    t = b.t
    rows, rank, kinds, length = _top_runs(slots, rows, DISCARD_RUNS)
    at = base + rank * (t + 1)
    b.one(rows, at + kinds)
    b.put(rows, at + t, length)


def _b_duel(b: Batch, base: int) -> None:
    b.columns(base, b.scalars()[:, 10])


def _b_mafia(b: Batch, base: int) -> None:
    """Per boss: one-hot type slot, card count, coins the field is worth; the treasury; planted."""
    t, states, m = b.t, b.states, b.m
    nb = b.rules.bosses
    btype = int_array(_from_chain([s.btype for s in states]), m * nb).reshape(m, nb)
    bcount = int_array(_from_chain([s.bcount for s in states]), m * nb).reshape(m, nb)
    rows, boss = np.nonzero(bcount)
    at = base + boss * (t + 2)
    kinds, counts = btype[rows, boss], bcount[rows, boss]
    b.one(rows, at + b.tslot[kinds])
    b.put(rows, at + t, counts.astype(np.float32))
    worth = np.fromiter(map(coins_for, kinds.tolist(), counts.tolist()), np.float32, len(rows))
    b.put(rows, at + t + 1, worth)
    at = base + nb * (t + 2)
    b.columns(at, np.fromiter([len(s.treasury) for s in states], np.float32, m))
    b.columns(at + 1, b.scalars()[:, 10])


def _b_trade(b: Batch, base: int) -> None:
    """Trading round and rounds left, planted, offer made this round, one-hot slot holder offset, the
    harvest window's seat offsets (``trading._w_trade``)."""
    n, m, states = b.n, b.m, b.states
    sc = int_array(_from_chain([(s.t_round, s.planted, s.t_any, s.active + s.t_slot, s.decision == "harvest_window")
                                  for s in states]), 5 * m).reshape(m, 5)
    rounds = sc[:, 0]
    b.columns(base, sc[:, :1])
    b.columns(base + 1, np.where(rounds > 0, np.maximum(b.rules.max_rounds - rounds, 0), 0))
    b.columns(base + 2, sc[:, 1:3])
    trading = np.flatnonzero(rounds)
    b.one(trading, base + 4 + b.offsets(sc[trading, 3], trading))
    window = np.flatnonzero(sc[:, 4])
    if len(window):
        rows, seats = _ragged([states[i].window for i in window.tolist()], window)
        b.one(rows, base + 4 + n + b.offsets(seats, rows))


# -- hostile_takeover (obs.takeover) ---------------------------------------------------------------------
def _b_ht_fields(b: Batch, base: int) -> None:
    """Per seat offset, per owned field: size (with the Jokerbohne), Jokerbohne, protected; the pile's
    first runs from the top (one-hot type slot, length); counts of real beans per type slot."""
    n, t, m, states = b.n, b.t, b.m, b.states
    width = 3 + TAKEOVER_RUNS * (t + 1) + t
    fields = 3 * n
    slots, owner, lens = _flat([p for s in states for p in s.piles], np.arange(m * fields, dtype=_I), b.table)
    flags = int_array(_from_chain([(s.joker,) + tuple(s.guard) for s in states]), m * (1 + fields))
    flags = flags.reshape(m, 1 + fields)
    nfields = b.fields()[2]
    rows, q, f = np.nonzero(np.arange(3) < nfields[:, :, None])  # owned fields
    i = q * 3 + f
    at = np.full(m * fields, -1, _I)  # first column of each (row, field), -1 if not owned
    at[rows * fields + i] = base + (b.offsets(q, rows) * 3 + f) * width
    start = at[rows * fields + i]
    joker = flags[rows, 0] == i
    b.put(rows, start, (lens[rows * fields + i] + joker).astype(np.float32))
    b.one(rows[joker], start[joker] + 1)
    guarded = flags[rows, 1 + i] != -1
    b.one(rows[guarded], start[guarded] + 2)
    if len(slots):
        b.count(owner // fields, at[owner] + 3 + TAKEOVER_RUNS * (t + 1) + slots)
        pile, rank, kinds, length = _top_runs(slots, owner, TAKEOVER_RUNS)
        col = at[pile] + 3 + rank * (t + 1)
        b.one(pile // fields, col + kinds)
        b.put(pile // fields, col + t, length)


def _b_ht_texts(b: Batch, base: int) -> None:
    """Text cards held per seat offset, my text cards, the text discard pile, the text deck size, my
    defence cards laid, bonus coins per seat offset."""
    n, m, states, T = b.n, b.m, b.states, NUM_TEXTS
    me = b.me.tolist()
    seat_cols = (b.me[:, None] + np.arange(n)) % n  # (m, n): offset -> seat
    held = int_array(map(len, [h for s in states for h in s.texts]), m * n).reshape(m, n)
    b.columns(base, held[b.rows[:, None], seat_cols])
    at = base + n
    for lists, col in (([s.texts[p] for s, p in zip(states, me)], at), ([s.tdiscard for s in states], at + T),
                       ([[g for g in s.guard[p * 3:p * 3 + 3] if g >= 0] for s, p in zip(states, me)], at + 2 * T + 1)):
        rows, values = _ragged(lists, b.rows)
        b.one(rows, col + values)
    b.columns(at + 2 * T, int_array([len(s.tdeck) for s in states], m))
    bonus = int_array(_from_chain([s.bonus for s in states]), m * n).reshape(m, n)
    b.columns(at + 3 * T + 1, np.maximum(bonus[b.rows[:, None], seat_cols], 0))


def _b_ht_turn(b: Batch, base: int) -> None:
    """The turn's budgets and the copying round (``takeover._w_turn``)."""
    n, m, states = b.n, b.m, b.states
    budget = b.rules.max_actions
    sc = int_array(_from_chain([(s.harvested, s.turn == 0, max(budget - s.acts, 0), s.final,
                                   bool(s.fin_open and s.final), COPY_KINDS.index(s.cp_kind) if s.cp_kind else -1,
                                   s.cp_quota, s.cp_leader) for s in states]), 8 * m).reshape(m, 8)
    b.columns(base, sc[:, :5])
    kind = np.flatnonzero(sc[:, 5] >= 0)
    b.one(kind, base + 5 + sc[kind, 5])
    b.columns(base + 10, sc[:, 6])
    at = base + 11
    leader = np.flatnonzero(sc[:, 7] >= 0)
    b.one(leader, at + b.offsets(sc[leader, 7], leader))
    for k, lists in enumerate(([s.cp_queue for s in states], [s.cp_took for s in states],
                               [s.fin_order for s in states]), start=1):
        rows, seats = _ragged(lists, b.rows)
        b.one(rows, at + k * n + b.offsets(seats, rows))


BatchWriter = Callable[[Batch, int], None]

# Blocks run per state that write nothing unless this holds (the predicate their writers return on):
# the batch skips the call for the other states
WRITES_ONLY_IF: dict[str, Callable[[State], bool]] = {
    "offer": offer_open,
    "ht_composite": composing,
}

BATCH_WRITERS: dict[str, BatchWriter] = {
    "decision": _b_decision,
    "actor_active": _b_actor,
    "hand": _b_hand,
    "hand_sizes": _b_hand_sizes,
    "known_hands": _b_known,
    "fields": _b_fields,
    "coins": _b_coins,
    "face_up": _b_face_up,
    "to_plant": _b_to_plant,
    "discard": _b_discard,
    "deck": _b_deck,
    "unseen": _b_unseen,
    "discard_runs": _b_discard_runs,
    "duel_state": _b_duel,
    "mafia": _b_mafia,
    "trade_state": _b_trade,
    "ht_fields": _b_ht_fields,
    "ht_texts": _b_ht_texts,
    "ht_turn": _b_ht_turn,
}


class BatchEncoder:
    """Encodes many states of one variant config at once: the vectors ``encoder.encode`` gives."""

    def __init__(self, encoder: ObservationEncoder):
        ctx = encoder.ctx
        self.encoder, self.ctx, self.size = encoder, ctx, encoder.size
        self.tslot = np.asarray(list(ctx.tslot) + [-1] * (NUM_TYPES + 1 - len(ctx.tslot)), dtype=_I)
        # card code -> type slot as a ``bytes.translate`` table (codes outside the deck read 255)
        self.table = bytes(slot if slot >= 0 else 255 for slot in ctx.tslot) + bytes([255]) * (256 - len(ctx.tslot))
        self.comp = np.asarray(ctx.comp, dtype=_I)
        rules = type(ctx.rules)
        # variants whose rules keep cards in places of their own (the mafia's fields, mixed piles)
        self.extra_places = rules.extra_seen is not Rules.extra_seen or rules.extra_unseen is not Rules.extra_unseen
        self.batched = [(BATCH_WRITERS[blk.name], start) for blk, start in zip(encoder.blocks, encoder.starts)
                        if blk.name in BATCH_WRITERS]
        # blocks without a batch writer: their per-state writers (memos included) and where they start
        self.per_state = [(_replaying(blk.write, blk.token) if blk.token else blk.write, start,
                           WRITES_ONLY_IF.get(blk.name))
                          for blk, start in zip(encoder.blocks, encoder.starts) if blk.name not in BATCH_WRITERS]
        self._raw = np.zeros((0, self.size), np.float32)

    def encode(self, states: Sequence[State], me: Sequence[int], memories: Sequence | None = None,
               out: np.ndarray | None = None) -> np.ndarray:
        """The observations of ``states[i]`` for seat ``me[i]`` (with the game's ``Memory``
        ``memories[i]``, as ``encoder.encode`` takes it), as the rows of ``out`` (default: a new (M, size)
        float32 array)."""
        m = len(states)
        if len(me) != m or memories is not None and len(memories) != m:
            raise ValueError(f"{m} states need {m} seats and {m} memories")
        if self._raw.shape[0] < m:
            self._raw = np.zeros((m, self.size), np.float32)
        raw = self._raw[:m]
        batch = Batch(self, states, me, memories if memories is not None else [None] * m)
        batch.raw = raw
        for write, start in self.batched:
            write(batch, start)
        if self.per_state:
            self._per_state(batch)
        batch.apply()
        enc = self.encoder
        if out is None:
            out = np.empty((m, self.size), np.float32)
        np.multiply(raw, enc.scale, out=out)
        np.minimum(out, enc.high, out=out)  # capped entries read 1
        return out

    def _per_state(self, b: Batch) -> None:
        """Blocks without a batch writer: each state's entries from the per-state writers."""
        ctx, writers = self.ctx, self.per_state
        ix: list[int] = []
        vx: list[float] = []
        per_row: list[int] = []
        for s, me, memory in zip(b.states, b.me.tolist(), b.memories):
            if memory is not None:
                memory.check()  # raises StaleMemoryError
            ctx.mem = memory
            at = len(ix)
            for write, start, only_if in writers:
                if only_if is None or only_if(s):
                    write(ctx, s, me, start, ix, vx)
            per_row.append(len(ix) - at)
        ctx.mem = None
        if ix:
            b.put(np.repeat(b.rows, per_row), *entry_arrays(ix, vx))


_REPLAYS_KEPT = 4096  # outputs a replaying writer keeps before it forgets them all (games end, seats change)


def _replaying(write: Callable, token: str) -> Callable:
    """A per-state ``write`` (of a block with a ``Memory`` token) that replays its last output for a game
    and seat while the same state object is followed by the same active memory at the same token value:
    ``core.token_writer``'s rule, kept per game (by memory) since the batch encodes many games."""
    last: dict[tuple, tuple] = {}  # (id(memory), seat) -> (memory, token value, state, indices, values)

    def write_replaying(ctx, s, me, base, ix, vx):
        mem = ctx.mem
        if mem is None or not mem.active:
            write(ctx, s, me, base, ix, vx)
            return
        now = getattr(mem, token)
        key = (id(mem), me)
        hit = last.get(key)
        if hit is not None and hit[0] is mem and hit[1] == now and hit[2] is s:
            ix.extend(hit[3])
            vx.extend(hit[4])
            return
        at = len(ix)
        write(ctx, s, me, base, ix, vx)
        if len(last) >= _REPLAYS_KEPT:
            last.clear()
        last[key] = (mem, now, s, ix[at:], vx[at:])

    return write_replaying
