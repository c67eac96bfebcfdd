"""Tournaments between agents: seat rotation, duplicate deals, parallel play, ratings and reports.

Terms:
- *entry*: one participant, given as an agent spec ``name[:key=value...]`` (e.g. ``mcts:simulations=50``);
  a spec listed several times gives several entries (``random``, ``random#2``, ...).
- *table*: the entries that play together. With as many entries as seats there is one table; with more,
  every combination of seat-count entries is a table (a round robin); fewer is an error.
- *deal*: one game seed. Every deal is played at every table under every *rotation* (entry ``k`` sits at
  seat ``(k + r) mod n``), so each entry meets the same cards from every seat (duplicate deals).
- *win share*: 1 for a sole win, 1/k for a win shared by k (COM-11), 0 otherwise; the win rate is its
  mean, with a 95% Wilson interval.
- *ratings*: openskill (Plackett-Luce) ``mu`` and ``sigma``, updated game by game in game order (seats
  ranked by win, then coins; where the variant has a mafia, its treasury is a rival), so the same seeds
  give the same ratings whatever order parallel workers finish in.

``run_tournament`` is the library entry point; ``main`` is the ``bean-env tournament`` command and
``benchmarks/tournament.py``. ``backend="ray"`` plays the same games on a Ray cluster.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import io
import itertools
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from bean_env import registry as _registry
from bean_env.engine.trade_stats import mean_trades, table_columns

MAX_STEPS = 200_000  # a game still running after this many actions is reported as truncated
# engine score units per coin: hostile_takeover scores in integer hundredths (HT-14); reports show coins
SCORE_SCALE = {"hostile_takeover": 100}
Z95 = 1.959963984540054
# tables where every seat can lose to the mafia (MAF-13): a seat as strong as the others wins less than 1/n
MAFIA_TABLES = ("al_cabohne",)


def chance_level(n: int) -> float | None:
    """The win rate of a seat no better and no worse than the others at an ``n``-seat table (None for one
    seat, which plays against the mafia alone)."""
    return 1.0 / n if n > 1 else None


def chance_cell(variant: str, n: int) -> str:
    """The chance level as a table cell: ``25.0%``, ``at most 50.0%`` at a mafia table, ``-`` for one seat."""
    level = chance_level(n)
    if level is None:
        return "-"
    return ("at most " if variant in MAFIA_TABLES else "") + f"{level:.1%}"


def chance_words(variant: str, n: int) -> str:
    """The chance level as the reports state it."""
    if n == 1:
        return "none (one seat against the mafia)"
    return chance_cell(variant, n) + (" (every seat can lose to the mafia, MAF-13)" if variant in MAFIA_TABLES else "")


# -- specs and seeds --------------------------------------------------------------------------------
def parse_value(text: str) -> Any:
    """``"3"`` -> 3, ``"0.5"`` -> 0.5, ``"true"``/``"yes"``/``"on"`` -> True, ``"none"`` -> None, else the text."""
    return _registry.parse_value(text)


def parse_spec(spec: str) -> tuple[str, dict]:
    """A checked agent spec: ``"mcts:simulations=50:rollout=random"`` -> ``("mcts", {"simulations": 50,
    "rollout": "random"})``; an unknown agent or option, or a bad value, is a ValueError listing what exists."""
    return _registry.parse_spec(spec)


def parse_options(items: Iterable[str], variant: str | None = None) -> dict:
    """Rule options from ``key=value`` strings; with ``variant``, a yes/no option of that variant also
    takes ``1/0``, ``yes/no``, ``on/off`` (values are checked later, by ``engine.config.validate``)."""
    from bean_env.engine.config import OPTIONS

    known = OPTIONS.get(variant, {}) if variant else {}
    out = {}
    for item in items or ():
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ValueError(f"bad option {item!r}: expected key=value")
        opt = known.get(key)
        if opt is not None and isinstance(opt.default, bool):
            try:
                out[key] = _registry.parse_bool(value)
            except ValueError:
                raise ValueError(f"bad value {value!r} for option {key!r} of {variant!r}; "
                                 f"allowed: {opt.allowed} (also 1/0, yes/no, on/off)") from None
        else:
            out[key] = parse_value(value)
    return out


def derive_seed(*parts) -> int:
    """A 62-bit seed derived from ``parts`` (stable across runs and machines)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


