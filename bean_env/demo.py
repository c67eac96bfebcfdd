"""`make demo`: a short tournament of the baseline agents on every implemented variant.

For each variant of ``bean_env.implemented()`` (variants that land later join by themselves) the
agents random, heuristic and mcts (small budget), plus the trained ``ppo`` agent where a policy is
shipped for the variant and table size (``agents/weights``, needs torch; the table plays the variant's
default rules where a policy was trained for them, else that policy's rule options, e.g. the learning
trade preset), play seeded duplicate
deals under seat rotation: one table of all of them where the variant seats that many players, otherwise a round robin
of the tables that fit (pairs in a 2-player game, each agent alone against the mafia in
`bean_solitaire`). It prints the ratings table per variant (mean scores in coins; hostile_takeover's
hundredths as coins with two decimals); the whole demo takes a few minutes on 2 cores.

    python -m bean_env.demo [--deals N] [--simulations N] [--workers N] [--variants v1 v2 ...]
"""
from __future__ import annotations

import argparse
import sys
import time

from . import implemented
from .engine.config import OPTIONS

DEALS = {"bohnanza": 4, "bean_duel": 4, "al_cabohne": 4, "bean_solitaire": 10, "hostile_takeover": 4}


def demo_config(variant: str, pool: int) -> dict:
    """Seat ``pool`` players where the variant allows it; otherwise its default player count."""
    opt = OPTIONS.get(variant, {}).get("num_players")
    if opt is not None and opt.check(pool) and opt.default != pool:
        return {"num_players": pool}
    return {}


def table(variant: str, pool: list[str]) -> tuple[list[str], dict]:
    """The agents and rule options of the variant's table: the pool, plus the trained ``ppo`` agent where
    a policy is shipped (needs torch) for a table of that many seats: under the variant's default rules
    where a policy was trained for them, else under a shipped policy's options (e.g. the learning trade
    preset)."""
    try:
        import torch  # noqa: F401
        from bean_env.agents.ppo import shipped_configs
    except ImportError:
        return pool, demo_config(variant, len(pool))
    from .engine.config import validate

    entries = pool + ["ppo"]
    config = demo_config(variant, len(entries))
    wanted = validate(variant, config)
    fitting = [shipped for shipped in shipped_configs(variant) if shipped["num_players"] == wanted["num_players"]]
    if fitting:  # the variant's own rules where a policy was trained for them, else the first policy's
        return entries, config if wanted in fitting else fitting[0]
    return pool, demo_config(variant, len(pool))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bean_env.demo", description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=None, help="deals per table (default: per variant)")
    parser.add_argument("--simulations", type=int, default=12, help="MCTS simulations per decision")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--variants", nargs="*", default=None, help="variants (default: all implemented)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    try:
        from bean_env.agents.tournament import run_tournament
    except ImportError as exc:  # pragma: no cover - agents ships with bean_env
        print(f"the demo needs the agents package: {exc}", file=sys.stderr)
        return 1
    pool = ["random", "heuristic", f"mcts:simulations={args.simulations}"]
    variants = args.variants or list(implemented())
    start = time.perf_counter()
    print(f"bean_env demo: {', '.join(pool)} on {', '.join(variants)}\n")
    summary = []
    for variant in variants:
        entries, config = table(variant, pool)
        deals = args.deals or DEALS.get(variant, 2)
        result = run_tournament(variant, entries, deals=deals, seed=args.seed, config=config,
                                workers=args.workers, progress=sys.stderr.isatty())
        print(result.markdown())
        print(f"({result.elapsed:.1f}s)\n")
        best = result.rows_by_rating()[0]      # the mafia too, where it out-rates every player
        summary.append((variant, best["agent"], len(result.games)))
    print("strongest by rating: " + "; ".join(f"{v}: {a} ({n} games)" for v, a, n in summary))
    print(f"demo finished in {time.perf_counter() - start:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
