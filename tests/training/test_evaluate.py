"""Evaluation of an agent against baselines: reproducible, seats rotate, solitaire plays the mafia."""
from __future__ import annotations

from bean_env.agents import make_agent
from bean_env.training.evaluate import evaluate
from bean_env.training.report import markdown


def test_evaluation_is_reproducible_and_counts_wins():
    make = lambda s: make_agent("heuristic", seed=s)  # noqa: E731
    a = evaluate(make, "bean_duel", {}, "random", games=6, seed=3, agent_name="heuristic")
    b = evaluate(make, "bean_duel", {}, "random", games=6, seed=3, agent_name="heuristic")
    assert a == b
    assert 0 <= a.wins <= a.games == 6 and a.win_rate == a.wins / 6
    assert a.wins >= 4  # the heuristic beats uniform random play (BASE-11 winner) in most games


def test_solitaire_opponent_is_the_mafia():
    res = evaluate(lambda s: make_agent("random", seed=s), "bean_solitaire", {}, "heuristic", games=3, seed=0)
    assert res.opponent == "mafia" and res.games == 3
    assert "| agent | opponent |" in markdown([res])
