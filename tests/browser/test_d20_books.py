"""Three rounds of d20 in real Chromium with a Dying Character (docs/rules-d20.md § 7): the
tracker takes every creature in order once a round, a Dying Character's save is asked for (a
blank tap is refused beside the field, then a die typed, then "the app rolls"), the medic's
Stabilize spends his Action, "same squares as last round" decides the Raider, a downed foe is not
preset, a stabilising save ends the turn, and the step's result is in view after each tap. Every
input is counted per round (tests/support/taps.py) into test-artifacts/table-speed.json."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from tests.support import http
from tests.support.taps import Taps

ADA = {"name": "Ada", "attributes": {"agility": 1, "vigor": 0}, "defense": 12, "hp": 1,
       "weapons": [{"name": "Sword", "kind": "melee", "damage": "1d8"}]}
BO = {"name": "Bo", "attributes": {"agility": 0}, "skills": {"medicine": 3, "arrow_time": 2}, "defense": 13,
      "hp": 9, "weapons": [{"name": "Rifle", "kind": "ranged", "damage": "1d10", "short": 10, "long": 30}]}
RAIDER = {"name": "Raider", "role": "hunter", "attributes": {"vigor": 2}, "skills": {"blade_waltz": 2},
          "defense": 11, "hp": 6, "weapons": [{"name": "Machete", "kind": "melee", "damage": "1d8"}]}


def test_three_d20_rounds_with_a_dying_character_keep_the_books(browser, live_server, artifacts):
    game = http.post(f"{live_server.url}/api/games", json={"name": "Books", "ruleset": "d20", "seed": 5}).json()
    token = game["edit_token"]

    def command(body: dict) -> None:
        http.post(f"{live_server.url}/api/games/{token}/commands", json=body).raise_for_status()

    def api() -> dict:
        return http.get(f"{live_server.url}/api/games/{token}").json()

    for kind, sheet in (("add_character", {"character": ADA}), ("add_character", {"character": BO}),
                        ("add_npc", {"npc": RAIDER})):
        command({"type": kind, **sheet})
    ada, bo = (c["id"] for c in api()["characters"])
    raider = api()["npcs"][0]["id"]
    command({"type": "set_initiative", "rolls": [{"member_id": raider, "value": 18},
                                                  {"member_id": ada, "value": 12}, {"member_id": bo, "value": 6}]})
    page, taps = browser.new_page(viewport={"width": 768, "height": 1024}), Taps()
    page.goto(f"{live_server.url}/g/{token}")
    expect(page.locator("a.brand")).to_contain_text("d20")  # the top bar names the ruleset

    def acting(name: str) -> None:
        expect(page.locator("#d20-order li.acting")).to_contain_text(name)

    def result(text: str) -> None:
        expect(page.locator("#d20-result")).to_contain_text(text)
        expect(page.locator("#d20-result")).to_be_in_viewport()  # the step's result, in view after the tap

    with taps.section("round1"):
        taps.click(page.locator("#d20-next-turn"))  # Start the round: the Raider's card opens
        acting("Raider")
        expect(page.locator(f"#d20-activate-{raider}")).to_have_attribute("open", "")
        taps.type(page.locator(f"#f-{raider}-{ada}-sq"), "1")
        taps.type(page.locator(f"#f-{raider}-{bo}-sq"), "6")
        taps.click(page.locator(f"#d20-decide-{raider}"))
        taps.type(page.locator(f"#d20-nat-{raider}"), "15")
        taps.click(page.locator(f"#d20-roll-{raider}"))
        expect(page.locator(f"#ds-{ada}-dying")).to_be_visible()  # Ada at 1 HP drops: Dying 1
        taps.click(page.locator("#d20-next-turn"))  # her save unasked: refused beside the field
        expect(page.locator("#d20-next-save-error")).to_contain_text("Vigor Save d20")
        acting("Raider")
        taps.type(page.locator("#d20-next-save"), "4")
        taps.click(page.locator("#d20-next-turn"))
        acting("Ada")
        result("Vigor Save")
        expect(page.locator(f"#ds-{ada}-dying")).to_contain_text("Dying 2")
        expect(page.locator("#d20-left")).to_have_count(0)  # Dying: nothing to offer her
        taps.click(page.locator("#d20-next-turn"))
        acting("Bo")
        expect(page.locator("#dh-stab-by option:checked")).to_have_text("Bo")  # his Action
        taps.type(page.locator("#dh-stab-total"), "14")
        taps.click(page.locator("#d20-stabilize"))
        result("stabilised")
        expect(page.locator("#d20-left-action")).to_have_attribute("data-left", "no")
        expect(page.locator("#d20-attack summary")).to_contain_text("Reaction")  # only that is left
        taps.click(page.locator("#d20-next-turn"))  # past the last: round 2, the Raider first
    expect(page.locator("#status-round")).to_have_text("Round 2")
    acting("Raider")

    with taps.section("round2"):
        taps.click(page.locator(f"#d20-same-{raider}"))  # it did not move: the same squares, one tap
        expect(page.locator(f"#d20-card-{raider}")).to_contain_text("D20-CONTACT-MELEE")
        taps.type(page.locator(f"#d20-nat-{raider}"), "15")
        taps.click(page.locator(f"#d20-roll-{raider}"))
        expect(page.locator(f"#ds-{ada}-dying")).to_be_visible()
        taps.click(page.locator("#d20-next-turn-app"))  # "the app rolls" Ada's save, at the player's word
        acting("Ada")
        result("Vigor Save")
        taps.click(page.locator("#d20-next-turn"))
        acting("Bo")
        expect(page.locator("#d20-attack")).to_have_attribute("open", "")
        expect(page.locator("#da-target option:checked")).to_have_text("Raider")  # the foe that attacked
        taps.type(page.locator("#da-nat"), "20")
        taps.type(page.locator("#da-dmg"), "30")
        taps.click(page.locator("#d20-attack-roll"))
        result("Bo rolls 20")
        expect(page.locator(f"#ds-{raider}-dying")).to_be_visible()
        taps.click(page.locator("#d20-next-turn"))
    expect(page.locator("#status-round")).to_have_text("Round 3")

    with taps.section("round3"):
        acting("Raider")  # Dying: its turn is its save (entered here; blank, the app rolls it)
        taps.type(page.locator(f"#f-{raider}-save"), "2")
        taps.click(page.locator(f"#d20-decide-{raider}"))
        result("Raider's Vigor Save")
        before = api()["characters"][0]
        if before["dying"]:
            taps.type(page.locator("#d20-next-save"), "20")  # Ada makes it: stabilised at 1 HP
            taps.click(page.locator("#d20-next-turn"))
            acting("Ada")
            result("nothing else this turn")
            for part in ("action", "move", "minor"):  # the turn was spent on the save
                expect(page.locator(f"#d20-left-{part}")).to_have_attribute("data-left", "no")
        else:
            taps.click(page.locator("#d20-next-turn"))
            acting("Ada")
        taps.click(page.locator("#d20-next-turn"))
        acting("Bo")
        expect(page.locator("#da-target option:checked")).to_have_text("— choose the target —")  # downed foe
        taps.click(page.locator("#d20-next-turn"))
    expect(page.locator("#status-round")).to_have_text("Round 4")
    state = api()
    ada_now = state["characters"][0]
    assert not ada_now["dead"] and ada_now["hp"] == 1 and ada_now["dying"] == 0
    page.screenshot(path=str(artifacts / "d20-books-768x1024.png"), full_page=True)
    figures = {f"round{k}_inputs": taps.total(f"round{k}") for k in (1, 2, 3)}
    figures["by_kind"] = {f"round{k}": taps.kinds(f"round{k}") for k in (1, 2, 3)}
    path = artifacts / "table-speed.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**saved, "d20_books": figures}, indent=2) + "\n")
    print("\nd20 books, inputs per round:", json.dumps(figures))
    page.close()
