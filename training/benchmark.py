"""The evaluation protocol of bean_env (``docs/benchmark.md``) and the command that runs it.

    python -m bean_env.training.benchmark --out docs/benchmark.md            # the full protocol
    python -m bean_env.training.benchmark --scale 0.1 --variants bean_duel   # a quick look

Terms:
- *entry*: one variant configuration the protocol measures (variant, rule options, player count).
- *candidate*: the agent measured (``random``, ``heuristic``, ``mcts``, ``ppo`` where a policy is shipped
  for exactly that configuration).
- *opponent*: the agent in every other seat (``heuristic``, ``mcts``, and in `bohnanza` also
  ``heuristic:trading=fair``, the heuristic that never gives a card for nothing and accepts only offers
  that help it at least as much as the proposer, so it cannot be farmed); in ``bean_solitaire`` the
  only opponent is the mafia.
- *trade statistics* (`bohnanza`): the candidate's means per game, counted from the engine's events
  (``bean_env.engine.trade_stats``): executed trades, offers it accepted, cards given and received in
  trades, gifts (cards for nothing) received.
- *deal*: one engine seed, from the *held-out* range (``HELD_OUT_FIRST`` = 10^12 and up) that training,
  its evaluations and policy selection refuse, so every figure, a shipped policy's included, comes from
  deals that played no part in choosing it. Each deal is played once with the candidate in every seat
  (seat rotation), the same deals for every candidate, so the games of one deal are correlated: the
  intervals resample whole deals (cluster bootstrap over deals, 2,000 resamples, percentile 95% interval, seeded).
- *win*: being among the winners (BASE-11), a shared win counting 1/k; in ``bean_solitaire`` a positive
  MAF-13 score. *Score margin*: the candidate's score minus the best other seat's score (in
  ``bean_solitaire`` the MAF-13 score itself).
- *chance level*: the win rate of a seat that is no better and no worse than the others, 1/n. Where the
  seats also play against the bean mafia (``al_cabohne``), all of them can lose (MAF-13): 1/n is then an
  upper bound, and the table names the equal-seat reference it measured (``heuristic`` against itself).
"""
from __future__ import annotations

import argparse
import functools
import json
import math
import random
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from bean_env import new_game
from bean_env.agents import make_agent
from bean_env.agents.tournament import MAFIA_TABLES, chance_cell
from bean_env.engine.config import validate
from bean_env.engine.trade_stats import TRADING_VARIANTS, mean_trades, table_columns
from bean_env.registry import parse_spec

from .evaluate import HELD_OUT_FIRST, play_game

BOOTSTRAP = 2000
CANDIDATES = ("random", "heuristic", "mcts", "ppo")
FAIR = "heuristic:trading=fair"
OPPONENTS = ("heuristic", FAIR, "mcts")
TRADING_DEALS = {"heuristic": 100, FAIR: 100, "mcts": 20}  # entries of a variant with trading


@dataclass(frozen=True)
class Entry:
    """One configuration of the protocol: the deals played against each opponent kind."""
    variant: str
    options: dict = field(default_factory=dict)
    deals: dict = field(default_factory=lambda: {"heuristic": 100, "mcts": 20})
    seed: int = 0
    note: str = ""  # words the label adds after the options (e.g. "default rules")

    @property
    def config(self) -> dict:
        return validate(self.variant, dict(self.options))

    @property
    def label(self) -> str:
        n = self.config["num_players"]
        extra = ", ".join([f"{k}={v}" for k, v in self.options.items() if k != "num_players"]
                          + ([self.note] if self.note else []))
        return f"{self.variant}, {n} player{'s' if n > 1 else ''}" + (f" ({extra})" if extra else "")


