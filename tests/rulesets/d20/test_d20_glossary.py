"""d20 rule ids explain themselves: every D20 id the code cites has a plain summary
(app/rulesets/d20/glossary.py), a place in docs/rules-d20.md and a test quoting it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.rulesets.d20.glossary import AREAS, GLOSSARY

ROOT = Path(__file__).resolve().parents[3]
QUOTED = re.compile(r"\"(D20-[A-Z0-9-]+)\"")


def cited() -> set[str]:
    files = [*ROOT.joinpath("app").rglob("*.py"), *ROOT.joinpath("app").rglob("*.html"),
             *ROOT.joinpath("templates").rglob("*.html")]
    return {rule for path in files for rule in QUOTED.findall(path.read_text(encoding="utf-8"))}


def all_test_sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in ROOT.joinpath("tests").rglob("test_*.py"))


def test_the_code_cites_d20_ids():
    assert {"D20-CRIT", "D20-ROLE-HUNTER", "D20-AOO"} <= cited()


@pytest.mark.parametrize("rule", sorted(cited()))
def test_every_d20_id_the_code_cites_has_a_glossary_entry(rule):
    assert rule in GLOSSARY


@pytest.mark.parametrize("rule", sorted(GLOSSARY))
def test_every_d20_id_is_documented_tested_and_one_or_two_short_sentences(rule):
    docs = ROOT.joinpath("docs/rules-d20.md").read_text(encoding="utf-8")
    assert re.search(re.escape(rule) + r"(?![A-Z0-9-])", docs), f"{rule} is not in docs/rules-d20.md"
    underscored = rule.replace("-", "_")
    quoted = f"(?:{re.escape(rule)}|{underscored})(?![A-Z0-9]|[-_][A-Z])"  # not a longer id's prefix
    assert re.search(quoted, all_test_sources()), f"no test quotes {rule}"
    text = GLOSSARY[rule]
    assert 1 <= len(re.findall(r"[.!?](?:\s|$)", text)) <= 2 and len(text) <= 330, text


def test_no_d20_id_is_listed_twice():
    listed = [rule for _, rules in AREAS for rule, _ in rules]
    assert len(listed) == len(set(listed))
