"""PlayerView: what one player may know (INFO-1..3), and determinisation (``sample_game``).

A view holds a *masked* copy of the state: every card the player cannot see is replaced by
``UNKNOWN`` (other players' unseen hand cards, the deck order) and the seed is dropped, so nothing
hidden can be read from it. ``sample_game(rng)`` fills the unknown places with a random assignment
of the unseen cards, giving a full ``Game`` that looks the same to this player.

Terms:
- *masked history*: the actions so far as this player may read them (``mask_history``). A hidden part
  of an action is replaced by the placeholder ``HIDDEN_PART`` (-1; ``str()`` prints it as hidden): the
  face-down defence card of `hostile_takeover` (HT-12) for everybody but the defender, and the hand
  positions of an offer that was never submitted (TRADE-2: others see how many, not which).
- *public holdings*: cards a seat is known to hold because of a public act (INFO-3): an acceptance shows
  that the acceptor holds the wanted cards until that seat's hand could have lost a card (rebuilt from
  the history of the last turns' trade phases); at ``choose_give`` the hand positions already chosen
  hold the wanted types. Samples honour them.
"""
from __future__ import annotations

import random
from collections import Counter
from itertools import islice
from typing import Any

from ..cards import NAMES
from .actions import ALL, Action, Kind, unpack_offer
from .compiled import mypyc_attr
from .state import EMPTY, State, shuffle

UNKNOWN = -1
HIDDEN_PART = -1  # placeholder for a hidden part of an action in a masked history

# decisions of the offer/response protocol (trading.py) and the action kinds that occur in it
_TRADE_DECISIONS = frozenset({"offer", "compose", "respond", "pick", "choose_give"})
_TRADE_KINDS = frozenset({Kind.OFFER, Kind.OFFER_CARDS, Kind.GIVE_HAND, Kind.GIVE_TRADE, Kind.WANT, Kind.SUBMIT,
                          Kind.CANCEL, Kind.ACCEPT, Kind.DECLINE, Kind.PICK, Kind.PASS, Kind.KEEP, Kind.HARVEST,
                          Kind.BUY_FIELD})
_FREE_KINDS = frozenset({Kind.HARVEST, Kind.BUY_FIELD, Kind.KEEP})
# action kinds with a part ``mask_history`` may hide -> the kind that opens the context it depends on
_MASK_CONTEXT = {Kind.HT_DEFEND: Kind.HT_ATTACK, Kind.GIVE_HAND: Kind.OFFER}


def _name(code: int):
    return None if code < 0 else NAMES[code]


def mask_state(s: State, player: int) -> State:
    """A copy of ``s`` with everything hidden from ``player`` replaced by UNKNOWN."""
    m = s.clone()
    bit = 1 << player
    for q in range(m.n):
        if q != player:
            known = m.known[q]
            m.hands[q] = [c if known[i] & bit else UNKNOWN for i, c in enumerate(m.hands[q])]
    m.deck = [UNKNOWN] * len(m.deck)
    m.seed = 0
    m.shuffles = 0
    return m


def visible_counts(s: State) -> Counter:
    """Type counts of every card whose type is known in a masked state."""
    seen: Counter = Counter()
    for cards in (s.deck, s.discard, s.removed, s.set_aside, s.face_up):
        seen.update(cards)
    for group in (s.hands, s.coins, s.to_plant):
        for cards in group:
            seen.update(cards)
    for i, c in enumerate(s.fcount):
        if c:
            seen[s.ftype[i]] += c
    seen.pop(UNKNOWN, None)
    return seen


def mask_history(history: list, viewer: int, state: State | None = None) -> list[Action]:
    """The actions of ``history`` as ``viewer`` may read them: hidden parts become ``HIDDEN_PART``.

    Masked are the defence card of HT_DEFEND unless ``viewer`` is the defender (the seat attacked by the
    last HT_ATTACK, HT-12), and the positions of GIVE_HAND while an offer is built, unless the offer was
    submitted (its hand cards are then shown, INFO-2) or is ``viewer``'s own offer still being built
    (``state`` says whose). An action without hidden parts is passed on as it is."""
    return HistoryMasker(history, viewer).masked(history, len(history), state)


