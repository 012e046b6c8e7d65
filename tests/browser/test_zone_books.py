"""Three rounds of a zone fight in real Chromium, keeping the books (the Year Zero-style reference:
"Take one action and one maneuver, or two maneuvers"; "When an attribute score hits zero, you are
broken"): initiative cards dealt (two entered, the NPCs' drawn), one tap to each next turn, a
roll seen and then pushed, an NPC Broken mid-round and skipped from then on, each tap's result in
view. Every input is counted (test-artifacts/table-speed.json, "zone_fight")."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.browser.test_zone_game import counted_add
from tests.support.taps import Taps
from tests.support.waits import settled

IN_VIEW = """() => { const r = document.getElementById('turn-message').getBoundingClientRect();
  return r.top >= 0 && r.top < window.innerHeight; }"""


def test_three_rounds_of_a_zone_fight_with_a_broken_npc_and_a_push(browser, live_server, artifacts):
    page = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
    taps = Taps()
    page.goto(live_server.url + "/")
    page.fill("#new-name", "Ark fight")
    page.fill("#new-seed", "3")
    page.locator("input[name=ruleset][value=zone]").check()
    page.locator("#new-game button[type=submit]").first.click()
    expect(page.locator("header .brand")).to_have_text("Zone (d6 pools, range bands)")  # the top bar names the ruleset
    with taps.section("roster"):
        for name in ("Ada", "Bo"):
            counted_add(page, taps, "zone-add-character", [("type", "#zc-name", name)], "zone-add-character-save")
        counted_add(page, taps, "zone-add-npc", [("type", "#zn-name", "Gnasher"), ("select", "#zn-sheet", "brawler"),
                                                ("type", "#zn-strength", "1")], "zone-add-npc-save")
        counted_add(page, taps, "zone-add-npc", [("type", "#zn-name", "Warden"), ("select", "#zn-sheet", "rifle"),
                                                ("select", "#zn-role", "sentry"), ("type", "#zn-subject", "Gate")],
                    "zone-add-npc-save")
    # the starting sheet filled the fields the player sees (what is on screen is what is added)
    expect(page.locator("#panel-roster")).to_contain_text("Scrap spear")
    ids = page.evaluate("() => Array.from(document.querySelectorAll('[id^=zone-npc-]')).map(e => e.id)")
    gnasher, warden = (i.removeprefix("zone-npc-") for i in ids)
    chars = page.evaluate("() => Array.from(document.querySelectorAll('[id^=zone-character-]'))"
                          ".map(e => e.id).filter(i => /^zone-character-c\\d+$/.test(i))")
    ada, bo = (i.removeprefix("zone-character-") for i in chars)

    def tap(locator) -> None:
        taps.click(locator)
        settled(page)

    def next_turn(expected: str | None) -> None:
        tap(page.locator("#zone-next-turn"))
        if expected:
            expect(page.locator("#zone-acting")).to_contain_text(expected)
        assert page.evaluate(IN_VIEW), "the step's result is in view after the tap"

    def ada_attacks(target: str, faces: str) -> None:
        taps.click(page.locator("#zone-character-attack summary"))
        taps.select(page.locator("#ca-target"), label=target)
        taps.type(page.locator("#ca-faces"), faces)
        tap(page.locator("#zone-character-attack-roll"))
        expect(page.locator("#turn-news")).to_contain_text(f"Ada attacks {target}")

    def warden_rolls(first: bool) -> None:
        if first:
            taps.select(page.locator(f"#f-{warden}-{ada}-band"), value="long")
            taps.select(page.locator(f"#f-{warden}-goal"), value="near")
            tap(page.locator(f"#zone-decide-{warden}"))
        else:
            tap(page.locator(f"#zone-same-{warden}"))
        expect(page.locator(f"#zone-card-{warden}")).to_contain_text("shoot")
        taps.click(page.locator(f"#zone-card-{warden} .entered-dice summary"))
        dice = int(page.locator(f"label[for=faces-{warden}]").inner_text().split("(")[1].split()[0])
        # round 1 a hit (Ada down to Strength 1); later all 1s: a miss nothing can push
        taps.type(page.locator(f"#faces-{warden}"), " ".join(["6"] + ["2"] * (dice - 1) if first else ["1"] * dice))
        tap(page.locator(f"#zone-roll-{warden}"))
        expect(page.locator("#turn-news")).to_contain_text("Warden attacks Ada")

    with taps.section("fight/start"):  # Ada and Bo draw 1 and 2; the app draws the NPCs' cards
        taps.click(page.locator("#zone-start-fight summary"))
        taps.type(page.locator(f"#zf-card-{ada}"), "1")
        taps.type(page.locator(f"#zf-card-{bo}"), "2")
        tap(page.locator("#zone-start-fight-go"))
    expect(page.locator("#zone-acting")).to_contain_text("Ada")

    with taps.section("fight/round1"):
        ada_attacks("Warden", "2 3 4 1")  # no success: look, then push (Z-PUSH-AFTER)
        expect(page.locator(f"#zone-push-{ada}")).to_contain_text("re-rolls 3 dice")
        taps.type(page.locator(f"#push-faces-{ada}"), "6 2 2")
        tap(page.locator(f"#zone-push-{ada}-go"))
        expect(page.locator("#turn-news")).to_contain_text("pushes the roll")
        expect(page.locator(f"#zone-push-{ada}")).to_have_count(0)  # pushed once
        expect(page.locator("#zone-character-attack")).to_have_count(0)  # Ada's action is spent (Z-TURN)
        next_turn("Bo")
        taps.click(page.locator("#zone-character-attack summary"))
        taps.select(page.locator("#ca-target"), label="Gnasher")
        taps.type(page.locator("#ca-faces"), "6 6 2 2")
        tap(page.locator("#zone-character-attack-roll"))
        expect(page.locator(f"#zs-{gnasher}-broken")).to_contain_text("out of the fight")  # Z-OUT
        next_turn("Warden")  # Gnasher, Broken, has no turn
        warden_rolls(first=True)
        next_turn("Ada")
    expect(page.locator("#status-round")).to_have_text("Round 2")
    expect(page.locator(f"#zone-order-{gnasher}")).to_contain_text("out of the fight")

    with taps.section("fight/round2"):
        taps.click(page.locator("#zone-character-maneuver summary"))
        taps.select(page.locator("#cm-what"), value="seek_cover")
        tap(page.locator("#zone-maneuver-go"))
        expect(page.locator("#ca-target option:has-text('Gnasher')")).to_have_count(0)  # no attack at the Broken
        ada_attacks("Warden", "6 2 2 2")
        next_turn("Bo")
        next_turn("Warden")
        warden_rolls(first=False)
        next_turn("Ada")
    expect(page.locator("#status-round")).to_have_text("Round 3")

    with taps.section("fight/round3"):
        ada_attacks("Warden", "2 2 2 1")  # a miss she does not push: Bo's turn closes the push
        expect(page.locator(f"#zone-push-{ada}")).to_have_count(1)
        next_turn("Bo")
        expect(page.locator(f"#zone-push-{ada}")).to_have_count(0)
        taps.click(page.locator("#zone-character-maneuver summary"))
        taps.select(page.locator("#cm-what"), value="move")
        tap(page.locator("#zone-maneuver-go"))
        next_turn("Warden")
        warden_rolls(first=False)
        next_turn("Ada")
    expect(page.locator("#status-round")).to_have_text("Round 4")
    page.screenshot(path=str(artifacts / "zone-fight-768x1024.png"), full_page=True)
    figures = {"start_inputs": taps.total("fight/start"),
               "round_inputs": [taps.total(f"fight/round{r}") for r in (1, 2, 3)]}
    speed = artifacts / "table-speed.json"
    merged = json.loads(speed.read_text()) if speed.exists() else {}
    speed.write_text(json.dumps({**merged, "zone_fight": figures}, indent=2) + "\n")
    print("\nzone fight inputs:", json.dumps(figures))
    assert all(n > 0 for n in figures["round_inputs"])
