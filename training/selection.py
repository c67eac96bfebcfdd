"""Pick a run's best policy on validation deals: its final policy and its newest snapshots, each played
with argmax against every opponent on the same deals, the best mean win rate written beside the run.

    python -m bean_env.training.selection runs/l1_s1 --opponents heuristic,heuristic:trading=fair --games 200 \
        --last 4 --spacing 250000

*Validation deals* are engine seeds ``--seed`` .. ``--seed + --games - 1``: below the evaluation protocol's
held-out deals (``training.evaluate.HELD_OUT_FIRST``, refused), and by default (1,000,000) apart from the
seeds the trainers evaluate on during training (10,000 + the run's seed). So the chosen policy can still be
measured honestly on the held-out deals:

    python -m bean_env.training.benchmark --candidates ppo:checkpoint=runs/l1_s1/selected ...

Writes ``selection.csv`` (one row per candidate: win rates with their games, trade statistics) and the
chosen policy as ``selected.pt``/``selected.json`` into the run directory; its metadata's ``selection``
names the candidate, the deals and the opponents. Ties go to the newer policy.
"""
from __future__ import annotations

import argparse
import csv
from pathlib import Path

from bean_env.agents.ppo import PolicyNet, PPOAgent, save_policy

from .evaluate import EVAL_TRADE_FIELDS, check_not_held_out, evaluate

VALIDATION_SEED = 1_000_000


def candidates(run: Path, last: int, spacing: int = 0) -> list[tuple[str, int, Path]]:
    """``(label, learner decisions, policy path)`` of the run's final policy and its ``last`` newest
    snapshots, each at least ``spacing`` decisions before the one after it (0: consecutive), oldest first;
    ``ValueError`` naming a run directory with neither."""
    run = Path(run)
    found: dict[int, tuple[str, int, Path]] = {}
    final = run / "policy.pt"
    if final.is_file():
        steps = int(PolicyNet.load(final).meta.get("training", {}).get("timesteps", -1))
        found[steps] = ("final", steps, final)
    snaps = sorted(run.glob("snapshots/snap_*.pt"), key=lambda p: int(p.stem.split("_")[1]), reverse=True)
    upper = min(found) if found else None
    taken = 0
    for path in snaps:
        steps = int(path.stem.split("_")[1])
        if taken >= last:
            break
        if steps in found or (upper is not None and steps > upper - spacing):
            continue  # the final policy stands for a snapshot of its own step
        found[steps] = (path.stem, steps, path)
        upper, taken = steps, taken + 1
    if not found:
        raise ValueError(f"{run}: no policy.pt and no snapshots/snap_*.pt (a training run directory)")
    return [found[k] for k in sorted(found)]


def score(net: PolicyNet, opponents: list[str], games: int, seed: int) -> dict:
    """One candidate's argmax results on the validation deals: per opponent the win rate, its games and the
    trade statistics, and ``mean_win_rate`` over the opponents."""
    meta = net.meta
    row: dict = {}
    for opp in opponents:
        res = evaluate(lambda s: PPOAgent.from_net(net, seed=s, deterministic=True), meta["variant"],
                       meta["config"], opp, games, seed=seed, agent_name="ppo")
        r = res.row()
        row[f"{opp}_games"] = games
        row[f"{opp}_win_rate"] = r["win_rate"]
        for k in EVAL_TRADE_FIELDS:
            row[f"{opp}_{k}"] = r[k]
    row["mean_win_rate"] = round(sum(row[f"{o}_win_rate"] for o in opponents) / len(opponents), 4)
    return row


def select(run: str | Path, opponents: list[str], games: int = 200, seed: int = VALIDATION_SEED, last: int = 4,
           spacing: int = 0, progress: bool = False) -> dict:
    """Score the run's candidates (``candidates``), write ``selection.csv`` and ``selected.pt/.json``;
    returns the chosen candidate's row."""
    if games < 1 or not opponents:
        raise ValueError("select needs --games >= 1 and at least one opponent")
    if last < 0 or spacing < 0:
        raise ValueError(f"bad value {min(last, spacing)!r} for --last or --spacing: must be >= 0")
    check_not_held_out(seed, games)
    run = Path(run)
    rows, paths = [], []
    for label, steps, path in candidates(run, last, spacing):
        paths.append(path)
        row = {"policy": label, "timesteps": steps, **score(PolicyNet.load(path), opponents, games, seed)}
        rows.append(row)
        if progress:
            print(f"{label:>20} {steps:>12,d}  " + "  ".join(f"{o} {row[f'{o}_win_rate']:.1%}" for o in opponents),
                  flush=True)
    best = max(range(len(rows)), key=lambda i: (rows[i]["mean_win_rate"], i))
    with (run / "selection.csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    chosen = rows[best]
    net = PolicyNet.load(paths[best])
    meta = dict(net.meta, selection={"policy": chosen["policy"], "timesteps": chosen["timesteps"],
                                     "opponents": opponents, "games": games, "first_seed": seed,
                                     "mean_win_rate": chosen["mean_win_rate"],
                                     "candidates": [r["policy"] for r in rows]})
    save_policy(run / "selected", net.layers, meta, head=net.head)  # it rewrites format, sizes and dtype
    return chosen


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bean_env.training.selection", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("run", help="training run directory (policy.pt and snapshots/)")
    p.add_argument("--opponents", default="heuristic", help="comma-separated agent specs (default: heuristic)")
    p.add_argument("--games", type=int, default=200, help="validation games per candidate and opponent")
    p.add_argument("--seed", type=int, default=VALIDATION_SEED, help="first validation deal's engine seed")
    p.add_argument("--last", type=int, default=4, help="newest snapshots to score beside the final policy")
    p.add_argument("--spacing", type=int, default=0,
                   help="learner decisions at least between two candidates (0: the newest snapshots in a row)")
    a = p.parse_args(argv)
    opponents = [o.strip() for o in a.opponents.split(",") if o.strip()]
    try:
        chosen = select(a.run, opponents, a.games, a.seed, a.last, a.spacing, progress=True)
    except ValueError as exc:
        p.error(str(exc))
    print(f"selected {chosen['policy']} ({chosen['timesteps']:,} decisions, mean win rate "
          f"{chosen['mean_win_rate']:.1%} over {a.games} games per opponent): {Path(a.run) / 'selected.pt'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
