"""Each variant's page (docs/variants/<variant>.md) shows the real action and observation layouts (regenerate
with ``python -m bean_env.envs.reference <variant> key=value``)."""
from __future__ import annotations

import pathlib

import pytest

from bean_env.envs.reference import action_table, main, observation_table

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "variants"


@pytest.mark.parametrize("variant, config", [("bohnanza", {"num_players": 4}), ("bean_duel", {})])
def test_doc_tables_match_the_code(variant, config):
    text = (DOCS / f"{variant}.md").read_text()
    assert action_table(variant, **config) in text
    assert observation_table(variant, **config) in text


def test_reference_command_prints_both_tables(capsys):
    assert main(["bohnanza", "edition=english", "num_players=7"]) == 0
    out = capsys.readouterr().out
    assert "Discrete(226)" in out and "float32 values" in out