PRESET = {"trade_preset": "learning"}
HELD = HELD_OUT_FIRST  # every entry's deals are held-out seeds
PROTOCOL = (
    Entry("bohnanza", dict(PRESET, num_players=3), deals=TRADING_DEALS, seed=HELD + 3000),
    Entry("bohnanza", {"trade_preset": "learning2", "num_players": 3}, deals=TRADING_DEALS, seed=HELD + 3200),
    Entry("bohnanza", dict(PRESET, num_players=4), deals=TRADING_DEALS, seed=HELD + 4000),
    Entry("bohnanza", {"trade_preset": "learning2", "num_players": 4}, deals=TRADING_DEALS, seed=HELD + 4200),
    # the printed game's trading
    Entry("bohnanza", {"num_players": 4}, deals=TRADING_DEALS, seed=HELD + 4100, note="default rules"),
    Entry("bohnanza", dict(PRESET, num_players=5), deals=TRADING_DEALS, seed=HELD + 5000),
    Entry("bohnanza", {"trade_preset": "learning2", "num_players": 5}, deals=TRADING_DEALS, seed=HELD + 5200),
    Entry("bohnanza", {"num_players": 5}, deals=TRADING_DEALS, seed=HELD + 5100, note="default rules"),
    # BASE-2: 6 and 7 players only with the English edition
    Entry("bohnanza", dict(PRESET, edition="english", num_players=6), deals=TRADING_DEALS, seed=HELD + 8600),
    Entry("bohnanza", dict(PRESET, edition="english", num_players=7), deals=TRADING_DEALS, seed=HELD + 8700),
    Entry("bean_duel", {}, deals={"heuristic": 200, "mcts": 40}, seed=HELD + 2000),
    Entry("al_cabohne", {}, deals={"heuristic": 200, "mcts": 40}, seed=HELD + 2100),
    Entry("bean_solitaire", {}, deals={"mafia": 400}, seed=HELD + 1000),
    Entry("hostile_takeover", {}, seed=HELD + 6000),
    Entry("hostile_takeover", {"num_players": 2}, deals={"heuristic": 200, "mcts": 40}, seed=HELD + 6200),
    Entry("hostile_takeover", {"num_players": 3}, seed=HELD + 6400),
    Entry("hostile_takeover", {"num_players": 5}, seed=HELD + 6500),
)


def chance_text(entry: Entry, cells: list[Cell]) -> str:
    """The chance level of an entry in words; at a table with the mafia, with the measured reference of
    an equal seat (``heuristic`` against itself) where the cells include it."""
    if entry.config["num_players"] == 1:
        return "none (one seat against the mafia)"
    text = chance_cell(entry.variant, entry.config["num_players"])
    if entry.variant not in MAFIA_TABLES:
        return text
    text += ": every seat can lose to the mafia (MAF-13), so a seat as strong as the others wins less"
    ref = next((c for c in cells if c.candidate == c.opponent == "heuristic"), None)
    if ref is not None:
        text += (f"; the reference for an equal seat is `heuristic` against itself: {_pct(ref.win[0])} "
                 f"({_pct(ref.win[1])}-{_pct(ref.win[2])})")
    return text


def cluster_bootstrap(per_deal: list[list[float]], seed: int, resamples: int = BOOTSTRAP) -> tuple[float, float, float]:
    """Mean over all games and its 95% percentile interval when whole deals are resampled."""
    flat = [x for deal in per_deal for x in deal]
    if not flat:
        return math.nan, math.nan, math.nan
    mean = sum(flat) / len(flat)
    if len(per_deal) < 2:
        return mean, math.nan, math.nan
    sums = [(sum(d), len(d)) for d in per_deal]
    rng = random.Random(seed)
    k = len(sums)
    stats = []
    for _ in range(resamples):
        s = c = 0.0
        for _ in range(k):
            a, b = sums[rng.randrange(k)]
            s += a
            c += b
        stats.append(s / c)
    stats.sort()
    return mean, stats[int(0.025 * resamples)], stats[min(resamples - 1, int(0.975 * resamples))]


@dataclass
class Cell:
    """A candidate against one opponent kind on one entry."""
    candidate: str
    opponent: str
    games: int
    deals: int
    win: tuple[float, float, float]
    margin: tuple[float, float, float]
    seconds: float
    trades: dict = field(default_factory=dict)  # the candidate's ``trade_stats`` fields, means per game


