"""A player with a keyboard only: Tab and Shift+Tab to reach a control, Enter or Space to work it,
and after each step the checks WCAG asks of the focus and of what a screen reader is told:

- the focus is never lost to the page's top (document.body) and is always visible (a focus ring
  of 2 px or more on the focused element, or on the chip a hidden radio draws);
- the step's polite live region (#turn-announcer) says one concise sentence about it.

No mouse, no element.focus(), no fill(): only key presses reach the page."""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

FOCUSED = """() => {
  const e = document.activeElement;
  if (!e || e === document.body || e === document.documentElement) return null;
  const ring = e.matches(".seg input, .chip-n input") && e.nextElementSibling ? e.nextElementSibling : e;
  const style = getComputedStyle(ring);
  const box = e.getBoundingClientRect();
  const shown = box.width > 0 && box.height > 0 || ring !== e;
  return {id: e.id, tag: e.tagName.toLowerCase(),
          name: (e.getAttribute("aria-label") || e.innerText || e.value || "").trim().slice(0, 80),
          ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2, shown: shown};
}"""
AT = "(selector) => { const e = document.activeElement; return !!e && e.matches(selector); }"
BEFORE = """(selector) => {
  const target = document.querySelector(selector), e = document.activeElement;
  if (!target || !e || e === document.body) return false;
  return !!(e.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_PRECEDING);
}"""
SEQ = "() => Number((document.getElementById('panel-turn') || {dataset: {}}).dataset.seq || -1)"
ASKED = """() => { const f = document.querySelector('#form-ask input[name=told]');
  const p = document.getElementById('panel-turn');
  return (p ? p.dataset.seq : '') + '|' + (f ? f.value : '') + '|' + !!document.querySelector('#panel-turn .form-error'); }"""
SETTLED = ("() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
           " && !!document.getElementById('panel-turn')")


@dataclass
class Keyboard:
    page: Page
    presses: int = 0
    said: list[str] = field(default_factory=list)  # the live region after each step
    path: list[dict] = field(default_factory=list)  # every element the focus stopped on

    def focused(self) -> dict | None:
        return self.page.evaluate(FOCUSED)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.presses += 1

    def tab_to(self, selector: str, limit: int = 400) -> dict:
        """Tab (or Shift+Tab, when the control is above the focus) until `selector` has the focus;
        every stop on the way must show its focus."""
        self.page.wait_for_selector(selector, state="visible")
        if self.page.evaluate(AT, selector):
            return self.focused()
        key = "Shift+Tab" if self.page.evaluate(BEFORE, selector) else "Tab"
        for _ in range(limit):
            self.press(key)
            now = self.focused()
            assert now is not None, f"{key} lost the focus on the way to {selector}"
            assert now["ring"], f"no visible focus on {now}"
            self.path.append(now)
            if self.page.evaluate(AT, selector):
                return now
        raise AssertionError(f"{selector} not reached in {limit} presses of {key}")

    def step(self, selector: str, key: str = "Enter", steps: int = 1) -> str:
        """Reach `selector`, work it with `key`, wait for `steps` new steps; answers what the live
        region says then. The focus must stay on the page (the result, or the control that goes on)."""
        before = self.page.evaluate(SEQ)
        self.tab_to(selector)
        self.press(key)
        try:
            self.page.wait_for_function(f"() => ({SEQ})() >= {before + steps}", timeout=15_000)
        except PlaywrightError as error:
            shown = self.page.locator("#panel-turn .form-error, #panel-turn .field-error").all_inner_texts()
            raise AssertionError(f"{selector} by {key}: no step {before + steps} ({self.page.evaluate(SEQ)} shown, "
                                 f"{shown}, focus {self.focused()})") from error
        self.page.wait_for_function(SETTLED, polling="raf", timeout=10_000)
        return self.after_step(selector)

    def after_step(self, what: str) -> str:
        now = self.focused()
        assert now is not None, f"the focus went to the page's top after {what}"
        assert now["ring"], f"no visible focus after {what}: {now}"
        said = self.page.locator("#turn-announcer").inner_text().strip()
        self.said.append(said)
        return said

    def answer(self, selector: str, key: str = "Enter") -> None:
        """A Phase 2 answer: the next question comes (no step), or the activation (a step)."""
        asked = self.page.evaluate(ASKED)
        self.tab_to(selector)
        self.press(key)
        self.page.wait_for_function(f"(asked) => ({ASKED})() !== asked", arg=asked, timeout=15_000)
        self.page.wait_for_function(SETTLED, polling="raf", timeout=10_000)

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.presses += len(text)
