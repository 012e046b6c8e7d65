"""axe-core in the browser tests: the pinned copy under tests/browser/vendor (the tests' only, never
served by the app), injected once per page and run on each state of it in both themes and at both
sizes the accessibility goals name (768×1024 and 390×844).

Injection goes through Playwright's evaluate, which the page's Content-Security-Policy does not
govern (the policy allows no inline script, and rightly so for the app's own pages). A page keeps
`window.axe` across htmx swaps, so each state after a tap costs one run per size and theme only."""

from __future__ import annotations

import fcntl
import json
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page

AXE_VERSION = "4.14.1"
AXE_SOURCE = Path(__file__).resolve().parents[1] / "browser" / "vendor" / f"axe-core-{AXE_VERSION}" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
SIZES = ((768, 1024), (390, 844))
THEMES = ("light", "dark")
A11Y_JSON = Path(__file__).resolve().parents[2] / "test-artifacts" / "a11y.json"

RUN = """async (tags) => {
  const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), html: n.html.slice(0, 200),
                              summary: (n.failureSummary || "").slice(0, 300)}))}));
}"""
THEME = """(theme) => { document.documentElement.dataset.theme = theme; }"""


def inject(page: Page) -> None:
    """Load axe into the page unless it is there already (a page keeps it across htmx swaps)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SOURCE.read_text(encoding="utf-8") + "\n;undefined")


def violations(page: Page) -> list[dict]:
    inject(page)
    return page.evaluate(RUN, TAGS)


@dataclass
class Audit:
    """The violations found per page state, size and theme; `write` adds them to a11y.json."""

    results: dict[str, dict[str, list[dict]]] = field(default_factory=dict)

    def check(self, page: Page, state: str, sizes=SIZES, themes=THEMES) -> None:
        """Run axe on what `page` shows now, at each size and theme, then put the page back as it was."""
        original = page.viewport_size
        theme_before = page.evaluate("() => document.documentElement.dataset.theme")
        found = self.results.setdefault(state, {})
        scrolled = page.evaluate("() => [window.scrollX, window.scrollY]")
        for width, height in sizes:
            page.set_viewport_size({"width": width, "height": height})
            # Audit the layout from the page's top: a resize mid-page leaves content wherever the
            # old width put it, some of it passing under the sticky top bar for that instant, which
            # axe's target-size rule reads as a covered control (no reader sees that moment).
            page.evaluate("() => window.scrollTo(0, 0)")
            for theme in themes:
                page.evaluate(THEME, theme)
                found[f"{width}x{height}/{theme}"] = violations(page)
        page.evaluate(THEME, theme_before)
        if original:
            page.set_viewport_size(original)
        page.evaluate("([x, y]) => window.scrollTo(x, y)", scrolled)

    def counts(self) -> dict[str, dict[str, int]]:
        return {state: {where: sum(len(v["nodes"]) for v in found) for where, found in runs.items()}
                for state, runs in self.results.items()}

    def failures(self) -> list[str]:
        """One line per violation (state, where, rule, first node), for the assertion's message."""
        lines = []
        for state, runs in self.results.items():
            for where, found in runs.items():
                for v in found:
                    first = v["nodes"][0]
                    lines.append(f"{state} @ {where}: {v['id']} ×{len(v['nodes'])} "
                                 f"({first['target']}: {first['html'][:120]} | {first['summary'][:160]})")
        return lines

    def write(self, path: Path, section: str) -> None:
        """Merge this audit's counts under `section` of the JSON file at `path` (each test its own
        section, so tests on two workers write side by side without losing each other's)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            data = json.loads(path.read_text()) if path.exists() else {}
            data["axe"] = AXE_VERSION
            data["tags"] = TAGS
            data.setdefault("tests", {})[section] = {
                "states": self.counts(),
                "violations": sum(sum(c.values()) for c in self.counts().values()),
                "rules": sorted({v["id"] for runs in self.results.values() for f in runs.values() for v in f}),
            }
            path.write_text(json.dumps(data, indent=2, sort_keys=True))


# What kinds of things the page shows: every class name in <main>, and which folds are open. A
# state that shows a class no checked state showed is a new kind of state (a Phase 3 card, a
# question, a refusal, a settled card) and is checked; one that only shows other values is not.
SIGNATURE = """() => {
  const kinds = new Set();
  for (const e of document.querySelectorAll("main [class], main details[open]")) {
    for (const c of e.classList) kinds.add(c);
    if (e.matches("details[open]")) kinds.add("open:" + (e.id || e.className));
  }
  return Array.from(kinds);
}"""


@dataclass
class NewStates(Audit):
    """An Audit that checks a page only when it shows a kind of state not checked yet (above):
    a long game then costs one check per kind of state, not one per tap."""

    seen: set[str] = field(default_factory=set)

    def check_if_new(self, page: Page, state: str) -> bool:
        kinds = set(page.evaluate(SIGNATURE))
        if kinds <= self.seen:
            return False
        self.seen |= kinds
        self.check(page, state)
        return True
