"""Interleaved timing of several contenders in one process, robust to a busy shared machine.

Terms:
- *contender*: a name and a game loop ``play() -> decisions`` (one game per call), or ``play() ->
  (decisions, games finished)`` for loops that step many games at once.
- *round*: every contender plays whole games for its share of the budget, one after another; the
  rounds interleave the contenders, so slow phases of the machine hit all of them alike.
- *rate*: decisions per second of CPU time of this process (``--clock wall`` for wall time).
The reported rate of a contender is the median of its per-round rates; ratios divide medians
measured in the same run. Beside each ratio, the range of the *paired* ratios (this contender's rate
over the baseline's in the same round): on a noisy machine the single ratio can move by 10% between
runs, and the paired range shows how far.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Callable

CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


@dataclass
class Result:
    """One contender's rounds: decisions, games and seconds per round."""

    name: str
    rounds: list[tuple[int, int, float]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Median decisions per second over the rounds."""
        return statistics.median(d / t for d, g, t in self.rounds)

    @property
    def games_per_s(self) -> float:
        return statistics.median(g / t for d, g, t in self.rounds)

    @property
    def per_game(self) -> float:
        return sum(d for d, g, t in self.rounds) / max(1, sum(g for d, g, t in self.rounds))

    @property
    def spread(self) -> float:
        """(max - min) / median of the per-round rates: how steady the machine was."""
        rates = [d / t for d, g, t in self.rounds]
        return (max(rates) - min(rates)) / self.rate if len(rates) > 1 else 0.0


def paired_ratios(result: Result, baseline: Result) -> list[float]:
    """Per round: the contender's rate over the baseline's rate in the same round."""
    return [(d / t) / (bd / bt) for (d, g, t), (bd, bg, bt) in zip(result.rounds, baseline.rounds)]


def play_for(play: Callable[[], int], seconds: float, clock: Callable[[], float], min_games: int = 1):
    """Whole games for about ``seconds``: (decisions, games, elapsed)."""
    decisions = games = 0
    start = clock()
    while True:
        done = play()
        if isinstance(done, tuple):
            decisions += done[0]
            games += done[1]
        else:
            decisions += done
            games += 1
        elapsed = clock() - start
        if elapsed >= seconds and games >= min_games:
            return decisions, games, elapsed


def interleaved(contenders: dict[str, Callable[[], int]], seconds: float, rounds: int = 5,
                clock: str = "cpu") -> dict[str, Result]:
    """Time every contender for ``seconds`` in all, split into ``rounds`` interleaved rounds."""
    tick = CLOCKS[clock]
    results = {name: Result(name) for name in contenders}
    for name, play in contenders.items():   # warm-up: imports, caches, first-reset seeding
        play()
    for _ in range(rounds):
        for name, play in contenders.items():
            results[name].rounds.append(play_for(play, seconds / rounds, tick))
    return results


def table(results: dict[str, Result], baselines: list[str], unit: str = "decisions/s") -> str:
    """A plain-text table: raw rates, per-game counts, spread, and ratios to each baseline present (the
    ratio of the medians, then the lowest and highest paired per-round ratio)."""
    present = [b for b in baselines if b in results]
    head = f"{'contender':44s} {unit:>12s} {'games/s':>9s} {'per game':>9s} {'spread':>7s}"
    head += "".join(f" {'vs ' + b + ' (rounds)':>32s}" for b in present)
    lines = [head]
    for name, r in results.items():
        line = f"{name:44s} {r.rate:12,.0f} {r.games_per_s:9.1f} {r.per_game:9.0f} {r.spread:7.0%}"
        for b in present:
            paired = paired_ratios(r, results[b])
            line += f" {r.rate / results[b].rate:19.2f}x ({min(paired):.2f}-{max(paired):.2f})"
        lines.append(line)
    return "\n".join(lines)
