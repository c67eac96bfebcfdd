#!/usr/bin/env python3
"""What gifts are worth to an agent: its win rate as it plays, and again when it must decline every gift.

    python benchmarks/gift_cost.py                                  # shipped ppo, 4-player default rules
    python benchmarks/gift_cost.py --candidate heuristic --deals 25

A *gift* is an executed trade in which one side gives nothing (``bean_env.engine.trade_stats``). The
*gift refuser* plays the candidate unchanged except at one kind of decision: where the candidate would
accept an offer that gives it cards and wants nothing back, it declines. (Its own requests for cards
for nothing are left as they are, so a few gifts can still reach it.) Both rows are measured by the
protocol's ``measure`` (``bean_env.training.benchmark``) on the entry's held-out deals, the candidate in
every seat in turn, with 95% intervals by deal and the candidate's trade statistics.

The difference says how much of a win rate comes from gifts: against generous ``heuristic`` players,
which hand each other their unwanted cards, an agent that declines them also hands them to its opponents.

"Of them as A" counts the gifts received while the candidate was the active player (from the other
players' hands); the rest came from the active player's trade area or hand.

For a ``heuristic`` candidate a third row, *buying instead*, asks whether the cards a gift brings can be
had in fair trades: the *gift buyer* plays ``heuristic``'s trading but receives nothing for nothing. It
declines every gift, asks for no card without paying, and at each offer slot while another player is
active (A) it first offers A one hand card for each trade-area card of A it would accept as a gift,
choosing the card that helps it most among those A is predicted (by ``heuristic``'s own answering rule,
from public cards) to take.
"""
from __future__ import annotations

import argparse
import importlib.util
import pathlib
import sys
from typing import Any, Sequence

if importlib.util.find_spec("bean_env") is None:  # not installed: use this checkout
    sys.path.append(str(pathlib.Path(__file__).resolve().parent.parent))

from bean_env.agents.heuristic.bohnanza import ACCEPT_MIN, BohnanzaFamily  # noqa: E402
from bean_env.engine.actions import ACCEPT, DECLINE, Action, Kind  # noqa: E402
from bean_env.engine.views import PlayerView  # noqa: E402


def is_gift_offer(view: PlayerView) -> bool:
    """The offer being answered gives the answering seat cards and wants nothing from it."""
    offer = view.offer
    return offer is not None and not offer["want"] and bool(offer["give_hand"] or offer["give_trade"])


class GiftRefuser:
    """Plays as ``inner`` but declines every offer of cards for nothing (see the module doc)."""

    def __init__(self, inner: Any):
        self.inner = inner
        self.refused = 0  # accepts turned into declines

    def __getattr__(self, name: str) -> Any:  # observe / reset / name of the wrapped agent
        return getattr(self.inner, name)

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        action = self.inner.act(view, legal_actions)
        if action.kind == Kind.ACCEPT and is_gift_offer(view):
            self.refused += 1
            return next(a for a in legal_actions if a.kind == Kind.DECLINE)
        return action


class _BuyingFamily(BohnanzaFamily):
    """``heuristic``'s `bohnanza` trading without receiving gifts (the gift buyer of the module doc)."""

    def _respond(self, s, me: int, legal, fair: bool = False):
        if ACCEPT in legal and not s.o_want and (s.o_hand or s.o_trade):
            return DECLINE
        return super()._respond(s, me, legal, fair)

    def _active_offers(self, s, me, g, base, junk):
        return [offer for offer in super()._active_offers(s, me, g, base, junk) if offer[1]]

    def _passive_offers(self, s, me, g, base, junk):
        a, hand = s.active, s.hands[me]
        gains = [(self._v(s, me, g, extra=[t]) - base, t) for t in set(s.face_up)]
        buys = []
        for gain, want in sorted(gains, key=lambda x: (-x[0], x[1])):
            if gain <= ACCEPT_MIN:
                break
            best = None
            for i, card in enumerate(hand):
                if card < 0 or (i and hand[i - 1] == card):
                    continue
                mine = self._v(s, me, g, hand=hand[:i] + hand[i + 1:], extra=[want]) - base
                if mine > 0 and (best is None or mine > best[0]) and \
                        self._taken_by(s, me, g, a, [("hand", i)], [want], False) is not None:
                    best = (mine, i)
            if best is not None:
                buys.append((a, [("hand", best[1])], [want]))
        return buys + [offer for offer in super()._passive_offers(s, me, g, base, junk) if offer[1]]


class GiftBuyer:
    """Plays as the ``heuristic`` agent ``inner`` with the gift buyer's trading (see the module doc)."""

    def __init__(self, inner: Any):
        if getattr(inner, "name", None) != "heuristic":
            raise ValueError(f"the gift buyer wraps a heuristic agent, not {getattr(inner, 'name', inner)!r}")
        self.inner = inner
        self.family = _BuyingFamily()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def act(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1 or view.variant != "bohnanza":
            return self.inner.act(view, legal_actions)
        action = self.family.choose(self.inner, view, legal_actions)
        if action is None or action not in legal_actions:
            action = self.family.lookahead(self.inner, view, legal_actions)
        return action


def main(argv: list[str] | None = None) -> int:
    from bean_env.engine.trade_stats import TRADING_VARIANTS
    from bean_env.training.benchmark import PROTOCOL, checkpoint_problem, measure
    from bean_env.training.options import agent_spec

    labels = [e.label for e in PROTOCOL]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entry", default="bohnanza, 4 players (default rules)",
                        help="a protocol entry with trading (docs/benchmark.md)")
    parser.add_argument("--candidate", default="ppo", help="agent spec measured (default: the shipped policy)")
    parser.add_argument("--opponent", default="heuristic", help="agent spec of every other seat")
    parser.add_argument("--deals", type=int, default=100, help="held-out deals (each played once per seat)")
    args = parser.parse_args(argv)
    entry = next((e for e in PROTOCOL if e.label == args.entry), None)
    if entry is None or entry.variant not in TRADING_VARIANTS:
        parser.error(f"--entry {args.entry!r} is not a protocol entry with trading; choose from {labels}")
    if args.deals < 2:
        parser.error(f"--deals must be at least 2 (an interval needs two deals), not {args.deals}")
    try:
        agent_spec("--candidate", args.candidate)
        agent_spec("--opponent", args.opponent)
    except ValueError as exc:
        parser.error(str(exc))
    problem = checkpoint_problem([args.candidate, args.opponent], [entry])
    if problem:
        parser.error(problem)
    print(f"{entry.label}: {args.candidate} against {args.opponent}, {args.deals} held-out deals")
    print("| play | games | win rate | 95% CI (by deal) | trades | accepted | given | received | gifts in "
          "| of them as A |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    rows: list[tuple[str, Any]] = [("as it plays", None), ("declining gifts", GiftRefuser)]
    if args.candidate.split(":")[0] == "heuristic":
        rows.append(("buying instead", GiftBuyer))
    for name, wrap in rows:
        cell = measure(entry, args.candidate, args.opponent, args.deals, wrap=wrap)
        t = cell.trades
        mean, low, high = cell.win
        print(f"| {name} | {cell.games} | {mean:.1%} | {low:.1%}-{high:.1%} | {t['trades']:.1f} | "
              f"{t['accepts']:.1f} | {t['cards_given']:.1f} | {t['cards_received']:.1f} | "
              f"{t['gifts_received']:.1f} | {t['gifts_received_as_active']:.1f} |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
