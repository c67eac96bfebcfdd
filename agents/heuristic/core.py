"""The generic heuristic: a position evaluation plus one-ply lookahead, for any variant.

A *family* object holds the variant-specific knowledge of the heuristic. The base ``Family`` plays
every variant legally and reasonably: for each legal action it applies the action to a clone of one
determinised game (``view.sample_game``) and keeps the action whose resulting position evaluates best
for the deciding seat (``evaluate.seat_value`` minus ``lam`` times the others' mean). Rules families
subclass it and override:

- ``pending(s, p)``: the cards seat ``p`` must / may still plant beyond its cards to plant;
- ``extra_value(s, p)``: a variant term added to the seat value (a mafia treasury, text cards, ...);
- ``choose(agent, view, legal)``: a direct decision for decision points the lookahead cannot judge
  (building a trade offer is a sequence of sub-decisions whose value shows only at its end); return
  ``None`` to fall back to the lookahead.

``agent.memory`` is a per-game dict where a family keeps plans across sub-decisions.
"""
from __future__ import annotations

from collections import Counter
from typing import Sequence

from bean_env.engine.actions import Action, Kind

from .evaluate import FORCED_HARVEST, game_left, seat_value

# Terminal positions: a win is worth this much more than the coins alone.
WIN_BONUS = 12.0


class Family:
    """Generic heuristic knowledge, valid for every variant."""

    # Decision points where search agents should use this family's direct choice instead of
    # searching (composite decisions whose tree is too wide for a small budget, e.g. trade offers).
    delegated: frozenset = frozenset()

    def lam(self, n: int) -> float:
        """Weight of the other seats' mean value in the evaluation."""
        return 0.5 if n == 2 else 0.3

    def pending(self, s, p: int) -> tuple[list[int], list[int]]:
        return s.to_plant[p], []

    def extra_value(self, s, p: int) -> float:
        return 0.0

    def value(self, s, p: int, growth: float | None = None, hand=None) -> float:
        """Seat value of ``p`` in state ``s`` (masked or full); ``hand`` replaces the seat's hand."""
        g = game_left(s) if growth is None else growth
        must, optional = self.pending(s, p)
        return seat_value(s, p, must, optional, hand=hand, growth=g) + self.extra_value(s, p)

    def mafia_weight(self, n: int) -> float:
        """Weight of the mafia's treasury against us where there is a mafia (MAF-13: the solitaire
        score counts it twice; with 2 players the mafia is the rival to beat)."""
        return 2.0 if n == 1 else 0.7

    def mafia_value(self, game) -> float | None:
        """The mafia's coins as a rival (None where the variant has no mafia)."""
        return game.mafia_score() if hasattr(game, "mafia_score") else None

    def evaluate(self, game, p: int, hand=None) -> float:
        """Evaluation of a full game position for seat ``p`` (``hand``: replaces ``p``'s hand)."""
        s = game.state
        n = s.n
        mafia = self.mafia_value(game)
        if s.over:
            scores = game.scores()
            winners = game.winners()
            mine = scores[p] + (WIN_BONUS / len(winners) if p in winners else 0.0)
            if mafia is not None and n > 1:
                mine -= self.mafia_weight(n) * mafia  # the solitaire score already counts the mafia
            others = [scores[q] for q in range(n) if q != p]
            return mine - (self.lam(n) * sum(others) / len(others) if others else 0.0)
        g = game_left(s)
        mine = self.value(s, p, g, hand)
        if mafia is not None:
            mine -= self.mafia_weight(n) * mafia
        if n == 1:
            return mine
        others = sum(self.value(s, q, g) for q in range(n) if q != p) / (n - 1)
        return mine - self.lam(n) * others

    def choose(self, agent, view, legal: Sequence[Action]):
        return None

    # -- the generic decision: one-ply lookahead on one determinisation ------------------------
    # After an action that leaves the same seat deciding at another decision point (a sub-decision of
    # a composite, AGT-2), the lookahead completes it greedily for up to this many more decisions
    # before evaluating, so an action that only opens a composite is judged by what it leads to.
    continuation = 3

    def lookahead(self, agent, view, legal: Sequence[Action]) -> Action:
        me = view.player
        game = view.sample_game(agent.rng)
        root = game.decision
        before = (list(game.state.hands[me]), len(game.state.deck))
        best, best_value = legal[0], -1e18
        for action in legal:
            trial = game.clone()
            trial.apply(action)
            v = self._complete(trial, me, root, view, before) + self.bias(view, action)
            if v > best_value:
                best, best_value = action, v
        return best

    def _complete(self, game, me: int, root: str, view, before) -> float:
        """Evaluation after greedily finishing our own follow-up sub-decisions."""
        for _ in range(self.continuation):
            if game.is_over or game.current_player != me or game.decision == root:
                break
            legal = game.legal_actions()
            best_game, best_value = None, -1e18
            for action in legal:
                trial = game.clone()
                trial.apply(action)
                v = self.evaluate(trial, me, _undrawn(trial.state, me, before)) + self.bias(view, action)
                if v > best_value:
                    best_game, best_value = trial, v
            game = best_game
        return self.evaluate(game, me, _undrawn(game.state, me, before))

    def bias(self, view, action: Action) -> float:
        """A small preference between actions of equal value (tie-breaks toward moving on)."""
        kind = action.kind
        if kind == Kind.HARVEST:
            # the planting simulation charges FORCED_HARVEST for a harvest it must make; a harvest made
            # now costs the same, so emptying a field early is not a free way around that charge
            return -0.01 - FORCED_HARVEST
        if kind == Kind.BUY_FIELD:
            return -0.01  # a free action must earn its place
        return 0.0


def _undrawn(s, p: int, before) -> list[int] | None:
    """``p``'s hand without the cards it drew from the deck since ``before`` = (hand, deck size).

    A branch that reaches a draw (the end of a turn) would otherwise look better than one that has not
    reached it yet, only because the drawn cards are in hand. Returns None (use the hand as it is) when
    the hand did not grow by cards taken from the deck.
    """
    old_hand, old_deck = before
    hand = s.hands[p]
    grew = len(hand) - len(old_hand)
    if grew <= 0 or old_deck - len(s.deck) < grew:
        return None
    drawn = Counter(hand)
    drawn.subtract(old_hand)
    if any(v < 0 for v in drawn.values()):
        return None
    out = []
    for card in reversed(hand):  # drawn cards join the back of the hand (COM-1)
        if drawn[card] > 0:
            drawn[card] -= 1
        else:
            out.append(card)
    out.reverse()
    return out
