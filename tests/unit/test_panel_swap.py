"""The panel's own swap (static/swap.js) drops a panel's old copy without htmx's per-element
cleanup. That is safe only while nothing inside a panel listens outside it: these tests read every
template for what htmx would have to clean up (a trigger on another element than the panel's own,
polling, an observer, an event stream) and fail the day one appears."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the shell's templates and each ruleset's (app/rulesets/<package>/templates/)
PAGES = sorted([*(ROOT / "templates").rglob("*.html"), *(ROOT / "app" / "rulesets").glob("*/templates/*.html")])
# The live wiring (templates/_live.html) is no panel: the page's one event stream.
NOT_PANELS = {"_live.html", "base.html"}


def triggers() -> list[tuple[str, str]]:
    return [(page.name, found) for page in PAGES if page.name not in NOT_PANELS
            for found in re.findall(r'hx-trigger="([^"]*)"', page.read_text())]


def test_the_templates_carry_triggers_to_check():
    assert len(triggers()) >= 5  # the reading below reads something


@pytest.mark.parametrize(("page", "trigger"), triggers())
def test_a_trigger_inside_a_panel_listens_on_its_own_element_or_inside_its_panel(page, trigger):
    for spec in trigger.split(","):
        words = spec.split()
        sources = [w for w in words if w.startswith("from:")]
        # `from:closest …`: an ancestor inside the same panel (a form, a fold), replaced with it
        assert all(w == "from:closest" for w in sources), (page, spec)
        assert not {"every", "revealed", "intersect"} & {re.sub(r"[:\s].*", "", w) for w in words}, (page, spec)


@pytest.mark.parametrize("page", [p for p in PAGES if p.name not in NOT_PANELS], ids=lambda p: p.name)
def test_no_panel_opens_an_event_stream_or_names_an_extension(page):
    text = page.read_text()
    assert "sse-connect" not in text and "hx-ext" not in text and "hx-on" not in text
