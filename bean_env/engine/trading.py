"""The offer/response protocol of `bohnanza` (TRADE-1..7) as decision points.

Terms: *A* is the active player. *Tradable cards*: A's trade area (``face_up``) and hand; another
player's hand. An *offer* is (proposer, addressees, give, want): ``give`` = hand positions and
trade-area types of the proposer, ``want`` = a multiset of types from the addressee.

Decision points:
- ``offer``: the seat holding the current slot of the round may start an offer (``OFFER``), ``PASS``,
  use free actions; A may also ``KEEP`` a trade-area card or ``END_TRADING``.
- ``compose``: building the offer, a sub-decision sequence with one canonical order per offer: hand
  positions increasing (of equivalent cards only the first, see ``_first_equivalent``), then trade-area types
  non-decreasing, then wanted types non-decreasing; ``SUBMIT`` or ``CANCEL`` (a pass) at any time.
- ``respond``: an addressee accepts (only if able) or declines.
- ``pick``: A chooses among several acceptors, or cancels.
- ``choose_give``: at execution, a giver with several different cards that could serve a wanted type
  chooses one.

Trading controls (rule options, docs/rules-decisions.md "Trading controls"): ``max_offer_cards`` caps
each side of an offer; ``offer_actions="macro"`` replaces ``OFFER`` + ``compose`` by one ``OFFER_CARDS``
action per whole offer, named by types: the proposer gives trade-area cards of a type first, then the
frontmost hand cards of it; ``proposals="active_only"``: only A has an offer slot in a round.
"""
from __future__ import annotations

from bisect import bisect_left

from .actions import (ACCEPT, ALL, CANCEL, DECLINE, END_TRADING, PASS, SUBMIT, Action, Kind, pack_side,
                      unpack_offer)
from .common import Rules
from .events import Answer, Offer, Trade
from .state import EMPTY, State

# Action kinds compared when stepping (a module constant reads faster than an enum class attribute)
(_K_ACCEPT, _K_CANCEL, _K_END_TRADING, _K_GIVE_HAND, _K_GIVE_TRADE, _K_KEEP, _K_OFFER_CARDS, _K_PASS,
 _K_WANT) = (Kind.ACCEPT, Kind.CANCEL, Kind.END_TRADING, Kind.GIVE_HAND, Kind.GIVE_TRADE, Kind.KEEP,
            Kind.OFFER_CARDS, Kind.PASS, Kind.WANT)

_KEEP: dict[int, Action] = {}
_GIVE_TRADE: dict[int, Action] = {}
_WANT: dict[int, Action] = {}
_OFFER: dict[int, Action] = {}
_GIVE_HAND: dict[int, Action] = {}
_GIVE_HAND_ACTIONS: list[Action] = []  # GIVE_HAND by hand position (grown as needed)
_OFFER_ROWS: dict[tuple, list[Action]] = {}  # see TradingMixin._offer_row
_SIDE_SHIFT = 12  # pack_offer: the wanted side's code sits above the given side's 12 bits
_EMPTY_SIDE = pack_side(())


def _multisets(have: dict[int, int], k: int) -> list[tuple[int, ...]]:
    """Every sorted multiset of at most ``k`` cards drawn from the type counts ``have`` (with ``()``)."""
    out: list[tuple[int, ...]] = [()]
    frontier: list[tuple[int, ...]] = [()]
    types = sorted(t for t, c in have.items() if c > 0)
    for _ in range(k):
        grown = []
        for ms in frontier:
            low = ms[-1] if ms else -1
            for t in types:
                if t >= low and ms.count(t) < have[t]:
                    grown.append(ms + (t,))
        out.extend(grown)
        frontier = grown
    return out


def _cached(table: dict, kind: int, a: int) -> Action:
    act = table.get(a)
    if act is None:
        act = table[a] = Action(kind, a)
    return act


def _first_equivalent(hand: list[int], i: int, given: list[int]) -> bool:
    """Whether giving hand card ``i`` (besides the positions ``given``) is the canonical choice among
    equivalent ones. Giving card ``i`` or an earlier card ``k`` of the same type leaves the same hand when
    every card between them is given too; then only the earliest such card is offered, so each distinct
    outcome has exactly one choice (the cards kept form the rightmost embedding of the remaining hand)."""
    k = i - 1
    while k >= 0 and k in given:
        k -= 1
    return k < 0 or hand[k] != hand[i]


