"""In real Chromium (issue 18): the controls that save a tap, as static/table.js makes them
behave. Dice by hand is one fold whose opening means "I enter dice" (closing gives the roll back
to the app) and a tapped count chip means so too; a count past the last chip has its field; a
hack's opposing stat follows the Character's stat chip until the player taps one. In Phase 3 a
closed fold carries no chips: they are fetched on its first opening (issue 21), and what the player
tapped there is what is rolled, even when another device made a step meanwhile."""

from __future__ import annotations

from playwright.sync_api import expect

from app.rulesets.potham2038.ruleset import SAMPLE
from tests.browser.test_phase3_page import Game, to_phase3
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

    # The shot's details (its Cover, odds, folds and button) show once its target is tapped.
    expect(page.locator(f"#cshoot-{vex}-dice")).to_be_hidden()
    form.locator(f"label:has(#cshoot-{vex}-target_id-{hunter})").click()
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
    page.locator(f"label:has(#{hack}-bot_id-{ids['Sentry-1']})").click()  # its stats show once the AI-Bot is tapped
    page.locator(f"label:has(#{hack}-stat-Defense)").click()
    expect(page.locator(f"#{hack}-opposing_stat-defense")).to_be_checked()
    page.locator(f"label:has(#{hack}-stat-Melee)").click()
    expect(page.locator(f"#{hack}-opposing_stat-melee")).to_be_checked()
    page.locator(f"label:has(#{hack}-opposing_stat-shoot)").click()  # the player's own choice
    page.locator(f"label:has(#{hack}-stat-Defense)").click()
    expect(page.locator(f"#{hack}-opposing_stat-shoot")).to_be_checked()  # never overridden


# --- Phase 3: the fold's grid is fetched on its first opening (issue 21) ------------------------


def phase3_game(browser, url: str):
    """Hunter-1 fights Ada; Sentry-1 plans to shoot Bo (tests/browser/test_phase3_page.py's table,
    but Patrol-1 far from Bo: one melee, not two)."""
    game = Game(browser.new_page(viewport={"width": 768, "height": 1024}), url)
    to_phase3(game, [
        ("Hunter-1", {"characters": game.seen(Ada=(0, True, True), Bo=(8, False, False))}),
        ("Sentry-1", {"subject_distance": 7, "characters": game.seen(Ada=(10, False, False), Bo=(2, True, False))}),
        ("Worker-1", {"object_distance": 1, "characters": game.seen(Ada=(12, False, False), Bo=(12, False, False))}),
        ("Patrol-1", {"waypoint_distance": 2, "characters": game.seen(Ada=(12, False, False), Bo=(12, False, False))}),
    ])
    game.open()
    return game


def test_a_phase3_fold_opened_by_hand_keeps_its_counts_across_another_devices_step_and_rolls_them(
        browser, live_server):
    game = phase3_game(browser, live_server.url)
    page, hunter = game.page, game.ids["Hunter-1"]
    form = page.locator(f"#form-melee-{hunter}")
    fold = form.locator("details.by-hand")
    expect(fold.locator(".entered-grid, input[name=_entered]")).to_have_count(0)  # closed: no chips
    fold.locator("> summary").click()
    expect(form.get_by_label("I enter dice")).to_be_checked()
    form.get_by_role("radiogroup", name="Hunter-1: Hits", exact=True).get_by_text("3", exact=True).click()
    expect(form.locator(f"#melee-{hunter}-rolls-npc-hits-3")).to_be_checked()
    danger = game.state()["danger"]

    game.command({"type": "adjust", "target_id": game.ids["Patrol-1"], "health": 2, "note": "another device"})
    expect(page.locator("#panel-turn .live-stale")).to_be_visible()  # held: what was tapped stays
    expect(fold).to_have_attribute("open", "")
    expect(form.locator(f"#melee-{hunter}-rolls-npc-hits-3")).to_be_checked()
    expect(form.get_by_label("I enter dice")).to_be_checked()

    form.get_by_role("button", name="Resolve the melee").click()
    expect(page.locator("#panel-log li.log-step").first).to_contain_text("dice entered")
    assert game.model("Ada")["health"] == 0  # 3 Hits against none, the dice the player tapped
    assert game.state()["danger"] == danger + 1  # R-CMB-DANGER
    page.context.close()


def test_i_enter_dice_sent_before_the_grid_arrived_is_refused_then_rolled_by_hand(browser, live_server):
    game = phase3_game(browser, live_server.url)
    page, hunter = game.page, game.ids["Hunter-1"]
    page.route("**/turn/dice/**", lambda route: route.abort())  # the grid never arrives
    form = page.locator(f"#form-melee-{hunter}")
    form.locator("details.by-hand > summary").click()
    expect(form.get_by_label("I enter dice")).to_be_checked()
    before = game.state()
    form.get_by_role("button", name="Resolve the melee").click()
    expect(form.locator("details.by-hand .field-error")).to_contain_text("had not arrived")
    assert game.state() == before  # nothing rolled in the player's place
    page.unroute("**/turn/dice/**")
    grid = form.locator("details.by-hand .entered-grid")
    expect(grid).to_be_visible()  # the answer brings the counts, right there
    form.get_by_role("radiogroup", name="Hunter-1: Hits", exact=True).get_by_text("2", exact=True).click()
    form.get_by_role("button", name="Resolve the melee").click()
    expect(page.locator("#panel-log li.log-step").first).to_contain_text("dice entered")
    assert game.model("Ada")["health"] == 1  # 2 Hits against none
    page.context.close()
