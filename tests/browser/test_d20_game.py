"""A d20 game end to end in real Chromium (issue 12): picked on the home page, a small roster
built with the page's forms, two rounds with NPC turns (reasons, rule ids, exact odds), an
attack each way, undo, and a watcher following every step live without reloading."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.support.axe import A11Y_JSON, NewStates
from tests.support.waits import settled


def open_details(page, details: str) -> None:
    """Open a folded form unless the page already shows it open (the Character attack opens by
    itself when the rolled initiative puts a Character next)."""
    if page.locator(f"#{details}").get_attribute("open") is None:
        page.locator(f"#{details} summary").click()


def add_character(page, name: str) -> None:
    open_details(page, "d20-add-character")
    page.fill("#dc-name", name)
    page.click("#d20-add-character-save")
    expect(page.locator("#panel-roster")).to_contain_text(name)


def add_npc(page, name: str, role: str, weapon: tuple[str, str, str, str], **fields: str) -> None:
    open_details(page, "d20-add-npc")
    page.fill("#dn-name", name)
    page.select_option("#dn-role", role)
    form = page.locator("#d20-add-npc form")
    weapon_name, kind, damage, short = weapon
    form.get_by_label("Weapon 1 name").fill(weapon_name)
    form.get_by_label("Weapon 1 kind").select_option(kind)
    form.get_by_label("Weapon 1 damage dice").fill(damage)
    form.get_by_label("Weapon 1 Short range (squares)").fill(short)
    form.get_by_label("Weapon 1 Long range (squares)").fill(str(int(short) * 3))
    for field, value in fields.items():
        page.fill(f"#dn-{field}", value)
    page.click("#d20-add-npc-save")
    expect(page.locator("#panel-roster")).to_contain_text(name)


def test_a_d20_game_played_two_rounds_with_a_watcher_following_live(browser, live_server, artifacts):
    player = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    player.goto(live_server.url + "/")
    player.fill("#new-name", "Arena of Sparks")
    # reproducible dice: the rolled initiative and the Raider's app-rolled attack decide whether
    # Ada is still on her feet to attack (a Dying Character cannot; it failed one CI run in ten)
    player.fill("#new-seed", "3")
    player.locator("input[name=ruleset][value=d20]").check()
    player.locator("#new-game button[type=submit]").first.click()
    expect(player.locator("#game-ruleset")).to_have_attribute("data-ruleset", "d20")

    add_character(player, "Ada")
    add_character(player, "Bo")
    add_npc(player, "Raider", "hunter", ("Machete", "melee", "1d8", "1"), **{"vigor": "2", "blade_waltz": "2"})
    add_npc(player, "Warden", "sentry", ("Pistol", "ranged", "1d8", "6"), **{"agility": "2", "subject": "Gate"})

    watcher = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
    watcher.goto(live_server.url + player.locator("#share-watch-url").input_value().removeprefix(live_server.url))
    for page in (player, watcher):
        expect(page.locator('#live-status[data-state="live"]')).to_be_attached()
    expect(watcher.locator("#panel-roster")).to_contain_text("Warden")

    # axe (WCAG 2.2 AA, both themes, both sizes) on each new kind of state, on both pages
    audits = ((player, NewStates(), "play"), (watcher, NewStates(), "watch"))

    def a11y(state: str) -> None:
        seq = player.locator("#panel-turn").get_attribute("data-seq")
        expect(watcher.locator("#panel-turn")).to_have_attribute("data-seq", seq)
        for page, audit, name in audits:
            settled(page)
            audit.check_if_new(page, f"d20 {name}: {state}")

    a11y("roster built")
    ids = player.evaluate("() => Array.from(document.querySelectorAll('[id^=d20-activate-]')).map(e => e.id)")
    raider, warden = (i.removeprefix("d20-activate-") for i in ids)
    ada = player.locator(f"#d20-activate-{raider} input[name='seen.0.character_id']").input_value()

    # Round 1: the Hunter closes in and attacks; the Sentry shoots from its post
    player.fill(f"#f-{raider}-{ada}-sq", "4")
    player.click(f"#d20-decide-{raider}")
    card = player.locator(f"#d20-card-{raider}")
    expect(card).to_contain_text("D20-ROLE-HUNTER")
    expect(card.locator(".odds").first).to_contain_text("hit")
    expect(watcher.locator(f"#d20-card-{raider}")).to_contain_text("attack")  # live, no reload
    a11y("Raider decided")

    expect(player.locator(f"#d20-activate-{warden}")).to_have_attribute("open", "")  # the next one to act
    player.fill(f"#f-{warden}-{ada}-sq", "5")
    player.fill(f"#f-{warden}-goal", "0")  # at its post: asked, never assumed (issue 20 D6)
    player.click(f"#d20-decide-{warden}")
    expect(player.locator(f"#d20-card-{warden}")).to_contain_text("Pistol")
    a11y("Warden decided")

    player.click(f"#d20-roll-{raider}")  # the NPC attacks a Character
    expect(player.locator("#turn-news")).to_contain_text("Raider rolls")
    expect(watcher.locator("#panel-log")).to_contain_text("Raider rolls")
    a11y("Raider attacked")

    open_details(player, "d20-attack")  # a Character attacks an NPC
    player.select_option("#da-who", label="Ada")
    player.select_option("#da-target", label="Raider")
    expect(player.locator("#d20-attack-odds")).to_contain_text("Ada with Knife")  # odds before the roll
    a11y("Character attack open")
    expect(player.locator("#d20-attack-odds")).to_contain_text("hit")
    # every later change asks again (issue 20 D2: the first answer replaced its own trigger)
    player.select_option("#da-target", label="Warden")
    expect(player.locator("#d20-attack-odds")).to_contain_text("Ada with Knife on Warden")
    player.select_option("#da-who", label="Warden")
    player.select_option("#da-target", label="Ada")
    expect(player.locator("#d20-attack-odds")).to_contain_text("Warden with Pistol on Ada")
    player.select_option("#da-cover", "heavy")  # cover bends a shot, not the Knife's melee (D20-COVER)
    expect(player.locator("#d20-attack-odds")).to_contain_text("heavy cover")
    player.select_option("#da-cover", "none")
    player.select_option("#da-who", label="Ada")
    player.select_option("#da-target", label="Raider")
    expect(player.locator("#d20-attack-odds")).to_contain_text("on Raider")
    expect(player.locator("#d20-attack-odds")).not_to_contain_text("heavy cover")
    player.click("#d20-attack-roll")
    expect(player.locator("#turn-news")).to_contain_text("Ada rolls")
    expect(watcher.locator("#panel-log")).to_contain_text("Ada rolls")
    a11y("Ada attacked")

    player.click("#undo-last")  # undo the Character's attack, everywhere
    expect(player.locator("#panel-log")).to_contain_text("taken back")
    expect(watcher.locator("#panel-log")).to_contain_text("taken back")
    a11y("attack undone")

    player.click("#d20-end-round")
    expect(player.locator("#status-round")).to_have_text("Round 2")
    expect(watcher.locator("#status-round")).to_have_text("Round 2")
    a11y("round 2")

    # Round 2: the Hunter again, now next to Ada: it stays and fights
    player.fill(f"#f-{raider}-{ada}-sq", "1")
    player.click(f"#d20-decide-{raider}")
    expect(player.locator(f"#d20-card-{raider}")).to_contain_text("D20-CONTACT-MELEE")
    expect(watcher.locator(f"#d20-card-{raider}")).to_contain_text("D20-CONTACT-MELEE")
    a11y("round 2, Raider fights")
    player.screenshot(path=str(artifacts / "d20-game-1024x768.png"), full_page=True)
    watcher.screenshot(path=str(artifacts / "d20-watch-768x1024.png"), full_page=True)
    for _, audit, name in audits:
        audit.write(A11Y_JSON, f"d20 game, {name} page")
    failures = [line for _, audit, _ in audits for line in audit.failures()]
    assert not failures, "axe found:\n" + "\n".join(failures)


def test_a_d20_roster_and_round_by_taps_the_inputs_counted(browser, live_server, artifacts):
    """Issue 20's goals at 768x1024, every input counted (tests/support/taps.py): a roster of 2
    Characters and 3 NPCs (goal <= 25; 56 before the ready sheets and Duplicate), then one round
    where every creature acts, one attack each way and one Dying Character stabilised (goal <= 14).
    The figures go to test-artifacts/table-speed.json under "d20"; the test asserts the state."""
    import json

    from tests.support import http
    from tests.support.taps import Taps

    page, taps = browser.new_page(viewport={"width": 768, "height": 1024}), Taps()
    page.goto(live_server.url + "/")
    with taps.section("create"):
        taps.type(page.locator("#new-name"), "Quick Arena")
        # reproducible dice: the initiative order and Bo's app-rolled shots decide whether the
        # Raider still stands on its turn (one run in three it was down and made a Dying save)
        taps.type(page.locator("#new-seed"), "20")
        taps.check(page.locator("input[name=ruleset][value=d20]"))
        taps.click(page.locator("#new-game button[type=submit]").first)
    expect(page.locator("#game-ruleset")).to_have_attribute("data-ruleset", "d20")
    token = page.url.split("/g/")[1].split("/")[0].split("?")[0]

    def api() -> dict:
        return http.get(f"{live_server.url}/api/games/{token}").json()

    def listed(name: str) -> None:  # on the roster's list, not in a form's options
        expect(page.locator("#panel-roster .roster-item > strong", has_text=name)).to_have_count(1)
    with taps.section("roster"):
        taps.click(page.locator("#d20-quick-add summary"))
        taps.type(page.locator("#dqc-name"), "Ada")  # the first ready sheet: Fighter
        taps.click(page.locator("#d20-quick-character-save"))
        listed("Ada")
        taps.type(page.locator("#dqc-name"), "Bo")
        taps.select(page.locator("#dqc-starter"), value="medic")
        taps.click(page.locator("#d20-quick-character-save"))
        listed("Bo")
        taps.type(page.locator("#dq-name"), "Gun")
        taps.select(page.locator("#dq-starter"), value="gunner")
        taps.select(page.locator("#dq-role"), value="sentry")
        taps.type(page.locator("#dq-subject"), "Gate")
        taps.click(page.locator("#d20-quick-add-save"))
        listed("Gun")
        taps.type(page.locator("#dq-name"), "Raider")  # the first ready sheet: Brute, a Hunter
        taps.click(page.locator("#d20-quick-add-save"))
        listed("Raider")
        raider = next(n["id"] for n in api()["npcs"] if n["name"] == "Raider")
        taps.click(page.locator(f"#d20-duplicate-{raider}"))
        listed("Raider 2")
    state = api()
    assert [c["name"] for c in state["characters"]] == ["Ada", "Bo"]
    assert [(n["name"], n["role"]) for n in state["npcs"]] == [("Gun", "sentry"), ("Raider", "hunter"),
                                                                ("Raider 2", "hunter")]
    ada, bo = (c["id"] for c in state["characters"])
    gun, _, raider2 = (n["id"] for n in state["npcs"])
    bo = state["characters"][1]["id"]
    # the fight so far (not counted): Ada is down to 1 HP
    http.post(f"{live_server.url}/api/games/{token}/commands",
              json={"type": "adjust", "member_id": ada, "hp": 1}).raise_for_status()
    page.reload()

    with taps.section("round"):
        taps.type(page.locator(f"#f-{gun}-goal"), "0")  # at its post, nobody on the table: Overwatch
        taps.click(page.locator(f"#d20-decide-{gun}"))
        expect(page.locator(f"#d20-card-{gun}")).to_contain_text("Overwatch")
        taps.type(page.locator(f"#f-{raider}-{ada}-sq"), "1")
        taps.click(page.locator(f"#d20-decide-{raider}"))
        expect(page.locator(f"#d20-card-{raider}")).to_contain_text("D20-CONTACT-MELEE")
        taps.click(page.locator(f"#d20-decide-{raider2}"))  # nobody in sight: it moves randomly
        expect(page.locator(f"#d20-card-{raider2}")).to_contain_text("D20-HUNTER-RANDOM")
        taps.type(page.locator(f"#d20-nat-{raider}"), "15")  # +7 vs DEF 15: a hit; Ada drops
        taps.click(page.locator(f"#d20-roll-{raider}"))
        expect(page.locator(f"#ds-{ada}-dying")).to_be_visible()
        expect(page.locator("#d20-heal")).to_have_attribute("open", "")  # Dying: healing comes up
        taps.type(page.locator("#dh-stab-total"), "14")  # Bo's Medicine check
        taps.click(page.locator("#d20-stabilize"))
        expect(page.locator(f"#ds-{ada}-dying")).to_have_count(0)
        taps.click(page.locator("#d20-attack summary"))  # Bo shoots Raider
        taps.select(page.locator("#da-who"), label="Bo")
        taps.select(page.locator("#da-target"), label="Raider")
        taps.click(page.locator("#d20-attack-roll"))
        expect(page.locator("#turn-news")).to_contain_text("Bo rolls")
        taps.click(page.locator("#d20-end-round"))
        expect(page.locator("#status-round")).to_have_text("Round 2")
    state = api()
    assert (state["characters"][0]["hp"], state["characters"][0]["dying"]) == (1, 0)
    assert state["round"] == 2

    # Round 2 in initiative order with the tracker: rolled, every creature's turn in order, the
    # Raider drops Ada again, Bo stabilises her and shoots the Raider
    with taps.section("tracked"):
        taps.click(page.locator("#d20-set-initiative"))  # every value blank: d20 + Agility, rolled
        expect(page.locator("#d20-order li")).to_have_count(5)
        names = {m["id"]: m["name"] for m in [*state["characters"], *state["npcs"]]}
        for who in [i["member_id"] for i in api()["initiative"]]:
            if who == gun:  # it held its post last round: its squares (0) are offered, said so
                expect(page.locator(f"#f-{gun}-goal")).to_have_value("0")
                expect(page.locator(f"#f-{gun}-kept")).to_contain_text("has not moved")
                taps.click(page.locator(f"#d20-decide-{gun}"))
                expect(page.locator(f"#d20-card-{gun}")).to_contain_text("Overwatch")
            elif who == raider:
                taps.type(page.locator(f"#f-{raider}-{ada}-sq"), "1")
                taps.click(page.locator(f"#d20-decide-{raider}"))
                taps.type(page.locator(f"#d20-nat-{raider}"), "15")
                taps.click(page.locator(f"#d20-roll-{raider}"))
                expect(page.locator(f"#ds-{ada}-dying")).to_be_visible()
            elif who == raider2:
                taps.click(page.locator(f"#d20-decide-{raider2}"))
            else:
                if page.locator("#d20-next-turn-app").count():  # Ada is Dying: her save, the app rolls it
                    taps.click(page.locator("#d20-next-turn-app"))
                else:
                    taps.click(page.locator("#d20-next-turn"))  # a Character's turn begins by itself
                expect(page.locator("#d20-order li.acting")).to_contain_text(names[who])
                if who == bo and api()["characters"][0]["dying"]:
                    # Stabilize is his Action (D20-TURN-BUDGET): no attack after it this turn
                    expect(page.locator("#dh-stab-by option:checked")).to_have_text("Bo")
                    taps.type(page.locator("#dh-stab-total"), "14")
                    taps.click(page.locator("#d20-stabilize"))
                    expect(page.locator("#d20-left-action")).to_have_attribute("data-left", "no")
                elif who == bo:
                    # his turn: the attack form is up, set to Bo and the foe he shot last
                    expect(page.locator("#d20-attack")).to_have_attribute("open", "")
                    expect(page.locator("#da-who option:checked")).to_have_text("Bo")
                    expect(page.locator("#da-target option:checked")).to_have_text("Raider")
                    expect(page.locator("#d20-attack-odds")).to_contain_text("Bo with")
                    taps.click(page.locator("#d20-attack-roll"))
                    expect(page.locator("#turn-news")).to_contain_text("Bo rolls")
            expect(page.locator("#d20-order li.acting")).to_contain_text(names[who])
        # past the last: the round ends (Bo, having acted, waits for his next turn: D20-TURN-BUDGET)
        if page.locator("#d20-next-turn-app").count():  # Ada is Dying and first: the app rolls her save
            taps.click(page.locator("#d20-next-turn-app"))
        else:
            taps.click(page.locator("#d20-next-turn"))
        expect(page.locator("#status-round")).to_have_text("Round 3")
    state = api()
    ada_now = state["characters"][0]
    assert not ada_now["dead"] and (ada_now["hp"] == 0) == (ada_now["dying"] > 0)
    figures = {"roster_inputs": taps.total("roster"), "round_inputs": taps.total("round"),
               "tracked_round_inputs": taps.total("tracked"), "create_inputs": taps.total("create"),
               "round_by_kind": taps.kinds("round"), "tracked_round_by_kind": taps.kinds("tracked"),
               "goals": {"roster_inputs": 25, "round_inputs": 14}}
    path = artifacts / "table-speed.json"
    saved = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps({**saved, "d20": figures}, indent=2) + "\n")
    print("\nd20 table speed:", json.dumps(figures))
    page.close()
