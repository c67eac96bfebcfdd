"""The strength ladder of docs/results.md: fixed tournaments per variant with goals, one command.

    python benchmarks/tournament.py ladder              # writes docs/results.md (make results)
    python benchmarks/tournament.py ladder --scale 0.2  # a quick, smaller run (fewer deals)

Every match is a seeded tournament (``bean_env.agents.tournament``): the document lists its game count, seed,
win rates with 95% confidence intervals and ratings, and whether each goal is met and by how much.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import bean_env

from .tournament import run_tournament


@dataclass(frozen=True)
class Goal:
    agent: str          # entry label
    min_rate: float     # win rate to reach
    text: str


@dataclass(frozen=True)
class Match:
    title: str
    variant: str
    agents: tuple
    deals: int
    seed: int
    config: dict = field(default_factory=dict)
    goals: tuple = ()
    trained: str = ""   # "add": the trained ppo agent joins where a policy is shipped; "needs": run only then


LADDER: tuple[Match, ...] = (
    Match("1 heuristic vs 3 random, 4 players", "bohnanza", ("heuristic", "random", "random", "random"),
          deals=25, seed=1, config={"num_players": 4},
          goals=(Goal("heuristic", 0.60, "1 heuristic vs 3 random wins >= 60%"),)),
    Match("heuristic vs mcts vs random, 3 players", "bohnanza", ("heuristic", "mcts", "random"),
          deals=10, seed=2, config={"num_players": 3}),
    Match("heuristic vs random", "bean_duel", ("heuristic", "random"), deals=50, seed=3,
          goals=(Goal("heuristic", 0.85, "heuristic vs random wins >= 85%"),)),
    Match("mcts (default budget) vs heuristic", "bean_duel", ("mcts", "heuristic"), deals=30, seed=4,
          goals=(Goal("mcts", 0.55, "mcts at its default budget vs heuristic wins >= 55%"),)),
    Match("the trained ppo agent vs heuristic and mcts", "bean_duel", ("ppo", "heuristic", "mcts"), deals=10,
          seed=8, trained="needs"),
    Match("round robin", "al_cabohne", ("random", "heuristic", "mcts"), deals=6, seed=5),
    Match("each agent alone against the mafia", "bean_solitaire", ("random", "heuristic", "mcts"),
          deals=30, seed=6, trained="add"),
    Match("heuristic vs mcts vs random, 3 players", "hostile_takeover",
          ("heuristic", "mcts:simulations=30", "random"),
          deals=4, seed=7, config={"num_players": 3}),
)


def _trained(variant: str) -> bool:
    """A trained ppo policy is shipped for ``variant`` and torch is installed."""
    try:
        import torch  # noqa: F401
        from .ppo import shipped_checkpoint
    except ImportError:
        return False
    return shipped_checkpoint(variant) is not None


def _goal_line(result, goal: Goal) -> str:
    row = next(r for r in result.stats() if r["agent"] == goal.agent)
    rate, lo, hi = row["win_rate"], row["win_ci_low"], row["win_ci_high"]
    gap = rate - goal.min_rate
    verdict = (f"**met** (+{gap:.1%})" if gap >= 0 else f"**missed** by {-gap:.1%}")
    sure = " (the whole 95% CI is above the goal)" if lo >= goal.min_rate else (
        " (the whole 95% CI is below the goal)" if hi < goal.min_rate else " (the 95% CI straddles the goal)")
    return f"- Goal: {goal.text}: {rate:.1%} [{lo:.1%}, {hi:.1%}] -> {verdict}{sure}"


def run_ladder(scale: float = 1.0, workers: int | None = None, progress: bool = True) -> str:
    """Play the ladder (deals x ``scale``) and return the markdown document."""
    lines = ["# Results: the strength ladder", "",
             "Regenerate with `make results` (that is, `python benchmarks/tournament.py ladder`; it writes "
             "this file). Every match is a tournament of duplicate deals played under every seat rotation "
             "(see `agents/tournament.py`); game counts, seeds, win rates with 95% Wilson intervals and "
             "openskill ratings are below. A shared win counts 1/k; in `bean_solitaire` a win is a "
             "positive MAF-13 score and the mean score is coins - 2 x mafia coins; `hostile_takeover` "
             "scores are coins with two decimals (HT-14: 10 hundredths per unused text card). Agents: `random`, "
             "`heuristic` (agents/heuristic), `mcts` (agents/mcts.py; default 100 simulations per "
             "decision, leaves scored by the heuristic evaluation, `bohnanza` trade offers delegated to "
             "the heuristic), and `ppo` (a trained policy, where one is shipped in agents/weights).", ""]
    start = time.perf_counter()
    done = set(bean_env.implemented())
    for m in LADDER:
        if m.variant not in done:
            lines += [f"## {m.variant}: {m.title}", "", f"Not run: `{m.variant}` is not implemented.", ""]
            continue
        agents = [a for a in m.agents if a != "ppo"]
        if m.trained and _trained(m.variant):
            agents.append("ppo")
        elif m.trained == "needs":
            lines += [f"## {m.variant}: {m.title}", "",
                      "Not run: no trained policy is shipped for this variant, or torch is missing.", ""]
            continue
        deals = max(1, math.ceil(m.deals * scale))
        result = run_tournament(m.variant, agents, deals=deals, seed=m.seed, config=m.config,
                                workers=workers, progress=progress)
        lines += [f"## {m.variant}: {m.title}", "", result.markdown(), ""]
        lines += [_goal_line(result, g) for g in m.goals]
        truncated = sum(1 for g in result.games if g["truncated"])
        if truncated:
            lines.append(f"- {truncated} games were truncated by the variant's budget (no result).")
        lines += [f"- {len(result.games)} games, {deals} deals, seed {m.seed}, "
                  f"{result.elapsed:.0f}s of wall time.", ""]
    lines.append(f"Total wall time: {time.perf_counter() - start:.0f}s.")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="benchmarks/tournament.py ladder",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/results.md", help="where to write the document ('-' = stdout)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every match's deals by this")
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    text = run_ladder(args.scale, args.workers, progress=not args.no_progress)
    if args.out == "-":
        print(text)
    else:
        out = Path(args.out)
        old = out.read_text() if out.exists() else ""
        at = old.find("\n## Trained agents")
        kept = old[at:] if at >= 0 else ""  # that section is written by training/ (training.report), keep it
        out.write_text(text + kept)
        print(text)
        print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
