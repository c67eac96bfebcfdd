"""docs/rules.md: defines every rule ID the project cites, matches the code's tables, ships in the package,
and `bean-env rules` prints rules by ID, variant and section."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import bean_env
from bean_env.cards import TYPES
from bean_env.cli import main
from bean_env.engine.actions import TEXT_NAMES
from bean_env.rules_doc import ID_PATTERN, lookup, rule, rule_ids, rules_markdown, text_card_effect

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"
SCANNED = ("bean_env", "agents", "training", "tests", "docs", "README.md", "notebooks", "benchmarks")
SUFFIXES = {".py", ".md", ".txt", ".ipynb", ".toml", ".json", ".jsonl", ".csv", ".cfg", ".yaml", ".yml"}
# Upper-case word-dash-number tokens that are not rule IDs.
NOT_RULES = {"UTF-8"}   # a text encoding


def _cited() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    for top in SCANNED:
        base = ROOT / top
        files = [base] if base.is_file() else [p for p in base.rglob("*") if p.is_file()]
        for path in files:
            if path.suffix not in SUFFIXES or "__pycache__" in path.parts:
                continue
            for rid in ID_PATTERN.findall(path.read_text(encoding="utf-8", errors="replace")):
                cited.setdefault(rid, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_every_cited_rule_id_is_defined():
    """Every `[A-Z]{2,5}-N` token in code, tests, docs and README is a rule heading of docs/rules.md."""
    defined = set(rule_ids())
    missing = {rid: sorted(where)[:3] for rid, where in _cited().items()
               if rid not in defined and rid not in NOT_RULES}
    assert not missing, f"rule IDs cited but not defined in docs/rules.md: {missing}"


def test_rule_families_are_complete_and_unique():
    ids = rule_ids()
    assert len(ids) == len(set(ids))
    families: dict[str, list[int]] = {}
    for rid in ids:
        fam, num = rid.rsplit("-", 1)
        families.setdefault(fam, []).append(int(num))
    for fam, nums in families.items():
        assert sorted(nums) == list(range(1, max(nums) + 1)), f"{fam} has gaps: {sorted(nums)}"
    assert len(families["TXT"]) == len(TEXT_NAMES) == 18


def test_shipped_copy_is_identical_to_docs():
    """The package ships bean_env/data/rules.md (it works without the source tree): the same text."""
    assert (ROOT / "bean_env" / "data" / "rules.md").read_text(encoding="utf-8") == DOC.read_text(encoding="utf-8"), \
        "copy docs/rules.md to bean_env/data/rules.md"
    assert rules_markdown() == DOC.read_text(encoding="utf-8")


def test_docs_never_refer_to_the_spec_file():
    assert "SPEC" not in DOC.read_text(encoding="utf-8")


def test_beanometer_table_matches_the_cards_module():
    """CARD-1: each table row (type, count, four steps) is bean_env.cards.TYPES."""
    text = rule("CARD-1")
    for t in TYPES:
        row = re.search(rf"^\| {t.name} / {re.escape(t.german)} \| (.*)$", text, re.M)
        assert row, f"no beanometer row for {t.name}"
        cells = [c.strip() for c in row.group(1).split("|")]
        assert int(cells[0]) == t.count
        assert [None if c == "-" else int(c) for c in cells[1:5]] == list(t.meter)


def test_every_text_card_has_its_rule_with_its_name():
    """TXT-1..18 are headed by the card names the engine uses, and each has effect text."""
    for code, name in enumerate(TEXT_NAMES):
        heading = rule(f"TXT-{code + 1}").splitlines()[0]
        ascii_heading = heading.replace("ä", "ae").replace("ü", "ue").replace("ö", "oe").replace("Ü", "Ue")
        assert ascii_heading.startswith(f"### TXT-{code + 1} {name}"), heading
        assert len(text_card_effect(code)) > 40


def test_variant_rules_include_their_sections_only():
    duel = lookup("bean_duel")
    assert "DUEL-5" in duel and "COM-4" in duel and "CARD-1" in duel and "AGT-3" in duel
    assert all(f"### {r} " not in duel for r in ("TRADE-2", "HT-11", "MAF-8", "BASE-5"))
    ht = lookup("hostile_takeover")
    assert "### TXT-16 " in ht and "### HT-13 " in ht and "### BASE-5 " not in ht
    for v in bean_env.implemented():
        assert lookup(v).startswith(f"# Rules of {v}")


def _run(argv):
    out = io.StringIO()
    return main(argv, stdout=out), out.getvalue()


def test_rules_command_prints_a_rule_a_variant_a_section_and_the_index(capsys):
    code, text = _run(["rules", "trade-6"])
    assert code == 0 and text.startswith("### TRADE-6 ") and "max_trade_rounds" in text
    code, text = _run(["rules", "al_cabohne"])
    assert code == 0 and "MAF-13" in text and "COM-6" in text
    code, text = _run(["rules", "Text cards"])
    assert code == 0 and "Jokerbohne" in text and "TXT-18" in text
    code, text = _run(["rules", "DUEL"])
    assert code == 0 and "DUEL-1" in text and "DUEL-7" in text and "### COM-1 " not in text
    code, text = _run(["rules", "jokerbohne"])
    assert code == 0 and text.startswith("### TXT-6 Jokerbohne")
    code, text = _run(["rules"])
    assert code == 0 and all(rid in text for rid in rule_ids())


@pytest.mark.parametrize("topic, words", [("TRADE-" + "66", "did you mean TRADE-6"),
                                          ("bean_dual", "unknown rules topic 'bean_dual'")])
def test_rules_command_unknown_topic(topic, words, capsys):
    assert _run(["rules", topic])[0] == 2
    assert words in capsys.readouterr().err
