"""``results_table``: the README's results come from one protocol run's cells, with its command."""
from __future__ import annotations

import json

import pytest

from bean_env.training.benchmark import main as protocol
from bean_env.training.results_table import BEGIN, END, load, main, readme_block, replace_block, summary


def cell(entry, candidate, opponent, win, variant="bohnanza", players=4, trades=None):
    return {"entry": entry, "variant": variant, "candidate": candidate, "opponent": opponent, "games": 400,
            "win": win, "num_players": players, "trades": trades or {}}


TRADES = {"trades": 6.0, "accepts": 2.5, "cards_given": 7.0, "cards_received": 9.5, "gifts_received": 1.25}


def test_summary_shows_the_shipped_policy_against_both_heuristics_with_its_trading():
    data = {"command": "python -m bean_env.training.benchmark --json x", "commit": "abc1234", "complete": True,
            "cells": [cell("bohnanza, 4 players", "heuristic", "heuristic", [0.25, 0.2, 0.3], trades=TRADES),
                      cell("bohnanza, 4 players", "ppo", "heuristic", [0.4, 0.35, 0.45], trades=TRADES),
                      cell("bohnanza, 4 players", "ppo", "heuristic:trading=fair", [0.3, 0.25, 0.35],
                           trades=TRADES),
                      cell("bohnanza, 4 players (trade_preset=learning2)", "heuristic", "heuristic",
                           [0.25, 0.2, 0.3], trades=TRADES),
                      cell("bean_solitaire, 1 player", "ppo", "mafia", [0.55, 0.5, 0.6], "bean_solitaire", 1,
                           trades={"donations": 5.04}),
                      cell("al_cabohne, 2 players", "ppo", "heuristic", [0.6, 0.55, 0.65], "al_cabohne", 2,
                           trades={"donations": 8.7}),
                      cell("bean_duel, 2 players", "ppo", "heuristic", [0.9, 0.85, 0.95], "bean_duel", 2)]}
    rows = summary(data).splitlines()
    assert rows[2] == ("| bohnanza, 4 players | `ppo` | 40.0% (35.0%-45.0%) of 400 | 30.0% (25.0%-35.0%) of 400 "
                       "| 25.0% | 6.0 | 2.5 | 7.0 / 9.5 | 1.2 | - |")
    assert rows[3].startswith("| bohnanza, 4 players (trade_preset=learning2) | `heuristic` (no policy shipped) |")
    assert rows[4] == ("| bean_solitaire, 1 player | `ppo` | the mafia: 55.0% (50.0%-60.0%) of 400 | - | - "
                       "| - | - | - | - | 5.0 |"), "the mafia variants show the cards donated to the mafia"
    assert "| at most 50.0% |" in rows[5], "both al_cabohne seats can lose to the mafia"
    assert rows[5].endswith("| - | - | - | - | 8.7 |")
    assert rows[6].endswith("| 50.0% | - | - | - | - | - |"), "no trading and no mafia in bean_duel"
    block = readme_block(data)
    assert block.startswith(BEGIN) and block.endswith(END) and "abc1234" in block and "--json x" in block


def test_readme_block_is_replaced_from_a_real_run(tmp_path, capsys):
    results = tmp_path / "cells.json"
    assert protocol(["--variants", "bean_duel", "--scale", "0.005", "--candidates", "heuristic",
                     "--opponents", "heuristic", "--json", str(results)]) == 0
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\n{BEGIN}\nold table\n{END}\n\nmore text\n")
    other = tmp_path / "results.md"
    other.write_text(f"{BEGIN}\n{END}\n")
    assert main([str(results), "--into", str(readme), str(other)]) == 0
    assert other.read_text().startswith(BEGIN + "\n| entry |")
    text = readme.read_text()
    assert "old table" not in text and text.startswith("# title") and text.endswith("more text\n")
    assert "| bean_duel, 2 players | `heuristic` (no policy shipped) |" in text
    assert json.loads(results.read_text())["command"] in text


def test_bad_files_and_markers_are_named(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{\"cells\": 3}")
    with pytest.raises(ValueError, match="bad.json: not a protocol results file"):
        load(bad)
    with pytest.raises(ValueError, match="needs exactly one"):
        replace_block("no markers here", "x", "README.md")
    with pytest.raises(SystemExit):
        main([str(bad)])
