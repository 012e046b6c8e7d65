"""Waiting for a panel in browser tests, checked in the page at every frame.

Playwright's `expect` checks once, then again after 0, 20, 50, 100, 100 ms and every 500 ms
from there (its backoff): a panel that came back 300 ms after a tap was seen only about 770 ms
after it. `shows_step` waits in the page instead, on every animation frame, for the same
condition the assertion checks; only when the step does not come in time is the assertion
itself made, so a failure reads as it always did, with what the panel shows. `settled` waits the
same way for htmx to have swapped a tap's answer in, before the assertions on it."""

from __future__ import annotations

from playwright.sync_api import Error, Page, expect

SHOWS = """([selector, step]) => {
  const panel = document.querySelector(selector);
  return !!panel && panel.getAttribute("data-seq") === step;
}"""
TIMEOUT_MS = 5000  # expect's own default


def shows_step(page: Page, step: int, selector: str = "#panel-turn") -> None:
    """Wait until the panel at `selector` shows step `step` (its data-seq); fail if it does not."""
    try:
        page.wait_for_function(SHOWS, arg=[selector, str(step)], polling="raf", timeout=TIMEOUT_MS)
    except Error:  # timed out (or the page went away): the assertion says what the panel shows
        expect(page.locator(selector)).to_have_attribute("data-seq", str(step), timeout=1000)


SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def settled(page: Page) -> None:
    """Wait, on every animation frame, until no htmx request or swap is in flight: after a tap
    whose answer htmx swaps in, the assertions that follow then find it on their first check
    instead of at `expect`'s next back-off step. It asserts nothing itself; a request that has not
    started yet (a delayed trigger) is simply not waited for, and `expect` waits as before."""
    page.wait_for_function(SETTLED, polling="raf", timeout=TIMEOUT_MS)
