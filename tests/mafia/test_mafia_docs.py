"""docs/envs.md shows the real action and observation layouts of the mafia variants."""
from __future__ import annotations

import pathlib

import pytest

from bean_env.envs.reference import action_table, observation_table

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "envs.md"


@pytest.mark.parametrize("variant", ["al_cabohne", "bean_solitaire"])
def test_doc_tables_match_the_code(variant):
    text = DOC.read_text()
    assert action_table(variant) in text
    assert observation_table(variant) in text
