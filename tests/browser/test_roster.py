"""The roster editor end to end: real server, real headless Chromium, htmx doing the swaps."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.support import http
from tests.support.layout import layout_problems

DOCS_SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "game-768x1024.png"

CHARACTERS = [
    {"Name": "Ada <b>Vance</b>", "Points": "45", "Melee": "3 red + 1 white", "Defense": "2 white",
     "mission": ("Hacking", "2 red"), "flag": "DIAGNOSTICS"},
    {"Name": "Brick", "Points": "50", "Melee": "4 red", "Defense": "3 white", "mission": None, "flag": None},
]

BOTS = [
    {"Name": "Warden-2", "role": "Hunter", "Points": "60", "Melee": "3 red", "assignment": {}},
    {"Name": "Gatekeeper", "role": "Sentry", "Points": "55", "Melee": "2 red",
     "assignment": {"Subject it guards": "Vault door"}},
    {"Name": "Toolbot", "role": "Worker", "Points": "30", "Melee": "1 red",
     "assignment": {"Object it works on": "Console"}},
    {"Name": "Strider", "role": "Patrol", "Points": "40", "Melee": "2 red",
     "assignment": {"Waypoints, in order": "North gate\nFountain\nDepot"}, "mode": "Route (there and back)"},
]


def add_character(page: Page, c: dict) -> None:
    page.locator("#add-character > summary").click()
    form = page.locator("#form-character-new")
    for label in ("Name", "Points", "Melee", "Defense"):  # pools typed as text (the chips are for tapping)
        pool = label in ("Melee", "Defense")
        form.get_by_label(label + (" as text" if pool else ""), exact=not pool).fill(c[label])
    if c["mission"]:
        form.get_by_label("Mission stat 1 name").fill(c["mission"][0])
        form.get_by_label("Mission stat 1 dice").fill(c["mission"][1])
    if c["flag"]:
        form.get_by_label(c["flag"]).check()
    form.get_by_role("button", name="Add Character").click()
    expect(page.locator("#panel-roster li[data-model=character]").filter(has_text=c["Name"])).to_have_count(1)


def add_bot(page: Page, b: dict) -> None:
    page.locator("#add-bot > summary").click()
    form = page.locator("#form-bot-new")
    form.locator("label.seg", has_text=b["role"]).click()
    for label in ("Name", "Points", "Melee"):
        form.get_by_label(label + (" as text" if label == "Melee" else ""), exact=label != "Melee").fill(b[label])
    for label, value in b["assignment"].items():
        form.get_by_label(label, exact=True).fill(value)  # visible only once the role is chosen
    if "mode" in b:
        form.locator("label.seg", has_text=b["mode"]).click()
    form.get_by_role("button", name="Add AI-Bot").click()
    expect(page.locator("#panel-roster li[data-model=bot]").filter(has_text=b["Name"])).to_have_count(1)


def assert_full_roster(page: Page) -> None:
    roster = page.locator("#panel-roster")
    for c in CHARACTERS:
        expect(roster.locator("li[data-model=character]").filter(has_text=c["Name"])).to_have_count(1)
    for b in BOTS:
        expect(roster.locator("li[data-model=bot]").filter(has_text=b["Name"])).to_have_count(1)
    expect(roster.locator("li[data-model=bot]", has_text="Gatekeeper")).to_contain_text("Guards Vault door")
    expect(roster.locator("li[data-model=bot]", has_text="Toolbot")).to_contain_text("Works on Console")
    patrol = roster.locator("li[data-model=bot]", has_text="Strider")
    expect(patrol).to_contain_text("Waypoints as a Route")
    expect(patrol.locator("ol.waypoints li")).to_have_text(["North gate", "Fountain", "Depot"])
    expect(roster.locator("li[data-model=character]", has_text="Ada")).to_contain_text(re.compile(r"Hacking\W*2 red"))


def test_a_full_roster_is_built_in_chromium_survives_a_reload_and_the_watch_link_shows_it_read_only(
        browser, live_server, artifacts):
    context = browser.new_context(viewport={"width": 768, "height": 1024})
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.get_by_label("Name").fill("Roster night")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/g/**")
    edit_token = page.url.rsplit("/g/", 1)[1].split("#")[0]

    for c in CHARACTERS:
        add_character(page, c)
    for b in BOTS:
        add_bot(page, b)
    expect(page.locator("#panel-log")).to_contain_text("Strider (Patrol) joins the game")  # out-of-band swap

    page.reload()
    assert_full_roster(page)
    assert page.locator("#panel-roster b").count() == 0  # the name's <b> is text, not markup
    assert layout_problems(page) == []
    page.evaluate("window.scrollTo(0, 0)")  # a reload keeps the scroll position
    page.screenshot(path=str(artifacts / "game-768x1024.png"))
    page.screenshot(path=str(artifacts / "game-768x1024-full.png"), full_page=True)
    if os.environ.get("UPDATE_SCREENSHOTS") or not DOCS_SCREENSHOT.exists():
        DOCS_SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(artifacts / "game-768x1024.png", DOCS_SCREENSHOT)

    page.set_viewport_size({"width": 1024, "height": 768})  # the tablet turned to landscape
    assert layout_problems(page) == []

    view_url = http.get(f"{live_server.url}/api/games/{edit_token}").json()["view_url"]
    watcher = browser.new_context(viewport={"width": 768, "height": 1024})
    watch = watcher.new_page()
    watch.goto(live_server.url + view_url)
    assert_full_roster(watch)
    roster = watch.locator("#panel-roster")
    assert roster.locator("form, input, button, textarea, details").count() == 0
    assert roster.get_by_role("link", name=re.compile("Edit")).count() == 0
    assert layout_problems(watch) == []
    watch.screenshot(path=str(artifacts / "watch-768x1024.png"))
    watcher.close()
    context.close()


def test_a_bad_pool_shows_its_message_next_to_the_field_and_editing_fixes_it(browser, live_server, artifacts):
    context = browser.new_context(viewport={"width": 768, "height": 1024})
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.get_by_label("Name").fill("Typos")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/g/**")
    page.locator("#add-bot > summary").click()
    form = page.locator("#form-bot-new")
    form.get_by_label("Name", exact=True).fill("Warden-2")
    form.get_by_label("Melee as text").fill("3 purple")
    form.get_by_role("button", name="Add AI-Bot").click()
    melee = page.locator("#form-bot-new").get_by_label("Melee as text")
    expect(melee).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#bot-new-melee-error")).to_contain_text("purple")
    expect(page.locator("#form-bot-new").get_by_label("Name", exact=True)).to_have_value("Warden-2")
    page.locator("#form-bot-new").screenshot(path=str(artifacts / "bot-form-error.png"))
    melee.fill("3 red")
    page.locator("#form-bot-new").get_by_role("button", name="Add AI-Bot").click()
    bot = page.locator("#panel-roster li[data-model=bot]", has_text="Warden-2")
    expect(bot).to_contain_text(re.compile(r"Melee\W*3 red"))

    item = page.locator("#" + bot.get_attribute("id"))  # while editing, the name is in an input
    item.get_by_role("link", name="Edit Warden-2").click()
    edit = item.locator("form")
    edit.get_by_label("Health now", exact=True).fill("1")
    edit.get_by_role("button", name="Save").click()
    expect(page.locator("#panel-roster li[data-model=bot]", has_text="Warden-2")).to_contain_text("Health 1/3")
    context.close()


def test_a_starting_sheet_tapped_on_a_closed_fold_shows_that_sheet_not_the_blank_form(browser, live_server):
    """Issue 21: the folded Add forms are fetched as the fold opens; "+ Sentry" opens the fold too,
    and the player sees the Sentry's sheet, not the blank form the fold asks for."""
    page = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
    page.goto(live_server.url + "/")
    page.get_by_label("Name").fill("Folded")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/g/**")
    page.locator("#panel-roster a[data-role]", has_text="Sentry").click()
    form = page.locator("#form-bot-new")
    expect(form.get_by_label("Name", exact=True)).to_have_value("Sentry-1")
    page.wait_for_timeout(500)  # a late blank form would have replaced it by now
    expect(page.locator("#form-bot-new")).to_have_count(1)
    expect(form.get_by_label("Name", exact=True)).to_have_value("Sentry-1")
    page.locator("#add-character > summary").click()  # a fold opened by hand: the blank form
    expect(page.locator("#form-character-new").get_by_label("Name", exact=True)).to_have_value("")
    page.context.close()