@dataclass(frozen=True)
class Entry:
    label: str
    agent: str
    kwargs: dict = field(default_factory=dict, hash=False, compare=False)
    spec: str = ""


def make_entries(specs: Sequence[str]) -> list[Entry]:
    """Entries with unique labels; every spec is checked (agent name, options, values) before any game."""
    entries, seen = [], {}
    for spec in specs:
        name, kwargs = parse_spec(spec)
        seen[spec] = seen.get(spec, 0) + 1
        label = spec if seen[spec] == 1 else f"{spec}#{seen[spec]}"
        entries.append(Entry(label, name, kwargs, spec))
    return entries


def schedule(variant: str, entries: Sequence[Entry], deals: int, seed: int, config: dict,
             save_records: bool = False) -> list[dict]:
    """The games of a tournament, in order: tables x deals x rotations."""
    from bean_env.engine.config import validate

    full = validate(variant, dict(config))
    n = full["num_players"]
    if len(entries) < n:
        raise ValueError(f"{variant} with {n} players needs {n} agents, got {len(entries)}; "
                         f"repeat names to fill the seats, e.g. heuristic {' '.join(['random'] * (n - 1))}")
    index_of = {e.label: k for k, e in enumerate(entries)}
    tables = list(itertools.combinations(entries, n))
    tasks = []
    for t, table in enumerate(tables):
        for d in range(deals):
            game_seed = derive_seed("deal", seed, d)
            for r in range(n):
                seats = [table[(i + r) % n] for i in range(n)]
                tasks.append({
                    "index": len(tasks), "table": t, "deal": d, "rotation": r, "seed": game_seed,
                    "variant": variant, "config": dict(config),
                    "seats": [e.label for e in seats],
                    "agents": [(e.agent, e.kwargs) for e in seats],
                    "agent_seeds": [derive_seed("agent", seed, d, index_of[e.label]) for e in seats],
                    "record": save_records,
                })
    return tasks


# -- playing one game (runs in worker processes) -------------------------------------------------------
def play_game(task: dict) -> dict:
    """Play one scheduled game; returns its result (and its record when asked)."""
    import bean_env
    from . import make_agent
    from bean_env.engine.trade_stats import TradeCounter

    from .base import play_out

    game = bean_env.new_game(task["variant"], seed=task["seed"], **task["config"])
    agents = [make_agent(name, seed=s, **kw) for (name, kw), s in zip(task["agents"], task["agent_seeds"])]
    counter = TradeCounter(game)
    steps = play_out(game, agents, MAX_STEPS, counter)
    finished = game.is_over
    mafia = game.mafia_score() if hasattr(game, "mafia_score") else None
    out = {
        "index": task["index"], "table": task["table"], "deal": task["deal"], "rotation": task["rotation"],
        "seed": task["seed"], "seats": task["seats"], "scores": game.scores(),
        "winners": game.winners() if finished else [], "mafia": mafia, "steps": steps,
        "truncated": not finished, "trades": [seat.as_dict() for seat in counter.seats],
    }
    if task.get("record"):
        out["record"] = game.record()
    return out


# -- backends --------------------------------------------------------------------------------------------
def _progress(total: int, enabled: bool, desc: str):
    if not enabled:
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # tqdm is in the `tournament` extra; run without a bar
        return None
    return tqdm(total=total, desc=desc, unit="game", file=sys.stderr)


def _run_local(tasks: list[dict], workers: int, bar) -> list[dict]:
    if workers <= 1 or len(tasks) <= 1:
        out = []
        for t in tasks:
            out.append(play_game(t))
            if bar is not None:
                bar.update(1)
        return out
    from concurrent.futures import ProcessPoolExecutor, as_completed

    results: list = [None] * len(tasks)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(play_game, t): t["index"] for t in tasks}
        for fut in as_completed(futures):
            results[futures[fut]] = fut.result()
            if bar is not None:
                bar.update(1)
    return results


def _run_ray(tasks: list[dict], address: str | None, bar) -> list[dict]:
    try:
        import ray
    except ImportError as exc:
        raise RuntimeError("the ray backend needs Ray: pip install 'bean-env[ray]'") from exc
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, include_dashboard=False,
                 log_to_driver=False, configure_logging=False)
    remote = ray.remote(play_game)
    refs = [remote.remote(t) for t in tasks]
    index = {ref: k for k, ref in enumerate(refs)}
    results: list = [None] * len(tasks)
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            results[index[ref]] = ray.get(ref)
            if bar is not None:
                bar.update(1)
    return results


