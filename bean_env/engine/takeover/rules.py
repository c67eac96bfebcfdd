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

Modules: this one has set-up, flow and applying actions; ``legal`` the legal actions,
``info`` views, card places and rendering, ``shared`` the extra state attributes,
``catalogue`` the env's action integers, ``textcards`` the card codes and payment scales,
``positions`` exact positions for tests.
Decision points: ``turn``, ``copy``, ``play``, ``place``, ``harvest``, ``attack``, ``defend``,
``override``, ``show``, ``seed_coin``, ``seed_keep``, ``final``, ``final_play``, ``game_over``.
"""
from __future__ import annotations

from bisect import bisect_left, insort

from ...cards import DECKS, GARDEN, expand
from ..actions import Action, Kind
from ..common import Rules
from ..state import EMPTY, State, shuffle
from .info import TakeoverInfo
from .legal import TakeoverLegal
from .shared import ALL_BITS, HAND_LIMIT, MUTA_FLAG, init_fields
from .textcards import (NUM_TEXTS, PIZZAS, TXT_BOHNOTONI, TXT_CHEMIEKEULE, TXT_EXTRA_HARVEST, TXT_EXTRAKARTE,
                        TXT_JOKER, TXT_MIGHTY, TXT_MUTA, TXT_PIRATE, TXT_PLAY_AT_END, TXT_SAMENHANDEL, TXT_SEVEN,
                        TXT_STRONG, TXT_SWAP_FIELDS, TXT_SWAP_HANDS, TXT_VARIABLE, meter_value)

# Action kinds compared in ``step`` (a module constant is read faster than an enum class attribute).
(_ADD, _MODIFY, _DEFEND, _OVERRIDE, _REDRAW, _END_TURN, _PASS, _DONE, _PLAY, _MERGE, _MERGE_MUTA, _TURN_UP,
 _HARVEST, _FINAL, _ATTACK, _TEXT) = (
    Kind.HT_ADD, Kind.HT_MODIFY, Kind.HT_DEFEND, Kind.HT_OVERRIDE, Kind.HT_REDRAW, Kind.HT_END_TURN, Kind.PASS,
    Kind.DONE, Kind.HT_PLAY, Kind.HT_MERGE, Kind.HT_MERGE_MUTA, Kind.HT_TURN_UP, Kind.HT_HARVEST, Kind.HT_FINAL,
    Kind.HT_ATTACK, Kind.HT_TEXT)
_TOP_LEVEL = frozenset(("turn", "copy", "final", "final_play"))
# the other seats clockwise from each seat, by player count: the copying round's queue (HT-13)
_PASSIVE = [[[(p + k) % n for k in range(1, n)] for p in range(n)] for n in range(8)]
# every seat clockwise from each seat, by player count (drawing up at the end of a turn, HT-5)
_FROM = [[[(p + k) % n for k in range(n)] for p in range(n)] for n in range(8)]


class TakeoverRules(TakeoverLegal, TakeoverInfo, Rules):
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
        shuffle(s.rng(), cards)
        s.deck = cards
        texts = list(range(NUM_TEXTS))
        shuffle(s.rng(), texts)
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

    @staticmethod
    def put(s: State, i: int, cards: list[int]) -> None:
        pile = s.piles[i]
        pile.extend(cards)
        s.ftype[i] = pile[-1] if pile else EMPTY           # sync
        s.fcount[i] = len(pile)

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
            if known[k].bit_count() > known[best].bit_count():
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
            shuffle(s.rng(), s.tdeck)
        if s.tdeck:
            insort(s.texts[p], s.tdeck.pop())

    def reshuffle(self, s: State) -> None:
        """HT-6: the discards plus one Garden bean from under the deck become the new deck."""
        deck = s.discard
        s.discard = []
        if s.set_aside:
            deck.append(s.set_aside.pop())
        shuffle(s.rng(), deck)
        s.deck = deck

    def draw_up(self, s: State, p: int, count: int) -> None:
        for _ in range(count):
            if s.runouts >= s.limit and not s.deck:
                break
            card = self.draw(s)
            if card is None:
                break
            hand = s.hands[p]                              # hand_add
            k = bisect_left(hand, card)
            hand.insert(k, card)
            s.known[p].insert(k, 1 << p)
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
        piles, joker, base = s.piles, s.joker, p * 3
        big, one = [], []
        for f in range(s.nfields[p]):
            pile = piles[base + f]
            if pile:
                if len(pile) >= 2 or joker == base + f:
                    big.append(f)
                else:
                    one.append(f)
        return big or one   # one-card fields only when no field has two or more

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
        if s.cmods:
            s.tdiscard.extend(s.cmods)
            s.cmods = []
        ctx, p = s.ctx, s.owner
        if ctx == "turn":
            s.acts += 1
            self.open_copy(s, p, kind, _PASSIVE[s.n][p][:], "turn")
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
        n = s.n                                            # quota (inlined)
        if n == 2:
            s.cp_quota = 0 if kind == "e" else 1
        elif s.turn == 0 and not s.final:
            s.cp_quota = n - 1
        else:
            s.cp_quota = 2 if n == 5 else 1
        s.cp_took = [leader] if kind == "e" else []
        self.next_copier(s)

    def next_copier(self, s: State) -> None:
        """Ask the next passive player who has something to decide (HT-13); else end the round."""
        queue, texts = s.cp_queue, s.texts
        kind = s.cp_kind
        while queue:
            q = queue.pop(0)
            if texts[q] or (s.cp_quota > 0 and (
                    s.hands[q] if kind == "a" else
                    self.attack_possible(s, q) if kind == "e" else self.may_be_asked(s, q))):
                s.decision, s.actor, s.ctx, s.owner = "copy", q, "copy", q
                return
        s.cp_kind, s.cp_quota, s.cp_took = "", 0, []
        leader, ret = s.cp_leader, s.cp_ret
        s.cp_leader = -1
        s.decision, s.actor, s.ctx, s.owner = ret, leader, ret, leader

    def may_be_asked(self, s: State, q: int) -> bool:
        """Whether a copy prompt is due without text cards, from public facts only (a hand's size)."""
        kind = s.cp_kind
        if kind == "a":
            return bool(s.hands[q])
        if kind == "e":
            return self.attack_possible(s, q)
        if kind == "d":  # some field is harvestable exactly when some field has beans (COM-6)
            piles = s.piles
            for i in range(q * 3, q * 3 + s.nfields[q]):
                if piles[i]:
                    return True
            return False
        return bool(self.copy_starts(s, q))

    def end_turn(self, s: State) -> None:
        if s.end_pending:                                  # HT-14
            self.start_final(s)
            return
        if max(s.guard) >= 0:                              # HT-12: protection ends
            for i, g in enumerate(s.guard):
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
        for p in _FROM[s.n][old]:                         # the old active player first, then clockwise
            if s.end_pending:
                break
            need = HAND_LIMIT - len(s.hands[p])            # HT-5
            if need > 0:
                self.draw_up(s, p, need)
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

    # -- applying -------------------------------------------------------------------------------------
    def step(self, s: State, action: Action) -> None:
        d, p, kind = s.decision, s.actor, action.kind
        if d in _TOP_LEVEL:                                # turn, copy, final, final_play
            s.ctx, s.owner = d, p
            if d == "final" and not (kind == _TEXT and action.a == TXT_PLAY_AT_END):
                s.fin_open = 0
            # the kinds by how often they come (a chain of compares)
            if kind == _PASS:
                self.next_copier(s)
            elif kind == _ATTACK:
                s.cf, s.ctarget = p * 3 + action.b // 3, action.a * 3 + action.b % 3
                held = s.texts[p]
                if not held:                                   # no text card: none is required
                    self.launch_attack(s, p)
                    return
                for c in self.required_mods(s, s.cf, s.ctarget, held):   # forced: played at once
                    self.texts_take(s, p, c)
                    s.cmods.append(c)
                if held:
                    s.decision = "attack"
                else:
                    self.launch_attack(s, p)
            elif kind == _PLAY:
                s.cf, s.ctype, s.ccount, s.cmuta = p * 3 + action.a, action.b % MUTA_FLAG, 0, 0
                if action.b >= MUTA_FLAG:
                    self.texts_take(s, p, TXT_MUTA)
                    s.cmods.append(TXT_MUTA)
                    s.cmuta = 1
                self.add_card(s, p)
                s.decision = "play"
            elif kind == _END_TURN:
                self.end_turn(s)
            elif kind == _HARVEST or kind == _FINAL:
                ckind = "final" if kind == _FINAL else "d"
                self.begin_harvest(s, p, p * 3 + action.a, ckind)
            elif kind == _MERGE or kind == _MERGE_MUTA:
                if kind == _MERGE_MUTA:
                    self.texts_take(s, p, TXT_MUTA)
                    s.cmods.append(TXT_MUTA)
                self.merge(s, p * 3 + action.a, p * 3 + action.b)
                self.done_regular(s, "b")
            elif kind == _TURN_UP:
                card = self.draw(s)
                self.note_runout(s)
                s.face_up.append(card)
                s.decision = "place"
            elif kind == _DONE:
                if d == "final_play":
                    s.decision = "final"
                else:
                    self.next_final(s)
                    self.final_point(s)
            elif kind == _TEXT:
                if d == "turn":
                    s.acts += 1
                self.play_text(s, p, action.a, action.b)
            else:
                raise AssertionError(f"unexpected action {action} at {d!r}")
            return
        if d == "play":
            if kind == _ADD:
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
            if kind == _MODIFY:
                self.texts_take(s, p, action.a)
                s.cmods.append(action.a)
                if action.a == TXT_CHEMIEKEULE:
                    s.cchem_type = s.ftype[p * 3 + action.b]
            else:
                self.finish_harvest(s, p)
        elif d == "attack":
            if kind == _MODIFY:
                self.texts_take(s, p, action.a)
                s.cmods.append(action.a)
            else:
                self.launch_attack(s, p)
        elif d == "defend":
            if kind == _DEFEND:
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
            if kind == _OVERRIDE:
                self.texts_take(s, p, TXT_STRONG)
                s.cmods.append(TXT_STRONG)  # discarded with the composite, after the defender's draw
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
            if kind == _REDRAW:
                for t in s.shown:
                    self.hand_take(s, p, t)
                    s.discard.append(t)
                s.shown = []
                self.draw_up(s, p, 5)
            s.shown = []
            self.back(s)
        else:
            raise AssertionError(f"unknown decision point {d!r}")

    def add_card(self, s: State, p: int) -> None:
        """One more card of ``s.ctype`` goes into the play; it is shown to everybody (INFO-2)."""
        hand, known, t = s.hands[p], s.known[p], s.ctype
        k = bisect_left(hand, t)
        stop = len(hand)
        shown = 0                # copies of the type already known to everybody
        hidden = -1              # the first copy that is not
        while k < stop and hand[k] == t:
            if known[k] == ALL_BITS:
                shown += 1
            elif hidden < 0:
                hidden = k
            k += 1
        if shown <= s.ccount:
            known[hidden] = ALL_BITS
        s.ccount += 1

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
        pizzas = [c for c in s.cmods if c in PIZZAS] if s.cmods else ()
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
        if pizzas:
            bonuses = {c: self.pizza_bonus(s, p, i, c, meter, final) for c in pizzas}
            if TXT_BOHNOTONI in bonuses:
                coins = bonuses.pop(TXT_BOHNOTONI)
            coins += sum(bonuses.values())
        pile = s.piles[i]
        take = min(coins, len(pile))
        if take:                                           # coins from the top of the pile down
            keep = len(pile) - take
            s.coins[p].extend(pile[:keep - 1:-1] if keep else pile[::-1])
            del pile[keep:]
            s.bonus[p] += coins - take
        else:
            s.bonus[p] += coins
        if pile:
            s.discard.extend(pile[::-1])
            pile.clear()
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
            self.swap_fields(s, own, j)                    # swap_owners
            s.decision, s.actor = "", s.owner
            self.done_regular(s, "e")
        else:
            s.decision, s.actor = "defend", j // 3

    def strong_takeover(self, s: State) -> None:
        """TXT-16: the defence card goes to the attacker, the defender draws a text card, fields swap.
        Starke Uebernahme is in ``s.cmods`` until then, so the defender can never draw it back."""
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
        piles, guard, ftype, fcount = s.piles, s.guard, s.ftype, s.fcount
        pi = piles[j]
        pj = piles[j] = piles[i]
        piles[i] = pi
        guard[i], guard[j] = guard[j], guard[i]
        if s.joker == i:
            s.joker = j
        elif s.joker == j:
            s.joker = i
        ftype[i] = pi[-1] if pi else EMPTY                 # sync both (see ``sync``)
        fcount[i] = len(pi)
        ftype[j] = pj[-1] if pj else EMPTY
        fcount[j] = len(pj)

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
            shuffle(s.rng(), s.deck)
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


from . import catalogue  # noqa: E402,F401  (registers the action catalogue)