def ppo_available(entry: Entry) -> bool:
    """A shipped ``ppo`` policy fits this configuration exactly (variant, options, observation layout)."""
    try:
        from bean_env.agents.ppo import PPOAgent
    except ImportError:
        return False
    game = new_game(entry.variant, seed=0, **entry.config)
    try:
        PPOAgent()._setup(game.view(0))
    except (ValueError, ImportError, FileNotFoundError):
        return False
    return True


def measure(entry: Entry, candidate: str, opponent: str, deals: int, mcts: str = "mcts",
            wrap: Callable[[Any], Any] | None = None) -> Cell:
    """Play ``deals`` deals with ``candidate`` in every seat in turn against ``opponent`` agents; with
    ``wrap``, the candidate plays as ``wrap(agent)`` (e.g. ``benchmarks/gift_cost.py``'s gift refuser)."""
    config = entry.config
    n = config["num_players"]
    start = time.perf_counter()
    wins: list[list[float]] = []
    margins: list[list[float]] = []
    seat_trades: list[dict] = []
    spec = {"mcts": mcts}.get(candidate, candidate)
    opp_spec = {"mcts": mcts}.get(opponent, opponent)
    for d in range(deals):
        seed = entry.seed + d
        w, m = [], []
        for seat in range(n):
            players = [make_agent(spec, seed=seed * 31 + q) if q == seat else
                       make_agent(opp_spec, seed=seed * 31 + 1000 + q) for q in range(n)]
            if wrap is not None:
                players[seat] = wrap(players[seat])
            game, counter = play_game(entry.variant, config, seed, players, counter=True)
            seat_trades.append(counter.seats[seat].as_dict())
            winners = game.winners()
            scores = game.scores()
            w.append(1.0 / len(winners) if seat in winners else 0.0)
            others = [scores[q] for q in range(n) if q != seat]
            m.append(float(scores[seat] - max(others)) if others else float(scores[seat]))
        wins.append(w)
        margins.append(m)
    return Cell(candidate, opponent, sum(map(len, wins)), deals, cluster_bootstrap(wins, entry.seed),
                cluster_bootstrap(margins, entry.seed + 1), time.perf_counter() - start, mean_trades(seat_trades))


def scaled_deals(deals: int, scale: float) -> int:
    """The deal count a protocol cell plays at ``scale`` (at least 2, so an interval exists)."""
    return max(2, math.ceil(deals * scale))


def _deals_cell(deals: int | None, scale: float) -> str:
    """A deal count for the protocol table ("-" where the entry plays no such deals)."""
    return "-" if deals is None else str(scaled_deals(deals, scale))


def run_entry(entry: Entry, scale: float = 1.0, candidates=CANDIDATES, mcts: str = "mcts",
              progress: bool = False) -> list[Cell]:
    cells = []
    n = entry.config["num_players"]
    for opponent, deals in entry.deals.items():
        deals = scaled_deals(deals, scale)
        for cand in candidates:
            if cand == "ppo" and not ppo_available(entry):
                continue
            if n == 1:  # the mafia is the opponent: each candidate alone
                cell = measure(entry, cand, "random", deals, mcts)
                cell.opponent = "mafia"
            else:
                cell = measure(entry, cand, opponent, deals, mcts)
            cells.append(cell)
            if progress:
                print(f"  {entry.label}: {cand} vs {cell.opponent}: win {cell.win[0]:.1%} over {cell.games} games "
                      f"({cell.seconds:.0f}s)", file=sys.stderr, flush=True)
    return cells


def _pct(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:.1%}"


def _num(x: float) -> str:
    return "-" if math.isnan(x) else f"{x:+.2f}"


