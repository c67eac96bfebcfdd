"""Position evaluation for the heuristic agent, from a (possibly masked) engine state.

Terms:
- *field value* ``fv(type, count)``: the coins the field pays now plus the discounted coins of its next
  beanometer step (each missing card multiplies by ``DISCOUNT``); the growth part shrinks as the game
  nears its end, when only the final harvest (COM-10) is left.
- *seat value* ``V(p)``: coins + field values + a bonus per empty field and for owning a 3rd field,
  after simulating the planting of the cards the seat *must* plant (its cards to plant, COM-4 forced
  harvests included), the cards it *may* plant (only if they help) and, with decreasing weights, the
  next hand cards (COM-1: the front of the hand is planted first).
- *evaluation* of a seat: ``V(p) - lam * mean(V(q) for the other seats)``: a position is good when it
  is good for us and not for the others.

Unknown cards (masked as -1) are ignored, so the same function values our own full knowledge and
the opponents' public side of the table.
"""
from __future__ import annotations

from bean_env.cards import NUM_TYPES, coins_for

DISCOUNT = 0.68          # value kept per card still missing for the next beanometer step
EMPTY_FIELD = 0.2        # flexibility of an empty field, scaled by the game left (below one card)
THIRD_FIELD = 4.0        # value of owning a 3rd field at the start of the game, scaled by the game left
HAND_WEIGHTS = (0.85, 0.55, 0.35)  # weight of the next hand cards in the seat value
FORCED_HARVEST = 0.3     # cost of a harvest the simulation must make to plant a card (lost tempo)


def _make_fv():
    """Tables ``now[t][c]`` (coins now) and ``up[t][c]`` (discounted next step) for every type."""
    now, up = [], []
    for bean in range(NUM_TYPES):
        table = [coins_for(bean, n) for n in range(30)]
        n_t, u_t = [], []
        for c in range(len(table)):
            coins = table[c]
            nxt = 0.0
            for m in range(c + 1, len(table)):
                if table[m] > coins:
                    nxt = (table[m] - coins) * DISCOUNT ** (m - c)
                    break
            n_t.append(coins)
            u_t.append(nxt)
        now.append(n_t)
        up.append(u_t)
    return now, up


NOW, UP = _make_fv()
_CAP = len(NOW[0]) - 1


def field_value(bean: int, count: int, growth: float = 1.0) -> float:
    """Value of a field of ``count`` cards of ``bean`` (0 when empty)."""
    if count <= 0 or bean < 0:
        return 0.0
    c = count if count < _CAP else _CAP
    return NOW[bean][c] + growth * UP[bean][c]


def game_left(s) -> float:
    """Rough fraction of the game still to play (1 at the start, 0 at the end), from run-outs and deck."""
    if s.over:
        return 0.0
    limit = max(1, s.limit)
    d = len(s.deck)
    cycle = d + len(s.discard) + sum(s.fcount) + sum(len(h) for h in s.hands) + len(s.face_up)
    frac = d / cycle if cycle else 0.0
    left = (limit - 1 - s.runouts + frac) / limit
    return 0.0 if left < 0 else (1.0 if left > 1 else left)


class _Fields:
    """A scratch copy of one seat's fields for planting simulations."""

    __slots__ = ("types", "counts", "banked", "growth")

    banked: float

    def __init__(self, s, p: int, growth: float):
        base = p * 3
        k = s.nfields[p]
        self.types = s.ftype[base:base + k]
        self.counts = s.fcount[base:base + k]
        self.banked = 0.0
        self.growth = growth

    def value(self) -> float:
        g = self.growth
        total = float(self.banked)
        empty = 0
        for t, c in zip(self.types, self.counts):
            if c:
                if t >= 0:  # field_value inlined (the hottest loop of search agents)
                    if c > _CAP:
                        c = _CAP
                    total += NOW[t][c] + g * UP[t][c]
            else:
                empty += 1
        return total + empty * EMPTY_FIELD * g

    def place(self, bean: int) -> None:
        """Plant one card where a careful player would; harvest the cheapest field if none fits."""
        types, counts = self.types, self.counts
        empty = -1
        for i, c in enumerate(counts):
            if c and types[i] == bean:
                counts[i] = c + 1
                return
            if not c and empty < 0:
                empty = i
        if empty >= 0:
            types[empty], counts[empty] = bean, 1
            return
        g = self.growth
        best, best_loss = 0, 1e9
        for i, c in enumerate(counts):
            t = types[i]
            if c > _CAP:
                c = _CAP
            now = NOW[t][c]
            loss = (now + g * UP[t][c] if t >= 0 else 0.0) - now  # field_value(t, c, g) - now
            if loss < best_loss:
                best, best_loss = i, loss
        self.banked += NOW[types[best]][min(counts[best], _CAP)] - FORCED_HARVEST
        types[best], counts[best] = bean, 1

    def copy(self) -> "_Fields":
        new = _Fields.__new__(_Fields)
        new.types, new.counts = self.types[:], self.counts[:]
        new.banked, new.growth = self.banked, self.growth
        return new


def seat_value(s, p: int, must=None, optional=(), hand=None, growth: float | None = None) -> float:
    """Seat value ``V(p)`` (see the module docstring).

    ``must``: cards the seat must plant (default: its cards to plant); ``optional``: cards it may plant;
    ``hand``: hand cards in order (default: its hand; -1 = unknown, skipped).
    """
    g = game_left(s) if growth is None else growth
    f = _Fields(s, p, g)
    for card in (s.to_plant[p] if must is None else must):
        if card >= 0:
            f.place(card)
    value = f.value()
    for card in optional:
        if card >= 0:
            trial = f.copy()
            trial.place(card)
            v = trial.value()
            if v > value:
                f, value = trial, v
    total = value
    weights = HAND_WEIGHTS
    for k, card in enumerate((s.hands[p] if hand is None else hand)[:len(weights)]):
        if card >= 0:  # an unknown card (-1) is skipped but takes its weight
            f.place(card)
            v = f.value()
            total += weights[k] * (v - value)
            value = v
    third = THIRD_FIELD * g if s.nfields[p] >= 3 else 0.0
    return len(s.coins[p]) + total + third
