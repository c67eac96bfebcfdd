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
from bean_env.engine.game import Game

from .base import Agent
from .heuristic import HeuristicAgent, family_for
from .heuristic.core import Family
from .heuristic.evaluate import game_left

WIN_WEIGHT = 0.7
ESTIMATE_SCALE = 2.5  # coins of lead that make a cut play-out a 73% win


class _Node:
    """A node of the shared tree: children by action, visits, availability, reward totals per seat, and
    per deal index that reached it ``[legal actions, their children or None]``."""

    __slots__ = ("children", "visits", "avail", "total", "legal")

    def __init__(self, n: int):
        self.children: dict = {}
        self.visits = 0
        self.avail = 1
        self.total = [0.0] * n
        self.legal: dict = {}


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
            if view.decision in family_for(view.variant).delegated:
                if self._helper is None:
                    self._helper = HeuristicAgent(seed=self.rng.getrandbits(32))
                return self._helper.act(view, legal_actions)
        n = view.num_players
        root = _Node(n)
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        budget = None if deadline is not None else self.simulations
        kinds = self.determinisations
        search = None
        deals: list = []
        done = 0
        while True:
            k = done % kinds
            if k == len(deals):
                deals.append(view.sample_game(self.rng))
            deal = deals[k]
            if search is None:
                search = _Search(self, family_for(view.variant), deal.rules, n)
            if budget is not None and done + kinds >= budget:
                state = deal.state  # the deal's last simulation may use it up
            else:
                state = deal.state.clone()
            search.simulate(state, deal.history, root, k)
            done += 1
            if deadline is not None:
                if time.perf_counter() >= deadline:
                    break
            elif done >= budget:
                break
        children = root.children
        return max(legal_actions, key=lambda a: (children[a].visits if a in children else -1,
                                                 children[a].total[view.player] if a in children else 0))


class _Search:
    """One decision's search: simulations on determinised states (``rules.legal`` / ``rules.step`` on
    the state itself: no ``Game`` with its history copy, action checks and restore snapshots)."""

    def __init__(self, agent: MCTSAgent, family, rules, n: int):
        self.agent = agent
        self.rng = agent.rng
        self.c = agent.c
        self.n = n
        self.family = family
        self.rules = rules
        self.legal = rules.legal
        # the base family's mafia value is None without a mafia: no Game to build per leaf to learn it
        self.plain_mafia = type(family).mafia_value is Family.mafia_value

    def simulate(self, state, history: list, root: _Node, k: int) -> None:
        """One simulation on ``state``, a determinisation of the view (changed in place); ``k``: which
        deal it is. A node keeps, per deal, the legal actions and, once all of them have children, the
        children in the same order (the same deal and path always give the same state)."""
        rng, c, n, legal = self.rng, self.c, self.n, self.legal
        step = self.rules.step
        log, sqrt = math.log, math.sqrt
        node = root
        path = [root]
        taken: list = []
        while not state.over:
            entry = node.legal.get(k)
            if entry is None:
                entry = node.legal[k] = [legal(state), None]
            acts, kids = entry
            if kids is None:
                children = node.children
                untried = [a for a in acts if a not in children]
                if untried:
                    action = untried[rng.randrange(len(untried))]
                    child = children[action] = _Node(n)
                    for a in acts:
                        if a in children and a is not action:
                            children[a].avail += 1
                    step(state, action)
                    taken.append(action)
                    path.append(child)
                    break
                kids = entry[1] = [children[a] for a in acts]
            p = state.actor
            best, best_u = 0, -1.0
            for i, ch in enumerate(kids):
                ch.avail += 1
                visits = ch.visits
                u = ch.total[p] / visits + c * sqrt(log(ch.avail) / visits)
                if u > best_u:
                    best, best_u = i, u
            action = acts[best]
            step(state, action)
            taken.append(action)
            node = kids[best]
            path.append(node)
        reward = self.playout(state, history, taken)
        for nd in path:
            nd.visits += 1
            nd.total = [t + r for t, r in zip(nd.total, reward)]

    def playout(self, state, history: list, taken: list) -> list[float]:
        """Play on from the new leaf by the default policy; rewards per seat (cut: ``estimate``)."""
        agent = self.agent
        limit = agent.rollout_steps
        if limit == 0:
            return rewards(self._game(state)) if state.over else self.estimate(state)
        rng, legal, step = self.rng, self.legal, self.rules.step
        policy = agent._policy
        game = None
        if policy is not None:  # the heuristic reads views, which read the history
            game = Game(self.rules, state, history + taken)
        steps = 0
        while not state.over:
            if limit is not None and steps >= limit:
                return self.estimate(state)
            acts = legal(state)
            if policy is None or len(acts) == 1:
                action = acts[rng.randrange(len(acts))]
            else:
                action = policy.act(game.view(state.actor), acts)
            step(state, action)
            if game is not None:
                game.history.append(action)
            steps += 1
        return rewards(self._game(state))

    def _game(self, state) -> Game:
        """``state`` as a ``Game`` (no history) for the functions that read one (scores, the mafia)."""
        return Game(self.rules, state)

    def estimate(self, s) -> list[float]:
        """Rewards of an unfinished game: a logistic win chance from the heuristic's seat values
        (each seat against its best rival, the mafia's treasury included where there is one)."""
        fam = self.family
        g = game_left(s)
        n = s.n
        values = [fam.value(s, p, g) for p in range(n)]
        if self.plain_mafia and not hasattr(s, "treasury"):  # Game.mafia_score: None without a treasury
            mafia = None
        else:
            mafia = fam.mafia_value(self._game(s))  # treasury (plus the coins its bosses are about to earn)
        if mafia is not None:
            mafia *= 2.0 if n == 1 else 1.0  # MAF-13: solitaire counts it twice
        top = sorted(values, reverse=True)
        out = []
        exp = math.exp
        for v in values:
            if n == 1:
                lead = v - mafia if mafia is not None else v
            else:
                rival = top[1] if v == top[0] else top[0]  # the best of the other seats
                if mafia is not None and mafia > rival:
                    rival = mafia
                lead = v - rival
            out.append(1.0 / (1.0 + exp(-max(-30.0, min(30.0, lead / ESTIMATE_SCALE)))))
        return out