def table(entry: Entry, cells: list[Cell], candidates=CANDIDATES) -> str:
    n = entry.config["num_players"]
    cols = [(h, f) for h, f in table_columns(entry.variant) if f != "gifts_given"]
    if entry.variant in TRADING_VARIANTS:
        explained = (" Trade columns: the candidate's means per game (executed trades, offers it accepted, cards "
                     "given and received in trades, gifts received).")
    else:
        explained = " Donations: the candidate's cards given to the mafia, mean per game." if cols else ""
    lines = [f"### {entry.label}", "",
             f"Chance level: {chance_text(entry, cells)}; first deal seed {entry.seed}." + explained, "",
             "| candidate | opponents | deals | games | win rate | 95% CI (by deal) "
             "| score margin | 95% CI (by deal) |" + "".join(f" {h} |" for h, _ in cols),
             "|---|---|---:|---:|---:|---|---:|---|" + "---:|" * len(cols)]
    for c in cells:
        opp = c.opponent if n == 1 else f"{n - 1} x {c.opponent}"
        extra = "".join(f" {c.trades.get(f, 0.0):.1f} |" for _, f in cols)
        lines.append(f"| {c.candidate} | {opp} | {c.deals} | {c.games} | {_pct(c.win[0])} | "
                     f"{_pct(c.win[1])}-{_pct(c.win[2])} | {_num(c.margin[0])} | "
                     f"{_num(c.margin[1])} to {_num(c.margin[2])} |" + extra)
    if "ppo" in candidates and not any(c.candidate == "ppo" for c in cells):
        lines += ["", "No `ppo` policy is shipped for this configuration."]
    return "\n".join(lines)


def protocol_text(entries, scale: float, mcts: str) -> str:
    rows = ["| entry | deals vs heuristic | deals vs fair heuristic | deals vs mcts | games per deal | chance level "
            "| first seed |",
            "|---|---:|---:|---:|---:|---:|---:|"]
    for e in entries:
        n = e.config["num_players"]
        vs_h = e.deals.get("heuristic", e.deals.get("mafia"))
        rows.append(f"| {e.label} | {_deals_cell(vs_h, scale)} | {_deals_cell(e.deals.get(FAIR), scale)} | "
                    f"{_deals_cell(e.deals.get('mcts'), scale)} | {n} | "
                    f"{chance_cell(e.variant, n)} | {e.seed} |")
    return "\n".join(rows)


def cell_record(entry: Entry, cell: Cell) -> dict:
    """One cell as a JSON-ready record (what ``--json`` writes and ``results_table`` reads)."""
    n = entry.config["num_players"]
    return {"entry": entry.label, "variant": entry.variant, "options": dict(entry.options), "num_players": n,
            "chance": None if n == 1 else 1 / n, "first_seed": entry.seed, "candidate": cell.candidate,
            "opponent": cell.opponent, "deals": cell.deals, "games": cell.games, "win": _finite(cell.win),
            "margin": _finite(cell.margin), "trades": dict(cell.trades), "seconds": round(cell.seconds, 1)}


def _finite(values) -> list:
    """Numbers for JSON: NaN (no interval from a single deal) as ``None``."""
    return [None if math.isnan(x) else x for x in values]


def run(entries=PROTOCOL, scale: float = 1.0, candidates=CANDIDATES, mcts: str = "mcts",
        progress: bool = False, partial=None, records: list | None = None) -> str:
    """Run the protocol and return the tables (markdown); ``partial(text)`` gets the tables so far after
    each entry; ``records`` (a list) gets every cell's ``cell_record``."""
    start = time.perf_counter()
    parts = [protocol_text(entries, scale, mcts), ""]
    for i, e in enumerate(entries):
        cells = run_entry(e, scale, candidates, mcts, progress)
        if records is not None:
            records.extend(cell_record(e, c) for c in cells)
        parts += [table(e, cells, candidates), ""]
        if partial is not None and i + 1 < len(entries):
            partial("\n".join(parts) + f"\n(partial: {i + 1} of {len(entries)} entries)\n")
    parts.append(f"Scale {scale:g} of the protocol's deal counts, mcts as `{mcts}`, "
                 f"{time.perf_counter() - start:.0f}s of wall time.")
    return "\n".join(parts) + "\n"