class TradingMixin(Rules):
    """Trading for rules families that have it (only `bohnanza`, TRADE-8)."""

    max_rounds = 4
    deck_types: tuple = ()
    offer_cap: int | None = None  # max_offer_cards (TRADE-2): cards per side of an offer, None = no cap
    macro = False                 # offer_actions == "macro"
    active_only = False           # proposals == "active_only" (TRADE-3)
    _wants: list[Action] | None = None  # WANT actions of the deck types (built on first use)
    _wanted: dict[int, list[tuple[int, int]]] | None = None  # _wanted_sides by k (built on first use)

    def __init__(self, config: dict):
        super().__init__(config)
        self.offer_cap = config.get("max_offer_cards")
        self.macro = config.get("offer_actions") == "macro"
        self.active_only = config.get("proposals") == "active_only"

    # -- entering and leaving the trade phase ------------------------------------------------------
    def begin_trading(self, s: State) -> None:
        if self.max_rounds == 0:
            self.end_trading_phase(s)
            return
        s.t_round, s.t_slot, s.t_any = 1, 0, False
        s.made = [[] for _ in range(s.n)]
        s.decision, s.actor = "offer", s.active

    def end_trading_phase(self, s: State) -> None:  # provided by the variant
        raise NotImplementedError

    def _clear_offer(self, s: State) -> None:
        s.o_prop = s.o_to = s.x_partner = EMPTY
        s.o_hand, s.o_trade, s.o_want = [], [], []
        s.o_pending, s.o_accept = [], []
        s.x_want, s.x_hand, s.x_trade = [], [], []

    def _stop_trading(self, s: State) -> None:
        self._clear_offer(s)
        s.t_round = s.t_slot = 0
        s.t_any = False
        self.end_trading_phase(s)

    def _next_slot(self, s: State) -> None:
        """TRADE-3/TRADE-6: move to the next seat's slot, the next round, or the end of trading."""
        self._clear_offer(s)
        s.t_slot = s.n if self.active_only else s.t_slot + 1
        if s.t_slot == s.n:
            if not s.t_any or s.t_round >= self.max_rounds:
                self._stop_trading(s)
                return
            s.t_round += 1
            s.t_slot = 0
            s.t_any = False
        s.decision, s.actor = "offer", (s.active + s.t_slot) % s.n

    # -- helpers --------------------------------------------------------------------------------
    def tradable_count(self, s: State, p: int) -> int:
        return len(s.hands[p]) + (len(s.face_up) if p == s.active else 0)

    def addressees(self, s: State) -> list[int]:
        if s.o_prop != s.active:
            return [s.active]
        if s.o_to == ALL:
            return [(s.active + k) % s.n for k in range(1, s.n)]
        return [s.o_to]

    def want_cap(self, s: State) -> int:
        """TRADE-2: at most as many wanted cards as the (largest) addressee has tradable cards (and at
        most ``max_offer_cards``)."""
        active, hands = s.active, s.hands
        if s.o_prop != active:
            cap = len(hands[active]) + len(s.face_up)
        elif s.o_to == ALL:
            cap = max(len(hands[q]) for q in range(s.n) if q != active)
        else:
            cap = len(hands[s.o_to])
        return cap if self.offer_cap is None or cap < self.offer_cap else self.offer_cap

    def can_accept(self, s: State, q: int) -> bool:
        """TRADE-4: whether ``q``'s tradable cards hold the wanted types."""
        want = s.o_want
        if not want:
            return True
        hand = s.hands[q]
        face = s.face_up if q == s.active else ()
        for t in set(want):
            if hand.count(t) + (face.count(t) if face else 0) < want.count(t):
                return False
        return True

    def _keep_actions(self, s: State) -> list[Action]:
        """KEEP for each trade-area type not tied up in A's offer being answered (TRADE-3)."""
        face = s.face_up
        if not face:
            return []
        held = s.o_trade if s.o_prop == s.active else ()
        out = []
        for t in sorted(set(face)):
            if not held or face.count(t) > held.count(t):
                out.append(_cached(_KEEP, Kind.KEEP, t))
        return out

    def _want_actions(self) -> list[Action]:
        """WANT for each type of the deck, in type order (built once per rules object)."""
        wants = self._wants
        if wants is None:
            wants = self._wants = [_cached(_WANT, Kind.WANT, t) for t in self.deck_types]
        return wants

    def _offer_key(self, s: State) -> list:
        return [s.o_to, list(s.o_hand), sorted(s.o_trade), list(s.o_want)]

    # -- legal actions ------------------------------------------------------------------------------
    def trade_legal(self, s: State) -> list[Action]:
        d, p = s.decision, s.actor
        if d == "offer":
            targets = self._offer_targets(s, p)
            if self.macro:
                out = self._macro_offers(s, p, targets)
            else:
                out = [_cached(_OFFER, Kind.OFFER, q) for q in targets]
            if not self.active_only:  # with only A proposing, a pass would be END_TRADING
                out.append(PASS)
            if p == s.active:
                out.append(END_TRADING)
                out.extend(self._keep_actions(s))
            return out + self.free_actions(s, p)
        if d == "compose":
            return self._compose_legal(s)
        if d == "respond":
            out = [ACCEPT] if self.can_accept(s, p) else []
            out.append(DECLINE)
            if p == s.active:
                out.append(END_TRADING)
                out.extend(self._keep_actions(s))
            return out + self.free_actions(s, p)
        if d == "pick":
            out = [Action(Kind.PICK, q) for q in s.o_accept]
            out.append(CANCEL)
            out.append(END_TRADING)
            out.extend(self._keep_actions(s))
            return out + self.free_actions(s, p)
        if d == "choose_give":
            return self._give_choices(s)
        raise AssertionError(f"unknown decision point {d!r}")

    def _offer_targets(self, s: State, p: int) -> list[int]:
        """Addressees ``p`` may start an offer to: those with which some non-empty offer exists."""
        if p != s.active:
            return [s.active] if s.hands[p] or self.tradable_count(s, s.active) else []
        mine = self.tradable_count(s, p)
        out = [q for q in ((p + k) % s.n for k in range(1, s.n)) if mine or s.hands[q]]
        if mine or any(s.hands[q] for q in range(s.n) if q != p):
            out.append(ALL)
        return out

    # -- whole offers (offer_actions="macro") ------------------------------------------------------
    def _wanted_sides(self, k: int) -> list[tuple[int, int]]:
        """(number of cards, packed code << 12) of every wanted multiset of at most ``k`` deck types."""
        table = self._wanted
        if table is None:
            table = self._wanted = {}
        sides = table.get(k)
        if sides is None:
            every = _multisets({t: k for t in self.deck_types}, k)
            sides = table[k] = [(len(w), pack_side(w) << _SIDE_SHIFT) for w in every]
        return sides

    def macro_cards(self, s: State, p: int, give) -> tuple[list[int], list[int]]:
        """(hand positions, trade-area types) that the given types ``give`` of a whole offer by ``p``
        stand for: trade-area cards of a type first (A only), then the frontmost hand cards of it."""
        face = list(s.face_up) if p == s.active else []
        hand = s.hands[p]
        trade, positions = [], []
        for t in give:
            if t in face:
                face.remove(t)
                trade.append(t)
                continue
            i = hand.index(t)
            while i in positions:
                i = hand.index(t, i + 1)
            positions.append(i)
        return sorted(positions), trade

    def _blocked_macros(self, s: State, p: int) -> set[tuple[int, int]]:
        """TRADE-7: the whole offers of ``p`` that stand for an offer ``p`` already made."""
        out = set()
        for key in s.made[p]:
            to, positions, trade, want = key
            give = sorted([s.hands[p][i] for i in positions] + list(trade))
            try:
                now = self._offer_key_of(s, p, to, give, want)
            except ValueError:  # a given trade-area card was kept since: those types are not all there
                continue
            if now == key:
                out.add((to, pack_side(give) | (pack_side(want) << _SIDE_SHIFT)))
        return out

    def _offer_key_of(self, s: State, p: int, to: int, give, want) -> list:
        positions, trade = self.macro_cards(s, p, give)
        return [to, positions, sorted(trade), list(want)]

    def _macro_offers(self, s: State, p: int, targets: list[int]) -> list[Action]:
        """One ``OFFER_CARDS`` action per distinct whole offer of ``p`` within ``max_offer_cards``."""
        if not targets:
            return []
        cap: int = self.offer_cap  # type: ignore[assignment]  # macro offers always have a cap
        have = dict.fromkeys(s.hands[p], 0)
        for t in s.hands[p]:
            have[t] += 1
        if p == s.active:
            for t in s.face_up:
                have[t] = have.get(t, 0) + 1
        gives = [pack_side(g) for g in _multisets(have, cap)]
        out: list[Action] = []
        for to in targets:
            if to == ALL:
                room = max(self.tradable_count(s, q) for q in range(s.n) if q != p)
            else:
                room = self.tradable_count(s, to)
            room = min(room, cap)
            for g in gives:
                out.extend(self._offer_row(to, g, room))
        if s.made[p]:
            blocked = self._blocked_macros(s, p)
            if blocked:
                out = [a for a in out if (a.a, a.b) not in blocked]
        return out

    def _offer_row(self, to: int, give: int, room: int) -> list[Action]:
        """The whole offers to ``to`` giving the packed types ``give`` for each wanted multiset of at
        most ``room`` cards (the empty offer left out), built once per deck."""
        key = (self.deck_types, self.offer_cap, to, give, room)
        row = _OFFER_ROWS.get(key)
        if row is None:
            row = []
            for size, w in self._wanted_sides(self.offer_cap):  # type: ignore[arg-type]
                if size <= room and (size or give != _EMPTY_SIDE):
                    row.append(Action(Kind.OFFER_CARDS, to, give | w))
            _OFFER_ROWS[key] = row
        return row

    def _compose_legal(self, s: State) -> list[Action]:
        p = s.o_prop
        o_hand, o_trade, o_want = s.o_hand, s.o_trade, s.o_want
        cap = self.offer_cap
        out: list[Action] = []
        room = cap is None or len(o_hand) + len(o_trade) < cap  # max_offer_cards: more may be given
        if room and not o_trade and not o_want:
            hand = s.hands[p]
            gives = _GIVE_HAND_ACTIONS
            while len(gives) < len(hand):
                gives.append(Action(Kind.GIVE_HAND, len(gives)))
            i = o_hand[-1] + 1 if o_hand else 0
            if i < len(hand):
                # _first_equivalent: only the first position may follow given ones; after it the card
                # before each position is never given
                if _first_equivalent(hand, i, o_hand):
                    out.append(gives[i])
                prev = hand[i]
                for i in range(i + 1, len(hand)):
                    card = hand[i]
                    if card != prev:
                        out.append(gives[i])
                    prev = card
        if room and not o_want and p == s.active and s.face_up:
            low = o_trade[-1] if o_trade else -1
            face_up = s.face_up
            for t in sorted(set(face_up)):
                if t >= low and face_up.count(t) > o_trade.count(t):
                    out.append(_cached(_GIVE_TRADE, Kind.GIVE_TRADE, t))
        if len(o_want) < self.want_cap(s):
            # wanted types are non-decreasing: the deck's types from the last wanted one on
            wants = self._want_actions()
            out.extend(wants[bisect_left(self.deck_types, o_want[-1]):] if o_want else wants)
        if (o_hand or o_trade or o_want) and not (s.made[p] and self._offer_key(s) in s.made[p]):
            out.append(SUBMIT)  # TRADE-7: an identical repeat cannot be submitted
        out.append(CANCEL)
        return out

    def _give_choices(self, s: State) -> list[Action]:
        """Distinct cards the giver could hand over for the next wanted type (TRADE-5)."""
        q, t = s.x_partner, s.x_want[0]
        hand, chosen = s.hands[q], s.x_hand
        out = []
        for i, card in enumerate(hand):
            if card == t and i not in chosen and _first_equivalent(hand, i, chosen):
                out.append(_cached(_GIVE_HAND, Kind.GIVE_HAND, i))
        if q == s.active and s.face_up.count(t) > s.x_trade.count(t):
            out.append(_cached(_GIVE_TRADE, Kind.GIVE_TRADE, t))
        return out

    # -- applying -----------------------------------------------------------------------------------
    def trade_step(self, s: State, action: Action) -> None:
        d, p, kind = s.decision, s.actor, action.kind
        if kind == _K_KEEP:
            s.face_up.remove(action.a)
            s.to_plant[p].append(action.a)
            return
        if kind == _K_END_TRADING:
            self._stop_trading(s)
            return
        if d == "offer":
            if kind == _K_PASS:
                self._next_slot(s)
            elif kind == _K_OFFER_CARDS:
                give, want = unpack_offer(action.b)
                s.o_prop, s.o_to = p, action.a
                s.o_hand, s.o_trade = self.macro_cards(s, p, give)
                s.o_want = list(want)
                self._submit(s)
            else:  # OFFER
                s.o_prop, s.o_to = p, action.a
                s.decision = "compose"
        elif d == "compose":
            self._compose_step(s, action)
        elif d == "respond":
            self._respond_step(s, action)
        elif d == "pick":
            if kind == _K_CANCEL:
                self._next_slot(s)
            else:
                self._begin_execute(s, action.a)
        elif d == "choose_give":
            if kind == _K_GIVE_HAND:
                s.x_hand.append(action.a)
            else:
                s.x_trade.append(action.a)
            s.x_want.pop(0)
            self._execute(s)

    def _compose_step(self, s: State, action: Action) -> None:
        kind = action.kind
        if kind == _K_GIVE_HAND:
            s.o_hand.append(action.a)
        elif kind == _K_GIVE_TRADE:
            s.o_trade.append(action.a)
        elif kind == _K_WANT:
            s.o_want.append(action.a)
        elif kind == _K_CANCEL:
            self._next_slot(s)  # a withdrawn offer counts as a pass
        else:
            self._submit(s)

    def _submit(self, s: State) -> None:
        """SUBMIT: the offer built in ``s.o_*`` is made; its addressees answer next (TRADE-4)."""
        p = s.o_prop
        s.made[p].append(self._offer_key(s))
        s.t_any = True
        if self.events is not None:
            give = sorted([s.hands[p][i] for i in s.o_hand] + s.o_trade)
            self.events.append(Offer(p, s.o_to, tuple(give), tuple(s.o_want)))
        # the offered hand cards are shown to everyone
        everyone = (1 << s.n) - 1
        for i in s.o_hand:
            s.known[p][i] = everyone
        s.o_pending = self.addressees(s)
        s.o_accept = []
        s.decision, s.actor = "respond", s.o_pending[0]

    def _respond_step(self, s: State, action: Action) -> None:
        q = s.o_pending.pop(0)
        if action.kind == _K_ACCEPT:
            s.o_accept.append(q)
        if self.events is not None:
            self.events.append(Answer(q, action.kind == _K_ACCEPT))
        if s.o_pending:
            s.actor = s.o_pending[0]
            return
        if not s.o_accept:
            self._next_slot(s)  # declined
        elif len(s.o_accept) == 1:
            self._begin_execute(s, s.o_accept[0])
        else:
            s.decision, s.actor = "pick", s.active

    def _begin_execute(self, s: State, partner: int) -> None:
        """Start executing the offer with ``partner``, the seat that gives the wanted cards."""
        s.x_partner = partner
        s.x_want, s.x_hand, s.x_trade = list(s.o_want), [], []
        self._execute(s)

    def _execute(self, s: State) -> None:
        """TRADE-5: the giver of the wanted cards chooses where needed, then all cards move at once."""
        giver = s.x_partner
        while s.x_want:
            choices = self._give_choices(s)
            if not choices:  # legality re-checked at execution: the wanted cards are gone
                self._next_slot(s)
                return
            if len(choices) > 1:
                s.decision, s.actor = "choose_give", giver
                return
            only = choices[0]
            (s.x_hand if only.kind == _K_GIVE_HAND else s.x_trade).append(only.a)
            s.x_want.pop(0)
        prop = s.o_prop
        got_by_giver = self._take(s, prop, s.o_hand, s.o_trade)
        got_by_prop = self._take(s, giver, s.x_hand, s.x_trade)
        s.to_plant[giver].extend(got_by_giver)
        s.to_plant[prop].extend(got_by_prop)
        if self.events is not None:
            self.events.append(Trade(prop, giver, tuple(sorted(got_by_giver)), tuple(sorted(got_by_prop))))
        s.made = [[] for _ in range(s.n)]
        self._next_slot(s)

    def _take(self, s: State, p: int, positions: list[int], trade_types: list[int]) -> list[int]:
        hand, known = s.hands[p], s.known[p]
        cards = [hand[i] for i in positions]
        for i in sorted(positions, reverse=True):
            del hand[i]
            del known[i]
        for t in trade_types:
            s.face_up.remove(t)
        return cards + list(trade_types)
