"""`bean-env` polish: refused counts, --version, the `list` reference, yes/no spellings, quiet broken pipes,
report formats (CSV numbers, coins in hostile_takeover, the mafia in ratings.png) and the shipped rules."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import bean_env
from bean_env.agents.tournament import TournamentResult, make_entries, parse_options, run_tournament
from bean_env.cli import main

BIN = Path(sys.executable).parent / "bean-env"
ROOT = Path(__file__).resolve().parents[2]


def _run(argv):
    out = io.StringIO()
    return main(argv, stdout=out), out.getvalue()


@pytest.mark.parametrize("flag, value", [("--games", "0"), ("--deals", "0"), ("--games", "-5"),
                                         ("--workers", "0"), ("--games", "many")])
def test_counts_below_one_are_refused(flag, value, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "bean_duel", "random", "random", flag, value, "--no-progress"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}" in err and ("below 1" in err or "not a whole number" in err)


def test_run_tournament_refuses_zero_deals():
    with pytest.raises(ValueError, match="bad value 0 for deals"):
        run_tournament("bean_duel", ["random", "random"], deals=0)


def test_version():
    proc = subprocess.run([str(BIN), "--version"], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == f"bean-env {bean_env.__version__}"


def test_list_is_the_one_stop_reference():
    code, text = _run(["list"])
    assert code == 0
    for v in bean_env.implemented():
        assert f"bean_env/{v}-v" in text                                   # PettingZoo id
    assert 'gymnasium.make("bean_env/BeanDuel-v' in text                    # gymnasium id
    assert "allowed: 'german' or 'english'" in text and "TRADE-6: trading rounds per turn" in text
    for env_option in ("reward_mode", "auto_forced", "illegal_action", "render_mode", "opponents",
                       "learner_seat"):
        assert f"    {env_option} = " in text
    assert "simulations: int = 100  (play-outs per decision)" in text      # agent options with docs
    assert "rollout: one of 'random', 'heuristic'" in text
    assert "checkpoint: " in text
    assert "      bohnanza (num_players=4, trade_preset=learning)\n" in text   # the shipped policies' tables
    assert "      bohnanza (edition=english, num_players=6, trade_preset=learning)\n" in text
    assert "      bean_duel (num_players=2)\n" in text and " changed" not in text
    from bean_env.cli import _env_option_docs
    for name, _, doc in (opt for group in _env_option_docs() for opt in group):
        assert doc, f"env option {name!r} has no description in `bean-env list`"


def test_boolean_rule_options_take_the_usual_spellings():
    for text, value in (("1", True), ("yes", True), ("on", True), ("0", False), ("no", False),
                        ("off", False), ("False", False)):
        assert parse_options([f"allow_duplicate_fields={text}"], "bean_duel") == {"allow_duplicate_fields": value}
    with pytest.raises(ValueError, match="bad value 'perhaps' for option 'allow_duplicate_fields'"):
        parse_options(["allow_duplicate_fields=perhaps"], "bean_duel")
    assert parse_options(["num_players=3"], "bohnanza") == {"num_players": 3}


def test_boolean_option_on_the_command_line(tmp_path, capsys):
    code, _ = _run(["tournament", "bean_duel", "random", "random", "-o", "allow_duplicate_fields=no",
                    "--games", "2", "--workers", "1", "--no-progress", "--out", str(tmp_path)])
    assert code == 0
    assert json.loads((tmp_path / "results.json").read_text())["config"] == {"allow_duplicate_fields": False}


def test_broken_pipe_exits_quietly(tmp_path):
    game = bean_env.new_game("bohnanza", seed=1)
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    (tmp_path / "g.json").write_text(json.dumps(game.record()))
    proc = subprocess.run(["bash", "-c", f"set -o pipefail; '{BIN}' replay '{tmp_path / 'g.json'}' --render | head -1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert proc.stdout.startswith("bohnanza")


def _fake_result(variant: str, scores: list[list[int]], mafia: list[int] | None = None) -> TournamentResult:
    entries = make_entries(["heuristic", "random"][: len(scores[0])])
    games = []
    for i, s in enumerate(scores):
        winners = [max(range(len(s)), key=s.__getitem__)]
        games.append({"index": i, "table": 0, "deal": i, "rotation": 0, "seed": i,
                      "seats": [e.label for e in entries], "scores": s, "winners": winners,
                      "mafia": None if mafia is None else mafia[i], "steps": 1, "truncated": False})
    return TournamentResult(variant, {}, 0, len(games), entries, games)


def test_hostile_takeover_scores_are_coins_with_two_decimals():
    """HT-14 scores are hundredths: 3534 is shown as 35.34 coins."""
    result = _fake_result("hostile_takeover", [[3534, 1210], [3534, 1210]])
    rows = {r["agent"]: r for r in result.stats()}
    assert rows["heuristic"]["mean_score"] == pytest.approx(35.34)
    assert "| 35.34 |" in result.markdown()
    assert any(r["mean_score"] == "35.34" for r in csv.DictReader(io.StringIO(result.csv())))


def test_csv_numbers_are_plain_decimals_like_the_table():
    result = _fake_result("bean_duel", [[10, 0], [9, 3], [2, 7], [8, 8]])
    rows = list(csv.DictReader(io.StringIO(result.csv())))
    lines = result.markdown().splitlines()
    table = lines[next(i for i, line in enumerate(lines) if line.startswith("|---")) + 1:]  # below the header
    assert [r["agent"] for r in rows] == [line.split("|")[1].strip() for line in table]
    for r in rows:
        for key in ("win_rate", "win_ci_low", "win_ci_high", "mean_score", "mu", "sigma", "ordinal"):
            assert "e" not in r[key].lower() and len(r[key].split(".")[-1]) <= 4, (key, r[key])
    lost = _fake_result("bean_duel", [[0, 5]])
    assert next(r for r in csv.DictReader(io.StringIO(lost.csv())) if r["agent"] == "heuristic")["win_rate"] == "0"


def test_ratings_chart_shows_the_mafia_and_sorts_by_rating(monkeypatch, tmp_path):
    """MAF-13: the mafia is rated with the players; bars run best first (top of the chart)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    seen = {}
    real = Figure.savefig

    def capture(self, *args, **kwargs):
        seen["labels"] = [t.get_text() for t in self.axes[0].get_yticklabels()]
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", capture)
    result = _fake_result("al_cabohne", [[3, 9], [2, 8], [1, 7]], mafia=[20, 20, 20])
    result.plot(tmp_path / "r.png")
    expected = [r["agent"] for r in result.rows_by_rating()]
    assert "(mafia)" in expected
    assert seen["labels"] == expected[::-1]          # barh draws bottom-up
    mus = [r["mu"] for r in result.rows_by_rating()]
    assert mus == sorted(mus, reverse=True)


