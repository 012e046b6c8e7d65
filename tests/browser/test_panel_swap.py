"""The panel's own swap (static/swap.js) in real Chromium: a tap's answer replaces the whole turn
panel without htmx's cleanup of each old element, and the new panel is htmx's as before: its
buttons work, `htmx:afterSettle` reaches the page's helpers (the step's result comes into view),
the roster follows the step from the live push. (The focus after a swap: test_turn_polish.py,
test_two_turns.py.)"""

from __future__ import annotations

from playwright.sync_api import expect

from app.rulesets.potham2038.ruleset import SAMPLE
from tests.support import http
from tests.support.waits import shows_step

# In the page: htmx's cleanup events, the elements of the turn panel before the tap, and the
# targets of the settles that followed (table.js and turn.js listen for them).
WATCH = """() => {
  window.seen = {cleanups: 0, settled: [], before: document.querySelectorAll('#panel-turn *').length};
  document.addEventListener('htmx:beforeCleanupElement', () => { window.seen.cleanups += 1; });
  document.addEventListener('htmx:afterSettle', (e) => {
    window.seen.settled.push(e.detail.requestConfig ? e.detail.target.id : 'push');
  });
}"""


def sample_game(url: str) -> str:
    token = http.post(f"{url}/api/games", json={"name": "Swaps", "seed": 2038}).json()["edit_token"]
    for command in SAMPLE:
        http.post(f"{url}/api/games/{token}/commands", json=command).raise_for_status()
    return token


def seq(page) -> int:
    return int(page.locator("#panel-turn").get_attribute("data-seq"))


def test_a_tap_replaces_the_turn_panel_without_cleaning_each_element_and_the_new_panel_works(
        browser, live_server):
    page = browser.new_page(viewport={"width": 768, "height": 1024})
    token = sample_game(live_server.url)
    page.goto(f"{live_server.url}/g/{token}")
    expect(page.locator("#phase-1")).to_be_visible()
    page.evaluate(WATCH)
    old = page.locator("#panel-turn").element_handle()
    step = seq(page)
    page.get_by_role("button", name="Sentry-1 entered Vex's zone").click()
    shows_step(page, step + 1)
    # htmx settles 20 ms after the swap: table.js's turn (the result into view) comes then
    page.wait_for_function("() => window.seen.settled.includes('panel-turn')", timeout=5000)
    seen = page.evaluate("window.seen")
    assert seen["before"] > 300  # a panel worth the swap
    assert seen["cleanups"] < seen["before"] / 4  # the status and log out of band, not the turn panel
    assert not old.evaluate("e => e.isConnected")  # replaced, not filled
    assert page.locator("#panel-turn").count() == 1 and page.locator("#panel-turn #panel-turn").count() == 0
    shows_step(page, step + 1, "#panel-roster")  # the roster, from the push

    # the new panel is htmx's: its buttons send, and their answer is swapped in the same way
    page.get_by_role("button", name="Noise by Rook inside Worker-1's zone").click()
    shows_step(page, step + 2)
    shows_step(page, step + 2, "#panel-status")
    expect(page.locator("#live-status")).to_have_attribute("data-state", "live")
    page.close()

