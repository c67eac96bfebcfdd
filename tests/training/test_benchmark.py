"""The evaluation protocol command runs on a tiny configuration; its intervals resample whole deals."""
from __future__ import annotations

import math

import pytest

from bean_env.agents import make_agent
from bean_env.agents.ppo import shipped_checkpoint
from bean_env.agents.tournament import chance_level
from bean_env.engine.config import validate
from bean_env.training.benchmark import (MARK, PROTOCOL, Cell, chance_text, cluster_bootstrap, main, protocol_text,
                                         table)

FOUR = validate("bohnanza", {"num_players": 4, "trade_preset": "learning"})


def test_protocol_command_on_a_tiny_configuration(tmp_path):
    out = tmp_path / "benchmark.md"
    out.write_text("# Protocol\n\nhand-written text\n\n" + MARK + "\n\nold tables\n")
    assert main(["--out", str(out), "--variants", "bean_duel", "--scale", "0.005", "--candidates",
                 "random,heuristic", "--mcts", "mcts:simulations=2"]) == 0
    text = out.read_text()
    assert text.startswith("# Protocol\n\nhand-written text") and "old tables" not in text
    assert "### bean_duel, 2 players" in text and "Chance level: 50.0%" in text
    rows = [line for line in text.splitlines() if line.startswith("| random |") or line.startswith("| heuristic |")]
    assert len(rows) == 4  # two candidates x (heuristic, mcts) opponents
    assert all("| 2 | 4 |" in r for r in rows)  # 2 deals, each in both seat rotations


def test_every_entry_is_valid_and_has_a_chance_level():
    seen = set()
    for e in PROTOCOL:
        n = e.config["num_players"]
        assert (chance_level(n) is None) == (n == 1)
        seen.add((e.variant, n))
    assert {("bohnanza", n) for n in range(3, 8)} | {("bean_duel", 2), ("al_cabohne", 2),
            ("bean_solitaire", 1)} | {("hostile_takeover", n) for n in range(2, 6)} <= seen


def test_cluster_bootstrap_is_wider_for_correlated_deals():
    """Games of one deal that always agree carry less information than independent games: resampling
    deals gives a wider interval than resampling the same outcomes as one-game deals."""
    correlated = [[1.0] * 4 if d % 2 else [0.0] * 4 for d in range(20)]
    independent = [[x] for deal in correlated for x in deal]
    mean_c, lo_c, hi_c = cluster_bootstrap(correlated, seed=1)
    mean_i, lo_i, hi_i = cluster_bootstrap(independent, seed=1)
    assert mean_c == mean_i == 0.5
    assert hi_c - lo_c > 1.5 * (hi_i - lo_i)
    assert cluster_bootstrap([[1.0, 0.0]], seed=0)[0] == 0.5 and math.isnan(cluster_bootstrap([[1.0]], seed=0)[1])


def test_a_mafia_table_names_its_equal_seat_reference():
    """MAF-13: both seats of al_cabohne can lose to the mafia, so 1/n is only an upper bound; the table
    reports the measured win rate of heuristic against itself beside it."""
    entry = next(e for e in PROTOCOL if e.variant == "al_cabohne")
    ref = Cell("heuristic", "heuristic", 8, 4, (0.25, 0.125, 0.375), (-1.0, -2.0, 0.0), 1.0)
    other = Cell("random", "heuristic", 8, 4, (0.5, 0.25, 0.75), (1.0, 0.0, 2.0), 1.0)
    assert "Chance level: 50.0%" not in table(entry, [other, ref])
    # the "no policy" line only where ppo was a candidate
    assert "No `ppo` policy" in table(entry, [other, ref])
    assert "No `ppo` policy" not in table(entry, [other, ref], ("random", "heuristic"))
    assert chance_text(entry, [other, ref]).endswith("`heuristic` against itself: 25.0% (12.5%-37.5%)")
    assert chance_text(entry, [other]).startswith("at most 50.0%: every seat can lose to the mafia")
    assert "| at most 50.0% |" in protocol_text([entry], 1.0, "mcts")
    duel = next(e for e in PROTOCOL if e.variant == "bean_duel")
    assert chance_text(duel, [ref]) == "50.0%"