MARK = "<!-- generated by python -m bean_env.training.benchmark: everything below is replaced -->"


def write(path: Path, generated: str) -> None:
    """Replace the generated part of ``path`` (below ``MARK``), keeping the hand-written protocol text."""
    old = path.read_text() if path.exists() else ""
    head = old.split(MARK)[0].rstrip() + "\n\n" if MARK in old else old
    path.write_text(head + MARK + "\n\n" + generated)


NOTE_START, NOTE_MIDDLE = "Entries ", " regenerated by `"  # how a --merge note reads, around its labels


@functools.cache
def _rank() -> dict[str, int]:
    """Each protocol entry's position in ``PROTOCOL``, by label."""
    return {e.label: k for k, e in enumerate(PROTOCOL)}


def _refuse_unknown(labels: list[str], present) -> None:
    """Raise ``ValueError`` naming the ``labels`` neither ``present`` (in a file) nor protocol entries (a
    protocol entry a file lacks is added)."""
    missing = [x for x in labels if x not in present and x not in _rank()]
    if missing:
        raise ValueError(f"no entry {', '.join(map(repr, missing))}")


def merge_json(old: dict, records: list[dict], labels: list[str], command: str, commit: str) -> dict:
    """``old`` (what ``--json`` wrote) with the cells of the entries ``labels`` replaced by ``records``;
    the run that produced them is listed under ``updates``, replacing the earlier updates it supersedes
    (those of no other entry)."""
    _refuse_unknown(labels, {c["entry"] for c in old.get("cells", [])})
    rank = _rank()
    cells = [c for c in old["cells"] if c["entry"] not in labels] + records
    cells.sort(key=lambda c: rank.get(c["entry"], len(rank)))
    update = {"command": command, "commit": commit, "entries": list(labels)}
    kept = [u for u in old.get("updates", []) if not set(u["entries"]) <= set(labels)]
    return dict(old, cells=cells, updates=kept + [update])


def _sections(text: str) -> tuple[str, dict[str, str], str]:
    """Generated tables split into the head, the ``### <entry>`` sections by label, and the tail."""
    body, sep, tail = text.rpartition("\nScale ")
    if not sep:
        raise ValueError("the generated part has no closing 'Scale ...' line")
    head, *parts = body.split("\n### ")
    return head, {p.split("\n", 1)[0]: p for p in parts}, sep + tail


def check_merge(old: str, labels: list[str]) -> None:
    """Raise ``ValueError`` unless the generated part ``old`` can take the sections of ``labels``: each
    is there already or is a protocol entry (a new one is added in protocol order)."""
    _refuse_unknown(labels, _sections(old)[1])


def merge_markdown(old: str, new: str, labels: list[str], note: str) -> str:
    """The generated part ``old`` with the sections of ``labels`` taken from ``new`` (a new entry's also
    in the table of entries), and ``note`` added at the end in place of the earlier notes it supersedes
    (those of no other entry)."""
    head, sections, tail = _sections(old)
    _refuse_unknown(labels, sections)
    new_head, fresh, _ = _sections(new)
    for x in labels:
        if x not in sections:
            head = _with_row(head, new_head, x)
        sections[x] = fresh[x]
    rank = _rank()
    ordered = sorted(sections, key=lambda x: rank.get(x, len(rank)))  # stable: unknown labels keep their order
    paragraphs = [p for p in tail.rstrip("\n").split("\n\n") if not _superseded(p, labels)]
    return head + "".join("\n### " + sections[x] for x in ordered) + "\n\n".join(paragraphs + [note]) + "\n"


