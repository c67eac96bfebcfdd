"""Golden traces (COM-12): recorded seeded games must replay exactly, step for step.

The files are written by ``tests/golden/make_golden.py`` (its docstring gives the format). A failure
means the rules engine changed behaviour: if the change is intended, regenerate the files with that
script and commit them with the change.
"""
from __future__ import annotations

import hashlib
import json
import pathlib

import pytest

from bean_env import Action, new_game
from helpers import legal_strings, state_digest

GOLDEN = pathlib.Path(__file__).resolve().parent.parent / "golden"
FILES = sorted(p.name for p in GOLDEN.glob("*.jsonl"))
REGENERATE = "if the rules change is intended, run `python tests/golden/make_golden.py` and commit"


def _games(name: str) -> list[dict]:
    games: dict[int, dict] = {}
    for line in (GOLDEN / name).read_text().splitlines():
        row = json.loads(line)
        g = games.setdefault(row["game"], {"steps": {}})
        if "actions" in row:
            g["header"] = row
        elif row.get("final"):
            g["final"] = row
        else:
            g["steps"][row["step"]] = row
    return [games[i] for i in sorted(games)]


def test_golden_files_exist():
    """The golden traces cover both engine variants of this suite."""
    assert {"bohnanza.jsonl", "bean_duel.jsonl"} <= set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_com12_golden_traces_replay_exactly(name):
    """COM-12: each recorded game replays with the same decisions, legal sets, states and result."""
    for golden in _games(name):
        head = golden["header"]
        where = f"{name} game {head['game']} ({head['variant']} {head['config']} seed {head['seed']})"
        game = new_game(head["variant"], seed=head["seed"], **head["config"])
        for k, raw in enumerate(head["actions"]):
            row = golden["steps"].get(k)
            if row is not None:
                assert (game.decision, game.current_player) == (row["decision"], row["player"]), \
                    f"{where} step {k}: decision point differs; {REGENERATE}"
                if "legal" in row:
                    assert legal_strings(game) == row["legal"], f"{where} step {k}: legal actions differ; {REGENERATE}"
                else:
                    digest = hashlib.sha256("|".join(legal_strings(game)).encode()).hexdigest()[:12]
                    assert digest == row["legal_digest"], f"{where} step {k}: legal actions differ; {REGENERATE}"
            action = Action.from_json(raw)
            assert action in game.legal_actions(), f"{where} step {k}: recorded action {action} is illegal"
            if row is not None and "action" in row:
                assert str(action) == row["action"], f"{where} step {k}: action text differs; {REGENERATE}"
            game.apply(action)
            if row is not None:
                assert state_digest(game) == row["digest"], f"{where} after step {k}: state differs; {REGENERATE}"
        final = golden["final"]
        assert game.is_over, f"{where}: the recorded actions no longer end the game; {REGENERATE}"
        assert len(head["actions"]) == final["steps"]
        assert state_digest(game) == final["digest"], f"{where}: final state differs; {REGENERATE}"
        assert game.scores() == final["scores"] and game.winners() == final["winners"]
        assert game.state.runouts == final["runouts"]