def test_rules_ship_inside_the_wheel(tmp_path):
    """`bean-env rules` works after a non-editable install: the wheel carries bean_env/data/rules.md and
    the rules reader finds it from an unpacked wheel (no source tree)."""
    src = tmp_path / "src"
    from test_cli_readme import fresh_copy
    fresh_copy(src.mkdir() or src)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = next((tmp_path / "dist").glob("bean_env-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        assert "bean_env/data/rules.md" in z.namelist()
        z.extractall(tmp_path / "site")
    code = "from bean_env.rules_doc import rule; print(rule('DUEL-5').splitlines()[0])"
    proc = subprocess.run([sys.executable, "-P", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'site')!r}); "
                           "import bean_env; assert 'site' in bean_env.__file__, bean_env.__file__; " + code],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("### DUEL-5 ")


def test_command_processes_use_one_blas_thread_unless_told():
    """``bean-env`` sets OPENBLAS_NUM_THREADS=1 before numpy loads (so its ppo agents' forward passes do
    not wait on BLAS threads), and keeps a value the user set."""
    import os
    import subprocess
    import sys
    code = ("import sys, os, bean_env.cli; assert 'numpy' not in sys.modules, 'numpy loaded before the setting'; "
            "print(os.environ['OPENBLAS_NUM_THREADS'])")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "1"
    out = subprocess.run([sys.executable, "-c", code], env=dict(env, OPENBLAS_NUM_THREADS="2"),
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "2"
