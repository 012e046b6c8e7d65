"""Rule ids explain themselves: every id the code cites has a plain summary (app/rulesets/potham2038/glossary.py)
and a place in docs/rules.md; /rules lists them with anchors; every badge on a game page links to
its entry and carries the summary for the in-place tip (static/rules.js)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.rulesets.potham2038.glossary import AREAS, GLOSSARY, summary
from tests.support.html import parse
from tests.support.turn_games import make_game, roster_state
from tests.support.turn_play import Table, facts

ROOT = Path(__file__).resolve().parents[4]
QUOTED_ID = re.compile(r"\"(R-[A-Z0-9-]+)\"")


def cited_ids() -> set[str]:
    """Every rule id quoted as a string in app/ and templates/ (what a badge can show)."""
    found: set[str] = set()
    for path in [*ROOT.joinpath("app").rglob("*.py"), *ROOT.joinpath("templates").glob("*.html")]:
        found |= set(QUOTED_ID.findall(path.read_text(encoding="utf-8")))
    return found


def documented(rule: str, docs: str) -> bool:
    return re.search(re.escape(rule) + r"(?![A-Z0-9-])", docs) is not None


def test_the_code_cites_rule_ids_at_all():
    assert {"R-ROLE-SENTRY", "R-END-CHECK", "R-DICE"} <= cited_ids()


@pytest.mark.parametrize("rule", sorted(cited_ids()))
def test_every_rule_id_the_code_cites_has_a_glossary_entry_and_is_in_docs_rules_md(rule):
    assert summary(rule), f"{rule} has no glossary entry"
    assert documented(rule, ROOT.joinpath("docs/rules.md").read_text(encoding="utf-8")), rule


@pytest.mark.parametrize("rule", sorted(GLOSSARY))
def test_every_glossary_entry_is_documented_and_one_or_two_short_sentences(rule):
    text = GLOSSARY[rule]
    assert documented(rule, ROOT.joinpath("docs/rules.md").read_text(encoding="utf-8"))
    assert 1 <= len(re.findall(r"[.!?](?:\s|$)", text)) <= 2 and len(text) <= 330, text


def test_no_rule_id_is_listed_twice():
    listed = [rule for _, rules in AREAS for rule, _ in rules]
    assert len(listed) == len(set(listed))


@pytest.mark.parametrize("rule, words", [
    ("R-GLITCH-REBOOT", "does not Defend"),  # seed 000 "stops even free actions" wins (docs § 6.1)
    ("R-ALARM", "Danger +1 always"),
    ("R-CMB-TARGET", "highest current Health"),
    ("R-ROLE-SENTRY", "within one Walk"),
])
def test_summaries_follow_the_seeds(rule, words):
    assert words in GLOSSARY[rule]


def test_the_rules_page_lists_every_entry_under_its_own_anchor(client):
    r = client.get("/rules")
    assert r.status_code == 200
    page = parse(r.text)
    for rule, text in GLOSSARY.items():
        entry = page.by_id(rule)
        assert entry.one("a", href=f"#{rule}").text() == rule
        assert entry.one("dd").text() == re.sub(r"\s+", " ", text)


def test_R_END_CHECK_badges_on_a_game_page_link_to_their_entry_and_carry_the_summary(client, session):
    game = make_game(session, roster_state(phase=4))
    page = parse(client.get(f"/g/{game.edit_token}").text)
    badge = page.by_id("checks-heading").one("a", cls="rule")
    assert badge.attrs["href"] == "/rules#R-END-CHECK"
    assert badge.attrs["data-summary"] == GLOSSARY["R-END-CHECK"]
    assert badge.attrs["aria-expanded"] == "false"


def test_every_badge_of_a_played_turn_links_to_an_entry_of_the_rules_page(client, session):
    game = make_game(session)
    table = Table(client, game.edit_token)
    table.submit("next-1")
    table.submit("activate", **facts((2, True, False), (9, True, False)))
    html = client.get(f"/g/{game.edit_token}").text
    page = parse(html)
    anchors = {n.attrs["id"] for n in parse(client.get("/rules").text).all(cls="glossary-entry")}
    badges = page.all("a", cls="rule")
    assert len(badges) >= 5  # decision card, log entries, headings
    for badge in badges:
        rule = badge.text()
        assert badge.attrs["href"] == f"/rules#{rule}" and rule in anchors
    assert page.all("span", cls="rule") == []  # no id the glossary does not know


def test_a_badge_with_two_ids_becomes_two_links(client, session):
    page = parse(client.get(f"/g/{make_game(session).edit_token}").text)
    section = page.by_id("section-noise")
    assert not section.all("summary")[0].all("a", cls="rule")  # outside the heading's tap area (issue 9)
    badges = section.one("p", cls="step-rules")
    assert [a.attrs["href"] for a in badges.all("a", cls="rule")] == ["/rules#R-NOISE", "/rules#R-ALARM"]


def test_the_glossary_module_is_pure():
    source = ROOT.joinpath("app/rulesets/potham2038/glossary.py").read_text(encoding="utf-8")
    assert not re.search(r"^\s*(?:import|from)\s+(?!__future__)", source, re.M)
