"""Results of a trained policy: the learning curve (PNG) and a final evaluation table (markdown).

    python -m bean_env.training.report --run runs/bean_duel__1__... --checkpoint agents/weights/bean_duel \
        --games 400 --seed 20261130 --png docs/training_bean_duel.png

The table has the policy's games, wins, win rate and 95% Wilson interval against each baseline (``random``,
``heuristic``), playing its most likely action (argmax) and sampling from its distribution, and,
for comparison, the baselines against the same opponents on the same deals; in ``bean_solitaire`` the
opponent is the mafia and every agent plays alone. Seeds and game counts are printed with the table.
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path

from bean_env.agents import make_agent

from .evaluate import EvalResult, evaluate


def eval_opponents_of(rows: list[dict]) -> list[str]:
    """The opponents of an ``eval.csv`` (from its ``<opponent>_argmax_win_rate`` columns)."""
    if not rows:
        return []
    return [k[:-len("_argmax_win_rate")] for k in rows[0] if k.endswith("_argmax_win_rate")]


def _argmax_line(ax, rows: list[dict], key: str, label: str):
    """Plot ``{key}_win_rate`` over the rows' timesteps with its 95% Wilson band; returns the line."""
    x = [int(r["timesteps"]) for r in rows]
    line, = ax.plot(x, [float(r[f"{key}_win_rate"]) for r in rows], marker="o", label=label)
    ax.fill_between(x, [float(r[f"{key}_ci_low"]) for r in rows], [float(r[f"{key}_ci_high"]) for r in rows],
                    color=line.get_color(), alpha=0.15)
    return line


def _finish(fig, ax, ylabel: str, title: str):
    """Axes labels, limits, grid, title and legend shared by the learning-curve figures."""
    ax.set_xlabel("learner decisions trained on (timesteps)")
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.set_title(title)
    ax.legend(loc="best", fontsize=8)
    fig.tight_layout()
    return fig


def curve_figure(eval_csv: str | Path, title: str):
    """Win rate per opponent over training steps from a run's ``eval.csv``: argmax play with its 95%
    Wilson band, sampled play dashed. A matplotlib ``Figure`` (no pyplot backend is chosen, so it shows
    inline in a notebook and saves anywhere)."""
    from matplotlib.figure import Figure

    with open(eval_csv, newline="") as fh:
        rows = list(csv.DictReader(fh))
    fig = Figure(figsize=(6.4, 3.8))
    ax = fig.subplots()
    for opponent in eval_opponents_of(rows):
        key = f"{opponent}_argmax"
        line = _argmax_line(ax, rows, key, f"vs {opponent}, argmax ({rows[-1][f'{key}_games']} games per point)")
        ax.plot([int(r["timesteps"]) for r in rows], [float(r[f"{opponent}_sampled_win_rate"]) for r in rows],
                linestyle="--", color=line.get_color(), label=f"vs {opponent}, sampled")
    return _finish(fig, ax, "win rate (95% Wilson band)", title)


def seeds_figure(runs: dict[str, str | Path], opponent: str, title: str):
    """Argmax win rate against ``opponent`` over training steps, one line (with its 95% Wilson band) per
    run's ``eval.csv`` (e.g. the same command with different seeds); a matplotlib ``Figure``."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 3.8))
    ax = fig.subplots()
    key = f"{opponent}_argmax"
    for label, eval_csv in runs.items():
        with open(eval_csv, newline="") as fh:
            rows = [r for r in csv.DictReader(fh) if f"{key}_win_rate" in r]
        games = ", ".join(sorted({r[f"{key}_games"] for r in rows}))
        _argmax_line(ax, rows, key, f"{label} ({games} games per point)")
    return _finish(fig, ax, f"win rate vs {opponent}, argmax (95% band)", title)


def plot_curve(eval_csv: str | Path, png: str | Path, title: str) -> Path:
    """Write ``curve_figure`` as a PNG."""
    png = Path(png)
    png.parent.mkdir(parents=True, exist_ok=True)
    curve_figure(eval_csv, title).savefig(png, dpi=110)
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
                                games, seed, agent_name="ppo (argmax)"))
        results.append(evaluate(lambda s: make_agent("ppo", seed=s, checkpoint=checkpoint, deterministic=False),
                                variant, config, opp, games, seed, agent_name="ppo (sampled)"))
        for base in baselines:
            results.append(evaluate(lambda s, b=base: make_agent(b, seed=s), variant, config, opp, games, seed,
                                    agent_name=base))
    return results


def markdown(results: list[EvalResult]) -> str:
    lines = ["| agent | opponent | games | wins | win rate | 95% CI | mean score | seed |",
             "|---|---|---:|---:|---:|---|---:|---:|"]
    for r in results:
        lo, hi = r.interval
        lines.append(f"| {r.agent} | {r.opponent} | {r.games} | {r.wins} | {r.win_rate:.1%} | {lo:.1%}-{hi:.1%} | "
                     f"{r.mean_score} | {r.seed} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--checkpoint", required=True, help="policy file (.pt/.json or their stem)")
    p.add_argument("--run", help="run directory whose eval.csv gives the learning curve")
    p.add_argument("--png", help="where to write the learning curve")
    p.add_argument("--games", type=int, default=400, help="games per agent and opponent")
    p.add_argument("--seed", type=int, default=20261130, help="seed of the first game (game i: seed + i)")
    p.add_argument("--opponents", default="random,heuristic", help="opponent agents, comma-separated")
    p.add_argument("--baselines", default="heuristic,random",
                   help="agents also measured on the same deals for comparison ('' = none)")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error(f"--games must be at least 1, got {args.games}")
    from bean_env.agents.ppo import PolicyFileError, PolicyNet

    from .options import agent_spec

    try:
        meta = PolicyNet.load(args.checkpoint).meta
        for flag, text in (("--opponents", args.opponents), ("--baselines", args.baselines)):
            for spec in (x.strip() for x in text.split(",") if x.strip()):
                agent_spec(flag, spec)
    except (OSError, PolicyFileError, ValueError) as exc:
        p.error(str(exc))
    if args.run and args.png and not (Path(args.run) / "eval.csv").is_file():
        p.error(f"--run {args.run}: no eval.csv there (a run directory evaluated during training)")
    if args.run and args.png:
        plot_curve(Path(args.run) / "eval.csv", args.png, f"{meta['variant']}: MaskablePPO training")
        print(f"learning curve: {args.png}")
    split = lambda text: tuple(x.strip() for x in text.split(",") if x.strip())  # noqa: E731
    print(markdown(final_table(meta["variant"], args.checkpoint, args.games, args.seed, meta["config"],
                               split(args.opponents), split(args.baselines))))


if __name__ == "__main__":
    main()