class HistoryMasker:
    """``mask_history`` of one viewer over a history that only grows (a game's), continued from where
    the last call stopped instead of rescanned: a game keeps one per seat for its views (``Game.view``),
    so that an agent reading a view per decision does not pay for the whole history each time.

    The scan keeps what the masking of later actions depends on: the seat attacked last and the
    GIVE_HAND places of the offer being built (hidden for good if it is cancelled, shown if it is
    submitted; while it is built, ``masked`` hides them from all but its proposer)."""

    __slots__ = ("viewer", "source", "done", "last", "out", "attacked", "building")

    def __init__(self, history: list, viewer: int):
        self.viewer = viewer
        self._follow(history)

    def _follow(self, history: list) -> None:
        """Start over on ``history``."""
        self.source = history       # the followed list, compared by identity
        self.done = 0               # actions scanned
        self.last: Any = None       # the last scanned action object (replaced: the scan starts over)
        self.out: list = []         # the scanned actions, masked as far as known
        self.attacked = EMPTY
        self.building: list[int] | None = None  # places in ``out`` of GIVE_HAND in the offer being built

    def masked(self, history: list, length: int, state: State | None) -> list[Action]:
        """The first ``length`` actions of ``history`` masked for the viewer at ``state`` (a new list)."""
        if history is not self.source or length < self.done or (
                self.done and history[self.done - 1] is not self.last):
            if length < self.done and history is self.source:  # an older snapshot: scan it on its own
                return HistoryMasker(history, self.viewer).masked(history, length, state)
            self._follow(history)
        if length > self.done:
            self._scan(history, length)
        out = list(self.out)
        building = self.building
        if building and not (state is not None and state.decision == "compose" and state.o_prop == self.viewer):
            for k in building:
                out[k] = Action(Kind.GIVE_HAND, HIDDEN_PART, 0)
        return out

    def _scan(self, history: list, length: int) -> None:
        out, viewer = self.out, self.viewer
        attacked, building = self.attacked, self.building
        for i in range(self.done, length):
            a = history[i]
            out.append(a)
            kind = a.kind
            if kind == Kind.HT_ATTACK:
                attacked = a.a
            elif kind == Kind.HT_DEFEND:
                if attacked != viewer and a.a >= 0:
                    out[i] = Action(kind, HIDDEN_PART, a.b)
            elif kind == Kind.OFFER:
                building = []
            elif building is not None:
                if kind == Kind.GIVE_HAND:
                    building.append(i)
                elif kind == Kind.SUBMIT:
                    building = None
                elif kind == Kind.CANCEL:
                    for k in building:
                        out[k] = Action(Kind.GIVE_HAND, HIDDEN_PART, 0)
                    building = None
        self.attacked, self.building = attacked, building
        self.done, self.last = length, history[length - 1]


