"""Heuristic knowledge for `bohnanza`: planting by the generic lookahead, and the whole trading protocol
(TRADE-1..7) planned here.

Terms (all values are changes of the seat value of ``evaluate.py``, computed on the public view):
- *junk*: a tradable card whose removal raises our value (it fits no field, or would force a harvest
  soon): a trade-area card of the active player (A) that would otherwise go to A's cards to plant, or a
  hand card near the front of the hand.
- *need*: a bean type whose arrival in our cards to plant raises our value by at least ``NEED_MIN``.

Strategy:
- A, at its slot: (1) offer its junk for its most needed type, to all; (2) give its junk away as a
  gift; (3) ask for its most needed type. Each offer once per turn; then pass (so the others may offer)
  and from round 2 on end trading.
- When slots are few (every seat has one in at most two rounds a turn: ``max_trade_rounds`` 1 or 2 with
  ``proposals="all"``, as in the ``learning2`` trade preset), each offer is judged by whether its
  addressees would take it, predicted by our own answering rule from the public view (a card hidden in
  a hand never counts). A makes only offers predicted to be taken, addressed to the seats that would
  take them: first its junk as a gift to the opponent it helps most, then its junk for its need, its
  junk as a gift, a single junk card as a gift, a request; if none would be taken, it passes. Another
  player tries the offers A is predicted to take first (A sees its own hand, we do not), then the rest.
- Another player, at its slot: ask A for the trade-area cards it needs, paying with its junk that helps
  A, or with nothing; or give A junk that A can use. Then pass.
- Answering: accept when our gain exceeds ``ACCEPT_MIN`` plus ``LAM_TRADE`` times the proposer's
  (estimated) gain; when choosing which card to hand over, give the one we miss least.
- A picks the acceptor with the fewest coins (the trade helps the weakest opponent).

With ``trading="fair"`` (the agent option) the seat cannot be farmed: it makes no gift offers (giving
cards for nothing), declines every offer that would give it nothing, and accepts only when its own gain
exceeds ``ACCEPT_MIN`` and is at least the proposer's estimated gain.

An offer is a composite decision (AGT-2): the whole offer is planned at the ``offer`` decision, kept in
``agent.memory["plan"]`` keyed by (turn, round, slot), and emitted one sub-decision at a time in the
canonical order of ``bean_env/engine/trading.py``; a plan that no longer fits is submitted as built, or
cancelled. Under the trading controls (rule options) plans are cut to ``max_offer_cards`` per side, and
with ``offer_actions="macro"`` the plan is made at once as one whole-offer action (named by types).
"""
from __future__ import annotations

from bean_env.engine.actions import (ACCEPT, ALL, CANCEL, DECLINE, END_TRADING, PASS, SUBMIT, Action,
                                     Kind, pack_offer)

from .core import Family
from .evaluate import game_left, seat_value

TRADE_DECISIONS = frozenset(("offer", "compose", "respond", "pick", "choose_give"))
JUNK_MIN = 0.15      # removal gain above which a card is junk
NEED_MIN = 0.45      # arrival gain above which a type is needed
ACCEPT_MIN = 0.1     # our gain must exceed this (plus LAM_TRADE x the proposer's gain) to accept
LAM_TRADE = 0.35
MAX_GIVE = 3         # cards given in one offer
MAX_OFFERS_A = 3     # offers per turn by the active player
MAX_OFFERS_OTHER = 2  # offers per turn by another player


def _remove_once(cards: list[int], bean: int) -> list[int]:
    out = list(cards)
    out.remove(bean)
    return out


