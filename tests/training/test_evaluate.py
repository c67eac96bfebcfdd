"""Evaluation of an agent against baselines: reproducible, seats rotate, solitaire plays the mafia."""
from __future__ import annotations

import pytest

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


def test_report_names_a_bad_checkpoint_opponent_or_run_before_any_game(tmp_path, capsys):
    from bean_env.agents.ppo import shipped_checkpoint
    from bean_env.training.report import main

    duel = str(shipped_checkpoint("bean_duel"))
    for argv, message in [(["--checkpoint", str(tmp_path / "p")], "p.pt not found"),
                          (["--checkpoint", duel, "--opponents", "random,foo"], "unknown agent 'foo'"),
                          (["--checkpoint", duel, "--run", str(tmp_path), "--png", str(tmp_path / "c.png")],
                           "no eval.csv there")]:
        with pytest.raises(SystemExit):
            main(argv)
        assert message in capsys.readouterr().err
    assert not (tmp_path / "c.png").exists()