def _with_row(head: str, new_head: str, label: str) -> str:
    """``head`` with the row of the new protocol entry ``label`` in its table of entries (taken from
    ``new_head``), after the rows of the entries before it; unchanged if either head has no such table."""
    rank = _rank()

    def row_of(line: str) -> str | None:
        return next((x for x in rank if line.startswith(f"| {x} |")), None)

    row = next((line for line in new_head.split("\n") if row_of(line) == label), None)
    lines = head.split("\n")
    rows = [i for i, line in enumerate(lines) if row_of(line) is not None]
    if row is None or not rows:
        return head
    before = [i for i in rows if rank[row_of(lines[i])] < rank[label]]
    lines.insert(before[-1] + 1 if before else rows[0], row)
    return "\n".join(lines)


def _superseded(paragraph: str, labels: list[str]) -> bool:
    """Whether ``paragraph`` is an earlier ``--merge`` note of entries that are all among ``labels``."""
    if not paragraph.startswith(NOTE_START) or NOTE_MIDDLE not in paragraph:
        return False
    entries = paragraph[len(NOTE_START):paragraph.index(NOTE_MIDDLE)].split("; ")
    return set(entries) <= set(labels)


def _commit() -> str:
    """The checkout's commit (with ``+dirty`` for uncommitted changes), or ``unknown`` outside git."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def _names(text: str) -> list[str]:
    """The non-empty items of a comma-separated option."""
    return [x.strip() for x in text.split(",") if x.strip()]


def checkpoint_problem(candidates, entries) -> str | None:
    """Why a ``ppo:checkpoint=PATH`` candidate cannot play the chosen entries (an unreadable policy, or one
    trained for another observation layout, i.e. another variant config), or None: checked before any game."""
    from bean_env.agents.ppo import PolicyFileError, PolicyNet, encoder_of, layout_hash

    for spec in candidates:
        name, options = parse_spec(spec)
        if name != "ppo" or not options.get("checkpoint"):
            continue
        try:
            net = PolicyNet.load(options["checkpoint"])
        except (OSError, PolicyFileError) as exc:
            return f"bad agent spec {spec!r}: {exc}"
        layout = net.meta.get("layout_hash")
        wrong = [e.label for e in entries if layout != layout_hash(encoder_of(e.variant, e.config))]
        if wrong:
            return (f"{spec!r} was trained for {net.meta.get('variant')!r} {net.meta.get('config')}, whose observation "
                    f"differs from entry(ies) {'; '.join(wrong)} (choose its entry with --entry)")
    return None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m bean_env.training.benchmark", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", help="write the tables into this markdown file below its generated-part marker "
                                 "(default: print them)")
    p.add_argument("--scale", type=float, default=1.0, help="multiply every deal count by this (at least 2 deals)")
    p.add_argument("--variants", help="comma-separated variants to run (default: every entry)")
    p.add_argument("--players", help="comma-separated player counts to run (default: every entry)")
    p.add_argument("--entry", action="append", metavar="LABEL",
                   help="run the entry of this label, as its table heading reads it (repeatable; "
                        "default: every entry the other options keep)")
    p.add_argument("--candidates", default=",".join(CANDIDATES), help="candidates to measure")
    p.add_argument("--mcts", default="mcts", help="the mcts agent spec (default: its default budget)")
    p.add_argument("--opponents", help=f"comma-separated opponent kinds to play ({', '.join(OPPONENTS)}, "
                                       "mafia; default: every kind an entry has)")
    p.add_argument("--json", help="also write every cell as JSON records to this file (read by "
                                  "python -m bean_env.training.results_table)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="print each cell to stderr as it ends (default: when stderr is a terminal)")
    p.add_argument("--merge", action="store_true",
                   help="replace only the run entries' tables in the existing --out and --json files, "
                        "keeping every other entry's (each file names the runs that produced it); a protocol "
                        "entry the files lack is added in protocol order")
    a = p.parse_args(argv)
    if a.merge and not (a.out or a.json):
        p.error("--merge needs --out or --json (the files to update)")
    for name in (a.out, a.json) if a.merge else ():
        if name and not Path(name).exists():
            p.error(f"--merge: {name} does not exist")
    if a.scale <= 0:
        p.error(f"--scale must be positive, got {a.scale}")
    entries = PROTOCOL
    if a.players:
        try:
            counts = {int(x) for x in _names(a.players)}
        except ValueError:
            p.error(f"--players must list whole numbers, got {a.players!r}")
        entries = tuple(e for e in entries if e.config["num_players"] in counts)
    if a.variants:
        wanted = _names(a.variants)
        unknown = set(wanted) - {e.variant for e in PROTOCOL}
        if unknown:
            p.error(f"unknown variant(s) {', '.join(sorted(unknown))}; the protocol has "
                    f"{', '.join(sorted({e.variant for e in PROTOCOL}))}")
        entries = tuple(e for e in entries if e.variant in wanted)
    if a.entry:
        labels = {e.label for e in PROTOCOL}
        unknown = [x for x in a.entry if x not in labels]
        if unknown:
            p.error(f"unknown entry label(s) {', '.join(map(repr, unknown))}; the protocol has "
                    f"{'; '.join(e.label for e in PROTOCOL)}")
        entries = tuple(e for e in entries if e.label in a.entry)
    if a.opponents:
        kinds = set(_names(a.opponents))
        unknown = kinds - set(OPPONENTS) - {"mafia"}
        if unknown:
            p.error(f"unknown opponent kind(s) {', '.join(sorted(unknown))}; the protocol has "
                    f"{', '.join(OPPONENTS)} and mafia")
        entries = tuple(replace(e, deals={k: v for k, v in e.deals.items() if k in kinds}) for e in entries)
        entries = tuple(e for e in entries if e.deals)
    if not entries:
        p.error("no protocol entry matches the given --variants, --players and --opponents")
    cands = tuple(_names(a.candidates))
    for spec in cands + (a.mcts,):
        try:
            parse_spec(spec)
        except ValueError as exc:
            p.error(f"bad agent spec {spec!r}: {exc}")
    problem = checkpoint_problem(cands, entries)
    if problem:
        p.error(problem)
    progress = sys.stderr.isatty() if a.progress is None else a.progress
    records: list[dict] = []
    command = "python -m bean_env.training.benchmark " + shlex.join(argv if argv is not None else sys.argv[1:])

    commit = _commit()

    def save(text: str, done: bool = False) -> None:
        text += f"\nProduced by `{command}` at commit {commit}.\n"
        if a.out:
            write(Path(a.out), text)
        if a.json:
            Path(a.json).write_text(json.dumps({"command": command, "commit": commit, "scale": a.scale,
                                                "complete": done, "cells": records}, indent=1) + "\n")

    labels = [e.label for e in entries]
    old_json = old_md = None  # with --merge: the files' contents, read and checked before any game
    if a.merge and a.json:
        try:
            old_json = json.loads(Path(a.json).read_text())
            merge_json(old_json, [], labels, command, commit)
        except (ValueError, KeyError, TypeError) as exc:
            p.error(f"--merge: {a.json}: {exc}")
    if a.merge and a.out:
        parts = Path(a.out).read_text().split(MARK, 1)
        try:
            if len(parts) != 2:
                raise ValueError("no generated part")
            old_md = parts[1].lstrip("\n")
            check_merge(old_md, labels)
        except ValueError as exc:
            p.error(f"--merge: {a.out}: {exc}")

    partial = save if (a.out or a.json) and not a.merge else None
    text = run(entries, a.scale, cands, a.mcts, progress, partial, records)
    if not a.merge:
        save(text, done=True)
    if old_json is not None:
        Path(a.json).write_text(json.dumps(merge_json(old_json, records, labels, command, commit), indent=1) + "\n")
    if old_md is not None:
        note = f"{NOTE_START}{'; '.join(labels)}{NOTE_MIDDLE}{command}` at commit {commit}, scale {a.scale:g}."
        write(Path(a.out), merge_markdown(old_md, text, labels, note))
    if a.out:
        print(f"written to {a.out}")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
