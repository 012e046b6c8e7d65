"""What a player at the table sees after each tap, as a browser test plays: how long a tap takes to
show its updated turn panel, whether the step's result is on screen, and whether the control the
script taps next was already on screen before anything scrolled to it.

- The time: from the tap (a click listener that runs before htmx's) to the end of the first frame
  that shows the new turn panel (the panel's element replaced, then an animation frame, then a task
  after it, so its style, layout and paint are counted). Measured in the page (`performance.now`).
- On screen: inside the viewport and clear of the sticky top bar and the fixed Undo bar, checked
  once no htmx request or swap is in flight (the page's own scroll after a step has run), before
  Playwright's click scrolls anything.

Records only; the tests assert the game's state, never a time (bench/ and the figures in
test-artifacts/table-speed.json are where times go)."""

from __future__ import annotations

import statistics

from playwright.sync_api import Locator, Page

# Runs before every document of the page (add_init_script): the tap's time and its panel's frame.
INIT = """(() => {
  window.__tap = {at: null, swap: null, painted: null};
  document.addEventListener("click", () => {
    window.__tap = {at: performance.now(), swap: null, painted: null};
  }, true);
  let shown = null;
  new MutationObserver(() => {
    const panel = document.getElementById("panel-turn");
    if (!panel || panel === shown) return;
    shown = panel;
    const tap = window.__tap;
    if (tap.at === null || tap.swap !== null) return;
    tap.swap = performance.now();
    requestAnimationFrame(() => {
      const after = new MessageChannel();
      after.port1.onmessage = () => { tap.painted = performance.now(); };
      after.port2.postMessage(0);
    });
  }).observe(document, {childList: true, subtree: true});
})();"""

SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"

# The element's box inside what the sticky top bar and the fixed Undo bar leave of the viewport.
IN_VIEW = """el => {
  const target = el.matches("input") && el.closest("label") && el.getBoundingClientRect().width < 4
    ? el.closest("label") : el;  // a chip's radio is a 1px box inside its label: the label is tapped
  const r = target.getBoundingClientRect();
  const bar = document.querySelector(".topbar");
  const top = bar && getComputedStyle(bar).position === "sticky" ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  const undo = document.getElementById("turn-bar");
  const bottom = undo && getComputedStyle(undo).position === "fixed" ? undo.getBoundingClientRect().top : innerHeight;
  return {inView: r.height > 0 && r.top >= top - 1 && r.bottom <= bottom + 1 && r.left >= -1 && r.right <= innerWidth + 1,
          top: Math.round(r.top), bottom: Math.round(r.bottom), clearTop: Math.round(top), clearBottom: Math.round(bottom)};
}"""

# The step's result as the page itself finds it (static/table.js resultOfStep): its first line
# (a result taller than the screen is in view when its start is).
RESULT_IN_VIEW = """() => {
  const inView = """ + IN_VIEW + """;
  const turn = document.getElementById("panel-turn");
  const el = turn && (turn.querySelector("[data-result]") || turn.querySelector("#phase-hint"));
  if (!el) return null;
  return {result: el.id || el.className, ...inView(el.firstElementChild || el)};
}"""


# How long a phase is on screen (not an input: read, or a fold opened and closed by script).
PHASE1 = """() => {
  const box = s => { const e = document.querySelector(s); return e && e.getBoundingClientRect(); };
  const cards = box("#section-characters"), event = box("#section-event-ahead"), phase = box("#phase-1");
  return {cards_to_event_px: cards && event ? Math.round(event.bottom - cards.top) : null,
          phase1_px: phase ? Math.round(phase.height) : null};
}"""
CHROME = """() => {
  const top = document.querySelector(".topbar"), undo = document.getElementById("turn-bar");
  return Math.round((top ? top.getBoundingClientRect().height : 0) + (undo ? undo.getBoundingClientRect().height : 0));
}"""


class TapWatch:
    """Hooks into a Taps counter (before_input) and a page; `step_done()` after each step."""

    def __init__(self, page: Page, taps) -> None:
        self.page = page
        page.add_init_script(INIT)
        taps.before_input = self.before_input
        self.taps = taps
        self.after_tap = False  # the last input was a tap: the next control is checked
        self.views: list[dict] = []  # per input after a tap: what, and whether it was in view
        self.delays: list[float] = []  # ms, tap to the first frame with the new turn panel
        self.swaps: list[float] = []  # ms, tap to the panel's element in the page (before its frame)
        self.results: list[dict] = []  # per step: whether its result is in view
        self.shapes: dict[str, list] = {"phase1": [], "phase3_fold_open_px": [], "sticky_chrome_px": []}

    def settle(self) -> None:
        self.page.wait_for_function(SETTLED, polling="raf", timeout=15000)

    def before_input(self, kind: str, target: Locator) -> None:
        if self.after_tap:
            self.settle()
            where = target.evaluate(IN_VIEW, timeout=5000)
            self.views.append({"part": self.taps.part, "kind": kind, "what": str(target).split(" selector=", 1)[-1][:100],
                               **where})
        self.after_tap = kind == "click"

    def step_done(self) -> None:
        """After a tap whose answer is the turn panel: its time, and whether its result shows."""
        got = self.page.wait_for_function("() => window.__tap.painted !== null && window.__tap",
                                          timeout=5000).json_value()
        self.delays.append(round(got["painted"] - got["at"], 1))
        self.swaps.append(round(got["swap"] - got["at"], 1))
        self.settle()
        found = self.page.evaluate(RESULT_IN_VIEW)
        if found:
            self.results.append({"part": self.taps.part, **found})

    def phase1_shape(self) -> None:
        self.settle()
        self.shapes["phase1"].append(self.page.evaluate(PHASE1))
        self.shapes["sticky_chrome_px"].append(self.page.evaluate(CHROME))

    def fold_open_shape(self) -> None:
        """The turn panel's height in Phase 3 while a "Dice by hand" fold is open (the player
        opened it: tests/support/table_play.py dice_by_hand), its grid in."""
        self.settle()
        if self.page.locator("#phase-3").count():
            self.shapes["phase3_fold_open_px"].append(
                self.page.locator("#panel-turn").evaluate("e => Math.round(e.getBoundingClientRect().height)"))

    def figures(self) -> dict:
        off = [v for v in self.views if not v["inView"]]
        hidden = [r for r in self.results if not r["inView"]]
        return {"tap_to_panel_ms": round(statistics.median(self.delays), 1) if self.delays else None,
                "tap_to_swap_ms": round(statistics.median(self.swaps), 1) if self.swaps else None,
                "taps_timed": len(self.delays), "tap_to_panel_p90_ms": quantile(self.delays, 0.9),
                "next_checked": len(self.views), "next_offscreen": len(off), "next_offscreen_which": off,
                "results_checked": len(self.results), "result_hidden": len(hidden), "result_hidden_which": hidden,
                "phase1_cards_to_event_px": max((p["cards_to_event_px"] or 0 for p in self.shapes["phase1"]), default=None),
                "phase3_fold_open_px": max(self.shapes["phase3_fold_open_px"], default=None),
                "sticky_chrome_px": max(self.shapes["sticky_chrome_px"], default=None), "shapes": self.shapes}


def quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