def _phase_events(acts: list, active: int, n: int, rules, now: State | None) -> list | None:
    """What one trade phase showed about hands (TRADE-3/4, INFO-3), as events in order: ``(q, want)``
    (seat ``q`` accepted, so it holds ``want``) and ``(q, None)`` (``q``'s hand lost cards in an executed
    trade). ``acts`` are the phase's actions, ``active`` its active player; ``now`` is the state when the
    phase is the current one (``None``: the phase is over and must end with ``acts``). None when the
    actions do not follow the offer/response protocol from the start of a phase."""
    max_rounds = getattr(rules, "max_rounds", 4)
    active_only = getattr(rules, "active_only", False)
    events: list = []
    rnd, slot, made, over = 1, 0, False, False
    i, end = 0, len(acts)

    def next_slot() -> None:
        nonlocal rnd, slot, made, over
        slot = n if active_only else slot + 1
        if slot == n:
            if not made or rnd >= max_rounds:
                over = True
            else:
                rnd, slot, made = rnd + 1, 0, False

    while i < end and not over:
        a = acts[i]
        i += 1
        if a.kind in _FREE_KINDS:
            continue
        if a.kind == Kind.END_TRADING:
            over = True
            break
        if a.kind == Kind.PASS:
            next_slot()
            continue
        if a.kind not in (Kind.OFFER, Kind.OFFER_CARDS):
            return None
        proposer, target = (active + slot) % n, a.a
        if a.kind == Kind.OFFER_CARDS:  # a whole offer, submitted at once; its given types may be hand cards
            give, wanted = unpack_offer(a.b)
            want, gives_hand = Counter(wanted), bool(give)
        else:
            want, gives_hand = Counter(), False
            while i < end and acts[i].kind in (Kind.GIVE_HAND, Kind.GIVE_TRADE, Kind.WANT):
                gives_hand |= acts[i].kind == Kind.GIVE_HAND
                if acts[i].kind == Kind.WANT:
                    want[acts[i].a] += 1
                i += 1
            if i == end:
                break  # still being built
            if acts[i].kind == Kind.CANCEL:
                i += 1
                next_slot()
                continue
            if acts[i].kind != Kind.SUBMIT:
                return None
            i += 1
        made = True
        if proposer != active:
            pending = [active]
        elif target == ALL:
            pending = [(active + k) % n for k in range(1, n)]
        else:
            pending = [target]
        accepted = []
        while i < end and pending and not over:
            k = acts[i].kind
            i += 1
            if k in _FREE_KINDS:
                continue
            if k == Kind.END_TRADING:
                over = True
            elif k in (Kind.ACCEPT, Kind.DECLINE):
                q = pending.pop(0)
                if k == Kind.ACCEPT:
                    accepted.append(q)
                    if q != active:
                        events.append((q, want))
            else:
                return None
        if pending or over:
            break  # still answering, or the active player ended trading
        partner = None
        if len(accepted) == 1:
            partner = accepted[0]
        elif accepted:
            while i < end and acts[i].kind in _FREE_KINDS:
                i += 1
            if i == end:
                break  # the active player is still picking
            if acts[i].kind == Kind.PICK:
                partner = acts[i].a
            elif acts[i].kind == Kind.END_TRADING:
                over, i = True, i + 1
                break
            elif acts[i].kind != Kind.CANCEL:
                return None
            i += 1
        if partner is not None:
            while i < end and acts[i].kind in (Kind.GIVE_HAND, Kind.GIVE_TRADE):
                i += 1
            if i == end and now is not None and now.decision == "choose_give":
                break  # the giver is still choosing
            events.append((partner, None))
            if gives_hand:
                events.append((proposer, None))
        next_slot()
    if any(a.kind not in _FREE_KINDS for a in acts[i:]):
        return None  # actions after the end of the phase: not one phase
    if now is None:
        return events if over else None
    return events if not over and (rnd, slot) == (now.t_round, now.t_slot) else None


_NOT_A_PHASE: list = []  # a memo entry: the stretch before this point holds harvests or buys only


def _past_phase(history: list, i: int, active: int, n: int, rules) -> tuple[int, list | None]:
    """The finished trade phase that ends before ``history[i]`` (stepping back over the actions between
    two phases): ``(where it starts, its events)``; the events are ``_NOT_A_PHASE`` for a stretch of
    harvests or buys only, None when it does not follow the protocol. Reads only ``history[:i]``."""
    while i > 0 and history[i - 1].kind not in _TRADE_KINDS and history[i - 1].kind != Kind.END_TRADING:
        i -= 1
    end = i
    if i > 0 and history[i - 1].kind == Kind.END_TRADING:
        i -= 1
    while i > 0 and history[i - 1].kind in _TRADE_KINDS:
        i -= 1
    acts = history[i:end]
    if all(a.kind in _FREE_KINDS for a in acts):
        return i, _NOT_A_PHASE
    return i, _phase_events(acts, active, n, rules, None)


def _trade_phases(state: State, history: list, rules, memo: dict | None = None) -> tuple[list, int]:
    """The trade phases of the last turns, latest first, as ``(active player, events)`` (see
    ``_phase_events``); a turn has one trade phase, and its active player is one seat to the right of
    the next turn's. Stops at the first stretch of history that is not a whole phase.

    ``memo`` (a game's ``Game.trade_phase_memo``) keeps the finished phases already read, by where the
    backward read stood and the active player: a finished phase depends only on the history before it,
    which only grows, so each one is read once per game. ``history`` must then be a prefix of that game's."""
    n = state.n
    current = state.decision in _TRADE_DECISIONS
    after = state.decision == "plant_traded" or (state.decision == "harvest_window"
                                                 and state.window_next == "draw")
    back = 0 if current or after else 1
    if memo is None:
        memo = {}
    phases: list = []
    i = len(history)
    if current and i > 0:  # the phase in progress, read up to the present state
        while i > 0 and history[i - 1].kind in _TRADE_KINDS:
            i -= 1
        events = _phase_events(history[i:], state.active, n, rules, state)
        if events is None:
            return phases, back
        phases.append((state.active, events))
    while i > 0 and len(phases) <= n:
        active = (state.active - back - len(phases)) % n
        found = memo.get((i, active))
        if found is None:
            found = memo[i, active] = _past_phase(history, i, active, n, rules)
        i, events = found
        if events is _NOT_A_PHASE:
            continue  # harvests or buys outside a trade phase
        if events is None:
            break
        phases.append((active, events))
    return phases, back


