"""In real Chromium (issue 18): the controls that save a tap, as static/table.js makes them
behave. Dice by hand is one fold whose opening means "I enter dice" (closing gives the roll back
to the app) and a tapped count chip means so too; a count past the last chip has its field; a
hack's opposing stat follows the Character's stat chip until the player taps one."""

from __future__ import annotations

from playwright.sync_api import expect

from app.rulesets.potham2038.ruleset import SAMPLE
from tests.browser.test_turn_polish import command, new_game, open_page
from tests.support import http


def test_the_dice_fold_the_count_chips_and_the_hacks_opposing_stat_follow_the_player(browser, live_server):
    url = live_server.url
    game = new_game(url, "Dice by hand", roster=False)
    for step in SAMPLE:
        command(url, game, step)
    page = open_page(browser, url, game["edit_url"], 768, 1024)
    state = http.get(f"{url}/api/games/{game['edit_token']}", timeout=10).json()
    ids = {m["name"]: m["id"] for m in state["characters"] + state["bots"]}
    vex, hunter = ids["Vex"], ids["Hunter-1"]
    form = page.locator(f"#form-cshoot-{vex}")

    # The fold: opening it means dice by hand, closing it gives the roll back to the app.
    fold = page.locator(f"#cshoot-{vex}-dice")
    expect(page.locator(f"#cshoot-{vex}-attack-hits")).to_be_hidden()
    fold.locator("> summary").click()
    expect(form.get_by_label("I enter dice")).to_be_checked()
    expect(page.locator(f"#cshoot-{vex}-attack-hits")).to_be_visible()
    fold.locator("> summary").click()
    expect(form.get_by_label("App rolls")).to_be_checked()

    # A count chip tapped means dice by hand, whatever the radio said.
    fold.locator("> summary").click()
    form.get_by_label("App rolls").check()
    form.locator(f"label:has(#cshoot-{vex}-attack-hits-3)").click()
    expect(form.get_by_label("I enter dice")).to_be_checked()

    # Past the last chip: "7+" shows the field for the count, read as the Hits.
    count = page.locator(f"#cshoot-{vex}-attack-hits-more-count")
    expect(count).to_be_hidden()
    form.locator(f"label:has(#cshoot-{vex}-attack-hits-more)").click()
    expect(count).to_be_visible()
    count.fill("7")
    form.locator(f"label:has(#cshoot-{vex}-target_id-{hunter})").click()
    page.locator(f"#cshoot-{vex}-go").click()
    expect(page.locator("#panel-log li.log-step").first).to_contain_text("dice entered")
    after = http.get(f"{url}/api/games/{game['edit_token']}", timeout=10).json()
    assert next(b for b in after["bots"] if b["id"] == hunter)["health"] == 0  # 7 Hits against none

    # The hack: the opposing stat follows Vex's stat chip to the same-named one, until tapped.
    hack = f"chack-{vex}"
    page.locator(f"label:has(#{hack}-stat-Defense)").click()
    expect(page.locator(f"#{hack}-opposing_stat-defense")).to_be_checked()
    page.locator(f"label:has(#{hack}-stat-Melee)").click()
    expect(page.locator(f"#{hack}-opposing_stat-melee")).to_be_checked()
    page.locator(f"label:has(#{hack}-opposing_stat-shoot)").click()  # the player's own choice
    page.locator(f"label:has(#{hack}-stat-Defense)").click()
    expect(page.locator(f"#{hack}-opposing_stat-shoot")).to_be_checked()  # never overridden
