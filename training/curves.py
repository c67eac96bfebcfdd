"""Learning curves of training runs as one markdown table: at each evaluation of each run (its
``eval.csv``), the argmax win rate against each opponent with the games behind it, and the policy's trade
statistics in those games (executed trades and gifts received, means per game).

    python -m bean_env.training.curves runs/seed1 runs/seed2 runs/seed3 \\
        --opponents heuristic,heuristic:trading=fair

Trade columns appear where the run's ``eval.csv`` has them (``bohnanza`` runs).
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path

from .report import eval_opponents_of


def read_eval(run: str | Path) -> list[dict]:
    """The rows of a run directory's ``eval.csv`` (or of that file itself); ``ValueError`` naming a
    missing or empty file."""
    path = Path(run)
    path = path / "eval.csv" if path.is_dir() else path
    if not path.is_file():
        raise ValueError(f"{run}: no eval.csv (a run directory evaluated during training, or its eval.csv)")
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        raise ValueError(f"{path}: no evaluation rows")
    return rows


def _cell(row: dict, opponent: str) -> list[str]:
    key = f"{opponent}_argmax"
    if f"{key}_win_rate" not in row:
        return ["-", "-", "-"]
    win = f"{float(row[f'{key}_win_rate']):.0%} of {row[f'{key}_games']}"
    if f"{key}_trades" not in row:
        return [win, "-", "-"]
    return [win, f"{float(row[f'{key}_trades']):.1f}", f"{float(row[f'{key}_gifts_received']):.1f}"]


def curve_table(runs: dict[str, list[dict]], opponents: list[str]) -> str:
    """Markdown: one row per evaluation of each run (label -> ``eval.csv`` rows), columns per opponent."""
    head = ["run", "learner decisions"]
    for o in opponents:
        head += [f"vs `{o}`", "trades", "gifts in"]
    lines = ["| " + " | ".join(head) + " |", "|---|---:|" + "---:|" * (3 * len(opponents))]
    for label, rows in runs.items():
        for r in rows:
            cells = [label, f"{int(r['timesteps']):,}"]
            for o in opponents:
                cells += _cell(r, o)
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bean_env.training.curves", description=__doc__.split("\n\n")[0])
    p.add_argument("runs", nargs="+", help="run directories (or eval.csv files)")
    p.add_argument("--opponents", help="comma-separated opponents (default: those of the first run)")
    a = p.parse_args(argv)
    try:
        runs = {Path(r).name if Path(r).is_dir() else str(r): read_eval(r) for r in a.runs}
    except ValueError as exc:
        p.error(str(exc))
    first = next(iter(runs.values()))
    opponents = [x.strip() for x in a.opponents.split(",") if x.strip()] if a.opponents else eval_opponents_of(first)
    print(curve_table(runs, opponents))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
