"""Phase 3 on a 768×1024 tablet in real Chromium (issue 15, "The page"): one list in resolution
order, one compact card per engagement, shot and open slot. The roster and Phase 2 are set up
through the JSON API; Phase 3 is played through the page's own buttons, and the page is checked
after each step: a gang-up, a rebooted bot, a shot whose target went out of action, a shot into
a melee. The panel's height with two melees and one shot lands in test-artifacts/table-speed.json
as `phase3_px` (the other figures there are kept)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.test_two_turns import BOTS, CHARACTERS  # the same table as the two-turn test
from tests.support import http
from tests.support.layout import layout_problems

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREEN = {"width": 768, "height": 1024}


class Game:
    """A game made through the JSON API, shown in Chromium."""

    def __init__(self, page: Page, url: str):
        self.page, self.url = page, url
        self.token = http.post(f"{url}/api/games", json={"name": "Phase 3", "seed": 15}).json()["edit_token"]
        for c in CHARACTERS:
            self.command({"type": "add_character", "character": c})
        for b in BOTS:
            self.command({"type": "add_bot", "bot": b})
        self.ids = {m["name"]: m["id"] for m in self.state()["characters"] + self.state()["bots"]}

    def command(self, body: dict) -> None:
        http.post(f"{self.url}/api/games/{self.token}/commands", json=body).raise_for_status()

    def state(self) -> dict:
        return http.get(f"{self.url}/api/games/{self.token}").json()

    def seen(self, **rows: tuple[float, bool, bool]) -> list[dict]:
        return [{"character_id": self.ids[n], "distance": d, "line_of_sight": los, "base_contact": contact}
                for n, (d, los, contact) in rows.items()]

    def activate(self, bot: str, **extra) -> None:
        self.command({"type": "activate_bot", "bot_id": self.ids[bot], **extra})

    def open(self) -> None:
        self.page.goto(f"{self.url}/g/{self.token}")
        expect(self.page.locator("#phase-3")).to_be_visible()

    def seq(self) -> int:
        return int(self.page.locator("#panel-turn").get_attribute("data-seq"))

    def tap(self, target) -> None:
        """One tap that makes one step; waits until the page shows it."""
        before = self.seq()
        target.click()
        expect(self.page.locator("#panel-turn")).to_have_attribute("data-seq", str(before + 1))

    def card(self, css: str):
        return self.page.locator(css)

    def model(self, name: str) -> dict:
        state = self.state()
        return next(m for m in state["characters"] + state["bots"] if m["name"] == name)


def to_phase3(game: Game, activations: list[tuple[str, dict]]) -> None:
    game.command({"type": "next_phase"})
    game.command({"type": "set_activation_order", "bot_ids": [game.ids[b] for b, _ in activations]})
    for bot, extra in activations:
        game.activate(bot, **extra)
    game.command({"type": "next_phase"})
    assert game.state()["phase"] == 3


def panel_height(page: Page) -> int:
    return round(page.locator("#phase-3").bounding_box()["height"])


def record(artifacts: Path, **figures) -> None:
    """Merge the figures into table-speed.json, keeping what the other browser tests wrote."""
    path = artifacts / "table-speed.json"
    known = json.loads(path.read_text()) if path.exists() else {}
    path.write_text(json.dumps(known | figures, indent=2) + "\n")


def test_two_melees_and_one_shot_fit_in_one_and_a_half_tablet_screens(browser, live_server, artifacts):
    page = browser.new_page(viewport=SCREEN)
    game = Game(page, live_server.url)
    to_phase3(game, [
        ("Hunter-1", {"characters": game.seen(Ada=(0, True, True), Bo=(8, False, False))}),
        ("Sentry-1", {"subject_distance": 7, "characters": game.seen(Ada=(10, False, False), Bo=(2, True, False))}),
        ("Worker-1", {"object_distance": 1, "characters": game.seen(Ada=(12, False, False), Bo=(12, False, False))}),
        ("Patrol-1", {"waypoint_distance": 2, "characters": game.seen(Ada=(12, False, False), Bo=(0, True, True))}),
    ])
    game.open()
    melees = page.locator("#phase-3 article[id^='engagement-']")
    expect(melees).to_have_count(2)
    height = panel_height(page)
    record(artifacts, phase3_px=height)
    print(f"\nPhase 3 panel, two melees and one shot, at 768x1024: {height} px")
    page.locator("#phase-hint").evaluate("e => window.scrollBy(0, e.getBoundingClientRect().top - 72)")
    assert layout_problems(page) == []  # no sideways scroll, every control finger-sized
    page.evaluate("document.getElementById('turn-bar').remove()")  # the picture only: no bar over the panel
    box, top = page.locator("#phase-3").bounding_box(), page.evaluate("window.scrollY")
    clip = {"x": 0, "y": box["y"] + top - 8, "width": SCREEN["width"], "height": box["height"] + 16}
    page.screenshot(path=str(artifacts / "phase3-768x1024.png"), full_page=True, clip=clip)  # the whole panel
    target = DOCS / "phase3-768x1024.png"
    if os.environ.get("UPDATE_SCREENSHOTS") or not target.exists():
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(artifacts / "phase3-768x1024.png", target)
    assert height <= 1.5 * SCREEN["height"], f"{height}px: more than 1.5 screens"
    page.close()


def story(game: Game) -> None:
    """Worker-1 is rebooted (a Glitch in Phase 1); Hunter-1 touches Ada and Bo and fights Ada
    (the player breaks the tie), so Hunter-1 ⚔ Bo is a gang-up; Worker-1 touches Bo; Sentry-1
    plans to shoot Ada; Patrol-1 walks on."""
    game.command({"type": "record_glitch", "bot_id": game.ids["Worker-1"], "result": "reboot", "source": "Event"})
    to_phase3(game, [
        ("Hunter-1", {"tie_choice": game.ids["Ada"], "characters": game.seen(Ada=(0, True, True), Bo=(0, True, True))}),
        ("Sentry-1", {"subject_distance": 7, "characters": game.seen(Ada=(2, True, False), Bo=(10, False, False))}),
        ("Worker-1", {"object_distance": 1, "characters": game.seen(Ada=(12, False, False), Bo=(0, True, True))}),
        ("Patrol-1", {"waypoint_distance": 2, "characters": game.seen(Ada=(12, False, False), Bo=(12, False, False))}),
    ])


def enter_dice(form, npc: int, character: int) -> None:
    form.locator("details.by-hand > summary").click()  # opening the fold means dice by hand
    expect(form.get_by_label("I enter dice")).to_be_checked()
    form.locator(f"label:has(input[name='rolls.npc.hits'][value='{npc}'])").click()  # counts by tap
    form.locator(f"label:has(input[name='rolls.character.hits'][value='{character}'])").click()


def test_a_gang_up_a_rebooted_bot_a_target_out_of_action_and_a_shot_into_a_melee(browser, live_server):
    page = browser.new_page(viewport=SCREEN)
    game = Game(page, live_server.url)
    story(game)
    game.open()
    hunt, sent, work, ada, bo = (game.ids[n] for n in ("Hunter-1", "Sentry-1", "Worker-1", "Ada", "Bo"))
    # One list in resolution order: the three engagements (decided or not), the shot, the open slot.
    cards = page.locator("#phase-3 .p3-list > li > article")
    ids = cards.evaluate_all("els => els.map(e => e.id)")
    assert ids[:4] == [f"engagement-{hunt}-{ada}", f"engagement-{hunt}-{bo}", f"engagement-{work}-{bo}",
                       f"shot-{sent}"]
    assert all(i.startswith(("slot-", "other-")) for i in ids[4:])  # then the open slots
    decided, gang_up, rebooted = (page.locator(f"#engagement-{b}-{c}") for b, c in ((hunt, ada), (hunt, bo), (work, bo)))
    # by points: the rule's answer is the default, the other side an explicit override (one tap)
    expect(decided.locator("input[type=hidden][name=attacker][value=npc]")).to_have_count(1)
    expect(decided.locator("input[type=checkbox][name=attacker][value=character]")).not_to_be_checked()
    # R-CMB-GANGUP: Hunter-1's one Attack action is for Ada; against Bo it only Defends
    expect(gang_up.locator("input[name=attacker]")).to_have_count(1)
    expect(gang_up.locator("input[type=hidden][name=attacker][value=character]")).to_have_count(1)
    expect(gang_up).to_contain_text("only Defends")
    # R-CMB-WHO: a rebooted bot never attacks and rolls no Defense
    expect(rebooted.locator("input[type=hidden][name=attacker][value=character]")).to_have_count(1)
    expect(rebooted).to_contain_text("rebooted")
    expect(rebooted.locator(".odds")).to_contain_text("no Defense roll")
    # the shot waits for every engagement, and its button names the Character it would shoot
    shot = page.locator(f"#shot-{sent}")
    expect(page.locator("#shots-held")).to_contain_text("Hunter-1 ⚔ Bo")
    expect(shot.locator(f"#shoot-{sent}-confirm")).to_be_disabled()
    expect(shot.locator(f"#shoot-{sent}-confirm")).to_have_text("Shoot Ada: in sight and in range now")
    # the counter-attack: one visible chip, its odds only once ticked
    counter = decided.get_by_label("Ada counter-attacks", exact=True)
    expect(decided.locator(".counter-odds .odds")).to_be_hidden()
    counter.check()
    expect(decided.locator(".counter-odds .odds")).to_be_visible()
    counter.uncheck()
    expect(decided.locator(".counter-odds .odds")).to_be_hidden()

    # 1. Hunter-1 fights Ada with entered dice: 3 hits against none, Ada is out of action.
    enter_dice(decided.locator("form"), npc=3, character=0)
    game.tap(decided.get_by_role("button", name="Resolve the melee"))
    assert game.model("Ada")["health"] == 0
    expect(decided.locator(".p3-result")).to_contain_text("Ada takes 3 damage")  # the result replaces the form
    expect(decided.locator("form")).to_have_count(0)
    # the shot's target went out of action: struck through, and no button names her any more
    expect(shot.locator("h4 s")).to_have_text("Ada")
    expect(shot).to_contain_text("Ada is out of action")
    expect(shot.locator("button", has_text="Ada")).to_have_count(0)
    expect(shot.get_by_role("button", name="Scan Bo: in sight and in its zone")).to_be_visible()  # re-decide

    # 2. The rebooted Worker-1: one tap, Bo attacks and Worker-1 rolls no Defense.
    game.tap(rebooted.get_by_role("button", name="Resolve the melee"))
    expect(rebooted.locator(".p3-result")).to_contain_text("rolls no Defense")
    # 3. The gang-up's other pairing: Bo attacks and misses (no push back: still in melee).
    enter_dice(gang_up.locator("form"), npc=1, character=0)
    game.tap(gang_up.get_by_role("button", name="Resolve the melee"))
    expect(gang_up.locator(".p3-result")).to_contain_text("Bo")
    hunter = next(d for d in game.state()["decisions"] if d["bot_id"] == hunt)
    assert [a["status"] for a in hunter["actions"] if a["action"] == "melee"] == ["done"]  # one attack, once
    expect(page.locator("#shots-held")).to_have_count(0)

    # 4. The shot goes at Bo instead: its facts are asked by the button, and Bo is in a melee.
    shot.locator(f"#section-shoot-{sent} > summary").click()
    shot.get_by_role("radiogroup", name="Target", exact=True).get_by_text("Bo", exact=True).click()  # a chip
    button = shot.locator(f"#shoot-{sent}-confirm")
    expect(button).to_have_text("Shoot Bo: in sight and in range now")
    expect(button).to_be_enabled()
    expect(shot.locator(".p3-melee summary")).to_contain_text("Bo is in a melee with Hunter-1")
    game.tap(button)
    expect(shot.locator(".p3-result")).to_contain_text("Black Die")
    expect(page.locator("#panel-log li.log-step").first).to_contain_text("Black Die")

    # 5. Undo: the view stays on the turn panel, with the shot asked again in view.
    page.locator("#panel-log").scroll_into_view_if_needed()
    page.locator("#phase-hint").evaluate("e => window.scrollBy(0, e.getBoundingClientRect().top - 72)")
    game.tap(page.locator("#undo-last"))
    expect(shot.locator(".p3-result")).to_have_count(0)  # asked again
    expect(shot.locator(f"#section-shoot-{sent} > summary")).to_be_in_viewport()
    expect(page.locator("#panel-log")).not_to_be_in_viewport()
    page.close()


def test_skip_the_rest_and_go_to_phase_3_really_asks_first(browser, live_server):
    page = browser.new_page(viewport=SCREEN)
    game = Game(page, live_server.url)
    game.command({"type": "next_phase"})
    page.goto(f"{live_server.url}/g/{game.token}")
    asked: list[str] = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    skip = page.get_by_role("button", name="Skip the rest and go to Phase 3")
    page.once("dialog", lambda d: answer(d, False))
    skip.click()
    expect(page.locator("#panel-turn")).to_have_attribute("data-phase", "2")  # cancelled: nothing sent
    assert asked and "will not activate this turn" in asked[0] and "Hunter-1" in asked[0]
    assert game.state()["phase"] == 2
    page.once("dialog", lambda d: answer(d, True))
    skip.click()
    expect(page.locator("#panel-turn")).to_have_attribute("data-phase", "3")
    assert len(asked) == 2 and game.state()["phase"] == 3
    page.close()
