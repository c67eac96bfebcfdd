"""Strength regressions on fixed seeds (the full ladder with confidence intervals is docs/results.md)."""
from __future__ import annotations

import pytest

from bean_env.agents.tournament import run_tournament


def _rate(result, label: str) -> float:
    return next(r["win_rate"] for r in result.stats() if r["agent"] == label)


def test_heuristic_beats_random_in_bean_duel():
    result = run_tournament("bean_duel", ["heuristic", "random"], deals=5, seed=101, workers=1)
    assert _rate(result, "heuristic") >= 0.9


@pytest.mark.slow
def test_heuristic_beats_three_random_players_in_bohnanza():
    result = run_tournament("bohnanza", ["heuristic", "random", "random", "random"], deals=2, seed=102,
                            workers=1, config={"num_players": 4})
    assert _rate(result, "heuristic") >= 0.75


@pytest.mark.slow
def test_mcts_at_its_default_budget_beats_random_in_bean_duel():
    result = run_tournament("bean_duel", ["mcts", "random"], deals=2, seed=103, workers=1)
    assert _rate(result, "mcts") == 1.0
