"""`al_cabohne` (2 players) and `bean_solitaire` (1 player): the bean mafia (MAF-*).

Terms:
- *boss*: a mafia member with one field: Al Cabohne (boss 0, harvests at >= 3 coins), Don Corlebohne
  (boss 1, >= 2), Joe Bohnano (boss 2, >= 1, solitaire only). Boss fields live in ``s.btype`` (type
  code, -1 when empty) and ``s.bcount``; no two bosses grow one type (MAF-1).
- *treasury*: the mafia's coin cards, ``s.treasury`` (top = last).
- *stack*: all face-up cards of one type (``s.face_up`` is a multiset of types).
- *threshold harvest*: after every move that adds cards to a boss, the boss harvests at once if the
  field is worth at least its threshold (MAF-2).

A turn (2-player step numbers; solitaire has no step 1): step 1 ``leftovers`` (the opponent's face-up
cards, one per decision); step 2 ``yield`` (free actions, then *continue* makes the yields; only opened
when a yield is due); step 3 ``plant`` / ``plant_optional``, then ``turn_up``; step 4 (automatic turn-up
with Q1/Q2); step 5 ``place`` (stacks and gifts until *done*), then ``fill`` (gifts to empty bosses);
step 6 draw 2.
"""
# mypy: disable-error-code="attr-defined"
# (compiled build: the mafia's fields and treasury are State attributes the State class does not declare)
from __future__ import annotations

from collections import Counter

from ..cards import CODE, DECKS, NAMES, NUM_TYPES, coins_for
from .actions import CONTINUE, DONE, STOP_PLANTING, TURN_UP, Action, Kind
from .common import Rules
from .events import Donation
from .state import EMPTY, State

BOSS_NAMES = ("Al Cabohne", "Don Corlebohne", "Joe Bohnano")
THRESHOLDS = (3, 2, 1)       # MAF-1: coins at which each boss harvests
FIELD_COST = 4               # MAF-11: 3rd field in the 2-player game
BOSS_TARGET = 3              # PLACE_STACK target b >= 3 means boss b - 3

# Action kinds compared when stepping (a module constant reads faster than an enum class attribute)
_K_DONE, _K_PLACE_STACK, _K_STOP_PLANTING = Kind.DONE, Kind.PLACE_STACK, Kind.STOP_PLANTING

_PLANT = [Action(Kind.PLANT, f) for f in range(3)]
_GIFTS: list[tuple[Action, ...]] = []  # _GIFTS[i][b]: give hand card i to boss b
_STACKS = [tuple(Action(Kind.PLACE_STACK, bean, target) for target in range(BOSS_TARGET + 3))
           for bean in range(NUM_TYPES)]  # _STACKS[type][target]


def _give(i: int, b: int) -> Action:
    while len(_GIFTS) <= i:
        _GIFTS.append(tuple(Action(Kind.GIVE_MAFIA, len(_GIFTS), k) for k in range(3)))
    return _GIFTS[i][b]


