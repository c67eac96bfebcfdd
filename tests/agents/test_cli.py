"""The ``bean-env`` command: play with scripted input, tournament, replay, list, clear errors."""
from __future__ import annotations

import io
import json
import subprocess
import sys

import bean_env
from bean_env.cli import main


def _run(argv, stdin: str = ""):
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out)
    return code, out.getvalue()


def test_play_completes_a_scripted_game_and_reprompts_on_bad_input():
    """A person plays a whole bean_duel game from stdin; bad input gets a message and a new prompt."""
    script = "hello\n0\n999\n" + "1\n" * 2000
    code, text = _run(["play", "bean_duel", "--seed", "3", "--opponents", "random"], script)
    assert code == 0
    assert text.count("not a legal choice") == 3
    assert "game over: scores" in text and "you " in text.splitlines()[-1]
    assert "player 1 (random):" in text


def test_play_by_action_text_and_quit():
    """An action may be typed as its text; q abandons the game."""
    game = bean_env.new_game("bean_duel", seed=1)
    seat = game.current_player  # the person decides first
    first = str(game.legal_actions()[0])
    code, text = _run(["play", "bean_duel", "--seed", "1", "--seat", str(seat)], f"{first}\nq\n")
    assert code == 1 and "game abandoned" in text
    assert text.count("your choice") == 2


def test_play_end_of_input_abandons_cleanly():
    code, text = _run(["play", "bohnanza", "--seed", "2", "-o", "num_players=3",
                       "--opponents", "random", "heuristic"], "")
    assert code == 1 and "end of input" in text


def test_unknown_variant_agent_and_option_list_what_exists(capsys):
    assert _run(["play", "nope"])[0] == 2
    assert "allowed values: bohnanza, bean_duel" in capsys.readouterr().err
    assert _run(["play", "bean_duel", "--opponents", "nope"])[0] == 2
    assert "unknown agent 'nope'; allowed: " in capsys.readouterr().err
    assert _run(["play", "bohnanza", "-o", "colour=red"])[0] == 2
    assert "unknown option 'colour'" in capsys.readouterr().err
    assert _run(["tournament", "bean_duel", "random", "nope", "--no-progress"])[0] == 2
    assert "unknown agent 'nope'" in capsys.readouterr().err


def test_list_names_variants_and_agents():
    code, text = _run(["list"])
    assert code == 0
    for v in bean_env.implemented():
        assert f"  {v}:" in text
    assert "heuristic" in text and "mcts" in text


def test_tournament_command_writes_reports(tmp_path, capsys):
    out = tmp_path / "t"
    code, _ = _run(["tournament", "bean_duel", "heuristic", "random", "--games", "4", "--workers", "1",
                    "--out", str(out), "--save-records", "--no-progress", "--seed", "2"])
    assert code == 0
    assert "| heuristic | 4 |" in capsys.readouterr().out
    assert {p.name for p in out.iterdir()} >= {"results.json", "results.csv", "results.md", "ratings.png",
                                               "records"}


def test_replay_prints_a_recorded_game(tmp_path):
    game = bean_env.new_game("bean_duel", seed=6)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game.record()))
    code, text = _run(["replay", str(path)])
    assert code == 0
    assert text.count("\n") > len(game.history)
    assert f"game over: scores {game.scores()}" in text
    path2 = tmp_path / "state.json"
    path2.write_text(game.to_json())
    code2, text2 = _run(["replay", str(path2), "--render"])
    assert code2 == 0 and text2.count("decision '") >= len(game.history)


def test_bean_env_entry_point_runs_in_a_subprocess():
    """The installed command itself (python -m bean_env.cli) plays a scripted game."""
    proc = subprocess.run([sys.executable, "-m", "bean_env.cli", "play", "bean_duel", "--seed", "5",
                           "--opponents", "heuristic"], input="1\n" * 2000, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "game over" in proc.stdout


def test_bench_runs_one_benchmark_script(capfd):
    """`bean-env bench engine_speed ...` runs that script of the checkout with the given arguments."""
    code, text = _run(["bench", "engine_speed", "--seconds", "0.02", "--no-peers", "--variants", "bean_duel"])
    assert code == 0
    assert "== engine_speed.py" in text
    assert "bean_duel" in capfd.readouterr().out


def test_train_hands_over_to_the_training_package(monkeypatch):
    """`bean-env train ARGS` calls ``bean_env.training.cli.main(ARGS)``."""
    import types
    seen = []
    fake = types.ModuleType("bean_env.training.cli")
    fake.main = lambda argv: seen.append(argv) or 0
    monkeypatch.setitem(sys.modules, "bean_env.training.cli", fake)
    assert _run(["train", "--variant", "bean_duel"])[0] == 0
    assert seen == [["--variant", "bean_duel"]]


def test_play_solitaire_alone_against_the_mafia():
    """bean_solitaire has one seat: no opponents, the mafia plays by the rules (MAF-*)."""
    if "bean_solitaire" not in bean_env.implemented():
        return
    code, text = _run(["play", "bean_solitaire", "--seed", "4"], "1\n" * 3000)
    assert code == 0 and "game over" in text
    assert _run(["play", "bean_solitaire", "--opponents", "random"])[0] == 2