# -- statistics -------------------------------------------------------------------------------------------
def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (``successes`` may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _ranks(game: dict) -> tuple[list[str], list[int]]:
    """Participants of a game (its seats' labels, plus ``mafia``) and their ranks (0 = best)."""
    winners = set(game["winners"])
    keys = [(1 if p in winners else 0, score) for p, score in enumerate(game["scores"])]
    names = list(game["seats"])
    if game["mafia"] is not None:
        keys.append((0 if winners else 1, game["mafia"]))
        names.append("mafia")
    order = sorted(set(keys), reverse=True)
    return names, [order.index(k) for k in keys]


def rate(games: Sequence[dict], labels: Sequence[str]) -> dict | None:
    """openskill Plackett-Luce ratings per label (and ``mafia`` where present), in game order."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    ratings = {label: model.rating(name=label) for label in labels}
    for g in games:
        if g["truncated"]:
            continue
        names, ranks = _ranks(g)
        if len(names) < 2:
            continue
        for name in names:
            if name not in ratings:
                ratings[name] = model.rating(name=name)
        new = model.rate([[ratings[x]] for x in names], ranks=ranks)
        for name, team in zip(names, new):
            ratings[name] = team[0]
    return {k: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for k, r in ratings.items()}


@dataclass
class TournamentResult:
    """Games, per-entry statistics and ratings of a tournament."""

    variant: str
    config: dict
    seed: int
    deals: int
    entries: list[Entry]
    games: list[dict]
    elapsed: float = 0.0
    _ratings: Any = field(default=None, init=False, repr=False, compare=False)

    @property
    def labels(self) -> list[str]:
        return [e.label for e in self.entries]

    @property
    def num_players(self) -> int:
        from bean_env.engine.config import validate

        return validate(self.variant, dict(self.config))["num_players"]

    def stats(self) -> list[dict]:
        """One row per entry: games, wins, shared wins, win rate with 95% CI, mean score (coins; the
        MAF-13 score in bean_solitaire; HT-14 hundredths shown as coins in hostile_takeover), rating, and
        the entry's trade statistics as means per game (``trade_stats``: e.g. ``trades``, ``accepts``,
        ``cards_given``, ``cards_received``, ``gifts_received``)."""
        ratings = self.ratings() or {}
        rows = []
        for label in self.labels:
            played = [(g, g["seats"].index(label)) for g in self.games if label in g["seats"]]
            n = len(played)
            wins = sum(1 for g, p in played if g["winners"] == [p])
            shared = sum(1 for g, p in played if p in g["winners"] and len(g["winners"]) > 1)
            share = sum(1 / len(g["winners"]) for g, p in played if p in g["winners"])
            scale = SCORE_SCALE.get(self.variant, 1)
            coins = [g["scores"][p] / scale for g, p in played]
            lo, hi = wilson(share, n)
            r = ratings.get(label, {})
            rows.append({
                "agent": label, "games": n, "wins": wins, "shared_wins": shared,
                "truncated": sum(1 for g, _ in played if g["truncated"]),
                "win_rate": share / n if n else 0.0, "win_ci_low": lo, "win_ci_high": hi,
                "mean_score": sum(coins) / n if n else 0.0,
                "mu": r.get("mu"), "sigma": r.get("sigma"), "ordinal": r.get("ordinal"),
                **mean_trades([g["trades"][p] for g, p in played if "trades" in g]),
            })
        return rows

    def ratings(self) -> dict | None:
        """openskill ratings per entry (and ``mafia``), computed once."""
        if self._ratings is None:
            self._ratings = rate(self.games, self.labels) or {}
        return self._ratings or None

    def to_dict(self, with_records: bool = False) -> dict:
        games = [g if with_records else {k: v for k, v in g.items() if k != "record"} for g in self.games]
        return {"variant": self.variant, "config": self.config, "seed": self.seed, "deals": self.deals,
                "agents": [{"label": e.label, "spec": e.spec} for e in self.entries],
                "chance_level": chance_level(self.num_players),
                "chance_is_upper_bound": self.variant in MAFIA_TABLES,
                "stats": self.stats(), "ratings": self.ratings(), "games": games,
                "elapsed_seconds": round(self.elapsed, 3)}

    def rows_by_rating(self) -> list[dict]:
        """``stats()`` best rating first (win rate where there are no ratings), plus a ``(mafia)`` row
        with only its rating where the variant has a mafia: the order of the table, CSV and chart."""
        rows = sorted(self.stats(),
                      key=lambda r: -(r["ordinal"] if r["ordinal"] is not None else r["win_rate"]))
        mafia = (self.ratings() or {}).get("mafia")
        if mafia:
            row = {k: None for k in rows[0]}
            row.update(agent="(mafia)", mu=mafia["mu"], sigma=mafia["sigma"], ordinal=mafia["ordinal"])
            at = next((i for i, r in enumerate(rows) if r["ordinal"] is not None
                       and r["ordinal"] < mafia["ordinal"]), len(rows))
            rows.insert(at, row)
        return rows

    def csv(self) -> str:
        """The table as CSV (same order; numbers rounded as plain decimals, so 0 is ``0`` not ``3.47e-18``)."""
        rows = self.rows_by_rating()
        buf = io.StringIO()
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: _plain(v) for k, v in r.items()} for r in rows)
        return buf.getvalue()

    def markdown(self) -> str:
        """A markdown table of the entries, best rating first."""
        rows = self.rows_by_rating()
        cols = table_columns(self.variant)
        cfg = ", ".join(f"{k}={v}" for k, v in self.config.items())
        lines = [f"**{self.variant}**{' (' + cfg + ')' if cfg else ''}: {len(self.games)} games "
                 f"({self.deals} deals x rotations x tables), seed {self.seed}", "",
                 f"Chance level: {chance_words(self.variant, self.num_players)}; win-rate intervals: 95% "
                 f"Wilson over games.", "",
                 *([] if not cols else ["Trade columns: means per game of " + (
                     "executed trades, offers accepted, cards given and received in trades, gifts received and "
                     "given." if len(cols) > 1 else "cards given to the mafia."), ""]),
                 "| agent | games | win rate | 95% CI | mean score | rating mu | sigma |"
                 + "".join(f" {h} |" for h, _ in cols),
                 "|---|---:|---:|---|---:|---:|---:|" + "---:|" * len(cols)]
        for r in rows:
            mu = f"{r['mu']:.1f}" if r["mu"] is not None else "-"
            sigma = f"{r['sigma']:.2f}" if r["sigma"] is not None else "-"
            if r["agent"] == "(mafia)":
                lines.append(f"| (mafia) | | | | | {mu} | {sigma} |" + " |" * len(cols))
                continue
            lines.append(f"| {r['agent']} | {r['games']} | {r['win_rate']:.1%} | "
                         f"{r['win_ci_low']:.1%}-{r['win_ci_high']:.1%} | {r['mean_score']:.2f} | "
                         f"{mu} | {sigma} |" + "".join(f" {r[f]:.1f} |" for _, f in cols))
        return "\n".join(lines)

    def plot(self, path: str | os.PathLike) -> None:
        """A PNG chart: rating mu +- 2 sigma and win rate with its 95% CI per entry."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        every = self.rows_by_rating()[::-1]          # barh draws bottom-up: best at the top
        rated = [r for r in every if r["mu"] is not None]
        rows = [r for r in every if r["agent"] != "(mafia)"]
        labels = [r["agent"] for r in rows]
        fig, axes = plt.subplots(1, 2, figsize=(10, 0.5 * len(every) + 1.8))
        ax = axes[0]
        if rated:
            ax.barh([r["agent"] for r in rated], [r["mu"] for r in rated],
                    xerr=[2 * r["sigma"] for r in rated],
                    color=["tab:red" if r["agent"] == "(mafia)" else "tab:green" for r in rated])
        ax.set_xlabel("openskill mu (+- 2 sigma)")
        ax.set_title(f"{self.variant}: ratings")
        ax = axes[1]
        rates = [r["win_rate"] for r in rows]
        err = [[max(0.0, r["win_rate"] - r["win_ci_low"]) for r in rows],
               [max(0.0, r["win_ci_high"] - r["win_rate"]) for r in rows]]
        ax.barh(labels, rates, xerr=err, color="tab:blue")
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate (95% CI)")
        ax.set_title(f"{len(self.games)} games")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)

    def write(self, out_dir: str | os.PathLike, plot: bool = True) -> Path:
        """Write results.json, results.csv, results.md, ratings.png and records/ (if recorded)."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        (out / "results.json").write_text(json.dumps(self.to_dict(), indent=1))
        (out / "results.csv").write_text(self.csv())
        (out / "results.md").write_text(self.markdown() + "\n")
        records = [g for g in self.games if "record" in g]
        if records:
            rec_dir = out / "records"
            rec_dir.mkdir(exist_ok=True)
            for g in records:
                (rec_dir / f"game_{g['index']:05d}.json").write_text(json.dumps(g["record"]))
        if plot:
            try:
                self.plot(out / "ratings.png")
            except ImportError:
                pass  # matplotlib is in the `tournament` extra
        return out


def run_tournament(variant: str, agents: Sequence[str], deals: int = 10, seed: int = 0,
                   config: dict | None = None, workers: int | None = None, backend: str = "local",
                   address: str | None = None, save_records: bool = False,
                   progress: bool = False) -> TournamentResult:
    """Play a tournament (see the module docstring) and return its result.

    ``agents``: agent specs, one per entry; ``deals``: seeds per table, each played under every
    rotation; ``workers``: local processes (default: all cores); ``backend``: ``"local"`` or ``"ray"``
    (``address``: a Ray cluster, default a local Ray instance).
    """
    config = dict(config or {})
    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise ValueError(f"bad value {deals!r} for deals; allowed: a whole number >= 1")
    entries = make_entries(agents)
    tasks = schedule(variant, entries, deals, seed, config, save_records)
    bar = _progress(len(tasks), progress, f"{variant}")
    start = time.perf_counter()
    try:
        if backend == "local":
            results = _run_local(tasks, workers or os.cpu_count() or 1, bar)
        elif backend == "ray":
            results = _run_ray(tasks, address, bar)
        else:
            raise ValueError(f"bad backend {backend!r}; allowed: 'local', 'ray'")
    finally:
        if bar is not None:
            bar.close()
    return TournamentResult(variant, config, seed, deals, entries, results, time.perf_counter() - start)


def _plain(value: Any) -> Any:
    """A CSV cell: floats rounded to 4 decimals and written without exponent or trailing zeros."""
    if isinstance(value, float):
        text = f"{round(value, 4) + 0.0:.4f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text
    return "" if value is None else value


# -- command line -----------------------------------------------------------------------------------------
def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 1 (``--games 0`` and ``--games -5`` are refused)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is below 1; give a whole number >= 1")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", help="variant name, e.g. bohnanza, bean_duel")
    parser.add_argument("agents", nargs="+",
                        help="agent specs name[:key=value...], one per entry (repeat to fill seats)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="rule option, e.g. -o num_players=4 -o edition=english")
    parser.add_argument("--games", type=positive_int, default=None,
                        help="about this many games (rounded up to whole deals x rotations x tables)")
    parser.add_argument("--deals", type=positive_int, default=None, help="deals per table (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (deals and agent seeds)")
    parser.add_argument("--workers", type=positive_int, default=None,
                        help="local worker processes (default: all cores)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local")
    parser.add_argument("--address", default=None, help="Ray cluster address (default: start a local Ray)")
    parser.add_argument("--out", default=None, help="report directory (default: results/<variant>)")
    parser.add_argument("--save-records", action="store_true", help="save every game record for replay")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


def run_from_args(args: argparse.Namespace) -> TournamentResult:
    from bean_env.engine.config import validate

    config = parse_options(args.option, args.variant)
    full = validate(args.variant, config)
    entries = make_entries(args.agents)
    n = full["num_players"]
    per_deal = n * max(1, math.comb(len(entries), n)) if len(entries) >= n else n
    deals = args.deals or (max(1, math.ceil(args.games / per_deal)) if args.games else 10)
    result = run_tournament(args.variant, args.agents, deals=deals, seed=args.seed, config=config,
                            workers=args.workers, backend=args.backend, address=args.address,
                            save_records=args.save_records, progress=not args.no_progress)
    out = result.write(args.out or Path("results") / args.variant)
    print(result.markdown())
    print(f"\nreports written to {out}/ (results.json, results.csv, results.md, ratings.png"
          f"{', records/' if args.save_records else ''}) in {result.elapsed:.1f}s")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bean-env tournament", description=__doc__.split("\n")[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        run_from_args(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