def test_trade_columns_follow_the_variant_donations_in_the_mafia_variants():
    """Trade statistics beside every win rate: trades and gifts where players trade (``bohnanza``), the cards
    given to the mafia where players donate (MAF-9: ``al_cabohne``, ``bean_solitaire``), none elsewhere."""
    def first_row(variant: str, trades: dict) -> tuple[str, str]:
        entry = next(e for e in PROTOCOL if e.variant == variant)
        text = table(entry, [Cell("ppo", "heuristic", 8, 4, (0.5, 0.25, 0.75), (1.0, 0.0, 2.0), 1.0, trades)])
        lines = text.splitlines()
        header = next(line for line in lines if line.startswith("| candidate"))
        return header, lines[lines.index(header) + 2]

    header, row = first_row("al_cabohne", {"donations": 8.71})
    assert header.endswith("| donations |") and row.endswith("| 8.7 |")
    header, row = first_row("bean_solitaire", {"donations": 5.0, "trades": 0.0})
    assert header.endswith("| donations |") and row.endswith("| 5.0 |")
    header, row = first_row("bohnanza", {"trades": 6.0, "accepts": 2.5, "cards_given": 7.0,
                                         "cards_received": 9.5, "gifts_received": 1.25, "donations": 0.0})
    assert header.endswith("| trades | accepted | given | received | gifts in |")
    assert row.endswith("| 6.0 | 2.5 | 7.0 | 9.5 | 1.2 |")
    for variant in ("bean_duel", "hostile_takeover"):
        header, row = first_row(variant, {"donations": 0.0})
        assert header.endswith("| score margin | 95% CI (by deal) |") and row.endswith("+0.00 to +2.00 |")


def test_opponents_option_keeps_only_the_named_kinds(capsys):
    """--opponents heuristic plays an entry's heuristic deals only (the 6-7 player entries' mcts deals take
    hours); an unknown kind is refused by name."""
    assert main(["--variants", "bean_duel", "--scale", "0.005", "--candidates", "random",
                 "--opponents", "heuristic"]) == 0
    text = capsys.readouterr().out
    assert "| random | 1 x heuristic | 2 | 4 |" in text and "x mcts" not in text
    assert "| bean_duel, 2 players | 2 | - |" in text
    with pytest.raises(SystemExit):
        main(["--variants", "bean_duel", "--opponents", "heuristc"])
    assert "unknown opponent kind(s) heuristc" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--players", "x"], "--players must list whole numbers, got 'x'"),
    (["--players", "9"], "no protocol entry matches"),
    (["--variants", "bean_solitaire", "--opponents", "mcts"], "no protocol entry matches"),
    (["--variants", "bean_duel", "--candidates", "random,foo"], "bad agent spec 'foo': unknown agent 'foo'"),
    (["--variants", "bean_duel", "--mcts", "mcts:simulatons=3"], "unknown option 'simulatons' for agent 'mcts'"),
    (["--entry", "bohnanza, 4 players"], "unknown entry label(s) 'bohnanza, 4 players'"),
    (["--entry", "bean_duel, 2 players", "--variants", "bohnanza"], "no protocol entry matches"),
    (["--variants", "bean_duel", "--candidates", "ppo:checkpoint=/nowhere/run"], "/nowhere/run.pt not found"),
    (["--variants", "bean_duel", "--candidates", f"ppo:checkpoint={shipped_checkpoint('bohnanza', FOUR)}"],
     "whose observation differs from entry(ies) bean_duel, 2 players"),
])
def test_bad_options_are_refused_before_any_game(argv, message, capsys, monkeypatch):
    """A typo in the options is an error naming it, before hours of games; nothing is played."""
    import bean_env.training.benchmark as benchmark

    monkeypatch.setattr(benchmark, "measure", lambda *a, **k: pytest.fail("a game was played"))
    with pytest.raises(SystemExit):
        main(argv)
    assert message in capsys.readouterr().err


def test_progress_goes_to_stderr_and_follows_the_terminal(capsys, monkeypatch):
    """Each cell is reported on stderr as it ends (by default when stderr is a terminal), so stdout holds
    only the tables."""
    args = ["--variants", "bean_duel", "--scale", "0.005", "--candidates", "random", "--opponents", "heuristic"]
    assert main(args + ["--progress"]) == 0
    out, err = capsys.readouterr()
    assert "bean_duel, 2 players: random vs heuristic: win" in err and "vs heuristic: win" not in out
    for terminal in (True, False):
        monkeypatch.setattr("sys.stderr.isatty", lambda: terminal, raising=False)
        assert main(args) == 0
        assert ("vs heuristic: win" in capsys.readouterr().err) == terminal


