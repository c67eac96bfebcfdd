"""`hostile_takeover` (Telebohn), 2-5 players: rules HT-1..19 with the text cards TXT-1..18.

Terms (see also ``textcards``):
- *pile*: the real beans of a field, bottom to top, in ``s.piles[i]`` (``i = 3 * seat + field``). A field's
  type is the type of its top card (after Mutabohne piles hold several types, TXT-8); ``s.ftype`` and
  ``s.fcount`` mirror the top type and the number of real beans for the shared views.
- *Jokerbohne*: ``s.joker`` is the field index the TXT-6 card lies on, or -1. *Protection*: ``s.guard[i]``
  is the defence text card lying on field ``i``, or -1 (HT-12).
- *role holder*: ``s.active``, the player holding the active role.
- *copying round* (HT-18): after a regular action of the leader (the active player, or the player of
  TXT-4 in the final harvest), the passive players still in ``s.cp_queue`` are asked in turn;
  ``s.cp_quota`` copies are left; ``s.cp_took`` are the seats that carried out a takeover in it.
- *top-level point*: a decision where a player may start a regular action or play text cards: ``turn``
  (the active player), ``copy`` (a passive player's copy prompt), ``final`` and ``final_play`` (HT-19,
  TXT-4). A composite started there remembers it in ``s.ctx`` / ``s.owner``.
- *committed text cards*: ``s.cmods``, the text cards already played into the composite being built;
  they go to the text discard pile when it is carried out.

Hands have no order (HT-3): they are kept sorted by type and actions name a type, not a position.
Decision points: ``turn``, ``copy``, ``play``, ``place``, ``harvest``, ``attack``, ``defend``,
``override``, ``show``, ``seed_coin``, ``seed_keep``, ``final``, ``final_play``, ``game_over``.
"""
from __future__ import annotations

from bisect import bisect_left, insort
from collections import Counter

from ..cards import DECKS, GARDEN, expand, handicap
from .actions import Action, Kind
from .common import Rules
from .state import EMPTY, State
from .textcards import (DIABOHNO_TYPES, JOKER_TYPES, NO_CHEMISTRY, NUM_TEXTS, PIZZAS, TXT_BOHNBASTICA,
                        TXT_BOHNOTONI, TXT_CALZBOHNE, TXT_CHEMIEKEULE, TXT_DIABOHNO, TXT_EXTRA_HARVEST,
                        TXT_EXTRAKARTE, TXT_JOKER, TXT_MIGHTY, TXT_MUTA, TXT_PIRATE, TXT_PLAY_AT_END,
                        TXT_SAMENHANDEL, TXT_SEVEN, TXT_STRONG, TXT_SWAP_FIELDS, TXT_SWAP_HANDS,
                        TXT_VARIABLE, bohnbastica, bohnotoni, calzbohne, diabohno, meter_value, next_type)

HIDDEN = -2      # a defence card whose identity the viewer does not know (masked states only)
MUTA_FLAG = 16   # HT_PLAY b = type + MUTA_FLAG: the play uses Mutabohne (TXT-8)
HAND_LIMIT = 5   # HT-5 draw up to five
ALL_BITS = (1 << 16) - 1

END_TURN = Action(Kind.HT_END_TURN)
CONFIRM = Action(Kind.HT_CONFIRM)
TURN_UP = Action(Kind.HT_TURN_UP)
NO_DEFENCE = Action(Kind.HT_NO_DEFENCE)
OVERRIDE = Action(Kind.HT_OVERRIDE)
GIVE_UP = Action(Kind.HT_GIVE_UP)
REDRAW = Action(Kind.HT_REDRAW)
KEEP_SHOWN = Action(Kind.HT_KEEP_SHOWN)
PASS = Action(Kind.PASS)
DONE = Action(Kind.DONE)

# The regular actions a-e (HT-4) by the kind that starts them.
REGULAR = {Kind.HT_PLAY: "a", Kind.HT_MERGE: "b", Kind.HT_MERGE_MUTA: "b", Kind.HT_TURN_UP: "c",
           Kind.HT_HARVEST: "d", Kind.HT_ATTACK: "e"}
# Text cards never played on their own (they modify a regular action, HT-16, or open the final harvest).
_TIED = {TXT_CHEMIEKEULE, TXT_MIGHTY, TXT_MUTA, TXT_STRONG, TXT_VARIABLE, *PIZZAS}


