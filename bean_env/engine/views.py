"""PlayerView: what one player may know (INFO-1..3), and determinisation (``sample_game``).

A view holds a *masked* copy of the state: every card the player cannot see is replaced by
``UNKNOWN`` (other players' unseen hand cards, the deck order) and the seed is dropped, so nothing
hidden can be read from it. ``sample_game(rng)`` fills the unknown places with a random assignment
of the unseen cards, giving a full ``Game`` that looks the same to this player.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ..cards import NAMES
from .state import EMPTY, State

UNKNOWN = -1


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
    seen = Counter()
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
        self._state = game.rules.mask(game.state, player)

    # -- INFO-1 public and private facts -----------------------------------------------------------
    @property
    def state(self) -> State:
        """The masked state (hidden cards are -1); read-only by convention."""
        return self._state

    @property
    def variant(self) -> str:
        return self._state.variant

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
        s = self._state.clone()
        pool = self.unseen_cards()
        r.shuffle(pool)
        it = iter(pool)
        for q in range(s.n):
            hand = s.hands[q]
            for i, c in enumerate(hand):
                if c == UNKNOWN:
                    hand[i] = next(it)
        s.deck = [next(it) for _ in s.deck]
        self._rules.fill_hidden(s, it, r)
        rest = list(it)
        if rest:
            raise AssertionError(f"view inconsistent: {len(rest)} unseen cards left over")
        s.seed = r.getrandbits(62)
        s.shuffles = 0
        return Game(self._rules, s, self._history[:self._history_len])

    def __repr__(self) -> str:
        return f"<PlayerView player={self.player} {self.variant} decision={self.decision!r}>"