class MafiaRules(Rules):
    """Rules shared by both mafia variants; ``SolitaireRules`` changes the set-up and the end."""

    variant = "al_cabohne"
    field_cost = FIELD_COST
    allow_duplicates = False  # COM-3: always false with the mafia
    bosses = 2
    solo = False

    def __init__(self, config: dict):
        super().__init__(config)
        self.allow_duplicates = False

    def composition(self) -> dict[int, int]:
        return dict(DECKS["AC"])  # CARD-2

    # -- set-up (MAF-3, MAF-4) ------------------------------------------------------------------
    def setup(self, s: State) -> None:
        s.limit = 3                       # MAF-12
        s.btype = [EMPTY] * self.bosses
        s.bcount = [0] * self.bosses
        s.treasury = []
        self.new_deck(s)
        s.dealer = 1                      # MAF-3: seat 0 is the dealer's opponent and starts
        self.deal(s, [5, 5], 0)
        self.setup_bosses(s)
        self.check_thresholds(s)          # MAF-3: once set-up is done
        s.active = 0
        self.start_turn(s)

    def setup_bosses(self, s: State) -> None:
        """Al takes the first card and the run of equal cards after it; the next card goes to Don."""
        deck = s.deck
        first = deck.pop()
        self.boss_put(s, 0, first, 1)
        while True:
            card = deck.pop()
            if card == first:
                s.bcount[0] += 1
            else:
                self.boss_put(s, 1, card, 1)
                return

    def check_thresholds(self, s: State) -> None:
        for b in range(self.bosses):
            self.boss_check(s, b)

    # -- the mafia's fields (MAF-1, MAF-2) ----------------------------------------------------------
    def boss_put(self, s: State, b: int, bean: int, count: int) -> None:
        s.btype[b] = bean
        s.bcount[b] += count

    def boss_add(self, s: State, b: int, bean: int, count: int) -> None:
        """One move adding ``count`` cards to boss ``b``, then its threshold check (MAF-2)."""
        self.boss_put(s, b, bean, count)
        self.boss_check(s, b)

    def boss_check(self, s: State, b: int) -> None:
        if s.bcount[b] and coins_for(s.btype[b], s.bcount[b]) >= THRESHOLDS[b]:
            self.boss_harvest(s, b)

    def boss_harvest(self, s: State, b: int) -> None:
        """COM-5 for a boss: coins to the treasury, the rest onto the discard pile."""
        bean, count = s.btype[b], s.bcount[b]
        coins = coins_for(bean, count)
        s.treasury.extend([bean] * coins)
        s.discard.extend([bean] * (count - coins))
        s.btype[b] = EMPTY
        s.bcount[b] = 0

    def grower(self, s: State, bean: int) -> int:
        """The boss growing ``bean``, or -1."""
        for b in range(self.bosses):
            if s.bcount[b] and s.btype[b] == bean:
                return b
        return EMPTY

    # -- 3rd field (MAF-11) -------------------------------------------------------------------------
    def can_buy(self, s: State, p: int) -> bool:
        return not self.solo and s.nfields[p] < 3 and len(s.coins[p]) >= self.field_cost

    def pay_field(self, s: State, coins: list[int]) -> None:
        s.set_aside.extend(coins)  # shuffled into the next new draw deck (COM-9 reshuffle)

    # -- flow ----------------------------------------------------------------------------------------
    def start_turn(self, s: State) -> None:
        s.planted = 0
        s.actor = s.active
        if s.face_up and not self.solo:
            s.decision = "leftovers"  # MAF-5
        else:
            self.begin_yield(s)

    def yields_due(self, s: State) -> bool:
        p = s.active
        growing = {s.btype[b] for b in range(self.bosses) if s.bcount[b]}
        return any(s.fcount[i] and s.ftype[i] in growing for i in s.field_range(p))

    def begin_yield(self, s: State) -> None:
        s.actor = s.active
        if self.yields_due(s):
            s.decision = "yield"  # MAF-14: harvest in time to avoid a yield
        else:
            self.begin_plant(s)

    def do_yields(self, s: State) -> None:
        """MAF-6: one card of each field whose type a boss grows, in boss order, each checked."""
        p = s.active
        for b in range(self.bosses):
            if not s.bcount[b]:
                continue
            bean = s.btype[b]
            for i in s.field_range(p):
                if s.fcount[i] and s.ftype[i] == bean:
                    s.fcount[i] -= 1
                    if not s.fcount[i]:
                        s.ftype[i] = EMPTY
                    self.boss_add(s, b, bean, 1)
                    break

    def begin_plant(self, s: State) -> None:
        s.actor = s.active
        s.decision = "plant" if s.hands[s.active] else "turn_up"  # MAF-7

    def turn_up(self, s: State) -> None:
        """MAF-8: turn up three (Q1 with replacements, Q2 after every discard change), then step 5."""
        counted = 0
        while counted < 3:
            card = self.draw(s)
            ending = s.runouts >= s.limit
            if card is not None:
                b = self.grower(s, card)
                if b >= 0:
                    self.boss_add(s, b, card, 1)  # Q1; a replacement follows unless the game ends
                else:
                    s.face_up.append(card)
                    counted += 1
                self.match_discards(s)
            if ending:
                s.end_pending = True
                break
        self.begin_place(s)

    def match_discards(self, s: State) -> None:
        """Q2: while the top discard card matches a face-up stack, it joins the stack; a stack whose
        type a boss grows goes to that boss whole."""
        discard, face_up = s.discard, s.face_up
        while discard and discard[-1] in face_up:
            bean = discard.pop()
            face_up.append(bean)
            b = self.grower(s, bean)
            if b >= 0:
                n = face_up.count(bean)
                s.face_up = face_up = [c for c in face_up if c != bean]
                self.boss_add(s, b, bean, n)

    def begin_place(self, s: State) -> None:
        s.actor = s.active
        s.decision = "place"  # MAF-9 (A)

    def fill_gifts(self, s: State) -> list[Action]:
        """MAF-9 (B): gifts that put a card onto an empty boss (of a type no other boss grows)."""
        empty = [b for b in range(self.bosses) if s.bcount[b] == 0]
        if not empty:
            return []
        grown = {s.btype[b] for b in range(self.bosses) if s.bcount[b]}
        return self.gifts(s.hands[s.active], lambda bean: () if bean in grown else empty)

    @staticmethod
    def gifts(hand: list[int], targets) -> list[Action]:
        """GIVE_MAFIA for each hand card to each boss in ``targets(type)``; of equal adjacent hand
        cards only the first is offered (same outcome)."""
        out = []
        prev = EMPTY
        for i, bean in enumerate(hand):
            if bean != prev:
                for b in targets(bean):
                    out.append(_give(i, b))
            prev = bean
        return out

    def begin_fill(self, s: State) -> None:
        if self.fill_gifts(s):
            s.decision = "fill"
            return
        if any(s.bcount[b] == 0 for b in range(self.bosses)):
            everyone = (1 << s.n) - 1  # MAF-9: the hand is shown (INFO-2)
            s.known[s.active] = [everyone] * len(s.hands[s.active])
        self.end_step5(s)

    def end_step5(self, s: State) -> None:
        if s.end_pending:  # MAF-12: a step-4 run-out ends the game after step 5
            s.discard.extend(s.face_up)
            s.face_up = []
            self.end_game(s)
            return
        self.draw_to_hand(s, s.active, 2)  # MAF-10
        if s.runouts >= s.limit:
            self.end_game(s)
            return
        if not self.solo:
            s.active = 1 - s.active
        s.turn += 1
        self.start_turn(s)

    def end_game(self, s: State) -> None:
        for b in range(self.bosses):  # COM-10: the bosses harvest too
            if s.bcount[b]:
                self.boss_harvest(s, b)
        super().end_game(s)

    # -- legal actions (AGT-1) -------------------------------------------------------------------------
    def legal(self, s: State) -> list[Action]:
        d, p = s.decision, s.actor
        if d == "game_over":
            return []
        free = self.free_actions(s, p)
        if d == "leftovers":
            return self.leftover_actions(s, p) + free
        if d == "yield":
            return [CONTINUE] + free
        if d == "plant":
            return [_PLANT[f] for f in self.fits(s, p, s.hands[p][0])] + free
        if d == "plant_optional":
            return [_PLANT[f] for f in self.fits(s, p, s.hands[p][0])] + [STOP_PLANTING] + free
        if d == "turn_up":
            return [TURN_UP] + free
        if d == "place":
            return self.place_actions(s, p) + free
        if d == "fill":
            return self.fill_gifts(s) + free
        raise AssertionError(f"unknown decision point {d!r}")

    def place_actions(self, s: State, p: int) -> list[Action]:
        growers = {s.btype[b]: (b,) for b in range(self.bosses) if s.bcount[b]}
        empty = tuple(b for b in range(self.bosses) if s.bcount[b] == 0)

        def targets(bean: int) -> tuple:  # the boss growing it, else every empty boss (MAF-1)
            return growers.get(bean, empty)

        out = []
        if s.face_up:
            for bean in sorted(set(s.face_up)):
                row = _STACKS[bean]
                for f in self.fits(s, p, bean):
                    out.append(row[f])
                for b in targets(bean):
                    out.append(row[BOSS_TARGET + b])
        out += self.gifts(s.hands[p], targets)
        if not (self.solo and s.face_up):
            out.append(DONE)  # MAF-9: solitaire ends placements only with no face-up card left
        return out

    # -- applying ------------------------------------------------------------------------------------------
    def step(self, s: State, action: Action) -> None:
        p = s.actor
        if self.apply_free(s, p, action):
            return
        d, kind = s.decision, action.kind
        if d == "leftovers":
            self.resolve_leftover(s, p, action)
            if not s.face_up:
                self.begin_yield(s)
        elif d == "yield":
            self.do_yields(s)
            self.begin_plant(s)
        elif d == "plant" or d == "plant_optional":
            if kind == _K_STOP_PLANTING:
                self.turn_up(s)
                return
            s.decision = "plant_optional" if self.plant_front(s, p, action.a) else "turn_up"
        elif d == "turn_up":
            self.turn_up(s)
        elif d == "place":
            if kind == _K_DONE:
                self.begin_fill(s)
            elif kind == _K_PLACE_STACK:
                self.place_stack(s, p, action.a, action.b)
            else:
                self.give(s, p, action.a, action.b)
        elif d == "fill":
            self.give(s, p, action.a, action.b)
            self.begin_fill(s)

    def place_stack(self, s: State, p: int, bean: int, target: int) -> None:
        n = s.face_up.count(bean)
        s.face_up = [c for c in s.face_up if c != bean]
        if target < BOSS_TARGET:
            self.plant(s, p, target, bean, n)
        else:
            self.boss_add(s, target - BOSS_TARGET, bean, n)

    def give(self, s: State, p: int, pos: int, b: int) -> None:
        bean = s.hands[p].pop(pos)
        s.known[p].pop(pos)
        self.boss_add(s, b, bean, 1)
        if self.events is not None:
            self.events.append(Donation(p, bean, b))

    # -- results (MAF-13) ----------------------------------------------------------------------------------
    def winners(self, s: State) -> list[int]:
        """A player beats the mafia only with strictly more coins; between players, coins then hand."""
        if not s.over:
            return []
        mafia = len(s.treasury)
        key = [(len(s.coins[p]), len(s.hands[p])) for p in range(s.n)]
        best = max(key)
        if best[0] <= mafia:
            return []
        return [p for p in range(s.n) if key[p] == best]

    # -- hidden information and conservation ------------------------------------------------------------
    def extra_seen(self, s: State) -> Counter:
        """The mafia's fields and treasury are public (INFO-1)."""
        seen: Counter = Counter(s.treasury)
        for b in range(self.bosses):
            if s.bcount[b]:
                seen[s.btype[b]] += s.bcount[b]
        return seen

    def locations(self, s: State) -> dict[str, Counter]:
        out = super().locations(s)
        bosses: Counter = Counter()
        for b in range(self.bosses):
            if s.bcount[b]:
                bosses[s.btype[b]] += s.bcount[b]
        out["bosses"] = bosses
        out["treasury"] = Counter(s.treasury)
        return out

    def render_extra(self, s: State) -> str:
        parts = []
        for b in range(self.bosses):
            field = f"{NAMES[s.btype[b]]} x{s.bcount[b]}" if s.bcount[b] else " empty "
            parts.append(f"{BOSS_NAMES[b]} (>={THRESHOLDS[b]}) [{field}]")
        return f" mafia coins {len(s.treasury):2d} | " + " ".join(parts)

    # -- exact positions (positions.py) ----------------------------------------------------------------
    def place_areas(self, s: State, areas: dict) -> list[int]:
        """Set the mafia of a position: ``{"bosses": [(type, count) or None, ...], "treasury": types
        or an int of blue coins}``; returns the cards placed."""
        unknown = set(areas) - {"bosses", "treasury"}
        if unknown:
            raise ValueError(f"unknown position areas {sorted(unknown)} for {s.variant!r}; "
                             "allowed: bosses, treasury")
        s.btype = [EMPTY] * self.bosses
        s.bcount = [0] * self.bosses
        placed = []
        bosses = areas.get("bosses") or []
        if len(bosses) > self.bosses:
            raise ValueError(f"bosses has {len(bosses)} entries; {s.variant!r} has {self.bosses} bosses")
        for b, spec in enumerate(bosses):
            if spec:
                bean = _code(spec[0], f"bosses[{b}]")
                if self.grower(s, bean) >= 0:
                    raise ValueError(f"two bosses grow {spec[0]!r} (MAF-1)")
                self.boss_put(s, b, bean, int(spec[1]))
                placed.extend([bean] * int(spec[1]))
        t = areas.get("treasury", [])
        s.treasury = [CODE["blue"]] * t if isinstance(t, int) else [_code(n, "treasury") for n in t]
        placed.extend(s.treasury)
        return placed


