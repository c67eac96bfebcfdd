"""Learning curves of several runs as one markdown table, with trade statistics beside win rates."""
from __future__ import annotations

import csv

import pytest

from bean_env.training.curves import main


def write_eval(path, rows):
    path.mkdir()
    with open(path / "eval.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def row(t, win, trades=None, gifts=None, opponent="heuristic"):
    r = {"timesteps": t, "policy": f"step_{t}", f"{opponent}_argmax_games": 50,
         f"{opponent}_argmax_win_rate": win}
    if trades is not None:
        r.update({f"{opponent}_argmax_trades": trades, f"{opponent}_argmax_gifts_received": gifts})
    return r


def test_curve_table_lists_every_evaluation_of_every_run(tmp_path, capsys):
    write_eval(tmp_path / "s1", [row(500000, 0.04, 10.12, 0.88), row(1000000, 0.3, 6.0, 0.25)])
    write_eval(tmp_path / "s2", [row(500000, 0.5, 2.0, 0.0)])
    assert main([str(tmp_path / "s1"), str(tmp_path / "s2"), "--opponents", "heuristic,heuristic:trading=fair"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("| run | learner decisions | vs `heuristic` | trades | gifts in | vs `heuristic:trading=fair` "
                        "| trades | gifts in |")
    assert lines[2:] == ["| s1 | 500,000 | 4% of 50 | 10.1 | 0.9 | - | - | - |",
                         "| s1 | 1,000,000 | 30% of 50 | 6.0 | 0.2 | - | - | - |",
                         "| s2 | 500,000 | 50% of 50 | 2.0 | 0.0 | - | - | - |"]


def test_runs_without_trade_columns_show_dashes_and_default_opponents(tmp_path, capsys):
    write_eval(tmp_path / "duel", [row(100, 0.75)])
    assert main([str(tmp_path / "duel")]) == 0
    assert capsys.readouterr().out.splitlines()[2] == "| duel | 100 | 75% of 50 | - | - |"


def test_a_missing_eval_csv_is_named(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main([str(tmp_path / "nothing")])
    assert "nothing: no eval.csv" in capsys.readouterr().err
