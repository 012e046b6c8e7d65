"""Issue 22 in real Chromium on a 768×1024 tablet: the share panel of a server bound to all
interfaces and of one bound to 127.0.0.1, both opened at 127.0.0.1, as the player sees them.
The screenshots in docs/screenshots change only when asked (UPDATE_SCREENSHOTS=1) or when missing."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.web import netif
from tests.support import http
from tests.support.layout import layout_problems
from tests.support.server import LiveServer

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def snap(panel, artifacts: Path, name: str) -> None:
    shot = artifacts / name
    panel.screenshot(path=str(shot))
    target = DOCS / name
    if os.environ.get("UPDATE_SCREENSHOTS") or not target.exists():
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, target)


@pytest.mark.parametrize("bind", ["0.0.0.0", "127.0.0.1"])
def test_the_share_panel_shows_where_other_devices_open_the_game(browser, tmp_path, artifacts, bind):
    server = LiveServer(tmp_path / "share.db", host=bind).start()
    try:
        game = http.post(server.url + "/api/games", json={"name": "Table by the window"}, timeout=30).json()
        page = browser.new_page(viewport={"width": 768, "height": 1024})
        page.goto(server.url + game["edit_url"])
        panel = page.locator("#panel-share")
        panel.scroll_into_view_if_needed()
        panel.locator("[data-link=watch] details.share-qr > summary").click()  # the QR a co-player scans
        page.wait_for_function("() => document.querySelector('[data-link=watch] img.qr').naturalWidth > 0")
        address = netif.this_machine(bind) if bind == "0.0.0.0" else None
        watch = page.locator("#share-watch-url")
        if address:
            expect(panel).to_have_attribute("data-reachable", "network")
            expect(watch).to_have_value(f"http://{address}:{server.port}/v/{game['view_token']}")
            expect(panel.locator("#share-local-only")).to_have_count(0)
            name = "share-network-768x1024.png"
        else:
            expect(panel).to_have_attribute("data-reachable", "local-only")
            expect(watch).to_have_value(f"{server.url}/v/{game['view_token']}")
            expect(panel.locator("#share-local-only")).to_be_visible()
            expect(panel.locator("[data-link=watch] .share-qr-local")).to_be_visible()  # beside the QR code
            name = "share-local-only-768x1024.png"
        assert layout_problems(page) == []
        snap(panel, artifacts, name)
        page.close()
    finally:
        server.stop()