def _chosen_gives(state: State) -> dict[int, int]:
    """At ``choose_give``: the giver's hand positions chosen so far and the wanted type each gives."""
    served = state.o_want[:len(state.o_want) - len(state.x_want)]
    by_hand = list(served)
    for t in state.x_trade:
        by_hand.remove(t)
    return dict(zip(state.x_hand, by_hand))


def _require(held: Counter, want: Counter) -> None:
    """Add "holds at least ``want``" to what is known to be held (per type, the larger count)."""
    for t, c in want.items():
        held[t] = max(held[t], c)


def public_holdings(rules, state: State, history: list,
                    memo: dict | None = None) -> dict[int, tuple[Counter, dict[int, int]]]:
    """Per seat, ``(cards it must hold, {hand position: type})`` known from public acts (INFO-3): an
    acceptance (TRADE-4) until that seat's hand could have lost a card (it gave cards in an executed
    trade, or planted from its hand as the active player, BASE-5), and at ``choose_give`` the positions
    already chosen. Empty in variants without trading. ``memo``: see ``_trade_phases``."""
    if state.over or not hasattr(rules, "trade_legal"):
        return {}
    phases, back = _trade_phases(state, history, rules, memo)
    held: dict[int, Counter] = {}
    for active, events in phases[::-1]:  # not reversed(): that crashes mypyc 2.4 (compiled build)
        held.pop(active, None)  # the active player planted from their hand before trading
        for q, want in events:
            if want is None:
                held.pop(q, None)
                continue
            _require(held.setdefault(q, Counter()), want)
    if back and state.decision != "plant":
        held.pop(state.active, None)  # the turn's active player has planted (or had nothing to plant)
    want = Counter(state.o_want)
    if state.decision in ("respond", "pick", "choose_give"):
        for q in state.o_accept:  # acceptors of the offer being answered (certain, from the state)
            if q != state.active:
                _require(held.setdefault(q, Counter()), want)
    out: dict = {q: (c, {}) for q, c in held.items() if c}
    if state.decision == "choose_give":
        q = state.x_partner
        need = want - Counter(state.face_up) if q == state.active else want
        mine = out[q][0] if q in out else Counter()
        _require(mine, need)
        out[q] = (mine, _chosen_gives(state))
    return out


def _random_from(rng: Any) -> random.Random:
    if isinstance(rng, random.Random):
        return random.Random(rng.getrandbits(62))
    if rng is None:
        return random.Random()
    if isinstance(rng, int):
        return random.Random(rng)
    if hasattr(rng, "integers"):  # numpy Generator
        return random.Random(int(rng.integers(0, 2**62)))
    raise TypeError(f"rng must be a random.Random, a numpy Generator, an int or None, not {type(rng).__name__}")


