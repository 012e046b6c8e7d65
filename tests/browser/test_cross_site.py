"""Another site's form cannot act on a game, nor empty the device's list of games (the
cross-site refusal, app/web/middleware/cross_site.py), in real Chromium.

Before: a page on another origin auto-submitted a form to `/g/<its own game>/duplicate`; the
browser sent it (without the device's SameSite=Lax cookie), the copy was made, and the answer's
cookie replaced the device's list of games with the copy alone."""

from __future__ import annotations

import httpx

EVIL = "http://evil.test/"


def new_game(url: str, name: str) -> dict:
    return httpx.post(url + "/api/games", json={"name": name}, timeout=30).json()


def listed(page, url: str) -> list[str]:
    page.goto(url + "/")
    return page.locator(".game-list li").all_inner_texts()


def test_another_sites_form_is_refused_and_the_devices_games_stay(browser, live_server):
    mine = [new_game(live_server.url, f"Mine {n}") for n in range(2)]
    theirs = new_game(live_server.url, "Bait")
    context = browser.new_context()
    page = context.new_page()
    for game in mine:
        page.goto(f"{live_server.url}/g/{game['edit_token']}")
    before = listed(page, live_server.url)
    assert len(before) == 2

    form = (f'<form id="f" method="post" action="{live_server.url}/g/{theirs["edit_token"]}/duplicate">'
            '<input name="back" value="home"></form><script>document.getElementById("f").submit()</script>')
    page.route(EVIL, lambda route: route.fulfill(status=200, content_type="text/html", body=form))
    with page.expect_response(lambda r: r.url.endswith("/duplicate")) as answer:
        page.goto(EVIL)
    assert answer.value.status == 403
    page.wait_for_load_state()
    assert "another site" in page.locator("body").inner_text()

    assert listed(page, live_server.url) == before  # the device's games are all still listed
    context.close()
