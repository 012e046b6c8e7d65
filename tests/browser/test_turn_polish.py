"""In real Chromium: the log's "Show older steps" appends without a reload and any old step can be
gone back to; Phase 2 lets the player pick any AI-Bot still to go (R-ACT-ORDER); a rename reaches
a watcher's title live; a deleted game tells its open pages and they stop reconnecting; the
first-run buttons open the roster form."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from app.web.panels import LOG_LENGTH
from tests.browser.test_two_turns import BOTS, CHARACTERS
from tests.support import http
from tests.support.layout import layout_problems


def new_game(url: str, name: str = "Polish", roster: bool = True) -> dict:
    game = http.post(url + "/api/games", json={"name": name, "seed": 5}, timeout=10).json()
    if roster:
        for c in CHARACTERS:
            command(url, game, {"type": "add_character", "character": c})
        for b in BOTS:
            command(url, game, {"type": "add_bot", "bot": b})
    return game


def command(url: str, game: dict, body: dict) -> None:
    http.post(f"{url}/api/games/{game['edit_token']}/commands", json=body, timeout=10).raise_for_status()


def open_page(browser, url: str, path: str, width: int = 768, height: int = 1024, clock: bool = False):
    """`clock`: the page's timers run on Playwright's clock (time flows as usual), which the test
    may move on."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    if clock:
        page.clock.install()
    page.goto(url + path)
    page.wait_for_selector('#live-status[data-state="live"]')
    page.evaluate("window.notReloaded = true")
    return page


def test_show_older_appends_every_page_without_reload_and_an_old_step_can_be_gone_back_to(browser, live_server):
    url = live_server.url
    game = new_game(url, roster=False)
    command(url, game, {"type": "add_character", "character": {"name": "Ada"}})
    for _ in range(2 * LOG_LENGTH):
        command(url, game, {"type": "set_activation_order", "bot_ids": []})
    last = 2 * LOG_LENGTH + 1
    page = open_page(browser, url, game["edit_url"])
    log = page.locator("#panel-log")
    expect(log.locator(".log-step")).to_have_count(LOG_LENGTH)
    for shown in (2 * LOG_LENGTH, last + 1):
        log.get_by_role("link", name="Show older steps: the steps before").click()
        expect(log.locator(".log-step")).to_have_count(shown)
    expect(log.locator(".log-more")).to_have_count(0)
    step_1 = page.locator("#step-1")
    expect(step_1.locator(".log-label")).to_have_text("Character added")
    step_1.get_by_role("button", name="Go back here: the game as it was after step 1").click()
    expect(log).to_have_attribute("data-seq", str(last + 1))
    expect(page.locator("#step-1")).to_be_visible()  # the log stays open down to the step gone back to
    assert page.evaluate("window.notReloaded") is True
    assert layout_problems(page) == []
    page.context.close()


def test_R_ACT_ORDER_the_player_picks_a_later_bot_by_keyboard_and_activates_it(browser, live_server):
    url = live_server.url
    game = new_game(url)
    command(url, game, {"type": "next_phase"})
    page = open_page(browser, url, game["edit_url"])
    expect(page.locator("#activate-heading")).to_contain_text("Activate Hunter-1")
    picks = page.locator("#pick-bot .pick-list a")
    expect(picks).to_have_text([f"{b['name']} {b['role'].title()}" for b in BOTS])
    picks.first.focus()
    for _ in range(2):
        page.keyboard.press("Tab")
    expect(picks.nth(2)).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#activate-heading")).to_contain_text("Activate Worker-1")
    expect(page.locator("#pick-bot .pick-list a[aria-current=true]")).to_have_text("Worker-1 Worker")
    # issue 9: picking a bot brings its first question into view with focus (it was the pick before)
    page.wait_for_function("() => document.activeElement && document.activeElement.closest('#form-ask')")
    expect(page.locator("#ask-nobody")).to_be_focused()
    page.keyboard.press("Enter")  # nobody inside its zone: a tap (here a key) per fact
    expect(page.locator("#ask-question")).to_contain_text("How far is")
    expect(page.locator("#form-ask button").first).to_be_focused()  # the next question keeps the keyboard
    page.locator("#form-ask").get_by_role("button", name=re.compile("^Within a Walk")).click()
    expect(page.locator(".decision-card", has_text="Worker-1")).to_be_visible()
    expect(page.locator("#activate-heading")).to_contain_text("Activate Hunter-1")
    expect(page.locator("#pick-bot .pick-list a")).to_have_count(3)
    assert page.evaluate("window.notReloaded") is True
    assert layout_problems(page) == []
    page.context.close()


def test_a_rename_reaches_the_watchers_title_and_a_deletion_ends_both_pages(browser, live_server):
    url = live_server.url
    game = new_game(url, "Old name", roster=False)
    player = open_page(browser, url, game["edit_url"], 1024, 768)
    watcher = open_page(browser, url, game["view_url"], clock=True)
    player.locator("#game-title summary").click()
    player.locator("#rename-name").fill("Dawn raid")
    player.get_by_role("button", name="Save name").click()
    expect(watcher.locator("#game-title h1")).to_have_text("Dawn raid")
    expect(watcher).to_have_title("Dawn raid · Potham 2038")
    player.goto(url + f"/g/{game['edit_token']}/delete")
    player.get_by_role("button", name="Delete").click()
    expect(watcher.locator("#live-status")).to_have_attribute("data-state", "deleted")
    expect(watcher.locator("#live-notice")).to_contain_text("This game was deleted")
    for _ in range(2):  # past the first two reconnect attempts' back-off (0.5 s, 1 s) in the page's time,
        watcher.clock.fast_forward(1500)  # each then given real time to reach the server
        watcher.wait_for_timeout(200)
    expect(watcher.locator("#live-status")).to_have_attribute("data-state", "deleted")  # no reconnecting
    assert watcher.evaluate("window.notReloaded") is True
    player.context.close()
    watcher.context.close()


def test_the_first_run_button_opens_the_add_a_character_form(browser, live_server):
    url = live_server.url
    game = new_game(url, "Fresh", roster=False)
    page = open_page(browser, url, game["edit_url"])
    expect(page.locator("#first-run")).to_contain_text("Start here")
    page.locator("#first-run").get_by_role("link", name="+ Add a Character").click()
    expect(page.locator("#add-character")).to_have_attribute("open", "")
    expect(page.locator("#add-character input:not([type=hidden])").first).to_be_focused()
    page.context.close()