class BohnanzaFamily(Family):
    continuation = 0  # tuned one-ply; trade offers are planned in choose()
    delegated = TRADE_DECISIONS
    # -- values ---------------------------------------------------------------------------------------
    # The lookahead ignores A's trade area: the cards turned up by one branch would otherwise count as
    # a burden against it and not against a branch that has not reached the turn-up yet. Trade
    # decisions count the trade area explicitly (``_v``).

    @staticmethod
    def _v(s, p: int, g: float, face=None, hand=None, extra=()) -> float:
        """Seat value of ``p`` with A's trade area ``face`` and ``hand`` replaced and ``extra`` cards to
        plant added."""
        must = list(s.to_plant[p])
        if p == s.active:
            must += s.face_up if face is None else face
        must += extra
        return seat_value(s, p, must=must, hand=s.hands[p] if hand is None else hand, growth=g)

    def choose(self, agent, view, legal):
        d = view.decision
        if d not in TRADE_DECISIONS:
            return None
        s, me = view.state, view.player
        if d == "offer":
            return self._offer(agent, s, me, legal)
        if d == "compose":
            return self._compose(agent, s, me, legal)
        if d == "respond":
            return self._respond(s, me, legal, fair=getattr(agent, "trading", "generous") == "fair")
        if d == "pick":
            return self._pick(s, legal)
        return self._choose_give(s, me, legal)

    # -- planning offers --------------------------------------------------------------------------------
    def _junk(self, s, p: int, g: float, base: float) -> tuple[list[tuple[float, str, int]], list[int]]:
        """Junk cards of ``p``: (gain, "hand"|"trade", position or type), best first."""
        out = []
        hand = s.hands[p]
        for i in range(min(len(hand), 5)):
            if hand[i] < 0:
                continue
            gain = self._v(s, p, g, hand=hand[:i] + hand[i + 1:]) - base
            if gain > JUNK_MIN:
                out.append((gain, "hand", i))
        if p == s.active:
            for t in sorted(set(s.face_up)):
                gain = self._v(s, p, g, face=_remove_once(s.face_up, t)) - base
                if gain > JUNK_MIN:
                    out.append((gain, "trade", t))
        out.sort(key=lambda x: (-x[0], x[1], x[2]))
        return out

    def _needs(self, s, p: int, g: float, base: float, types) -> list[int]:
        gains = [(self._v(s, p, g, extra=[t]) - base, t) for t in types]
        return [t for gain, t in sorted(gains, key=lambda x: (-x[0], x[1])) if gain > NEED_MIN]

    def _offer(self, agent, s, me: int, legal):
        key = (s.turn, s.active)
        mem = agent.memory
        if mem.get("turn") != key:
            mem["turn"], mem["made"] = key, []
        g = game_left(s)
        base = self._v(s, me, g)
        junk = self._junk(s, me, g, base)
        if me == s.active:
            candidates = self._active_offers(s, me, g, base, junk)
            limit = MAX_OFFERS_A
        else:
            candidates = self._passive_offers(s, me, g, base, junk)
            limit = MAX_OFFERS_OTHER
        fair = getattr(agent, "trading", "generous") == "fair"
        if fair:
            candidates = [c for c in candidates if c[2]]  # no gifts: every offer asks for something back
        cap = s.config.get("max_offer_cards")
        macro = s.config.get("offer_actions") == "macro"
        if cap is not None:
            candidates = [(to, give[:cap], want[:cap]) for to, give, want in candidates]
        if _few_slots(s):
            candidates = self._likely_first(s, me, g, candidates, fair)
        if len(mem["made"]) < limit:
            for to, give, want in candidates:
                plan_key = (to, tuple(give), tuple(want))
                if plan_key in mem["made"] or not (give or want):
                    continue
                if macro:
                    types = [s.hands[me][x] if kind == "hand" else x for kind, x in give]
                    offer = Action(Kind.OFFER_CARDS, to, pack_offer(types, want))
                    if offer in legal:
                        mem["made"].append(plan_key)
                        return offer
                    continue
                offer = Action(Kind.OFFER, to)
                if offer in legal:
                    mem["made"].append(plan_key)
                    hand_pos = sorted(x for kind, x in give if kind == "hand")
                    mem["plan"] = {"key": (s.turn, s.t_round, s.t_slot), "to": to,
                                   "hand": _canonical(s.hands[me], hand_pos),
                                   "trade": sorted(x for kind, x in give if kind == "trade"),
                                   "want": sorted(want)}
                    return offer
        if me == s.active and (s.t_round >= 2 or PASS not in legal) and END_TRADING in legal:
            return END_TRADING
        return PASS if PASS in legal else None

    def _likely_first(self, s, me: int, g: float, candidates, fair: bool):
        """When slots are few, spend them on offers the addressees would take (predicted from public
        cards by our own answering rule): A makes only such offers, addressed to the seats that would
        take them; another player (whose offers go to A, who sees more than we do) tries them first."""
        likely, rest = [], []
        for to, give, want in candidates:
            taker = self._taken_by(s, me, g, to, give, want, fair) if give or want else None
            if taker is not None:
                likely.append((taker, give, want))
            elif me != s.active:
                rest.append((to, give, want))
        return likely + rest

    def _active_offers(self, s, me, g, base, junk):
        give = [(kind, x) for _, kind, x in junk[:MAX_GIVE]]
        types = sorted(set(t for q in range(s.n) if q != me for t in s.hands[q] if t >= 0)
                       | set(_deck_types(s)))
        needs = self._needs(s, me, g, base, types)
        out = []
        partner = self._partner(s, me, g, give) if give and _few_slots(s) else ALL
        if partner != ALL:
            out.append((partner, give, []))
        if give and needs:
            out.append((ALL, give, [needs[0]]))
        if give:
            out.append((ALL, give, []))
            if _few_slots(s) and len(give) > 1:  # one card may find a taker where the pair does not
                out.extend((ALL, [one], []) for one in give)
        if needs:
            out.append((ALL, [], [needs[0]]))
        return out

    def _partner(self, s, me: int, g: float, give) -> int:
        """The opponent whom our cards ``give`` help most, or ALL when they help nobody."""
        types = [s.hands[me][x] if kind == "hand" else x for kind, x in give]
        best, best_gain = ALL, 0.0
        for k in range(1, s.n):
            q = (me + k) % s.n
            gain = self._v(s, q, g, extra=types) - self._v(s, q, g)
            if gain > best_gain:
                best, best_gain = q, gain
        return best

    def _passive_offers(self, s, me, g, base, junk):
        a = s.active
        wants = self._needs(s, me, g, base, sorted(set(s.face_up)))
        base_a = self._v(s, a, g)
        liked = []  # my junk that A can use
        for _, kind, x in junk:
            bean = s.hands[me][x]
            if self._v(s, a, g, extra=[bean]) - base_a > 0:
                liked.append((kind, x))
        liked = liked[:2]
        out = []
        if wants and liked:
            out.append((a, liked, [wants[0]]))
        if wants:
            out.append((a, [], [wants[0]]))
        if liked:
            out.append((a, liked, []))
        return out

    def _compose(self, agent, s, me: int, legal):
        plan = agent.memory.get("plan")
        built_any = bool(s.o_hand or s.o_trade or s.o_want)
        if getattr(agent, "trading", "generous") == "fair":
            built_any = bool(s.o_want)  # an offer that asks for nothing back would be a gift
        fallback = SUBMIT if (built_any and SUBMIT in legal) else CANCEL
        if not plan or plan["key"] != (s.turn, s.t_round, s.t_slot) or s.o_prop != me:
            return fallback
        if len(s.o_hand) < len(plan["hand"]):
            action = Action(Kind.GIVE_HAND, plan["hand"][len(s.o_hand)])
        elif len(s.o_trade) < len(plan["trade"]):
            action = Action(Kind.GIVE_TRADE, plan["trade"][len(s.o_trade)])
        elif len(s.o_want) < len(plan["want"]):
            action = Action(Kind.WANT, plan["want"][len(s.o_want)])
        else:
            action = SUBMIT
        return action if action in legal else fallback

    # -- answering --------------------------------------------------------------------------------------
    def _give_up(self, s, p: int, g: float, want: list[int], hand: list[int], face: list[int]):
        """Hand and trade area of ``p`` after giving ``want`` the cheapest way (None if impossible)."""
        hand, face = list(hand), list(face)
        for t in want:
            best = None
            for i, c in enumerate(hand):
                if c == t:
                    v = self._v(s, p, g, face=face, hand=hand[:i] + hand[i + 1:])
                    if best is None or v > best[0]:
                        best = (v, "hand", i)
            if p == s.active and t in face:
                v = self._v(s, p, g, face=_remove_once(face, t), hand=hand)
                if best is None or v > best[0]:
                    best = (v, "trade", t)
            if best is None:
                return None
            if best[1] == "hand":
                del hand[best[2]]
            else:
                face.remove(t)
        return hand, face

    def _respond(self, s, me: int, legal, fair: bool = False):
        if ACCEPT not in legal:
            return DECLINE
        prop = s.o_prop
        received, p_hand, p_face = _offered(s, prop, s.o_hand, s.o_trade)
        taken = self._accepts(s, me, prop, game_left(s), received, list(s.o_want), p_hand, p_face, fair)
        return ACCEPT if taken else DECLINE

    def _accepts(self, s, q: int, prop: int, g: float, received: list[int], want: list[int],
                 p_hand: list[int], p_face: list[int], fair: bool) -> bool:
        """Whether ``q`` takes ``received`` for ``want`` from ``prop`` (left with ``p_hand`` and trade area
        ``p_face``) by the answering rule above, judged on ``s`` as its viewer sees it: the answer itself
        when ``q`` is the viewer, a prediction from public cards otherwise (a hidden card never counts)."""
        if fair and not received:
            return False  # a request for a gift
        base = self._v(s, q, g)
        after = self._give_up(s, q, g, want, s.hands[q], s.face_up if q == s.active else [])
        if after is None:
            return False
        hand, face = after
        mine = self._v(s, q, g, face=face if q == s.active else None, hand=hand, extra=received) - base
        # the proposer's side, as far as we can see it
        theirs = (self._v(s, prop, g, face=p_face if prop == s.active else None, hand=p_hand,
                          extra=want) - self._v(s, prop, g))
        if fair:
            return mine > ACCEPT_MIN and mine >= theirs
        return mine > ACCEPT_MIN + LAM_TRADE * max(0.0, theirs)

    def _taken_by(self, s, me: int, g: float, to: int, give, want: list[int], fair: bool) -> int | None:
        """The addressee for our offer (``give`` as (kind, x) pairs) among the seats of ``to`` that would
        take it: the only one, or ALL for several; None when nobody would."""
        positions = sorted(x for kind, x in give if kind == "hand")
        traded = [x for kind, x in give if kind == "trade"]
        received, p_hand, p_face = _offered(s, me, positions, traded)
        seats = [(me + k) % s.n for k in range(1, s.n)] if to == ALL else [to]
        takers = [q for q in seats if self._accepts(s, q, me, g, received, want, p_hand, p_face, fair)]
        if not takers:
            return None
        return takers[0] if len(takers) == 1 else to

    def _pick(self, s, legal):
        picks = [a for a in legal if a.kind == Kind.PICK]
        if not picks:
            return None
        return min(picks, key=lambda a: (len(s.coins[a.a]), a.a))

    def _choose_give(self, s, me: int, legal):
        g = game_left(s)
        hand = [c for i, c in enumerate(s.hands[me]) if i not in s.x_hand]
        best, best_v = None, -1e18
        for a in legal:
            if a.kind == Kind.GIVE_HAND:
                h = [c for i, c in enumerate(s.hands[me]) if i not in s.x_hand and i != a.a]
                v = self._v(s, me, g, hand=h)
            elif a.kind == Kind.GIVE_TRADE:
                v = self._v(s, me, g, face=_remove_once(s.face_up, a.a), hand=hand)
            else:
                continue
            if v > best_v:
                best, best_v = a, v
        return best


