"""A zone game end to end in real Chromium (issue 12b): picked on the home page, a small roster
built with the page's forms, two rounds with NPC decisions (reasons, rule ids, odds), an attack
each way, undo, and a watcher following every step live without reloading."""

from __future__ import annotations

from playwright.sync_api import expect


def add_character(page, name: str) -> None:
    page.locator("#zone-add-character summary").click()
    page.fill("#zc-name", name)
    page.click("#zone-add-character-save")
    expect(page.locator("#panel-roster")).to_contain_text(name)


def add_npc(page, name: str, role: str, **fields: str) -> None:
    page.locator("#zone-add-npc summary").click()
    page.fill("#zn-name", name)
    page.select_option("#zn-role", role)
    for field, value in fields.items():
        if field.endswith("reach"):
            page.select_option(f"#zn-{field}", value)
        else:
            page.fill(f"#zn-{field}", value)
    page.click("#zone-add-npc-save")
    expect(page.locator("#panel-roster")).to_contain_text(name)


def test_a_zone_game_played_two_rounds_with_a_watcher_following_live(browser, live_server, artifacts):
    player = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    player.goto(live_server.url + "/")
    player.fill("#new-name", "Ruins of the Ark")
    player.locator("input[name=ruleset][value=zone]").check()
    player.locator("#new-game button[type=submit]").first.click()
    expect(player.locator("#game-ruleset")).to_have_attribute("data-ruleset", "zone")

    add_character(player, "Ada")
    add_character(player, "Bo")
    add_npc(player, "Gnasher", "hunter", **{"fight": "4", "melee": "Scrap spear", "melee-damage": "2",
                                            "melee-reach": "near"})
    add_npc(player, "Warden", "sentry", **{"shoot": "3", "gun": "Rifle", "gun-damage": "2", "gun-reach": "long",
                                           "gun-bullets": "6", "subject": "Gate"})

    watcher = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
    watcher.goto(live_server.url + player.locator("#share-watch-url").input_value().removeprefix(live_server.url))
    for page in (player, watcher):
        expect(page.locator('#live-status[data-state="live"]')).to_be_attached()
    expect(watcher.locator("#panel-roster")).to_contain_text("Warden")

    ids = player.evaluate("() => Array.from(document.querySelectorAll('[id^=zone-activate-]')).map(e => e.id)")
    gnasher, warden = (i.removeprefix("zone-activate-") for i in ids)

    # Round 1: the Hunter closes in and fights; the Sentry shoots from its post
    activate = player.locator(f"#zone-activate-{gnasher}")
    activate.locator("select").nth(0).select_option("short")
    player.click(f"#zone-decide-{gnasher}")
    card = player.locator(f"#zone-card-{gnasher}")
    expect(card).to_contain_text("Z-ROLE-HUNTER")
    expect(player.locator(f"#zone-odds-{gnasher}")).to_contain_text("hit")
    expect(watcher.locator(f"#zone-card-{gnasher}")).to_contain_text("fight")  # live, no reload

    sentry = player.locator(f"#zone-activate-{warden}")
    sentry.locator("select").nth(0).select_option("long")
    sentry.locator(f"#f-{warden}-goal").select_option("near")
    player.click(f"#zone-decide-{warden}")
    expect(player.locator(f"#zone-card-{warden}")).to_contain_text("shoot")

    # the NPC attacks a Character, with dice the player rolled: all sixes, so it does not push
    # (Z-PUSH-CHOICE) and cannot Break itself on a pushed 1, which would leave it out of round 2
    player.locator(f"#zone-card-{gnasher} .entered-dice summary").click()
    dice = int(player.locator(f"label[for=faces-{gnasher}]").inner_text().split("(")[1].split()[0])
    player.fill(f"#faces-{gnasher}", " ".join(["6"] * dice))
    player.click(f"#zone-roll-{gnasher}")
    expect(player.locator("#turn-news")).to_contain_text("Gnasher attacks")
    expect(watcher.locator("#panel-log")).to_contain_text("Gnasher attacks")

    player.locator("#zone-character-attack summary").click()  # a Character attacks an NPC
    player.select_option("#ca-target", label="Gnasher")
    player.fill("#ca-dice", "8")
    player.click("#zone-character-attack-roll")
    expect(player.locator("#turn-news")).to_contain_text("Ada attacks Gnasher")
    expect(watcher.locator("#panel-log")).to_contain_text("Ada attacks Gnasher")

    player.click("#undo-last")  # undo the Character's attack, everywhere
    expect(player.locator("#panel-log")).to_contain_text("taken back")
    expect(watcher.locator("#panel-log")).to_contain_text("taken back")

    player.click("#zone-end-round")
    expect(player.locator("#status-round")).to_have_text("Round 2")
    expect(watcher.locator("#status-round")).to_have_text("Round 2")

    # Round 2: the Hunter again, now at Arm's Length
    player.locator(f"#zone-activate-{gnasher}").locator("select").nth(0).select_option("arms_length")
    player.click(f"#zone-decide-{gnasher}")
    expect(player.locator(f"#zone-card-{gnasher}")).to_contain_text("fight")
    expect(watcher.locator(f"#zone-card-{gnasher}")).to_contain_text("fight")
    player.screenshot(path=str(artifacts / "zone-game-1024x768.png"), full_page=True)
    watcher.screenshot(path=str(artifacts / "zone-watch-768x1024.png"), full_page=True)
