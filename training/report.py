"""Results of a trained policy: the learning curve (PNG) and a final evaluation table (markdown).

    python -m bean_env.training.report --run runs/bean_duel__1__... --checkpoint agents/weights/bean_duel \
        --games 400 --seed 20261130 --png docs/training_bean_duel.png

The table has the policy's games, wins and win rate against each baseline (``random``, ``heuristic``), and,
for comparison, the baselines against the same opponents on the same deals; in ``bean_solitaire`` the
opponent is the mafia and every agent plays alone. Seeds and game counts are printed with the table.
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path

from bean_env.agents import make_agent

from .evaluate import EvalResult, evaluate


def plot_curve(eval_csv: str | Path, png: str | Path, title: str) -> Path:
    """Win rate per opponent over training steps, from a run's ``eval.csv``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(eval_csv, newline="") as fh:
        rows = list(csv.DictReader(fh))
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    for opponent in sorted({r["opponent"] for r in rows}):
        mine = [r for r in rows if r["opponent"] == opponent]
        ax.plot([int(r["timesteps"]) for r in mine], [float(r["win_rate"]) for r in mine], marker="o",
                label=f"vs {opponent} ({mine[-1]['games']} games per point)")
    ax.set_xlabel("learner decisions (timesteps)")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    png = Path(png)
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return png


def final_table(variant: str, checkpoint: str | Path, games: int, seed: int, config: dict | None = None,
                opponents: tuple[str, ...] = ("random", "heuristic"),
                baselines: tuple[str, ...] = ("heuristic", "random")) -> list[EvalResult]:
    """The policy and the baselines, each against each opponent on the same deals."""
    from bean_env import new_game

    solo = new_game(variant, seed=0, **(config or {})).num_players == 1
    opps = opponents[:1] if solo else opponents
    results = []
    for opp in opps:
        results.append(evaluate(lambda s: make_agent("ppo", seed=s, checkpoint=checkpoint), variant, config, opp,
                                games, seed, agent_name="ppo"))
        for base in baselines:
            results.append(evaluate(lambda s, b=base: make_agent(b, seed=s), variant, config, opp, games, seed,
                                    agent_name=base))
    return results


def markdown(results: list[EvalResult]) -> str:
    lines = ["| agent | opponent | games | wins | win rate | mean score | seed |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for r in results:
        lines.append(f"| {r.agent} | {r.opponent} | {r.games} | {r.wins} | {r.win_rate:.1%} | {r.mean_score} | "
                     f"{r.seed} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", required=True, help="policy file (.pt/.json or their stem)")
    p.add_argument("--run", help="run directory whose eval.csv gives the learning curve")
    p.add_argument("--png", help="where to write the learning curve")
    p.add_argument("--games", type=int, default=400, help="games per agent and opponent")
    p.add_argument("--seed", type=int, default=20261130, help="seed of the first game (game i: seed + i)")
    args = p.parse_args(argv)
    from bean_env.agents.ppo import PolicyNet

    meta = PolicyNet.load(args.checkpoint).meta
    if args.run and args.png:
        plot_curve(Path(args.run) / "eval.csv", args.png, f"{meta['variant']}: MaskablePPO training")
        print(f"learning curve: {args.png}")
    print(markdown(final_table(meta["variant"], args.checkpoint, args.games, args.seed, meta["config"])))


if __name__ == "__main__":
    main()
