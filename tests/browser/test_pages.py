"""Saved games in real Chromium: rename in place from the list, delete after confirming."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support import http
from tests.support.layout import layout_problems


def test_saved_games_are_renamed_in_place_and_deleted_after_confirming(browser, live_server, artifacts):
    context = browser.new_context(viewport={"width": 768, "height": 1024})
    page = context.new_page()
    for name in ("Night shift", "Day shift"):
        r = http.post(f"{live_server.url}/api/games", json={"name": name})
        r.raise_for_status()
        page.goto(live_server.url + r.json()["edit_url"])  # opened on this device: its home lists it
    page.goto(live_server.url + "/")
    assert layout_problems(page) == []
    row = page.locator("li.game-row", has_text="Night shift")
    row_id = row.get_attribute("id")
    row.get_by_text("Rename", exact=True).click()
    field = page.locator(f"#{row_id}").get_by_label("New name")
    field.fill("")
    page.locator(f"#{row_id}").get_by_role("button", name="Save name").click()
    expect(page.locator(f"#{row_id}").get_by_label("New name")).to_have_attribute("aria-invalid", "true")
    page.locator(f"#{row_id}").get_by_label("New name").fill("Graveyard shift")
    page.locator(f"#{row_id}").get_by_role("button", name="Save name").click()
    expect(page.locator(f"#{row_id} .game-name")).to_have_text("Graveyard shift")
    page.screenshot(path=str(artifacts / "home-768x1024.png"))

    page.locator(f"#{row_id}").get_by_role("link", name="Delete Graveyard shift").click()
    page.get_by_role("button", name="Yes, delete it").click()
    page.wait_for_url(live_server.url + "/")
    expect(page.locator("li.game-row")).to_have_count(1)
    expect(page.locator("li.game-row")).to_contain_text("Day shift")
    context.close()
