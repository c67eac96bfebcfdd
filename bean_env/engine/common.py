"""Mechanics shared by every variant (COM-*): fitting, harvesting, buying a 3rd field, drawing with
run-outs, the final harvest and scoring. Variant rules modules subclass ``Rules``."""
from __future__ import annotations

from collections import Counter

from ..cards import NUM_TYPES, coins_for, expand
from .actions import BUY_FIELD, Action, Kind
from .compiled import mypyc_attr
from .state import EMPTY, State, shuffle

# Action kinds compared when stepping (a module constant reads faster than an enum class attribute)
_K_BUY_FIELD, _K_HARVEST, _K_PLANT_CARD = Kind.BUY_FIELD, Kind.HARVEST, Kind.PLANT_CARD

_HARVEST = [Action(Kind.HARVEST, f) for f in range(3)]


def _harvest_rows(nfields: int) -> list[list[Action]]:
    """HARVEST actions by field classes (COM-6): row ``sum(c_f * 3**(nfields-1-f))``, where ``c_f`` is
    0 for an empty field, 1 for one card and 2 for two or more."""
    rows = []
    for key in range(3 ** nfields):
        classes = [key // 3 ** (nfields - 1 - f) % 3 for f in range(nfields)]
        big = [f for f, c in enumerate(classes) if c == 2]
        rows.append([_HARVEST[f] for f in (big or [f for f, c in enumerate(classes) if c == 1])])
    return rows


_HARVEST_ROWS = {2: _harvest_rows(2), 3: _harvest_rows(3)}  # free_actions without a field purchase
_PLANT_CARD = [[Action(Kind.PLANT_CARD, bean, f) for f in range(3)] for bean in range(NUM_TYPES)]  # [type][field]


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled build: the takeover rules stay uncompiled
class Rules:
    """Base class of a rules family. Subclasses implement ``setup``, ``legal`` and ``step``.

    ``legal(s)`` is the one legal-action generator; ``step(s, action)`` applies an action that is known
    to be legal and runs every automatic step up to the next decision point or the end.
    """

    variant = ""
    field_cost = 3          # coins for the 3rd field (COM-8)
    allow_duplicates = True  # COM-3

    def __init__(self, config: dict):
        self.config = config
        self.allow_duplicates = config.get("allow_duplicate_fields", self.allow_duplicates)
        # a list while someone listens (``events.py``): offers, answers, trades and donations are
        # appended as they happen; None records nothing
        self.events: list | None = None

    # -- to be provided by variants ------------------------------------------------------------
    def composition(self) -> dict[int, int]:
        raise NotImplementedError

    def setup(self, s: State) -> None:
        raise NotImplementedError

    def legal(self, s: State) -> list[Action]:
        raise NotImplementedError

    def step(self, s: State, action: Action) -> None:
        raise NotImplementedError

    def can_buy(self, s: State, p: int) -> bool:
        return False

    def pay_field(self, s: State, coins: list[int]) -> None:
        """Where the coins paid for a 3rd field go (BASE-2, DUEL-2, MAF-11)."""
        s.discard.extend(coins)

    # -- COM-3 fitting ---------------------------------------------------------------------------
    def fits(self, s: State, p: int, bean: int) -> list[int]:
        """Fields (0-based) of seat ``p`` where a card of ``bean`` may be planted."""
        ftype, fcount = s.ftype, s.fcount
        base = p * 3
        growing = False
        out = []
        for i in range(base, base + s.nfields[p]):
            if ftype[i] == bean:
                out.append(i - base)
                growing = True
        if growing and not self.allow_duplicates:
            return out
        for i in range(base, base + s.nfields[p]):
            if fcount[i] == 0:
                out.append(i - base)
        if len(out) > 1:
            out.sort()
        return out

    def plant(self, s: State, p: int, field: int, bean: int, count: int = 1) -> None:
        i = p * 3 + field
        s.ftype[i] = bean
        s.fcount[i] += count

    def plant_front(self, s: State, p: int, field: int) -> bool:
        """Plant the front hand card of ``p`` on ``field`` (COM-1); True if another may follow
        (the hand is not empty and fewer than two were planted this step)."""
        hand = s.hands[p]
        self.plant(s, p, field, hand.pop(0))
        s.known[p].pop(0)
        s.planted += 1
        return bool(hand) and s.planted < 2

    def leftover_actions(self, s: State, p: int) -> list[Action]:
        """For each face-up card left by the opponent: plant it where it fits, or discard it."""
        return (self.plant_card_actions(s, p, s.face_up)
                + [Action(Kind.DISCARD, t) for t in sorted(set(s.face_up))])

    def resolve_leftover(self, s: State, p: int, action: Action) -> None:
        """A face-up card left by the opponent: plant it (PLANT_CARD) or discard it (DISCARD)."""
        s.face_up.remove(action.a)
        if action.kind == _K_PLANT_CARD:
            self.plant(s, p, action.b, action.a)
        else:
            s.discard.append(action.a)

    def turn_up_cards(self, s: State, count: int) -> None:
        """Turn up to ``count`` cards into the face-up area, stopping at the game-end run-out,
        which is then pending (COM-9)."""
        for _ in range(count):
            if s.runouts >= s.limit:
                break
            card = self.draw(s)
            if card is None:
                break
            s.face_up.append(card)
        if s.runouts >= s.limit:
            s.end_pending = True

    # -- COM-5 / COM-6 harvesting ----------------------------------------------------------------
    def harvestable(self, s: State, p: int) -> list[int]:
        """Fields seat ``p`` may harvest now (COM-6 one-card rule)."""
        base = p * 3
        counts = s.fcount[base:base + s.nfields[p]]
        if max(counts) >= 2:  # a field with two or more cards: one-card fields are not harvestable
            return [f for f, c in enumerate(counts) if c >= 2]
        return [f for f, c in enumerate(counts) if c == 1]

    def harvest(self, s: State, p: int, field: int) -> int:
        """Harvest and sell one field (COM-5); returns the coins earned."""
        i = p * 3 + field
        bean, count = s.ftype[i], s.fcount[i]
        coins = coins_for(bean, count)
        s.coins[p].extend([bean] * coins)
        s.discard.extend([bean] * (count - coins))
        s.ftype[i] = EMPTY
        s.fcount[i] = 0
        return coins

    def free_actions(self, s: State, p: int) -> list[Action]:
        """Harvest / buy actions of seat ``p`` (offered at its top-level decision points)."""
        nf = s.nfields[p]
        rows = _HARVEST_ROWS.get(nf)
        if rows is None:
            out = [_HARVEST[f] for f in self.harvestable(s, p)]
        else:  # table lookup by field classes (same result as harvestable)
            fc = s.fcount
            base = p * 3
            key = 0
            for i in range(base, base + nf):
                c = fc[i]
                key = key * 3 + (c if c < 2 else 2)
            out = rows[key][:]
        if self.can_buy(s, p):
            out.append(BUY_FIELD)
        return out

    def apply_free(self, s: State, p: int, action: Action) -> bool:
        """Apply a harvest or buy of seat ``p``; returns False if the action is not one."""
        if action.kind == _K_HARVEST:
            self.harvest(s, p, action.a)
            return True
        if action.kind == _K_BUY_FIELD:
            paid = s.coins[p][-self.field_cost:]
            del s.coins[p][-self.field_cost:]
            self.pay_field(s, paid)
            s.nfields[p] = 3
            return True
        return False

    def plant_card_actions(self, s: State, p: int, cards: list[int]) -> list[Action]:
        """PLANT_CARD for each distinct type in ``cards`` and each field it fits."""
        out: list[Action] = []
        for bean in sorted(set(cards)):
            row = _PLANT_CARD[bean]
            out += [row[f] for f in self.fits(s, p, bean)]
        return out

    # -- COM-9 drawing and run-outs --------------------------------------------------------------
    def reshuffle(self, s: State) -> None:
        """Make the new draw deck from the discard pile (plus set-aside cards)."""
        deck = s.discard + s.set_aside
        s.discard = []
        s.set_aside = []
        shuffle(s.rng(), deck)
        s.deck = deck

    def draw(self, s: State):
        """Take the top deck card, counting run-outs (COM-9). Returns None when nothing can be drawn."""
        while True:
            if s.deck:
                card = s.deck.pop()
                if not s.deck and s.runouts < s.limit:
                    s.runouts += 1
                    if s.runouts < s.limit:
                        self.reshuffle(s)
                return card
            if s.runouts >= s.limit:
                return None
            s.runouts += 1
            if s.runouts < s.limit:
                self.reshuffle(s)

    def ended_by_runout(self, s: State) -> bool:
        return s.runouts >= s.limit

    def draw_to_hand(self, s: State, p: int, count: int) -> None:
        """Draw up to ``count`` cards onto the back of the hand, stopping at the game-end run-out."""
        hand, known, bit = s.hands[p], s.known[p], 1 << p
        for _ in range(count):
            if s.runouts >= s.limit:
                return
            card = self.draw(s)
            if card is None:
                return
            hand.append(card)
            known.append(bit)

    def deal(self, s: State, sizes: list[int], first: int) -> None:
        """Deal one card at a time in seat order from ``first`` until each seat has its size."""
        n = s.n
        order = [(first + k) % n for k in range(n)]
        for r in range(max(sizes)):
            for p in order:
                if r < sizes[p]:
                    s.hands[p].append(s.deck.pop())
                    s.known[p].append(1 << p)

    def new_deck(self, s: State) -> None:
        deck = expand(self.composition())
        shuffle(s.rng(), deck)
        s.deck = deck

    # -- COM-10 / COM-11 end ---------------------------------------------------------------------
    def final_harvest(self, s: State) -> None:
        for p in range(s.n):
            for f in range(s.nfields[p]):
                if s.fcount[p * 3 + f]:
                    self.harvest(s, p, f)

    def end_game(self, s: State) -> None:
        self.final_harvest(s)
        s.over = True
        s.decision = "game_over"
        s.actor = EMPTY

    def scores(self, s: State) -> list[int]:
        return [len(c) for c in s.coins]

    def winners(self, s: State) -> list[int]:
        """Most coins, tie-break most hand cards, then shared (BASE-11)."""
        if not s.over:
            return []
        key = [(len(s.coins[p]), len(s.hands[p])) for p in range(s.n)]
        best = max(key)
        return [p for p in range(s.n) if key[p] == best]

    # -- hidden information hooks (INFO-1..3); variants with extra hidden data override ------------
    def mask(self, s: State, player: int) -> State:
        """A copy of ``s`` with everything hidden from ``player`` replaced by -1."""
        from .views import mask_state
        return mask_state(s, player)

    def extra_unseen(self, s: State) -> list[int]:
        """Unseen cards a masked state keeps outside hands and deck (none in the base rules)."""
        return []

    def extra_seen(self, s: State) -> Counter:
        """Visible cards a masked state keeps in variant-specific places (e.g. the mafia's fields)."""
        return Counter()

    def fill_hidden(self, s: State, unseen, rng) -> None:
        """Fill variant-specific hidden places of a masked state from the iterator ``unseen``."""

    def render_extra(self, s: State) -> str:
        """Extra lines for the text rendering (mafia, text cards, ...)."""
        return ""

    # -- card conservation -------------------------------------------------------------------------
    def locations(self, s: State) -> dict[str, Counter]:
        """Every place a card can be, as type counts (used by conservation checks)."""
        fields: Counter = Counter()
        for i, bean in enumerate(s.ftype):
            if s.fcount[i]:
                fields[bean] += s.fcount[i]
        return {
            "deck": Counter(s.deck), "discard": Counter(s.discard), "removed": Counter(s.removed),
            "set_aside": Counter(s.set_aside), "face_up": Counter(s.face_up),
            "hands": Counter(c for h in s.hands for c in h), "fields": fields,
            "coins": Counter(c for h in s.coins for c in h),
            "to_plant": Counter(c for h in s.to_plant for c in h),
        }