def _offered(s, p: int, positions, traded) -> tuple[list[int], list[int], list[int]]:
    """An offer of ``p`` giving its hand cards at ``positions`` and the trade-area types ``traded``: the
    cards handed over, ``p``'s hand left, and A's trade area left."""
    received = [s.hands[p][i] for i in positions] + list(traded)
    hand = [c for i, c in enumerate(s.hands[p]) if i not in positions]
    face = list(s.face_up)
    for t in traded:
        face.remove(t)
    return received, hand, face


def _few_slots(s) -> bool:
    """Whether every seat has an offer slot in at most two rounds a turn (``max_trade_rounds`` 1 or 2
    with ``proposals="all"``, as in the ``learning2`` preset): slots are scarce, so each is spent on an
    offer that is likely to be taken."""
    return s.config.get("max_trade_rounds") in (1, 2) and s.config.get("proposals") != "active_only"


def _deck_types(s) -> list[int]:
    """Bean types known to be in play (any visible card), a stand-in for the deck's types."""
    seen = set(s.discard) | set(s.face_up)
    for p in range(s.n):
        seen.update(c for c in s.hands[p] if c >= 0)
        seen.update(s.ftype[p * 3 + f] for f in range(s.nfields[p]) if s.fcount[p * 3 + f])
    seen.discard(-1)
    return sorted(seen)


def _canonical(hand: list[int], positions: list[int]) -> list[int]:
    """Move each chosen position to the first card of its run of equal cards (trading.py order)."""
    out: list[int] = []
    last = -1
    for i in positions:
        while i - 1 > last and hand[i - 1] == hand[i] and (i - 1) not in positions:
            i -= 1
        if i <= last:
            i = last + 1
        out.append(i)
        last = i
    return out