def _code(name: str, where: str) -> int:
    if name not in CODE:
        raise ValueError(f"unknown bean type {name!r} in {where}; allowed: {', '.join(CODE)}")
    return CODE[name]


class SolitaireRules(MafiaRules):
    """`bean_solitaire`: three bosses, three fields from the start, ends at the 1st run-out."""

    variant = "bean_solitaire"
    bosses = 3
    solo = True

    def setup(self, s: State) -> None:
        s.limit = 1                       # MAF-12
        s.nfields = [3]                   # MAF-4
        s.btype = [EMPTY] * self.bosses
        s.bcount = [0] * self.bosses
        s.treasury = []
        self.new_deck(s)
        s.dealer = 0
        self.deal(s, [7], 0)
        self.setup_bosses(s)
        deck = s.deck
        while True:  # MAF-4: Joe gets the first card of a type no other boss grows
            card = deck.pop()
            b = self.grower(s, card)
            if b >= 0:
                s.bcount[b] += 1
            else:
                self.boss_put(s, 2, card, 1)
                break
        self.check_thresholds(s)
        s.active = 0
        self.start_turn(s)

    def scores(self, s: State) -> list[int]:
        """MAF-13: player coins - 2 x mafia coins."""
        return [len(s.coins[0]) - 2 * len(s.treasury)]

    def winners(self, s: State) -> list[int]:
        """A win needs a positive score; a draw or loss has no winner."""
        return [0] if s.over and self.scores(s)[0] > 0 else []


