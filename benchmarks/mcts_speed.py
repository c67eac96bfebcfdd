#!/usr/bin/env python3
"""Simulations per second of the ``mcts`` agent on fixed positions, in CPU time.

    python benchmarks/mcts_speed.py                      # bean_duel, bohnanza 4p, hostile_takeover 4p
    python benchmarks/mcts_speed.py --seconds 2 --variants bean_duel
    python benchmarks/mcts_speed.py --profile            # cProfile of the searches, top functions
    python benchmarks/mcts_speed.py --against /tmp/base  # also an older checkout, rounds interleaved

Positions: for each variant a seeded game of uniformly random legal play is walked and every few
decision points where the agent searches (more than one legal action, not delegated to the heuristic)
one is kept, ``--positions`` of them. A *decision* of the timing table is one simulation: one call of
``MCTSAgent.act`` with ``simulations=S`` on a fresh view counts S (the agent's own seed is fixed, so
every round does the same work). The rate is the median of the per-round rates of interleaved rounds
(``benchmarks/timing.py``).

``--against TREE`` measures another checkout of the repository as well (for example the commit before
a change, made with ``git worktree add``): every round runs this script once for each tree in a
child process (``--tree``), alternating, and the table reports medians over the rounds and the ratio.
For a tree other than this one ``agents`` is imported as a top-level package of that tree (the
editable install maps ``bean_env.agents`` to this checkout; a tree whose heuristic loads its family
modules by ``bean_env.agents.*`` paths still gets those from this checkout).
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import pathlib
import pstats
import random
import statistics
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent

VARIANTS = {
    "bean_duel": {},
    "bohnanza 4p": {"num_players": 4},
    "hostile_takeover 4p": {"num_players": 4},
}


def _setup(tree: pathlib.Path | None):
    """Import path: ``tree``'s ``bean_env`` and ``agents`` (top level), or this checkout's package."""
    sys.path.insert(0, str(HERE))
    if tree is None or tree.resolve() == ROOT:
        sys.path.insert(0, str(ROOT))
        from bean_env.agents.mcts import MCTSAgent
        from bean_env.agents.heuristic import family_for
    else:
        sys.path.insert(0, str(tree.resolve()))
        from agents.mcts import MCTSAgent  # type: ignore[no-redef]
        from agents.heuristic import family_for  # type: ignore[no-redef]
    from bean_env import new_game
    return MCTSAgent, family_for, new_game


def positions(new_game, family_for, label: str, count: int, seed: int, every: int = 7) -> list:
    """``count`` searched decision points of seeded random play of a variant (games of seeds
    ``seed``, ``seed + 1``, ... until there are enough), as games."""
    variant = label.split()[0]
    config = VARIANTS[label]
    delegated = family_for(variant).delegated
    out: list = []
    g = seed
    while len(out) < count:
        game = new_game(variant, seed=g, **config)
        rng = random.Random(g)
        k = 0
        while not game.is_over and len(out) < count:
            legal = game.legal_actions()
            if len(legal) > 1 and game.decision not in delegated:
                k += 1
                if k % every == 0:
                    out.append(game.clone())
            game.apply(legal[rng.randrange(len(legal))])
        g += 1
    return out


def search_loop(MCTSAgent, games: list, simulations: int, options: dict):
    """One call: the agent (seed 0) searches every position once; returns the simulations run."""
    def play() -> int:
        for i, game in enumerate(games):
            agent = MCTSAgent(seed=i, simulations=simulations, **options)
            agent.act(game.view(game.current_player), game.legal_actions())
        return simulations * len(games)
    return play


def choices(MCTSAgent, games: list, simulations: int, options: dict) -> list[str]:
    """The action the agent (seed i at position i) chooses at each position."""
    return [str(MCTSAgent(seed=i, simulations=simulations, **options).act(g.view(g.current_player),
                                                                          g.legal_actions()))
            for i, g in enumerate(games)]


def parse_options(items: list[str]) -> dict:
    out: dict = {}
    for item in items:
        key, _, value = item.partition("=")
        out[key] = None if value == "none" else (int(value) if value.lstrip("-").isdigit() else value)
    return out


def run(args) -> dict:
    """Rates per variant (simulations/s, median over rounds) in this process."""
    tree = pathlib.Path(args.tree) if args.tree else None
    MCTSAgent, family_for, new_game = _setup(tree)
    from timing import CLOCKS, interleaved, play_for
    options = parse_options(args.option)
    labels = [lb for lb in VARIANTS if not args.variants or lb.split()[0] in args.variants]
    games = {lb: positions(new_game, family_for, lb, args.positions, args.seed) for lb in labels}
    if args.profile:
        prof = cProfile.Profile()
        loops = [search_loop(MCTSAgent, games[lb], args.simulations, options) for lb in labels]
        prof.enable()
        for loop in loops:
            play_for(loop, args.seconds / len(loops), CLOCKS["cpu"])
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(args.top)
        print(out.getvalue())
        return {}
    contenders = {lb: search_loop(MCTSAgent, games[lb], args.simulations, options) for lb in labels}
    results = interleaved(contenders, args.seconds, args.rounds, args.clock)
    return {lb: {"rate": r.rate, "rounds": [d / t for d, g, t in r.rounds],
                 "choices": choices(MCTSAgent, games[lb], args.simulations, options)}
            for lb, r in results.items()}


def compare(args) -> None:
    """Alternate child processes of this script on both trees, one round each, and tabulate."""
    trees = {"this tree": str(ROOT), "against": args.against}
    rates: dict = {name: {} for name in trees}
    chosen: dict = {}
    base = [sys.executable, str(pathlib.Path(__file__).resolve()), "--json", "--rounds", "1",
            "--seconds", str(args.seconds / args.rounds), "--positions", str(args.positions),
            "--seed", str(args.seed), "--simulations", str(args.simulations), "--clock", args.clock]
    base += [x for o in args.option for x in ("--option", o)]
    if args.variants:
        base += ["--variants", *args.variants]
    for r in range(args.rounds):
        order = list(trees.items()) if r % 2 == 0 else list(reversed(trees.items()))
        for name, tree in order:
            out = subprocess.run(base + ["--tree", tree], capture_output=True, text=True, check=True).stdout
            for lb, res in json.loads(out).items():
                rates[name].setdefault(lb, []).append(res["rate"])
                chosen.setdefault(lb, {})[name] = res["choices"]
    print(f"{'position set':24s} {'this tree':>12s} {'against':>12s} {'ratio':>7s}  same choices")
    for lb in rates["this tree"]:
        a = statistics.median(rates["this tree"][lb])
        b = statistics.median(rates["against"][lb])
        same = chosen[lb]["this tree"] == chosen[lb]["against"]
        print(f"{lb:24s} {a:12,.0f} {b:12,.0f} {a / b:6.2f}x  {same}")
    print(f"\nsimulations/s of CPU time, medians of {args.rounds} alternating rounds in child processes; "
          f"against = {args.against}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=6.0, help="time per variant, all rounds (default 6)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (median reported)")
    ap.add_argument("--variants", nargs="*", help="only these variants (bean_duel, bohnanza, hostile_takeover)")
    ap.add_argument("--positions", type=int, default=6, help="positions per variant (default 6)")
    ap.add_argument("--seed", type=int, default=20261130, help="seed of the games the positions come from")
    ap.add_argument("--simulations", type=int, default=100, help="simulations per decision (default 100)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="another MCTSAgent option, e.g. rollout_steps=none (repeatable)")
    ap.add_argument("--profile", action="store_true", help="cProfile the searches instead of timing")
    ap.add_argument("--top", type=int, default=30, help="functions shown by --profile")
    ap.add_argument("--clock", choices=["cpu", "wall"], default="cpu", help="cpu (default) or wall time")
    ap.add_argument("--tree", help="checkout whose bean_env and agents are measured (default: this one)")
    ap.add_argument("--against", help="another checkout to measure in alternating child processes")
    ap.add_argument("--json", action="store_true", help="print the results as JSON (used by --against)")
    args = ap.parse_args(argv)

    if args.against:
        compare(args)
        return 0
    results = run(args)
    if args.profile:
        return 0
    if args.json:
        print(json.dumps(results))
        return 0
    print(f"{'position set':24s} {'simulations/s':>14s} {'spread':>7s}")
    for lb, res in results.items():
        rounds = res["rounds"]
        spread = (max(rounds) - min(rounds)) / res["rate"] if len(rounds) > 1 else 0.0
        print(f"{lb:24s} {res['rate']:14,.0f} {spread:7.0%}")
    print(f"\n{args.positions} positions per variant, {args.simulations} simulations per decision; CPU "
          f"time, medians of {args.rounds} interleaved rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
