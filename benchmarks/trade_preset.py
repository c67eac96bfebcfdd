#!/usr/bin/env python3
"""Decisions and trades per game of 4-player `bohnanza` under heuristic play, with and without the
trading controls (rule options ``max_offer_cards``, ``offer_actions``, ``proposals``,
``max_trade_rounds`` and the ``trade_preset``).

    python benchmarks/trade_preset.py                  # default rules and the two learning presets, 50 games
    python benchmarks/trade_preset.py --games 20 --all # also other combinations of the options

Every seat is a ``heuristic`` agent (seeds ``10 * game + seat``); game ``i`` uses seed ``i``. Per
configuration the script prints the median and the 10th-90th percentiles of *decisions* per game (one
``Game.apply`` call each, forced ones included) and of *agent decisions* (those with more than one legal
action: what an env with ``auto_forced=True`` asks of its agents), and per game the means of offers
made, offers accepted (at least one addressee said yes), *executed trades* (offers whose cards changed
hands, counted by ``bean_env.engine.trade_stats`` from the engine's events), the cards that changed
hands, and *gifts* (executed trades in which one side gave nothing). A preset for learning aims at a
median of at most 400 decisions while trades still happen; ``learning2`` aims at that with at least as
many executed trades as the default rules.
"""
from __future__ import annotations

import argparse
import importlib.util
import pathlib
import statistics
import sys
import time
from collections import Counter

if importlib.util.find_spec("bean_env") is None:  # not installed: use this checkout (an installed build,
    sys.path.append(str(pathlib.Path(__file__).resolve().parent.parent))  # e.g. the compiled one, wins)

from bean_env import new_game  # noqa: E402
from bean_env.agents.heuristic import HeuristicAgent  # noqa: E402
from bean_env.engine.trade_stats import TradeCounter  # noqa: E402

TRADE_POINTS = ("offer", "compose", "respond", "pick", "choose_give")


def play(seed: int, config: dict) -> dict:
    """One heuristic game; its decision and trade counts."""
    game = new_game("bohnanza", seed=seed, num_players=4, **config)
    agents = [HeuristicAgent(seed=10 * seed + i) for i in range(4)]
    counter = TradeCounter(game)
    out = {"decisions": 0, "agent": 0, "points": Counter()}
    while not game.is_over:
        seat, legal, point = game.current_player, game.legal_actions(), game.decision
        counter.apply(agents[seat].act(game.view(seat), legal))
        out["decisions"] += 1
        out["agent"] += len(legal) > 1
        out["points"][point] += 1
    out.update(counter.totals())
    return out


def measure(config: dict, games: int) -> dict:
    rows = [play(seed, config) for seed in range(games)]
    dec = sorted(r["decisions"] for r in rows)
    agent = sorted(r["agent"] for r in rows)
    points = Counter()
    for r in rows:
        points.update(r["points"])
    q = statistics.quantiles(dec, n=10) if games >= 2 else [dec[0]] * 9
    return {"median": statistics.median(dec), "p10": q[0], "p90": q[-1],
            "agent_median": statistics.median(agent),
            **{k: statistics.mean(r[k] for r in rows) for k in ("trades", "offers", "offers_accepted",
                                                                 "cards_given", "gifts")},
            "trade_share": sum(points[p] for p in TRADE_POINTS) / sum(points.values()),
            "points": {p: points[p] / games for p in TRADE_POINTS if points[p]}}


CONFIGS = {
    "default rules": {},
    'trade_preset="learning"': {"trade_preset": "learning"},
    'trade_preset="learning2"': {"trade_preset": "learning2"},
}
SINGLE = {
    "max_offer_cards=2": {"max_offer_cards": 2},
    'max_offer_cards=2, offer_actions="macro"': {"max_offer_cards": 2, "offer_actions": "macro"},
    'proposals="active_only"': {"proposals": "active_only"},
    'learning preset, max_trade_rounds=2': {"trade_preset": "learning", "max_trade_rounds": 2},
    'learning preset, max_trade_rounds=3': {"trade_preset": "learning", "max_trade_rounds": 3},
    'learning2 preset, max_trade_rounds=1': {"trade_preset": "learning2", "max_trade_rounds": 1},
    'learning2 preset, max_trade_rounds=3': {"trade_preset": "learning2", "max_trade_rounds": 3},
}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--all", action="store_true", help="also each option on its own")
    args = ap.parse_args(argv)
    configs = dict(CONFIGS, **(SINGLE if args.all else {}))
    print(f"4-player bohnanza (German), {args.games} heuristic games per row, seeds 0..{args.games - 1}\n")
    print("| rules | decisions/game, median (p10-p90) | agent decisions, median | offers/game "
          "| offers accepted/game | executed trades/game | cards changing hands/game | gifts/game | trade share "
          "| trade decisions by point (per game) |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
    for label, config in configs.items():
        t0 = time.perf_counter()
        m = measure(config, args.games)
        points = ", ".join(f"{p} {v:.0f}" for p, v in m["points"].items())
        print(f"| {label} | {m['median']:.0f} ({m['p10']:.0f}-{m['p90']:.0f}) | {m['agent_median']:.0f} "
              f"| {m['offers']:.1f} | {m['offers_accepted']:.1f} | {m['trades']:.1f} | {m['cards_given']:.1f} "
              f"| {m['gifts']:.1f} | {m['trade_share']:.0%} | {points} |", flush=True)
        print(f"    ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
