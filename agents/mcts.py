"""Information-set MCTS with determinisation (single-observer ISMCTS), for any variant and player count.

Each simulation takes a deal of the cards the deciding player cannot see (``view.sample_game``, up to
``determinisations`` distinct deals per decision, then clones of them in turn), walks
one shared tree of action sequences by UCB (each node's chooser maximises their own reward; a child's
exploration term counts the simulations in which it was legal, its *availability*), adds one node,
then plays the game out with the default policy and backs up a reward per seat.

Terms:
- *reward* of a seat, in [0, 1]: ``WIN_WEIGHT`` x its share of the win (1/k for a win shared by k) plus
  the rest x its coins / the best coins (the mafia's treasury counts as a rival score where there is
  one). A play-out cut at ``rollout_steps`` (by default at once: the new leaf itself) is scored as a
  logistic win chance from the heuristic's seat values: the lead over the best rival, in units of
  ``ESTIMATE_SCALE`` coins.
- *budget*: ``simulations`` per decision, or ``seconds`` per decision when given (not reproducible).
"""
from __future__ import annotations

import math
import time
from typing import Sequence

from bean_env.engine.actions import Action

from .base import Agent

WIN_WEIGHT = 0.7
ESTIMATE_SCALE = 2.5  # coins of lead that make a cut play-out a 73% win


class _Node:
    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self, n: int):
        self.children: dict = {}
        self.visits = 0
        self.avail = 1
        self.total = [0.0] * n


def rewards(game) -> list[float]:
    """Reward per seat of a finished game (see the module docstring)."""
    scores = game.scores()
    winners = game.winners()
    n = len(scores)
    mafia = game.mafia_score() if hasattr(game, "mafia_score") else None
    best = max(max(scores), mafia or 0, 1)
    share = 1.0 / len(winners) if winners else 0.0
    return [WIN_WEIGHT * (share if p in winners else 0.0) + (1 - WIN_WEIGHT) * scores[p] / best
            for p in range(n)]


class MCTSAgent(Agent):
    """Determinised information-set MCTS.

    ``simulations``: play-outs per decision; ``seconds``: a time budget instead (not reproducible);
    ``rollout``: default policy, ``"random"`` or ``"heuristic"``; ``rollout_steps``: cut a play-out after
    this many actions and score it by the heuristic evaluation (None = play to the end). The default,
    0, scores each new leaf by the evaluation at once: measured stronger per second than random or
    heuristic play-outs (docs/results.md);
    ``c``: UCB exploration constant; ``determinisations``: distinct deals of the unseen cards per
    decision, which the simulations take in turn (a clone of a deal is cheaper than a new deal);
    ``delegate``: at the decision points the heuristic family marks as delegated (the sub-decisions of
    a `bohnanza` trade offer), act as the heuristic does instead of searching.
    """

    name = "mcts"

    def __init__(self, seed: int | None = None, simulations: int = 100, seconds: float | None = None,
                 rollout: str = "random", rollout_steps: int | None = 0, c: float = 0.7,
                 determinisations: int = 25, delegate: bool = True):
        super().__init__(seed)
        if rollout not in ("random", "heuristic"):
            raise ValueError(f"bad value {rollout!r} for 'rollout'; allowed: 'random', 'heuristic'")
        if simulations < 1:
            raise ValueError(f"bad value {simulations!r} for 'simulations'; allowed: a whole number >= 1")
        self.simulations = simulations
        self.seconds = seconds
        self.rollout = rollout
        self.rollout_steps = rollout_steps
        self.c = c
        if determinisations < 1:
            raise ValueError(f"bad value {determinisations!r} for 'determinisations'; "
                             "allowed: a whole number >= 1")
        self.determinisations = determinisations
        self._policy = None
        if rollout == "heuristic":
            from .heuristic import HeuristicAgent
            self._policy = HeuristicAgent(seed=self.rng.getrandbits(32))
        self.delegate = delegate
        self._helper = None  # the heuristic agent for delegated decisions (keeps its offer plans)

    def reset(self) -> None:
        self._helper = None
        if self._policy is not None:
            self._policy.reset()

    def act(self, view, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self.delegate:
            from .heuristic import HeuristicAgent, family_for
            if view.decision in family_for(view.variant).delegated:
                if self._helper is None:
                    self._helper = HeuristicAgent(seed=self.rng.getrandbits(32))
                return self._helper.act(view, legal_actions)
        n = view.num_players
        root = _Node(n)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        deals: list = []
        done = 0
        while True:
            if len(deals) < self.determinisations:
                deals.append(view.sample_game(self.rng))
                game = deals[-1].clone()
            else:
                game = deals[done % self.determinisations].clone()
            self._simulate(game, root, n)
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= self.simulations:
                break
        children = root.children
        return max(legal_actions, key=lambda a: (children[a].visits if a in children else -1,
                                                 children[a].total[view.player] if a in children else 0))

    # -- one simulation ------------------------------------------------------------------------------
    def _simulate(self, game, root: _Node, n: int) -> None:
        """One simulation on ``game``, a determinisation of the view (changed in place)."""
        rng, c = self.rng, self.c
        node = root
        path = [root]
        while not game.is_over:
            acts = game.legal_actions()
            children = node.children
            untried = [a for a in acts if a not in children]
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = children[action] = _Node(n)
                for a in acts:
                    if a in children and a is not action:
                        children[a].avail += 1
                game.apply(action)
                path.append(child)
                break
            p = game.current_player
            best, best_u = None, -1.0
            for a in acts:
                ch = children[a]
                ch.avail += 1
                u = ch.total[p] / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if u > best_u:
                    best, best_u = a, u
            game.apply(best)
            node = children[best]
            path.append(node)
        reward = self._playout(game)
        for nd in path:
            nd.visits += 1
            tot = nd.total
            for p in range(n):
                tot[p] += reward[p]

    def _playout(self, game) -> list[float]:
        rng = self.rng
        limit = self.rollout_steps
        steps = 0
        policy = self._policy
        while not game.is_over:
            if limit is not None and steps >= limit:
                return self._estimate(game)
            acts = game.legal_actions()
            if policy is None or len(acts) == 1:
                game.apply(acts[rng.randrange(len(acts))])
            else:
                p = game.current_player
                game.apply(policy.act(game.view(p), acts))
            steps += 1
        return rewards(game)

    @staticmethod
    def _estimate(game) -> list[float]:
        """Rewards of an unfinished game: a logistic win chance from the heuristic's seat values
        (each seat against its best rival, the mafia's treasury included where there is one)."""
        from .heuristic import family_for
        fam = family_for(game.variant)
        s = game.state
        values = [fam.value(s, p) for p in range(s.n)]
        mafia = fam.mafia_value(game)  # treasury (plus the coins its bosses are about to earn)
        out = []
        for p in range(s.n):
            rivals = [values[q] for q in range(s.n) if q != p]
            if mafia is not None:
                rivals.append(mafia * (2.0 if s.n == 1 else 1.0))  # MAF-13: solitaire counts it twice
            lead = values[p] - max(rivals) if rivals else values[p]
            out.append(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, lead / ESTIMATE_SCALE)))))
        return out
