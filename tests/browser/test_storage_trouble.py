"""A tap the server cannot store says so where the tap was, and "Live" turns to its warning state
(static/live.js showTrouble), in real Chromium: the SQLite file is deleted under the running
server, then the player taps "Duplicate Ada".

Before: the tap answered 200 into the deleted file (a full disk or a PostgreSQL server gone
answered a bare 500 and the page showed nothing at all), and "Live" stayed green."""

from __future__ import annotations

from tests.support import http
from tests.support.server import LiveServer


def test_a_tap_that_cannot_be_stored_says_why_where_it_was_and_live_turns_to_warning(browser, tmp_path):
    server = LiveServer(tmp_path / "lost.db").start()
    try:
        game = http.post(server.url + "/api/games", json={"name": "Lost"}, timeout=30).json()
        added = http.post(f"{server.url}/api/games/{game['edit_token']}/commands", timeout=30,
                          json={"type": "add_character", "character": {"name": "Ada"}})
        assert added.status_code == 200
        page = browser.new_context().new_page()
        page.goto(server.url + game["edit_url"])
        page.wait_for_selector('#live-status[data-state="live"]')
        for suffix in ("", "-wal", "-shm"):
            (tmp_path / f"lost.db{suffix}").unlink(missing_ok=True)
        page.get_by_role("button", name="Duplicate Ada", exact=True).first.click()
        alert = page.locator('[data-panel="roster"] [role="alert"]')
        alert.wait_for()
        assert "deleted or replaced" in alert.inner_text()
        page.wait_for_selector('#live-status[data-state="trouble"]')
        assert page.locator("#live-status").inner_text() == "Not saved"
        assert page.locator("[data-panel=roster] .item-name").count() == 1  # nothing was added
    finally:
        server.stop()