class PlayerView:
    """One player's knowledge of a game. Attributes use bean type names (see ``bean_env.cards``)."""

    def __init__(self, game, player: int):
        if not 0 <= player < game.state.n:
            raise ValueError(f"bad player {player!r}; allowed: 0..{game.state.n - 1}")
        self.player = player
        self._rules = game.rules
        # the game's history only grows by appending, so a reference and its length are a snapshot
        # (copying it for every view made agent play quadratic in the game length)
        self._history = game.history
        self._history_len = len(game.history)
        maskers = getattr(game, "history_masker", None)  # a Game's, shared by its views of this seat
        self._masker: HistoryMasker | None = maskers(player) if maskers is not None else None
        memo = getattr(game, "trade_phase_memo", None)  # a Game's, shared by all its views
        self._phase_memo: dict | None = memo() if memo is not None else None
        self._state = game.rules.mask(game.state, player)
        self._masked: list[Action] | None = None
        self._holdings: dict | None = None
        self._deal_plan: tuple | None = None  # what every sample_game shares (``_plan``)

    # -- INFO-1 public and private facts -----------------------------------------------------------
    @property
    def state(self) -> State:
        """The masked state (hidden cards are -1); read-only by convention."""
        return self._state

    @property
    def variant(self) -> str:
        return self._state.variant

    @property
    def rules(self) -> Any:
        """The game's rules object (rule options, beanometers, the legal-action generator; no cards)."""
        return self._rules

    def legal_actions(self) -> list[Action]:
        """The legal actions if this view's player decides now, else ``[]``. Legality reads only what
        the deciding player sees, so this is the game's own list, computed from the masked state."""
        s = self._state
        if s.over or s.actor != self.player:
            return []
        return self._rules.legal(s)

    @property
    def config(self) -> dict:
        return dict(self._state.config)

    @property
    def num_players(self) -> int:
        return self._state.n

    @property
    def hand(self) -> list[str]:
        return [NAMES[c] for c in self._state.hands[self.player]]

    @property
    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._state.hands]

    @property
    def known_hands(self) -> list[list]:
        """Per seat, each hand card's type name if this player knows it, else None (INFO-2)."""
        return [[_name(c) for c in h] for h in self._state.hands]

    @property
    def fields(self) -> list[list[tuple]]:
        s = self._state
        return [[(_name(s.ftype[p * 3 + f]) if s.fcount[p * 3 + f] else None, s.fcount[p * 3 + f])
                 for f in range(s.nfields[p])] for p in range(s.n)]

    @property
    def coins(self) -> list[int]:
        return [len(c) for c in self._state.coins]

    @property
    def discard(self) -> list[str]:
        return [NAMES[c] for c in self._state.discard]

    @property
    def face_up(self) -> list[str]:
        return sorted(NAMES[c] for c in self._state.face_up)

    @property
    def to_plant(self) -> list[list[str]]:
        return [sorted(NAMES[c] for c in cards) for cards in self._state.to_plant]

    @property
    def deck_size(self) -> int:
        return len(self._state.deck)

    @property
    def runouts(self) -> int:
        return self._state.runouts

    @property
    def current_player(self) -> int:
        return self._state.actor

    @property
    def active_player(self) -> int:
        return self._state.active

    @property
    def decision(self) -> str:
        return self._state.decision

    @property
    def is_over(self) -> bool:
        return self._state.over

    @property
    def mafia(self) -> dict | None:
        """The mafia (MAF-1, public): ``{"bosses": [(type name or None, count)], "treasury": coins}``,
        or None for variants without a mafia."""
        s = self._state
        if not hasattr(s, "treasury"):
            return None
        return {"bosses": [(_name(s.btype[b]) if s.bcount[b] else None, s.bcount[b]) for b in range(len(s.btype))],
                "treasury": len(s.treasury)}

    @property
    def offer(self) -> dict | None:
        """The offer being built or answered (public), or None."""
        s = self._state
        if s.o_prop == EMPTY:
            return None
        return {"proposer": s.o_prop, "to": s.o_to,
                "give_hand": [(i, _name(s.hands[s.o_prop][i])) for i in s.o_hand],
                "give_trade": [NAMES[t] for t in s.o_trade], "want": [NAMES[t] for t in s.o_want],
                "pending": list(s.o_pending), "accepted": list(s.o_accept)}

    # -- determinisation ---------------------------------------------------------------------------
    def unseen_cards(self) -> list[int]:
        """Type codes of the cards this player cannot see (other hands' unknown cards and the deck)."""
        rules = self._rules
        pool = Counter(rules.composition())
        pool.subtract(visible_counts(self._state))
        pool.subtract(rules.extra_seen(self._state))
        pool.update(rules.extra_unseen(self._state))
        return sorted(pool.elements())

    def sample_game(self, rng: Any = None):
        """A full ``Game`` consistent with this view: unseen cards dealt at random, a fresh seed."""
        from .game import Game

        r = _random_from(rng)
        unseen, held, places = self._plan()
        s = self._state.clone()
        pool = list(unseen)
        shuffle(r, pool)
        hands = s.hands
        for q, (need, pins) in held:
            self._place_holdings(hands[q], need, pins, pool, r)
        it = iter(pool)
        for q, i in places:
            if hands[q][i] == UNKNOWN:  # not taken by a public holding
                hands[q][i] = next(it)
        deck = list(islice(it, len(s.deck)))
        if len(deck) != len(s.deck):
            raise AssertionError(f"view inconsistent: {len(s.deck) - len(deck)} unseen cards missing")
        s.deck = deck
        self._rules.fill_hidden(s, it, r)
        rest = list(it)
        if rest:
            raise AssertionError(f"view inconsistent: {len(rest)} unseen cards left over")
        s.seed = r.getrandbits(62)
        s.shuffles = 0
        return Game(self._rules, s, self.history)

    def _plan(self) -> tuple:
        """What does not change between samples of this view, computed once: the unseen cards (sorted),
        the public holdings by seat, and the unknown hand places in dealing order (seat, position)."""
        if self._deal_plan is None:
            places = [(q, i) for q, hand in enumerate(self._state.hands) for i, c in enumerate(hand)
                      if c == UNKNOWN]
            self._deal_plan = (tuple(self.unseen_cards()), sorted(self.holdings().items()), places)
        return self._deal_plan

    def holdings(self) -> dict[int, tuple[Counter, dict[int, int]]]:
        """Cards other seats are known to hold from public acts (``public_holdings``), by type code."""
        if self._holdings is None:
            real = self._history[:self._history_len]
            self._holdings = public_holdings(self._rules, self._state, real, self._phase_memo)
        return self._holdings

    @staticmethod
    def _place_holdings(hand: list[int], need: Counter, pins: dict[int, int], pool: list[int],
                        r: random.Random) -> None:
        """Deal the pinned and the required cards into the unknown places of ``hand`` (from ``pool``)."""
        for pos, t in pins.items():
            if 0 <= pos < len(hand) and hand[pos] == UNKNOWN and t in pool:
                pool.remove(t)
                hand[pos] = t
        have = Counter(c for c in hand if c != UNKNOWN)
        for t, c in sorted(need.items()):
            for _ in range(c - have[t]):
                free = [i for i, x in enumerate(hand) if x == UNKNOWN]
                if not free or t not in pool:
                    break
                pool.remove(t)
                hand[free[r.randrange(len(free))]] = t

    @property
    def history(self) -> list[Action]:
        """The actions so far as this player may read them (``mask_history``; a fresh list)."""
        if self._masked is None:
            masker = self._masker
            if masker is None:
                self._masked = mask_history(self._history[:self._history_len], self.player, self._state)
            else:
                self._masked = masker.masked(self._history, self._history_len, self._state)
        return list(self._masked)

    @property
    def last_action(self) -> Action | None:
        """The most recent action as this player may read it (the last entry of ``history``), or None
        before the first action; cheap: only the context an action's masking depends on is read."""
        h, n = self._history, self._history_len
        if n == 0:
            return None
        a = h[n - 1]
        start = _MASK_CONTEXT.get(a.kind)
        if start is None:
            return a
        i = n - 1
        while i > 0 and h[i].kind != start:
            i -= 1
        return mask_history(h[i:n], self.player, self._state)[-1]

    def __repr__(self) -> str:
        return f"<PlayerView player={self.player} {self.variant} decision={self.decision!r}>"


@mypyc_attr(native_class=False)  # compiled build: mypyc cannot compile a list subclass natively
class SeatHistory(list):
    """One seat's masked history of one game (as ``PlayerView.history``), kept up to date one action at
    a time by ``follow``: what a per-game memory of that seat reads, so it never holds a hidden part
    (INFO-3). Following is cheap: each step appends the view's ``last_action``."""

    def __init__(self, view: PlayerView):
        super().__init__(view.history)
        self.player = view.player
        self._source = view._history  # the followed game's history: compared by identity, never read

    def at(self, view: PlayerView) -> bool:
        """Whether ``view`` is this seat's view of the followed game with no action not taken in yet."""
        return view._history is self._source and view.player == self.player and view._history_len == len(self)

    def follow(self, view: PlayerView) -> bool:
        """Take in (masked) the one action ``view`` is ahead by; False, changing nothing, unless ``view`` is
        this seat's view of the followed game exactly one action ahead."""
        if view._history is not self._source or view.player != self.player or view._history_len != len(self) + 1:
            return False
        self.append(view.last_action)
        return True