class TakeoverRules(Rules):
    variant = "hostile_takeover"
    allow_duplicates = True  # COM-3: always in HT

    def __init__(self, config: dict):
        super().__init__(config)
        self.allow_duplicates = True
        self.max_actions = config.get("max_actions_per_turn", 200)
        self.max_turns = config.get("max_turns", 400)

    def composition(self) -> dict[int, int]:
        return dict(DECKS["HT"])  # CARD-2

    # -- set-up (HT-1, HT-2, HT-4) -----------------------------------------------------------------
    def setup(self, s: State) -> None:
        n = s.n
        init_fields(s)
        s.nfields = [2 if n == 2 else 3] * n
        s.limit = 1 if n == 2 else 3                       # HT-6
        cards = expand(self.composition())
        cards.remove(GARDEN)
        cards.remove(GARDEN)
        s.set_aside = [GARDEN, GARDEN]                     # face up under the deck, not drawable
        s.rng().shuffle(cards)
        s.deck = cards
        texts = list(range(NUM_TEXTS))
        s.rng().shuffle(texts)
        s.tdeck = texts
        start = s.rng().randrange(n)                       # HT-4
        order = [(start + k) % n for k in range(n)]
        for p in order:                                    # HT-1: one card on each field, field 1 first
            for f in range(s.nfields[p]):
                self.put(s, p * 3 + f, [s.deck.pop()])
        for _ in range(HAND_LIMIT):
            for p in order:
                self.hand_add(s, p, s.deck.pop(), 1 << p)
        for _ in range(3 if n == 2 else 2):                # HT-2
            for p in order:
                self.tdraw(s, p)
        s.active = start
        s.turn = 0
        self.to_turn(s)

    def enter_phase(self, s: State, phase: str) -> None:
        """Entry for ``positions.make_position``: rebuild piles from ftype/fcount, start a turn."""
        for i in range(3 * s.n):
            s.piles[i] = [s.ftype[i]] * s.fcount[i] if s.fcount[i] else []
            self.sync(s, i)
        s.joker, s.guard = -1, [-1] * (3 * s.n)
        for p in range(s.n):
            order = sorted(range(len(s.hands[p])), key=lambda k: s.hands[p][k])
            s.hands[p] = [s.hands[p][k] for k in order]
            s.known[p] = [s.known[p][k] for k in order]
        self.to_turn(s)

    # -- small state helpers -------------------------------------------------------------------
    @staticmethod
    def sync(s: State, i: int) -> None:
        pile = s.piles[i]
        s.ftype[i] = pile[-1] if pile else EMPTY
        s.fcount[i] = len(pile)

    def put(self, s: State, i: int, cards: list[int]) -> None:
        s.piles[i].extend(cards)
        self.sync(s, i)

    @staticmethod
    def size(s: State, i: int) -> int:
        """Field size: real beans plus the Jokerbohne (TXT-6)."""
        return len(s.piles[i]) + (1 if s.joker == i else 0)

    def emptied(self, s: State, i: int) -> None:
        """Field ``i`` has no bean left: the Jokerbohne and a defence card go to the text discard."""
        self.sync(s, i)
        if s.joker == i:
            s.joker = -1
            s.tdiscard.append(TXT_JOKER)
        if s.guard[i] >= 0:
            s.tdiscard.append(s.guard[i])
            s.guard[i] = -1

    @staticmethod
    def hand_add(s: State, p: int, card: int, bits: int) -> None:
        k = bisect_left(s.hands[p], card)
        s.hands[p].insert(k, card)
        s.known[p].insert(k, bits)

    @staticmethod
    def hand_take(s: State, p: int, card: int) -> None:
        """Remove one card of type ``card``: the copy known to the most players (nothing is learnt)."""
        hand, known = s.hands[p], s.known[p]
        k = bisect_left(hand, card)
        best = k
        while k < len(hand) and hand[k] == card:
            if bin(known[k]).count("1") > bin(known[best]).count("1"):
                best = k
            k += 1
        del hand[best]
        del known[best]

    @staticmethod
    def texts_take(s: State, p: int, code: int) -> None:
        s.texts[p].remove(code)

    def tdraw(self, s: State, p: int) -> None:
        """Draw a text card (HT-6: rebuild the text deck from its discard; nothing if both empty)."""
        if not s.tdeck and s.tdiscard:
            s.tdeck = s.tdiscard
            s.tdiscard = []
            s.rng().shuffle(s.tdeck)
        if s.tdeck:
            insort(s.texts[p], s.tdeck.pop())

    def reshuffle(self, s: State) -> None:
        """HT-6: the discards plus one Garden bean from under the deck become the new deck."""
        deck = s.discard
        s.discard = []
        if s.set_aside:
            deck.append(s.set_aside.pop())
        s.rng().shuffle(deck)
        s.deck = deck

    def draw_up(self, s: State, p: int, count: int) -> None:
        for _ in range(count):
            if s.runouts >= s.limit and not s.deck:
                break
            card = self.draw(s)
            if card is None:
                break
            self.hand_add(s, p, card, 1 << p)
            if s.runouts >= s.limit:
                s.end_pending = True
                if not s.deck:
                    break

    def note_runout(self, s: State) -> None:
        if s.runouts >= s.limit:
            s.end_pending = True

    def fields_of(self, s: State, p: int) -> range:
        return range(p * 3, p * 3 + s.nfields[p])

    def harvestable(self, s: State, p: int) -> list[int]:
        """Fields (0-based) seat ``p`` may harvest by d) (COM-6, the Jokerbohne counting, TXT-6)."""
        sizes = [self.size(s, i) for i in self.fields_of(s, p)]
        big = any(c >= 2 for c in sizes)
        return [f for f, c in enumerate(sizes) if c >= 2 or (c == 1 and not big)]

    def quota(self, s: State) -> int:
        """Copies allowed in a copying round (HT-13)."""
        n = s.n
        if n == 2:
            return 1
        if s.turn == 0 and not s.final:
            return n - 1
        return 2 if n == 5 else 1

    # -- flow -------------------------------------------------------------------------------------
    def to_turn(self, s: State) -> None:
        s.decision, s.actor, s.ctx, s.owner = "turn", s.active, "turn", s.active

    def back(self, s: State) -> None:
        """Return to the top-level point where the finished composite or text card was started."""
        s.cmods = []
        ctx, p = s.ctx, s.owner
        if ctx == "final":
            self.final_point(s)
            return
        s.decision, s.actor = ctx, p

    def done_regular(self, s: State, kind: str) -> None:
        """A regular action of ``s.owner`` was carried out (HT-13 copying follows)."""
        s.tdiscard.extend(s.cmods)
        s.cmods = []
        ctx, p = s.ctx, s.owner
        if ctx == "turn":
            s.acts += 1
            queue = [(p + k) % s.n for k in range(1, s.n)]
            self.open_copy(s, p, kind, queue, "turn")
        elif ctx == "copy":
            s.cp_quota -= 1
            if kind == "e":
                s.cp_took.append(p)
            self.next_copier(s)
        elif ctx == "final_play":
            queue = s.fin_order[1:]
            self.open_copy(s, p, kind, queue, "final_play")
        else:
            raise AssertionError(f"regular action in context {ctx!r}")

    def open_copy(self, s: State, leader: int, kind: str, queue: list[int], ret: str) -> None:
        s.cp_leader, s.cp_kind, s.cp_queue, s.cp_ret = leader, kind, queue, ret
        s.cp_quota = 0 if (kind == "e" and s.n == 2) else self.quota(s)
        s.cp_took = [leader] if kind == "e" else []
        self.next_copier(s)

    def next_copier(self, s: State) -> None:
        """Ask the next passive player who has something to decide (HT-13); else end the round."""
        while s.cp_queue:
            q = s.cp_queue.pop(0)
            if s.texts[q] or (s.cp_quota > 0 and self.may_be_asked(s, q)):
                s.decision, s.actor, s.ctx, s.owner = "copy", q, "copy", q
                return
        s.cp_kind, s.cp_quota, s.cp_took = "", 0, []
        leader, ret = s.cp_leader, s.cp_ret
        s.cp_leader = -1
        s.decision, s.actor, s.ctx, s.owner = ret, leader, ret, leader

    def may_be_asked(self, s: State, q: int) -> bool:
        """Whether a copy prompt is due without text cards, from public facts only (a hand's size)."""
        if s.cp_kind == "a":
            return bool(s.hands[q])
        return bool(self.copy_starts(s, q))

    def end_turn(self, s: State) -> None:
        if s.end_pending:                                  # HT-14
            self.start_final(s)
            return
        for i, g in enumerate(s.guard):                    # HT-12: protection ends
            if g >= 0:
                s.tdiscard.append(g)
                s.guard[i] = -1
        old = s.active
        s.active = (old + 1) % s.n
        s.turn += 1
        s.harvested = 0
        s.acts = 0
        if s.turn >= self.max_turns:                       # HT-17
            s.ext["truncated"] = True
            s.over = True
            s.decision, s.actor = "game_over", EMPTY
            return
        for p in [old] + [(s.active + k) % s.n for k in range(s.n) if (s.active + k) % s.n != old]:
            if s.end_pending:
                break
            self.draw_up(s, p, HAND_LIMIT - len(s.hands[p]))  # HT-5
        self.to_turn(s)

    def start_final(self, s: State) -> None:
        s.final = 1
        for i, g in enumerate(s.guard):
            if g >= 0:
                s.tdiscard.append(g)
                s.guard[i] = -1
        s.fin_order = [(s.active + k) % s.n for k in range(s.n)]
        s.fin_open = 1
        self.final_point(s)

    def final_point(self, s: State) -> None:
        """The current final-harvest player decides, or harvests automatically without text cards."""
        while s.fin_order:
            p = s.fin_order[0]
            s.ctx, s.owner = "final", p
            if s.texts[p]:
                s.decision, s.actor = "final", p
                return
            for i in self.fields_of(s, p):
                if s.piles[i]:
                    self.harvest(s, p, i, -1, [], final=True)
            self.next_final(s)
        s.over = True
        s.decision, s.actor = "game_over", EMPTY

    def next_final(self, s: State) -> None:
        s.fin_order.pop(0)
        s.fin_open = 1

    # -- legal actions ------------------------------------------------------------------------------
    def legal(self, s: State) -> list[Action]:
        d, p = s.decision, s.actor
        if d == "turn":
            if s.acts >= self.max_actions:
                return [END_TURN]
            return [END_TURN] + self.starts(s, p) + self.text_plays(s, p)
        if d == "copy":
            out = [PASS] + self.text_plays(s, p)
            if s.cp_quota > 0:
                out += self.copy_starts(s, p)
            return out
        if d == "play":
            return self.play_options(s, p)
        if d == "place":
            return [Action(Kind.HT_PLACE, i - p * 3) for i in self.fields_of(s, p) if not s.piles[i]]
        if d == "harvest":
            return self.harvest_options(s, p)
        if d == "attack":
            return self.attack_options(s, p)
        if d == "defend":
            return [Action(Kind.HT_DEFEND, c) for c in sorted(set(s.texts[p]))] + [NO_DEFENCE]
        if d == "override":
            return ([OVERRIDE] if TXT_STRONG in s.texts[p] else []) + [GIVE_UP]
        if d == "show":
            return [Action(Kind.HT_SHOW, t) for t in sorted(set(s.hands[p])) if t not in s.shown]
        if d == "seed_coin":
            return [Action(Kind.HT_COIN, t) for t in s.shown]
        if d == "seed_keep":
            return [REDRAW, KEEP_SHOWN]
        if d == "final":
            out = [Action(Kind.HT_FINAL, i - p * 3) for i in self.fields_of(s, p) if s.piles[i]]
            if not out:
                out = [DONE]
            if s.fin_open and TXT_PLAY_AT_END in s.texts[p]:
                out.append(Action(Kind.HT_TEXT, TXT_PLAY_AT_END))
            return out + self.text_plays(s, p)
        if d == "final_play":
            return self.play_starts(s, p) + [DONE]
        if d == "game_over":
            return []
        raise AssertionError(f"unknown decision point {d!r}")

    def starts(self, s: State, p: int) -> list[Action]:
        """Starts of the regular actions a-e for the active player (HT-4)."""
        out = self.play_starts(s, p) + self.merge_starts(s, p) + self.turn_up_starts(s, p)
        if not s.harvested:
            out += [Action(Kind.HT_HARVEST, f) for f in self.harvestable(s, p)]
        return out + self.attack_starts(s, p)

    def copy_starts(self, s: State, p: int) -> list[Action]:
        kind = s.cp_kind
        if kind == "a":
            return self.play_starts(s, p)
        if kind == "b":
            return self.merge_starts(s, p)
        if kind == "c":
            return self.turn_up_starts(s, p)
        if kind == "d":
            return [Action(Kind.HT_HARVEST, f) for f in self.harvestable(s, p)]
        if kind == "e":
            return self.attack_starts(s, p)
        return []

    # a) play (HT-7, TXT-8)
    def play_starts(self, s: State, p: int) -> list[Action]:
        """HT_PLAY (field, first card's type; + MUTA_FLAG with Mutabohne) for every legal first card."""
        hand = s.hands[p]
        if not hand:
            return []
        muta = TXT_MUTA in s.texts[p]
        types = sorted(set(hand))
        out = []
        for i in self.fields_of(s, p):
            pile = s.piles[i]
            f = i - p * 3
            if not pile:
                out.extend(Action(Kind.HT_PLAY, f, t) for t in types)
                continue
            if _has(hand, pile[-1]):
                out.append(Action(Kind.HT_PLAY, f, pile[-1]))
            if muta and _has(hand, next_type(pile[-1])):
                out.append(Action(Kind.HT_PLAY, f, next_type(pile[-1]) + MUTA_FLAG))
        return out

    def play_options(self, s: State, p: int) -> list[Action]:
        more = s.hands[p].count(s.ctype) > s.ccount
        return [Action(Kind.HT_ADD, s.ctype), CONFIRM] if more else [CONFIRM]

    def add_card(self, s: State, p: int) -> None:
        """One more card of ``s.ctype`` goes into the play; it is shown to everybody (INFO-2)."""
        hand, known, t = s.hands[p], s.known[p], s.ctype
        k = bisect_left(hand, t)
        stop = k
        while stop < len(hand) and hand[stop] == t:
            stop += 1
        shown = [i for i in range(k, stop) if known[i] == ALL_BITS]
        if len(shown) <= s.ccount:
            known[next(i for i in range(k, stop) if known[i] != ALL_BITS)] = ALL_BITS
        s.ccount += 1

    # b) merge (HT-8, TXT-8)
    def merge_starts(self, s: State, p: int) -> list[Action]:
        muta = TXT_MUTA in s.texts[p]
        base = p * 3
        out = []
        idx = [i for i in self.fields_of(s, p) if s.piles[i]]
        for i in idx:
            for j in idx:
                if i != j:
                    ti, tj = s.ftype[i], s.ftype[j]
                    if ti == tj:
                        out.append(Action(Kind.HT_MERGE, i - base, j - base))
                    elif muta and ti == next_type(tj):
                        out.append(Action(Kind.HT_MERGE_MUTA, i - base, j - base))
        return out

    # c) turn up (HT-9)
    def turn_up_starts(self, s: State, p: int) -> list[Action]:
        if s.deck and any(not s.piles[i] for i in self.fields_of(s, p)):
            return [TURN_UP]
        return []

    # d) harvest modifiers (HT-10, TXT-2, TXT-10..13)
    def harvest_options(self, s: State, p: int) -> list[Action]:
        held, i = s.texts[p], s.cf
        out = []
        meter = s.cchem_type if s.cchem_type >= 0 else s.ftype[i]
        final = s.ckind == "final"
        for code in PIZZAS:
            if code in held and code not in s.cmods and self.pizza_bonus(s, p, i, code, meter, final):
                out.append(Action(Kind.HT_MODIFY, code))
        if s.ckind == "d" and TXT_CHEMIEKEULE in held and s.cchem_type < 0:
            for j in self.fields_of(s, p):
                t = s.ftype[j]
                if j != i and s.piles[j] and t not in NO_CHEMISTRY and t != s.ftype[i]:
                    if TXT_BOHNOTONI in s.cmods and not bohnotoni(t, self.size(s, i), False):
                        continue
                    out.append(Action(Kind.HT_MODIFY, TXT_CHEMIEKEULE, j - p * 3))
        out.append(CONFIRM)
        return out

    def pizza_bonus(self, s: State, p: int, i: int, code: int, meter: int, final: bool) -> int:
        """The tier a pizza reaches for harvesting field ``i`` now (TXT-10..13); 0 = not met."""
        fields = self.fields_of(s, p)
        if code == TXT_BOHNBASTICA:
            return bohnbastica(sum(self.size(s, j) for j in fields))
        if code == TXT_BOHNOTONI:
            return bohnotoni(meter, self.size(s, i), final)
        if code == TXT_CALZBOHNE:
            return calzbohne([self.size(s, j) for j in fields], s.n == 2)
        count = 0
        for j in fields:
            count += sum(1 for c in s.piles[j] if c in DIABOHNO_TYPES)
            if s.joker == j and s.ftype[j] in DIABOHNO_TYPES:
                count += 1
        return diabohno(count)

    # e) takeover (HT-11, HT-13, HT-16, TXT-7, TXT-16, TXT-17)
    def targets(self, s: State, p: int) -> list[int]:
        if s.cp_leader >= 0:                               # inside a copying round (HT-13)
            banned = set(s.cp_took) | {s.cp_leader}
        else:
            banned = set()
        return [q for q in range(s.n) if q != p and q not in banned]

    def attack_ok(self, s: State, own: int, target: int, mods) -> bool:
        """Whether an attack with field ``own`` on field ``target`` using text cards ``mods`` is legal."""
        if not s.piles[own] or not s.piles[target]:
            return False
        protected = s.guard[target] != -1
        if protected:
            if TXT_STRONG not in mods or TXT_MIGHTY in mods or TXT_VARIABLE in mods:
                return False
        elif TXT_STRONG in mods:
            return False
        if own % 3 != target % 3 and TXT_VARIABLE not in mods:
            return False
        size = self.size(s, own) + (1 if TXT_MIGHTY in mods else 0)
        return (size, -handicap(s.ftype[own])) > (self.size(s, target), -handicap(s.ftype[target]))

    def required_mods(self, s: State, own: int, target: int, held) -> tuple | None:
        """The text cards an attack of ``own`` on ``target`` cannot do without (TXT-7 for strength,
        TXT-16 for a protected target, TXT-17 for another position), or None if it is impossible."""
        if s.guard[target] != -1:
            need = (TXT_STRONG,)
        else:
            need = (TXT_VARIABLE,) if own % 3 != target % 3 else ()
            if not self.attack_ok(s, own, target, need):
                need += (TXT_MIGHTY,)
        if not all(c in held for c in need) or not self.attack_ok(s, own, target, need):
            return None
        return need

    def attack_starts(self, s: State, p: int) -> list[Action]:
        """Every (own field, target field) with a legal completion (same test as ``required_mods``,
        computed from strength keys once per field)."""
        held = s.texts[p]
        h7, h16, h17 = TXT_MIGHTY in held, TXT_STRONG in held, TXT_VARIABLE in held
        piles, joker, ftype = s.piles, s.joker, s.ftype
        own = []
        for i in self.fields_of(s, p):
            if piles[i]:
                size = len(piles[i]) + (joker == i)
                own.append((i, size, -handicap(ftype[i])))
        if not own:
            return []
        out = []
        base = p * 3
        for q in self.targets(s, p):
            for j in self.fields_of(s, q):
                if not piles[j]:
                    continue
                tkey = (len(piles[j]) + (joker == j), -handicap(ftype[j]))
                protected = s.guard[j] != -1
                if protected and not h16:
                    continue
                for i, size, hc in own:
                    same = i % 3 == j % 3
                    if protected:
                        ok = same and (size, hc) > tkey
                    else:
                        ok = (same or h17) and ((size, hc) > tkey or (h7 and (size + 1, hc) > tkey))
                    if ok:
                        out.append(Action(Kind.HT_ATTACK, q, (i - base) * 3 + j - q * 3))
        return out

    def attack_options(self, s: State, p: int) -> list[Action]:
        """Optional TXT-7/TXT-17 (undefendable) for an unprotected target, and confirm."""
        held, j = s.texts[p], s.ctarget
        out = []
        if s.guard[j] == -1:
            for c in (TXT_MIGHTY, TXT_VARIABLE):
                if c in held and c not in s.cmods:
                    out.append(Action(Kind.HT_MODIFY, c))
        out.append(CONFIRM)
        return out

    # text cards played on their own (TXT-1, 3, 5, 6, 9, 14, 15, 18)
    def text_plays(self, s: State, p: int) -> list[Action]:
        held = s.texts[p]
        if not held:
            return []
        out = []
        final = bool(s.final)
        for code in sorted(set(held)):
            if code in _TIED or code == TXT_PLAY_AT_END:
                continue
            if code == TXT_SWAP_FIELDS:
                for q in range(s.n):
                    nf = s.nfields[q]
                    for f1 in range(nf):
                        for f2 in range(f1 + 1, nf):
                            if s.piles[q * 3 + f1] or s.piles[q * 3 + f2]:
                                out.append(Action(Kind.HT_TEXT, code, q * 9 + f1 * 3 + f2))
            elif code == TXT_EXTRAKARTE:
                if s.discard:
                    out.append(Action(Kind.HT_TEXT, code))
            elif code == TXT_SWAP_HANDS:
                if 1 <= len(s.hands[p]) <= 5:
                    out.extend(Action(Kind.HT_TEXT, code, q) for q in range(s.n) if q != p)
            elif code == TXT_JOKER:
                out.extend(Action(Kind.HT_TEXT, code, i - p * 3) for i in self.fields_of(s, p)
                           if s.piles[i] and s.ftype[i] in JOKER_TYPES)
            elif code == TXT_PIRATE:
                for i in self.fields_of(s, p):
                    if s.piles[i] and self.pirate_victims(s, p, i):
                        out.append(Action(Kind.HT_TEXT, code, i - p * 3))
            elif code == TXT_SAMENHANDEL:
                if len(set(s.hands[p])) >= 5:
                    out.append(Action(Kind.HT_TEXT, code))
            elif code == TXT_SEVEN:
                if not final and p != s.active:
                    out.append(Action(Kind.HT_TEXT, code))
            elif code == TXT_EXTRA_HARVEST:
                if not final:
                    out.extend(Action(Kind.HT_TEXT, code, i - p * 3) for i in self.fields_of(s, p)
                               if s.piles[i])
        return out

    def pirate_victims(self, s: State, p: int, i: int) -> list[int]:
        """Seats, clockwise from ``p``'s left, whose field in ``i``'s position grows ``i``'s type (TXT-9)."""
        f, t = i % 3, s.ftype[i]
        out = []
        for k in range(1, s.n):
            q = (p + k) % s.n
            j = q * 3 + f
            if f < s.nfields[q] and s.piles[j] and s.ftype[j] == t:
                out.append(q)
        return out

    # -- applying -------------------------------------------------------------------------------------
    def step(self, s: State, action: Action) -> None:
        d, p, kind = s.decision, s.actor, action.kind
        if d in ("turn", "copy", "final", "final_play"):
            self.top_level(s, p, action)
        elif d == "play":
            if kind == Kind.HT_ADD:
                self.add_card(s, p)
            else:
                for _ in range(s.ccount):
                    self.hand_take(s, p, s.ctype)
                self.put(s, s.cf, [s.ctype] * s.ccount)
                self.done_regular(s, "a")
        elif d == "place":
            i = p * 3 + action.a
            self.put(s, i, [s.face_up.pop()])
            self.done_regular(s, "c")
        elif d == "harvest":
            if kind == Kind.HT_MODIFY:
                self.texts_take(s, p, action.a)
                s.cmods.append(action.a)
                if action.a == TXT_CHEMIEKEULE:
                    s.cchem_type = s.ftype[p * 3 + action.b]
            else:
                self.finish_harvest(s, p)
        elif d == "attack":
            if kind == Kind.HT_MODIFY:
                self.texts_take(s, p, action.a)
                s.cmods.append(action.a)
            else:
                self.launch_attack(s, p)
        elif d == "defend":
            if kind == Kind.HT_DEFEND:
                self.texts_take(s, p, action.a)
                s.guard[s.ctarget] = action.a
                a = s.owner
                if s.texts[a]:
                    s.decision, s.actor = "override", a
                else:
                    self.done_regular(s, "e")
            else:
                self.swap_owners(s)
        elif d == "override":
            if kind == Kind.HT_OVERRIDE:
                self.texts_take(s, p, TXT_STRONG)
                s.tdiscard.append(TXT_STRONG)
                self.strong_takeover(s)
            else:
                s.decision, s.actor = "", p
                self.done_regular(s, "e")
        elif d == "show":
            s.shown.append(action.a)
            self.reveal(s, p, [action.a])
            if len(s.shown) == 5:
                s.decision = "seed_coin"
        elif d == "seed_coin":
            self.hand_take(s, p, action.a)
            s.coins[p].append(action.a)
            s.tdiscard.extend(s.cmods)
            s.cmods = []
            s.shown.remove(action.a)
            s.decision = "seed_keep"
        elif d == "seed_keep":
            if kind == Kind.HT_REDRAW:
                for t in s.shown:
                    self.hand_take(s, p, t)
                    s.discard.append(t)
                s.shown = []
                self.draw_up(s, p, 5)
            s.shown = []
            self.back(s)
        else:
            raise AssertionError(f"unknown decision point {d!r}")

    def top_level(self, s: State, p: int, action: Action) -> None:
        kind, d = action.kind, s.decision
        s.ctx, s.owner = d, p
        if d == "final" and not (kind == Kind.HT_TEXT and action.a == TXT_PLAY_AT_END):
            s.fin_open = 0
        if kind == Kind.HT_END_TURN:
            self.end_turn(s)
        elif kind == Kind.PASS:
            self.next_copier(s)
        elif kind == Kind.DONE:
            if d == "final_play":
                s.decision = "final"
            else:
                self.next_final(s)
                self.final_point(s)
        elif kind == Kind.HT_PLAY:
            s.cf, s.ctype, s.ccount, s.cmuta = p * 3 + action.a, action.b % MUTA_FLAG, 0, 0
            if action.b >= MUTA_FLAG:
                self.texts_take(s, p, TXT_MUTA)
                s.cmods.append(TXT_MUTA)
                s.cmuta = 1
            self.add_card(s, p)
            s.decision = "play"
        elif kind in (Kind.HT_MERGE, Kind.HT_MERGE_MUTA):
            if kind == Kind.HT_MERGE_MUTA:
                self.texts_take(s, p, TXT_MUTA)
                s.cmods.append(TXT_MUTA)
            self.merge(s, p * 3 + action.a, p * 3 + action.b)
            self.done_regular(s, "b")
        elif kind == Kind.HT_TURN_UP:
            card = self.draw(s)
            self.note_runout(s)
            s.face_up.append(card)
            s.decision = "place"
        elif kind in (Kind.HT_HARVEST, Kind.HT_FINAL):
            ckind = "final" if kind == Kind.HT_FINAL else "d"
            self.begin_harvest(s, p, p * 3 + action.a, ckind)
        elif kind == Kind.HT_ATTACK:
            s.cf, s.ctarget = p * 3 + action.b // 3, action.a * 3 + action.b % 3
            for c in self.required_mods(s, s.cf, s.ctarget, s.texts[p]):   # forced: played at once
                self.texts_take(s, p, c)
                s.cmods.append(c)
            if s.texts[p]:
                s.decision = "attack"
            else:
                self.launch_attack(s, p)
        elif kind == Kind.HT_TEXT:
            if d == "turn":
                s.acts += 1
            self.play_text(s, p, action.a, action.b)
        else:
            raise AssertionError(f"unexpected action {action} at {d!r}")

    # -- regular actions ---------------------------------------------------------------------------
    def merge(self, s: State, i: int, j: int) -> None:
        """Move field ``i`` onto field ``j`` (HT-8): the Jokerbohne moves, i's protection ends."""
        s.piles[j].extend(s.piles[i])
        s.piles[i] = []
        if s.joker == i:
            s.joker = j
        self.sync(s, j)
        self.emptied(s, i)

    def begin_harvest(self, s: State, p: int, i: int, ckind: str) -> None:
        s.cf, s.ckind, s.cchem_type = i, ckind, -1
        if s.texts[p]:
            s.decision, s.actor = "harvest", p
        else:
            self.finish_harvest(s, p)

    def finish_harvest(self, s: State, p: int) -> None:
        ckind = s.ckind
        pizzas = [c for c in s.cmods if c in PIZZAS]
        self.harvest(s, p, s.cf, s.cchem_type, pizzas, final=ckind == "final")
        if ckind == "d":
            if s.ctx == "turn":
                s.harvested = 1
            self.done_regular(s, "d")
            return
        s.tdiscard.extend(s.cmods)
        s.cmods = []
        if ckind == "final" and not any(s.piles[j] for j in self.fields_of(s, p)) and not s.texts[p]:
            self.next_final(s)
        self.back(s)

    def harvest(self, s: State, p: int, i: int, meter: int = -1, pizzas=(), final: bool = False) -> int:
        """Harvest and sell field ``i`` of seat ``p`` (COM-5, CARD-3, TXT-2, TXT-6, TXT-10..13).

        Returns the coins earned (bonus coins beyond the harvested cards included)."""
        size = self.size(s, i)
        own = s.ftype[i]
        meter = own if meter < 0 else meter
        coins, texts = meter_value(meter, size, final)
        bonuses = {c: self.pizza_bonus(s, p, i, c, meter, final) for c in pizzas}
        if TXT_BOHNOTONI in bonuses:
            coins = bonuses.pop(TXT_BOHNOTONI)
        coins += sum(bonuses.values())
        pile = s.piles[i]
        take = min(coins, len(pile))
        for _ in range(take):
            s.coins[p].append(pile.pop())
        s.bonus[p] += coins - take
        while pile:
            s.discard.append(pile.pop())
        self.emptied(s, i)
        for _ in range(texts):
            self.tdraw(s, p)
        return coins

    def launch_attack(self, s: State, p: int) -> None:
        """HT-16 steps 2-4 after the attacker confirmed the takeover."""
        own, j = s.cf, s.ctarget
        if s.guard[own] >= 0:                              # HT-12: attacking with it ends protection
            s.tdiscard.append(s.guard[own])
            s.guard[own] = -1
        if TXT_STRONG in s.cmods:
            self.strong_takeover(s)
        elif TXT_MIGHTY in s.cmods or TXT_VARIABLE in s.cmods or not s.texts[j // 3]:
            self.swap_owners(s)
        else:
            s.decision, s.actor = "defend", j // 3

    def strong_takeover(self, s: State) -> None:
        """TXT-16: the defence card goes to the attacker, the defender draws a text card, fields swap."""
        j = s.ctarget
        insort(s.texts[s.owner], s.guard[j])
        s.guard[j] = -1
        self.tdraw(s, j // 3)
        self.swap_owners(s)

    def swap_owners(self, s: State) -> None:
        i, j = s.cf, s.ctarget
        self.swap_fields(s, i, j)
        s.decision, s.actor = "", s.owner
        self.done_regular(s, "e")

    @staticmethod
    def swap_fields(s: State, i: int, j: int) -> None:
        """Exchange the contents of fields ``i`` and ``j`` with their Jokerbohne and protection."""
        s.piles[i], s.piles[j] = s.piles[j], s.piles[i]
        s.guard[i], s.guard[j] = s.guard[j], s.guard[i]
        if s.joker == i:
            s.joker = j
        elif s.joker == j:
            s.joker = i
        TakeoverRules.sync(s, i)
        TakeoverRules.sync(s, j)

    # -- text cards on their own --------------------------------------------------------------------
    def play_text(self, s: State, p: int, code: int, b: int) -> None:
        self.texts_take(s, p, code)
        if code == TXT_PLAY_AT_END:                         # TXT-4
            s.tdiscard.append(code)
            s.fin_open = 0
            s.decision, s.ctx = "final_play", "final_play"
            return
        if code == TXT_SAMENHANDEL:                         # TXT-14
            s.cmods = [code]
            s.shown = []
            s.decision = "show"
            return
        if code == TXT_EXTRA_HARVEST:                       # TXT-18
            s.tdiscard.append(code)
            self.begin_harvest(s, p, p * 3 + b, "t18")
            return
        if code == TXT_JOKER:                               # TXT-6 lies on the field
            s.joker = p * 3 + b
            self.back(s)
            return
        s.tdiscard.append(code)
        if code == TXT_SWAP_FIELDS:                         # TXT-1
            q, f1, f2 = b // 9, b // 3 % 3, b % 3
            self.swap_fields(s, q * 3 + f1, q * 3 + f2)
        elif code == TXT_EXTRAKARTE:                        # TXT-3
            self.hand_add(s, p, s.discard.pop(), ALL_BITS)
        elif code == TXT_SWAP_HANDS:                        # TXT-5
            q = b
            both = (1 << p) | (1 << q)
            hand_p, known_p = s.hands[p], s.known[p]
            s.hands[p], s.known[p] = s.hands[q], [k | both for k in s.known[q]]
            s.hands[q], s.known[q] = hand_p, [k | both for k in known_p]
        elif code == TXT_PIRATE:                            # TXT-9
            i = p * 3 + b
            for q in self.pirate_victims(s, p, i):
                j = q * 3 + b
                self.put(s, i, [s.piles[j].pop()])
                if s.piles[j]:
                    self.sync(s, j)
                else:
                    self.emptied(s, j)
        elif code == TXT_SEVEN:                             # TXT-15
            s.deck.extend(s.hands[p])
            s.hands[p], s.known[p] = [], []
            s.rng().shuffle(s.deck)
            self.draw_up(s, p, 7)
        self.back(s)

    @staticmethod
    def reveal(s: State, p: int, types) -> None:
        """Mark one card of each type in ``types`` in ``p``'s hand as known to everybody (TXT-14)."""
        hand, known = s.hands[p], s.known[p]
        for t in types:
            k = bisect_left(hand, t)
            while known[k] == ALL_BITS and k + 1 < len(hand) and hand[k + 1] == t:
                k += 1
            known[k] = ALL_BITS

    # -- scores (HT-14) -------------------------------------------------------------------------------
    def scores(self, s: State) -> list[int]:
        """Integer hundredths: 100 per coin (bonus coins included) and 10 per unused text card."""
        return [100 * (len(s.coins[p]) + s.bonus[p]) + 10 * len(s.texts[p]) for p in range(s.n)]

    def winners(self, s: State) -> list[int]:
        if not s.over or s.ext.get("truncated"):
            return []
        sc = self.scores(s)
        best = max(sc)
        return [p for p in range(s.n) if sc[p] == best]

    # -- hidden information (INFO-1..3) -----------------------------------------------------------
    def mask(self, s: State, player: int) -> State:
        m = s.clone()
        bit = 1 << player
        for q in range(m.n):
            if q == player:
                continue
            seen = sorted((c, k) for c, k in zip(m.hands[q], m.known[q]) if k & bit)
            hidden = len(m.hands[q]) - len(seen)
            m.hands[q] = [c for c, _ in seen] + [EMPTY] * hidden
            m.known[q] = [k for _, k in seen] + [1 << q] * hidden
            m.texts[q] = [EMPTY] * len(m.texts[q])
        m.deck = [EMPTY] * len(m.deck)
        m.tdeck = [EMPTY] * len(m.tdeck)
        m.guard = [g if g < 0 or i // 3 == player else HIDDEN for i, g in enumerate(m.guard)]
        m.seed = 0
        m.shuffles = 0
        return m

    def extra_seen(self, s: State) -> Counter:
        """Corrections for mixed (Mutabohne) piles, which the shared count takes as top type x count
        (signed: the real pile minus that count)."""
        fix = Counter()
        for pile in s.piles:
            if pile and pile.count(pile[-1]) != len(pile):
                fix[pile[-1]] -= len(pile)
                for c in pile:
                    fix[c] += 1
        return fix

    def fill_hidden(self, s: State, unseen, rng) -> None:
        if s.decision == "show":
            self.keep_five_types(s)
        for q in range(s.n):
            order = sorted(range(len(s.hands[q])), key=lambda k: s.hands[q][k])
            s.hands[q] = [s.hands[q][k] for k in order]
            s.known[q] = [s.known[q][k] for k in order]
        pool = Counter(range(NUM_TEXTS))
        pool.subtract(self.text_locations(s))
        pool.pop(EMPTY, None)
        pool.pop(HIDDEN, None)
        cards = sorted(pool.elements())
        rng.shuffle(cards)
        it = iter(cards)
        for q in range(s.n):
            if EMPTY in s.texts[q]:
                s.texts[q] = sorted(c if c >= 0 else next(it) for c in s.texts[q])
        s.guard = [next(it) if g == HIDDEN else g for g in s.guard]
        s.tdeck = [next(it) for _ in s.tdeck]

    @staticmethod
    def keep_five_types(s: State) -> None:
        """A resampled hand in the middle of Samenhandel must still hold enough unshown types (its
        player was seen to start TXT-14 with five types): swap resampled hand cards with deck cards."""
        p = s.owner
        hand, known = s.hands[p], s.known[p]
        own_only = 1 << p
        for _ in range(len(hand)):
            have = set(hand) - set(s.shown)
            if len(have) >= 5 - len(s.shown):
                return
            counts = Counter(hand)
            k = next((i for i, c in enumerate(hand) if known[i] == own_only
                      and (c in s.shown or counts[c] > 1)), None)
            j = next((i for i, c in enumerate(s.deck) if c not in have and c not in s.shown), None)
            if k is None or j is None:
                return
            hand[k], s.deck[j] = s.deck[j], hand[k]

    def render_extra(self, s: State) -> str:
        from ..cards import NAMES
        from .actions import TEXT_NAMES

        lines = []
        for p in range(s.n):
            seen = [TEXT_NAMES[c] for c in s.texts[p] if c >= 0]
            parts = [f"P{p} text cards {len(s.texts[p])}" + (f" ({', '.join(seen)})" if seen else "")]
            if s.bonus[p]:
                parts.append(f"bonus coins {s.bonus[p]}")
            for i in self.fields_of(s, p):
                marks = []
                if len(set(s.piles[i])) > 1:
                    marks.append("mutated " + "/".join(NAMES[c] for c in s.piles[i]))
                if s.joker == i:
                    marks.append("Jokerbohne")
                if s.guard[i] != -1:
                    marks.append("protected")
                if marks:
                    parts.append(f"field {i % 3 + 1}: " + ", ".join(marks))
            lines.append(" | ".join(parts))
        state = [f"text deck {len(s.tdeck)}", f"text discard {len(s.tdiscard)}",
                 "d) used" if s.harvested else "d) free"]
        if s.tdiscard:
            state.append(f"top {TEXT_NAMES[s.tdiscard[-1]]}")
        if s.cp_kind:
            state.append(f"copying {s.cp_kind}) quota {s.cp_quota}")
        if s.end_pending:
            state.append("last run-out reached")
        lines.append(" | ".join(state))
        return "\n".join(lines)

    # -- card conservation ----------------------------------------------------------------------------
    def locations(self, s: State) -> dict[str, Counter]:
        """Bean cards by place (text cards: ``text_locations``)."""
        return {
            "deck": Counter(s.deck), "discard": Counter(s.discard), "under_deck": Counter(s.set_aside),
            "removed": Counter(s.removed),
            "turned_up": Counter(s.face_up), "hands": Counter(c for h in s.hands for c in h),
            "fields": Counter(c for pile in s.piles for c in pile),
            "coins": Counter(c for h in s.coins for c in h),
        }

    def text_locations(self, s: State) -> Counter:
        """Every text card's place, as one multiset (each of the 18 once, CARD conservation)."""
        total = Counter(s.tdeck) + Counter(s.tdiscard) + Counter(s.cmods)
        for h in s.texts:
            total.update(h)
        total.update(g for g in s.guard if g != -1)
        if s.joker >= 0:
            total[TXT_JOKER] += 1
        return total


def _has(sorted_hand: list[int], card: int) -> bool:
    k = bisect_left(sorted_hand, card)
    return k < len(sorted_hand) and sorted_hand[k] == card


def init_fields(s: State) -> None:
    """Add the takeover attributes to a fresh state (flat lists; State.clone copies them)."""
    n = s.n
    s.piles = [[] for _ in range(3 * n)]
    s.joker = -1
    s.guard = [-1] * (3 * n)
    s.texts = [[] for _ in range(n)]
    s.tdeck, s.tdiscard = [], []
    s.bonus = [0] * n
    s.harvested = 0
    s.acts = 0
    s.final = 0
    s.fin_order, s.fin_open = [], 0
    s.ctx, s.owner = "turn", 0
    s.cf, s.ctype, s.ccount, s.cmuta, s.ctarget, s.ckind, s.cchem_type = -1, -1, 0, 0, -1, "", -1
    s.cmods = []
    s.shown = []
    s.cp_leader, s.cp_kind, s.cp_queue, s.cp_ret, s.cp_quota, s.cp_took = -1, "", [], "", 0, []


# -- action catalogue (integers for the env, AGT-1) ---------------------------------------------------
from .catalogue import Span, deck_types, fields, other_seats, register_catalogue  # noqa: E402


def takeover_catalogue(rules) -> list[Span]:
    """Spans of `hostile_takeover`. HT_ATTACK's target seat is seat-relative; the seat inside
    HT_TEXT parameters (TXT-1: ``9 * seat + 3 * field + field``, TXT-5: ``seat``) is absolute."""
    types, n, f = deck_types(rules), rules.config["num_players"], fields()
    texts = tuple(range(NUM_TEXTS))
    return [
        Span(Kind.HT_END_TURN),
        Span(Kind.PASS),
        Span(Kind.DONE),
        Span(Kind.HT_PLAY, f, types + tuple(t + MUTA_FLAG for t in types)),
        Span(Kind.HT_ADD, types),
        Span(Kind.HT_CONFIRM),
        Span(Kind.HT_MERGE, f, f),
        Span(Kind.HT_MERGE_MUTA, f, f),
        Span(Kind.HT_TURN_UP),
        Span(Kind.HT_PLACE, f),
        Span(Kind.HT_HARVEST, f),
        Span(Kind.HT_ATTACK, other_seats(n), tuple(range(9)), seat=True),
        Span(Kind.HT_MODIFY, tuple(c for c in texts if c != TXT_CHEMIEKEULE)),
        Span(Kind.HT_MODIFY, (TXT_CHEMIEKEULE,), f),
        Span(Kind.HT_DEFEND, texts),
        Span(Kind.HT_NO_DEFENCE),
        Span(Kind.HT_OVERRIDE),
        Span(Kind.HT_GIVE_UP),
        Span(Kind.HT_TEXT, (TXT_SWAP_FIELDS,), tuple(range(9 * n))),
        Span(Kind.HT_TEXT, (TXT_EXTRAKARTE, TXT_PLAY_AT_END, TXT_SAMENHANDEL, TXT_SEVEN)),
        Span(Kind.HT_TEXT, (TXT_SWAP_HANDS,), tuple(range(n))),
        Span(Kind.HT_TEXT, (TXT_JOKER, TXT_PIRATE, TXT_EXTRA_HARVEST), f),
        Span(Kind.HT_SHOW, types),
        Span(Kind.HT_COIN, types),
        Span(Kind.HT_REDRAW),
        Span(Kind.HT_KEEP_SHOWN),
        Span(Kind.HT_FINAL, f),
    ]


register_catalogue("hostile_takeover", takeover_catalogue)
