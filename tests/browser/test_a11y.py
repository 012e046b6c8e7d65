"""WCAG 2.2 AA on every page the app serves, checked by axe-core (the pinned copy vendored under
tests/browser/vendor, tests/support/axe.py) in real Chromium: each page and state below, in the
light and the dark theme, at 768×1024 and 390×844, with no violation of the tags wcag2a, wcag2aa,
wcag21a, wcag21aa, wcag22aa and best-practice. The counts go into test-artifacts/a11y.json.

The game pages' turn states are checked where the games are played: the six table turns
(tests/browser/test_table_turns.py) and the zone and d20 games (test_zone_game.py,
test_d20_game.py) check every new kind of state they pass through. This file takes what they do
not reach: home, rules, admin, import, error pages, house rules, roster forms, a game before its
roster, each ruleset's sample game with its folds closed and open, watch pages, and forms showing
their errors. Swagger's /docs is third-party and left out (docs/accessibility.md)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.support import http
from tests.support.axe import A11Y_JSON, Audit
from tests.support.server import LiveServer
from tests.support.waits import settled

ADMIN = "a11y-admin-token-0123456789"
RULESETS = ("potham-2038", "zone", "d20")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server of its own: the admin page needs to know the admin token."""
    served = LiveServer(tmp_path_factory.mktemp("a11y") / "a11y.db", env={"ADMIN_TOKEN": ADMIN}).start()
    yield served
    served.stop()


def open_every_fold(page: Page) -> None:
    """Open every closed fold, as a player opening each would (a lazy fold fetches its form on
    its first opening: wait until each has come in)."""
    page.evaluate("() => document.querySelectorAll('details:not([open])').forEach(d => { d.open = true; })")
    page.wait_for_function("() => !document.querySelector('.lazy-form, .htmx-request')", timeout=10_000)
    settled(page)


def sample(page: Page, url: str, ruleset: str) -> tuple[str, str]:
    """A sample game started from the home page's button (play and watch links)."""
    page.goto(url + "/")
    button = "#start-sample" if ruleset == "potham-2038" else f"#start-sample-{ruleset}"
    page.locator(button).click()
    page.wait_for_url("**/g/*")
    watch = page.locator("#share-watch-url").input_value().removeprefix(url)
    return page.url.removeprefix(url), watch


def test_every_page_and_form_error_has_no_axe_violation(browser, server, artifacts):
    audit = Audit()
    page = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
    url = server.url

    page.goto(url + "/")
    audit.check(page, "home, first visit")
    page.locator("#new-seed").fill("many")  # not a number: refused, the message by the field
    page.locator("#new-game button[type=submit]").first.click()
    expect(page.locator("#new-seed-error")).to_be_visible()
    audit.check(page, "home, New game refused")

    games = {r: sample(page, url, r) for r in RULESETS}
    page.goto(url + "/")
    audit.check(page, "home, saved games")
    page.locator("#open-link").fill("not a link")
    page.locator("form.open-link button").click()
    expect(page.locator("#open-link-error")).to_be_visible()
    audit.check(page, "home, open link refused")
    page.locator("#import-file").set_input_files({"name": "bad.json", "mimeType": "application/json", "buffer": b"{"})
    page.locator("#exchange button[type=submit]").click()
    expect(page.locator("#import-error")).to_be_visible()
    audit.check(page, "home, import refused")
    row = page.locator("li.game-row").first
    row.get_by_text("Rename", exact=True).click()
    row.get_by_label("New name").fill("")
    row.get_by_role("button", name="Save name").click()
    expect(row.get_by_label("New name")).to_have_attribute("aria-invalid", "true")
    audit.check(page, "home, rename refused")

    for path in ("/rules", "/rules/zone", "/rules/d20", f"/admin/{ADMIN}", "/g/no-such-game",
                 f"{games['potham-2038'][0]}/delete", f"{games['potham-2038'][0]}/house"):
        page.goto(url + path)
        audit.check(page, path.replace(ADMIN, "ADMIN").replace(games["potham-2038"][0], "/g/TOKEN"))

    page.goto(url + f"{games['potham-2038'][0]}/house")
    page.locator("#house-rules input[inputmode=numeric]").first.fill("many")
    page.locator("#house-rules button[type=submit]").first.click()
    expect(page.locator("#house-rules .field-error, #house-rules .form-error").first).to_be_visible()
    audit.check(page, "house rules refused")

    token = http.post(f"{url}/api/games", json={"name": "Empty table"}).json()["edit_token"]
    page.goto(f"{url}/g/{token}")
    audit.check(page, "2038 game before its roster")
    open_every_fold(page)
    audit.check(page, "2038 game before its roster, folds open")

    for ruleset, (play, watch) in games.items():
        page.goto(url + play)
        audit.check(page, f"{ruleset} play, folds closed")
        open_every_fold(page)
        audit.check(page, f"{ruleset} play, folds open")
        page.goto(url + watch)
        audit.check(page, f"{ruleset} watch")
        open_every_fold(page)
        audit.check(page, f"{ruleset} watch, folds open")
        page.goto(url + play + "/report")  # the battle report, as its reader opens it
        audit.check(page, f"{ruleset} battle report")

    page.goto(url + games["potham-2038"][0])
    page.locator("#section-hack > summary").click()
    page.locator("#form-hack button[type=submit]").click()  # no stat named: refused, the message by the field
    expect(page.locator("#form-hack .field-error, #form-hack .form-error").first).to_be_visible()
    audit.check(page, "2038 Phase 1, hack refused")

    audit.write(A11Y_JSON, "pages")
    assert not audit.failures(), "axe found:\n" + "\n".join(audit.failures())