def test_the_base_game_is_measured_under_its_default_rules_too(capsys, monkeypatch):
    """BASE-1 with the printed trading rules is an entry of its own beside the learning preset's, and
    --entry picks one entry by its table heading."""
    default = [e for e in PROTOCOL if e.variant == "bohnanza" and e.config["trade_preset"] is None]
    assert [e.label for e in default] == ["bohnanza, 4 players (default rules)", "bohnanza, 5 players (default rules)"]
    assert all(e.config["offer_actions"] == "composed" for e in default)
    assert len({e.label for e in PROTOCOL}) == len(PROTOCOL) and len({e.seed for e in PROTOCOL}) == len(PROTOCOL)
    import bean_env.training.benchmark as benchmark

    played = []
    monkeypatch.setattr(benchmark, "measure", lambda entry, cand, opp, deals, mcts: played.append(entry.label)
                        or Cell(cand, opp, deals * 4, deals, (0.25, 0.2, 0.3), (-1.0, -2.0, 0.0), 0.0))
    assert main(["--entry", "bohnanza, 4 players (default rules)", "--candidates", "random"]) == 0
    assert set(played) == {"bohnanza, 4 players (default rules)"}
    assert "### bohnanza, 4 players (default rules)" in capsys.readouterr().out


def test_protocol_deals_are_held_out_from_training_evaluations():
    """Every entry's deals are held-out seeds, disjoint between entries of a variant; an evaluation that would play one
    (training's eval.csv, report.py, policy selection) is refused by name before any game."""
    from bean_env.training.evaluate import HELD_OUT_FIRST, evaluate

    for variant in {e.variant for e in PROTOCOL}:
        ranges = sorted((e.seed, e.seed + max(e.deals.values())) for e in PROTOCOL if e.variant == variant)
        assert all(lo >= HELD_OUT_FIRST for lo, _ in ranges)
        assert all(hi <= lo_next for (_, hi), (lo_next, _) in zip(ranges, ranges[1:])), variant
    with pytest.raises(ValueError, match="held out for the evaluation protocol"):
        evaluate(lambda s: None, "bean_duel", {}, "random", games=10, seed=HELD_OUT_FIRST - 5)
    result = evaluate(lambda s: make_agent("random", seed=s), "bean_duel", {}, "random", games=2,
                      seed=HELD_OUT_FIRST - 2)
    assert result.games == 2


