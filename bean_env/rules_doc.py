"""The rules reference (``docs/rules.md``, shipped as ``bean_env/data/rules.md``) by rule ID or variant.

    from bean_env.rules_doc import rule, lookup
    print(rule("TRADE-6"))          # one rule: its heading and text
    print(lookup("bean_duel"))      # every section that applies to a variant

Terms:
- *rule*: a ``### ID Title`` heading of the document and the text up to the next heading.
- *section*: a ``## Name`` heading with an ``Applies to:`` line (variant names, or ``all``) and its rules.
This module is what ``bean-env rules [ID|variant|section]`` prints; it reads only the shipped copy, so it
works after a non-editable install.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

ID_PATTERN = re.compile(r"\b[A-Z]{2,5}-\d+\b")
_HEADING = re.compile(r"^### ([A-Z]{2,5}-\d+) (.+)$")


@dataclass
class Section:
    title: str
    variants: tuple[str, ...]          # ("all",) for every variant
    text: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)   # rule IDs in document order


def rules_markdown() -> str:
    """The whole rules document."""
    return resources.files("bean_env").joinpath("data/rules.md").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parse() -> tuple[str, list[Section], dict[str, str]]:
    intro: list[str] = []
    sections: list[Section] = []
    rules: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in rules_markdown().splitlines():
        if line.startswith("## "):
            sections.append(Section(line[3:].strip(), ()))
            current = sections[-1].text
            current.append(line)
            continue
        m = _HEADING.match(line)
        if m and sections:
            if m.group(1) in rules:
                raise ValueError(f"rules.md defines {m.group(1)} twice")
            sections[-1].rules.append(m.group(1))
            current = rules[m.group(1)] = [line]
            continue
        if sections and line.startswith("Applies to:") and not sections[-1].variants:
            names = tuple(v.strip() for v in line.split(":", 1)[1].split(","))
            sections[-1].variants = names
        (current if current is not None else intro).append(line)
    return ("\n".join(intro).strip(), sections,
            {k: "\n".join(v).strip() for k, v in rules.items()})


def rule_ids() -> list[str]:
    """Every rule ID the document defines, in document order."""
    return list(_parse()[2])


def rule(rule_id: str) -> str:
    """The text of one rule (heading included); a ValueError suggests close IDs for an unknown one."""
    rules = _parse()[2]
    key = rule_id.strip().upper()
    if key in rules:
        return rules[key]
    close = difflib.get_close_matches(key, list(rules), n=5, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    raise ValueError(f"unknown rule {rule_id!r}{hint} (bean-env rules lists them all)")


def _section_text(s: Section) -> str:
    rules = _parse()[2]
    return "\n\n".join(["\n".join(s.text).strip()] + [rules[r] for r in s.rules])


def variant_rules(variant: str) -> str:
    """Every section of the document that applies to ``variant``, in document order."""
    from .engine import VARIANTS

    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; allowed: {', '.join(VARIANTS)}")
    parts = [_section_text(s) for s in _parse()[1] if "all" in s.variants or variant in s.variants]
    return f"# Rules of {variant}\n\n" + "\n\n".join(parts)


def text_card_effect(code: int) -> str:
    """The rule text of text card ``code`` (0..17, as ``TXT-1``..``TXT-18``), without its heading."""
    return rule(f"TXT-{int(code) + 1}").split("\n", 1)[1].strip()


def index() -> str:
    """The introduction and a list of every section with its rule IDs and titles."""
    intro, sections, rules = _parse()
    lines = [intro, "", "Sections and rules (bean-env rules ID | VARIANT | SECTION):"]
    for s in sections:
        lines.append(f"\n{s.title} (applies to: {', '.join(s.variants)})")
        for r in s.rules:
            lines.append(f"  {rules[r].splitlines()[0][4:]}")
    return "\n".join(lines)


def lookup(topic: str | None) -> str:
    """What ``bean-env rules TOPIC`` prints: the index (no topic), a rule ID, a variant's rules, a section
    (by title, case-insensitive), every rule of an ID family (``TXT``) or the rules whose title contains
    the words (``jokerbohne``)."""
    from .engine import VARIANTS

    if topic is None or not topic.strip():
        return index()
    t = topic.strip()
    if t in VARIANTS:
        return variant_rules(t)
    if ID_PATTERN.fullmatch(t.upper()):
        return rule(t)
    _, sections, rules = _parse()
    for s in sections:
        if s.title.lower() == t.lower():
            return _section_text(s)
    family = [r for r in rules if r.split("-")[0] == t.upper()]
    if family:
        return "\n\n".join(rules[r] for r in family)
    titled = [r for r in rules if t.lower() in rules[r].splitlines()[0].lower()]
    if titled:                                 # a word of a rule's title: "jokerbohne", "one-card"
        return "\n\n".join(rules[r] for r in titled)
    raise ValueError(f"unknown rules topic {topic!r}; give a rule ID such as TRADE-6, a variant "
                     f"({', '.join(VARIANTS)}), a section ({', '.join(s.title for s in sections)})"
                     f", a rule family ({', '.join(sorted({r.split('-')[0] for r in rules}))}) "
                     "or words of a rule title")
