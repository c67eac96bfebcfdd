"""The mafia variants' pages (docs/variants/) show their real action and observation layouts."""
from __future__ import annotations

import pathlib

import pytest

from bean_env.envs.reference import action_table, observation_table

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "variants"


@pytest.mark.parametrize("variant", ["al_cabohne", "bean_solitaire"])
def test_doc_tables_match_the_code(variant):
    text = (DOCS / f"{variant}.md").read_text()
    assert action_table(variant) in text
    assert observation_table(variant) in text