def test_json_records_every_cell_with_its_command(tmp_path, capsys):
    """--json writes each cell (win with interval, trade statistics) with the command and commit, for the
    tables generated from it (results_table)."""
    import json

    out = tmp_path / "cells.json"
    assert main(["--variants", "bean_duel", "--scale", "0.005", "--candidates", "random,heuristic",
                 "--opponents", "heuristic", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["complete"] and "--json" in data["command"] and data["commit"]
    assert [(c["candidate"], c["opponent"], c["games"]) for c in data["cells"]] == [
        ("random", "heuristic", 4), ("heuristic", "heuristic", 4)]
    assert data["cells"][0]["chance"] == 0.5 and len(data["cells"][0]["win"]) == 3
    assert "Produced by `python -m bean_env.training.benchmark" not in capsys.readouterr().out


def test_merge_replaces_only_the_entries_run(tmp_path, capsys):
    """--merge reruns chosen entries into existing files: their tables and cells are replaced, every
    other entry's kept, and both files name the run that regenerated them."""
    import json

    from bean_env.training.results_table import readme_block

    out, cells = tmp_path / "benchmark.md", tmp_path / "cells.json"
    out.write_text("# Protocol\n\n" + MARK + "\n")
    base = ["--scale", "0.005", "--candidates", "random", "--opponents", "heuristic"]
    assert main(base + ["--variants", "bean_duel,al_cabohne", "--out", str(out), "--json", str(cells)]) == 0
    before_md, before = out.read_text(), json.loads(cells.read_text())
    duel = [c for c in before["cells"] if c["entry"] == "al_cabohne, 2 players"]
    assert main(base + ["--candidates", "random,heuristic", "--entry", "bean_duel, 2 players", "--merge",
                        "--out", str(out), "--json", str(cells)]) == 0
    after_md, after = out.read_text(), json.loads(cells.read_text())
    assert [(c["entry"], c["candidate"]) for c in after["cells"]] == [
        ("bean_duel, 2 players", "random"), ("bean_duel, 2 players", "heuristic"),
        ("al_cabohne, 2 players", "random")]
    assert [c for c in after["cells"] if c["entry"] == "al_cabohne, 2 players"] == duel
    assert after["command"] == before["command"] and after["updates"][0]["entries"] == ["bean_duel, 2 players"]
    # the untouched entry's section is byte for byte the same; the rerun one has the new candidate
    section = before_md[before_md.index("### al_cabohne"):before_md.index("\nScale ")]
    assert section in after_md and after_md.count("### bean_duel, 2 players") == 1
    duel_md = after_md[after_md.index("### bean_duel"):after_md.index("### al_cabohne")]
    assert "| heuristic | 1 x heuristic |" in duel_md
    assert "Entries bean_duel, 2 players regenerated by `python -m bean_env.training.benchmark" in after_md
    assert "bean_duel, 2 players: regenerated by" in readme_block(after)
    # a second rerun of the same entry replaces the first one's note and update instead of adding to them
    assert main(base + ["--entry", "bean_duel, 2 players", "--merge", "--out", str(out), "--json", str(cells)]) == 0
    again_md, again = out.read_text(), json.loads(cells.read_text())
    assert again_md.count("Entries bean_duel, 2 players regenerated by") == 1
    assert [u["entries"] for u in again["updates"]] == [["bean_duel, 2 players"]]
    assert "| heuristic | 1 x heuristic |" not in again_md and section in again_md


def test_merge_adds_a_new_protocol_entry_in_protocol_order(tmp_path):
    """--merge of a protocol entry the files lack adds its cells, its section and its row of the table of
    entries, in protocol order (bean_duel comes before al_cabohne); a label of no entry is still refused."""
    import json

    out, cells = tmp_path / "benchmark.md", tmp_path / "cells.json"
    out.write_text("# Protocol\n\n" + MARK + "\n")
    base = ["--scale", "0.005", "--candidates", "random", "--opponents", "heuristic", "--out", str(out),
            "--json", str(cells)]
    assert main(base + ["--entry", "al_cabohne, 2 players"]) == 0
    assert main(base + ["--entry", "bean_duel, 2 players", "--merge"]) == 0
    text, data = out.read_text(), json.loads(cells.read_text())
    assert [c["entry"] for c in data["cells"]] == ["bean_duel, 2 players", "al_cabohne, 2 players"]
    rows = [line.split(" |")[0] for line in text.splitlines() if line.startswith("| bean_duel, 2")
            or line.startswith("| al_cabohne, 2")]
    assert rows == ["| bean_duel, 2 players", "| al_cabohne, 2 players"]
    assert text.index("### bean_duel, 2 players") < text.index("### al_cabohne, 2 players")
    assert text.count("### bean_duel, 2 players") == 1 and "| random | 1 x heuristic |" in text
    from bean_env.training.benchmark import check_merge

    with pytest.raises(ValueError, match="no entry 'chess, 2 players'"):
        check_merge(text.split(MARK)[1].lstrip("\n"), ["chess, 2 players"])


def test_merge_keeps_the_notes_of_entries_it_did_not_rerun():
    """An earlier --merge note (and JSON update) is dropped only when the new run covers all its entries."""
    from bean_env.training.benchmark import merge_json, merge_markdown

    old_md = ("head\n### a\ntable a\n### b\ntable b\n\nScale 1.\n\n"
              "Entries a; b regenerated by `cmd1` at commit 1, scale 1.\n\n"
              "Entries b regenerated by `cmd2` at commit 2, scale 1.\n")
    new_md = "head\n### b\nnew b\n\nScale 1.\n"
    merged = merge_markdown(old_md, new_md, ["b"], "Entries b regenerated by `cmd3` at commit 3, scale 1.")
    assert "new b" in merged and "table a" in merged and "cmd1" in merged and "cmd2" not in merged
    assert merged.endswith("Entries b regenerated by `cmd3` at commit 3, scale 1.\n")
    old = {"cells": [{"entry": "a"}, {"entry": "b"}],
           "updates": [{"entries": ["a", "b"], "command": "cmd1"}, {"entries": ["b"], "command": "cmd2"}]}
    data = merge_json(old, [{"entry": "b", "new": True}], ["b"], "cmd3", "3")
    assert [u["command"] for u in data["updates"]] == ["cmd1", "cmd3"]


@pytest.mark.parametrize("argv, message", [
    (["--merge"], "--merge needs --out or --json"),
    (["--merge", "--json", "/nonexistent/cells.json"], "does not exist"),
])
def test_merge_refuses_without_files_to_update(argv, message, capsys):
    with pytest.raises(SystemExit):
        main(argv + ["--variants", "bean_duel"])
    assert message in capsys.readouterr().err


def test_merge_checks_the_files_before_any_game(tmp_path, capsys, monkeypatch):
    """A results file that is not JSON, or a file without a generated part, is refused before a game is
    played."""
    import bean_env.training.benchmark as benchmark

    monkeypatch.setattr(benchmark, "run", lambda *a, **k: pytest.fail("games were played"))
    cells, out = tmp_path / "cells.json", tmp_path / "benchmark.md"
    cells.write_text("{\"cells\": [")
    out.write_text("# Protocol, no generated part\n")
    for files, message in ((["--json", str(cells)], "cells.json: Expecting value"),
                           (["--out", str(out)], "benchmark.md: no generated part")):
        with pytest.raises(SystemExit):
            main(["--entry", "bean_duel, 2 players", "--merge"] + files)
        assert message in capsys.readouterr().err