# -- action catalogue (the env's Discrete space; catalogue.py) ---------------------------------------------
from .catalogue import Span, deck_types, fields, hand_positions, register_catalogue  # noqa: E402


def mafia_catalogue(rules: MafiaRules) -> list[Span]:
    """The mafia variants' spans; solitaire has no leftovers step and no 3rd-field purchase."""
    types = deck_types(rules)
    bosses = tuple(range(rules.bosses))
    spans = [Span(Kind.PLANT, fields())]
    if not rules.solo:
        spans.append(Span(Kind.PLANT_CARD, types, fields()))
    spans.append(Span(Kind.HARVEST, fields()))
    if not rules.solo:
        spans.append(Span(Kind.BUY_FIELD))
    spans += [Span(Kind.STOP_PLANTING), Span(Kind.DONE)]
    if not rules.solo:
        spans.append(Span(Kind.DISCARD, types))
    spans += [Span(Kind.TURN_UP), Span(Kind.CONTINUE),
              Span(Kind.GIVE_MAFIA, hand_positions(rules), bosses),
              Span(Kind.PLACE_STACK, types, fields() + tuple(BOSS_TARGET + b for b in bosses))]
    return spans


register_catalogue("al_cabohne", mafia_catalogue)
register_catalogue("bean_solitaire", mafia_catalogue)
