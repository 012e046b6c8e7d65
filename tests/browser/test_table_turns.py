"""Six turns at a real table (issue 18), played in a row on the sample roster in real Chromium at
768×1024: Characters that shoot, Events with names, a gang-up, shots into a melee, an empty gun, a
Patrol's first leg, dice rolled by hand. Every click, typed field and select goes through the
counter; the game state is asserted after each step; the inputs per turn land in
test-artifacts/table-speed.json under "turns". The test records the figures, never the goals.

Where a roll leaves the models elsewhere than the story assumes (a push back, a miss), the player
reports the facts as listed, as a player who moved the models so would (the scenario's rule)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from app.rulesets.potham2038.ruleset import BOTS, SAMPLE
from tests.support import http
from tests.support import table_play as tp
from tests.support.axe import A11Y_JSON, NewStates
from tests.support.table_play import Board, Player
from tests.support.tap_watch import TapWatch
from tests.support.waits import shows_step

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
BOT_NAMES = ("Hunter-1", "Sentry-1", "Worker-1", "Patrol-1")


def start(url: str) -> str:
    """The sample roster in a seeded game, and the one roster edit the scenario does not count:
    Patrol-1 carries a gun (2 red, range 12")."""
    token = http.post(f"{url}/api/games", json={"name": "Six turns", "seed": 2038}).json()["edit_token"]
    for command in SAMPLE:
        http.post(f"{url}/api/games/{token}/commands", json=command).raise_for_status()
    state = http.get(f"{url}/api/games/{token}").json()
    patrol = next(b for b in state["bots"] if b["name"] == "Patrol-1")
    sheet = next(b for b in BOTS if b["name"] == "Patrol-1") | {"shoot": {"red": 2}, "shoot_range": 12}
    http.post(f"{url}/api/games/{token}/commands",
              json={"type": "edit_bot", "id": patrol["id"], "bot": sheet}).raise_for_status()
    return token


def snap(p: Player, artifacts: Path, name: str, anchor: str) -> None:
    """A busy phase as the player sees it at the page's size, from `anchor` as after a step (below
    the top bar); the 768×1024 copy under docs/screenshots changes only when asked
    (UPDATE_SCREENSHOTS=1) or when missing."""
    p.page.locator(anchor).first.evaluate(
        "e => window.scrollBy(0, e.getBoundingClientRect().top - document.querySelector('.topbar').getBoundingClientRect().bottom - 6)")
    size = p.page.viewport_size
    shot = artifacts / f"turns-{name}-{size['width']}x{size['height']}.png"
    p.page.screenshot(path=str(shot))
    target = DOCS / shot.name
    if size["width"] == 768 and (os.environ.get("UPDATE_SCREENSHOTS") or not target.exists()):
        DOCS.mkdir(parents=True, exist_ok=True)
        shutil.copy(shot, target)


def watch_snap(p: Player, artifacts: Path, name: str) -> None:
    """The watch link (the co-player's device) at the same size, as it stands now: its decision cards."""
    size = p.page.viewport_size
    page = p.page.context.new_page()
    page.goto(p.url + p.api()["view_url"])
    expect(page.locator("#watch-cards")).to_be_visible()
    page.locator("#watch-cards").evaluate(
        "e => window.scrollBy(0, e.getBoundingClientRect().top - document.querySelector('.topbar').getBoundingClientRect().bottom - 6)")
    page.screenshot(path=str(artifacts / f"turns-{name}-{size['width']}x{size['height']}.png"))
    page.close()


def heal(p: Player) -> None:
    """Between turns, not counted: a Character the app's dice brought low is put back at full
    Health (a correction through the API, logged like any step), so both stay on the table for
    the six turns the scenario tells. Every other fact stays as the game left it. The open page
    takes the correction from its live stream, as a second device's would (no reload)."""
    state = p.api()
    seq = state["seq"]
    for c in state["characters"]:
        if c["health"] < c["max_health"]:
            http.post(f"{p.url}/api/games/{p.token}/commands",
                      json={"type": "adjust", "target_id": c["id"], "health": c["max_health"]}).raise_for_status()
            seq += 1
    shows_step(p.page, seq)
    expect(p.page.locator("#phase-1")).to_be_visible()


def activate_all(p: Player, boards: dict[str, Board]) -> None:
    """Each AI-Bot with its board, in the order the page proposes (R-ACT-ORDER: the order is the
    player's; the scenario sets none, so the player takes the page's next one)."""
    left = dict(boards)
    while left:
        heading = p.page.locator("#activate-heading").inner_text()
        bot = next((b for b in left if heading.startswith(f"Activate {b}")), next(iter(left)))
        with p.taps.section(f"{p.taps.part}/activate/{bot}"):
            tp.activate(p, bot, left.pop(bot))
        expect(p.page.locator(f"#card-{p.id(bot)}")).to_be_visible()


def turn_a(p: Player, artifacts: Path) -> None:
    """First contact."""
    tp.entered_zone(p, "Sentry-1", "Vex")
    assert p.model("Vex")["marked"] == 1  # R-MARK-MOVE
    tp.noise(p, "Rook", "Worker-1")
    assert p.model("Rook")["marked"] == 1 and p.api()["danger"] == 1  # R-NOISE
    tp.event(p, "Power surge", 1)  # Phase 1 ends with the Event's Danger button
    assert p.api()["danger"] == 2 and p.api()["event"] == "Power surge" and p.api()["phase"] == 2
    activate_all(p, {
        "Hunter-1": Board(sight=["Rook"], at={"Rook": 7, "Vex": 16}),
        "Sentry-1": Board(zone=["Vex"], sight=["Vex"], at={"Vex": 2, "Rook": 15}, own={"Vault": 1}),
        "Worker-1": Board(at={"Vex": 14, "Rook": 8}, own={"Console": 5}),
        "Patrol-1": Board(at={"Vex": 20, "Rook": 18}, own={"Gate": 0, "Fountain": 9}),
    })
    assert p.decision("Hunter-1")[0] == "run"  # 7": more than a Walk, within a Run: it charges Rook
    assert "melee" in p.decision("Sentry-1")  # Vex inside its zone
    assert p.decision("Worker-1")[0] in ("walk", "run")  # toward Console, 5" away
    assert p.decision("Patrol-1")[0] in ("walk", "run")  # on Gate: on toward Fountain
    snap(p, artifacts, "2-phase2", "#phase-hint")
    watch_snap(p, artifacts, "watch-phase2")
    tp.next_phase(p, 2)
    danger = p.api()["danger"]
    done = tp.phase3(p)
    assert {"Sentry-1 vs Vex", "Hunter-1 vs Rook"} <= set(done)
    assert p.api()["danger"] == danger + 1  # R-CMB-DANGER, once for both
    tp.every_check_passed(p)  # from the settled Phase 3: Phase 4, the checks and the end in one tap
    assert p.api()["turn"] == 2 and all(c["marked"] == 0 for c in p.api()["characters"])  # R-MARK-CLEAR


def turn_b(p: Player, artifacts: Path) -> None:
    """Gun line."""
    hunter = p.model("Hunter-1")["health"]
    tp.character_shoot(p, "Vex", "Hunter-1")
    assert p.model("Hunter-1")["health"] <= hunter
    tp.distracted(p, "Rook", ["Hunter-1"])
    assert p.model("Rook")["distracted"] == 1  # R-DISTRACTED
    snap(p, artifacts, "1-phase1", "#phase-hint")
    danger = p.api()["danger"]
    tp.event(p, "Lockdown", 2, marked={"Vex": 1})
    assert p.api()["danger"] == danger + 2 and p.model("Vex")["marked"] == 1
    activate_all(p, {
        "Hunter-1": Board(sight=["Vex", "Rook"], at={"Vex": 7, "Rook": 12}),
        "Sentry-1": Board(sight=["Vex"], at={"Vex": 7, "Rook": 16}, own={"Vault": 1}),
        "Worker-1": Board(at={"Vex": 14, "Rook": 9}, own={"Console": 0}, still={"Console"}),
        "Patrol-1": Board(sight=["Rook"], at={"Vex": 15, "Rook": 10}, own={"Fountain": 2, "Depot": 11}),
    })
    assert p.decision("Hunter-1")[0] == "run"  # Vex, the closest, within a Run
    assert "shoot" in p.decision("Sentry-1") and "shoot" in p.decision("Patrol-1")
    assert "activate" in p.decision("Worker-1")  # R-ROLE-WORKER: in contact, it works
    tp.next_phase(p, 2)
    snap(p, artifacts, "3-phase3", "#phase-hint")
    done = tp.phase3(p, {("Sentry-1", "shot"): {"cover": "heavy"}, ("Patrol-1", "shot"): {
        "dice": {"rolls.attack": (1, 1), "rolls.defense": (1, 0)}, "ammo": "blank"}})
    assert done[0] == "Hunter-1 vs Vex" and "Patrol-1 shoots" in done  # melee first (R-CMB-GANGUP)
    assert p.model("Patrol-1")["out_of_ammo"]  # R-CMB-AMMO: the Critical's check failed
    tp.every_check_passed(p)
    assert p.api()["turn"] == 3


def turn_c(p: Player, artifacts: Path) -> None:
    """Gang-up."""
    tp.entered_zone(p, "Hunter-1", "Vex")
    tp.entered_zone(p, "Hunter-1", "Rook")
    tp.alarm(p, "Rook", ["Hunter-1"])
    assert p.model("Vex")["marked"] == 1 and p.model("Rook")["marked"] == 2  # R-ALARM: one per zone
    danger = p.api()["danger"]
    tp.event(p, "Magnetic surge", 1)
    assert p.api()["danger"] == danger + 1
    activate_all(p, {
        "Hunter-1": Board(contact=["Vex", "Rook"], sight=["Vex", "Rook"], at={}, pick="Rook"),
        "Sentry-1": Board(sight=["Vex"], at={"Vex": 12, "Rook": 13}, own={"Vault": 14}),
        "Worker-1": Board(at={"Vex": 14, "Rook": 13}, own={"Console": 0}, still={"Console"}),
        "Patrol-1": Board(at={"Vex": 20, "Rook": 19}, own={"Fountain": 0, "Depot": 9}),
    })
    assert p.decision("Hunter-1")[0] == "melee"
    tp.next_phase(p, 2)
    done = tp.phase3(p)
    assert done[0].startswith("Hunter-1 vs")  # R-CMB-GANGUP: the engagements before any shot
    tp.check_fails(p, "Sentry-1", 1)
    snap(p, artifacts, "4-phase4", "#turn-news")
    assert p.model("Sentry-1")["glitches"][0]["result"] == "reboot"  # R-GLITCH: 1 is Reboot
    assert p.api()["phase"] == 4 and p.api()["position_checks"] == {p.id("Sentry-1"): False}
    tp.every_check_passed(p)  # "Every other check passed · end the turn"
    assert p.api()["turn"] == 4


def turn_d(p: Player, artifacts: Path) -> None:
    """Rebooted."""
    patrol = p.model("Patrol-1")["health"]
    tp.character_shoot(p, "Vex", "Patrol-1", dice={"attack": (1, 1), "defense": (1, 0)})
    assert 0 < p.model("Patrol-1")["health"] <= patrol  # a Critical is not blocked by a plain Hit
    marked = p.model("Vex")["marked"]
    tp.base_contact(p, "Vex", "Sentry-1")  # walked in from outside its zone
    assert p.model("Vex")["marked"] == marked + 1  # R-ZONE: base contact is inside the zone (R-MARK-MOVE)
    tp.event(p, "Blackout", 1)
    activate_all(p, {
        "Sentry-1": Board(),
        "Hunter-1": Board(contact=["Rook"], sight=["Rook"], at={"Vex": 4}),
        "Worker-1": Board(at={"Vex": 14, "Rook": 13}, own={"Console": 0}, still={"Console"}),
        "Patrol-1": Board(sight=["Rook"], at={"Vex": 12, "Rook": 6}, own={"Fountain": 0, "Depot": 6, "Gate": 15}),
    })
    assert p.decision("Sentry-1") == []  # R-GLITCH: rebooted, no action at all
    tp.next_phase(p, 2)
    done = tp.phase3(p, {("Hunter-1", "Rook"): {"counter": True}})
    # both engagements before any shot (R-CMB-GANGUP); Sentry-1's from Vex's Phase 1 contact, where
    # the rebooted bot never attacks: Vex does (R-CMB-WHO)
    assert set(done[:2]) == {"Hunter-1 vs Rook", "Sentry-1 vs Vex"}
    expect(p.page.locator("#panel-log")).to_contain_text("rolls no Defense")
    tp.check_fails(p, "Sentry-1", 3)
    tp.every_check_passed(p)
    assert p.api()["turn"] == 5
    assert not any(g["result"] == "reboot" and g["turns_left"] for g in p.model("Sentry-1")["glitches"])


def turn_e(p: Player, artifacts: Path) -> None:
    """Quiet."""
    tp.event(p, "", 1)  # unnamed: one tap
    activate_all(p, {
        "Hunter-1": Board(at={"Vex": 20, "Rook": 20}),
        "Sentry-1": Board(at={"Vex": 20, "Rook": 20}, own={"Vault": 6}),
        "Worker-1": Board(at={"Vex": 20, "Rook": 20}, own={"Console": 0}, still={"Console"}),
        "Patrol-1": Board(at={"Vex": 20, "Rook": 20}, own={"Fountain": 0, "Depot": 6, "Gate": 15}),
    })
    assert p.decision("Hunter-1")[0] == "random_move"  # R-ROLE-HUNTER: nobody to hunt
    assert p.decision("Sentry-1")[0] == "walk"  # back to its post
    tp.next_phase(p, 2)  # Phase 3 lists nothing: on to Phase 4 in one tap
    assert p.api()["phase"] == 4
    tp.every_check_passed(p)
    assert p.api()["turn"] == 6


def turn_f(p: Player, artifacts: Path) -> None:
    """Hack."""
    tp.hack(p, "Vex", "Sentry-1", "Defense", opposing="Defense", diagnostics=True)
    log = p.page.locator("#panel-log")  # R-HACK: against Sentry-1's own Defense; R-HACK-HELP: DIAGNOSTICS
    expect(log).to_contain_text("Vex's hacking attempt with Defense")
    expect(log).to_contain_text("(Sentry-1's Defense)")
    expect(log).to_contain_text("DIAGNOSTICS helps")
    tp.character_shoot(p, "Rook", "Worker-1", dice={"attack": (3, 0), "defense": (0, 0)})
    assert p.model("Worker-1")["health"] == 0  # out of action
    tp.event(p, "Reinforcements", 1)
    tp.add_bot_from_role(p, "Hunter", "Hunter-2")
    activate_all(p, {
        "Hunter-1": Board(contact=["Rook"], sight=["Rook"], at={"Vex": 6}),
        "Hunter-2": Board(sight=["Rook"], at={"Rook": 14, "Vex": 18}),
        "Sentry-1": Board(zone=["Vex"], sight=["Vex"], at={"Vex": 3, "Rook": 12}, own={"Vault": 1}),
        "Patrol-1": Board(sight=["Vex"], at={"Vex": 8, "Rook": 15}, own={"Fountain": 0, "Depot": 3, "Gate": 9}),
    })
    tp.next_phase(p, 2)
    assert tp.phase3(p)  # every engagement and shot, from the top
    tp.every_check_passed(p)
    assert p.api()["turn"] == 7


TURNS = {"A": turn_a, "B": turn_b, "C": turn_c, "D": turn_d, "E": turn_e, "F": turn_f}


def figures(p: Player) -> dict[str, dict]:
    out = {}
    for turn in TURNS:
        inputs = p.taps.total(f"turn {turn}")
        bots = {part for part, _, _ in p.taps.log if part.startswith(f"turn {turn}/activate/")}
        asked = sum(p.taps.total(part) for part in bots)
        per = round(asked / len(bots), 2) if bots else None
        named = sum(1 for part, kind, _ in p.taps.log if part.startswith(f"turn {turn}") and kind == "type"
                    and part.endswith("/name"))  # a name the player chooses to give
        out[turn] = {"inputs": inputs, "activations": len(bots), "inputs_per_activation": per,
                     "typed": p.taps.kinds(f"turn {turn}").get("type", 0), "typed_names": named,
                     "by_kind": p.taps.kinds(f"turn {turn}"),
                     "by_activation": {part.rsplit("/", 1)[1]: p.taps.total(part) for part in sorted(bots)}}
    return out


# Each run plays the six turns at one screen size and CPU speed: the tablet at this machine's speed,
# and the phone with Chromium's CPU throttled 4x (DevTools' mid-range mobile setting) as a slow
# tablet or phone has it. Both record their tap times and where the next control was.
RUNS = [pytest.param((768, 1024), 1, id="768x1024"), pytest.param((390, 844), 4, id="390x844-cpu4")]


@pytest.mark.parametrize(("size", "cpu"), RUNS)
def test_six_turns_at_a_real_table_are_played_and_their_inputs_counted(browser, live_server, artifacts, size, cpu):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=True)
    page = context.new_page()  # in a context of its own: the watch link opens beside it (watch_snap)
    if cpu > 1:
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu})
    p = Player(page, live_server.url, start(live_server.url))
    p.watch = TapWatch(page, p.taps)
    page.goto(f"{live_server.url}/g/{p.token}")
    expect(page.locator("#phase-1")).to_be_visible()
    # axe (WCAG 2.2 AA, both themes, both sizes) on each new kind of state the turns pass through,
    # on the play page and on a watch page following it live: in the tablet's run (it checks the
    # phone's size too), after each step's time is taken
    if cpu == 1:
        watcher = browser.new_page(viewport={"width": 768, "height": 1024})
        watcher.goto(live_server.url + page.locator("#share-watch-url").input_value().removeprefix(live_server.url))
        p.audits = [(page, NewStates(), "play"), (watcher, NewStates(), "watch")]
    for name, play in TURNS.items():
        heal(p)
        p.watch.phase1_shape()
        with p.taps.section(f"turn {name}"):
            try:
                play(p, artifacts)
            except Exception:
                page.screenshot(path=str(artifacts / f"turns-failed-{name}-{width}x{height}.png"), full_page=True)
                raise
    turns = figures(p)
    run = f"{width}x{height}" + (f"@cpu{cpu}" if cpu > 1 else "")
    seen = p.watch.figures()
    path = artifacts / "table-speed.json"  # merged: other browser tests (and the other run) write their own keys
    known = json.loads(path.read_text()) if path.exists() else {}
    runs = known.get("turn_runs", {}) | {run: {"turns": turns, "phase3_panel": p.sizes, **seen}}
    mine = {"turn_runs": runs, f"next_offscreen_{width}x{height}": seen["next_offscreen"],
            f"phase1_cards_to_event_px_{width}x{height}": seen["phase1_cards_to_event_px"],
            f"phase3_fold_open_px_{width}x{height}": seen["phase3_fold_open_px"],
            f"sticky_chrome_px_{width}x{height}": seen["sticky_chrome_px"],
            "tap_to_panel_ms_cpu4" if cpu == 4 else "tap_to_panel_ms": seen["tap_to_panel_ms"]}
    if (width, height) == (768, 1024):
        mine |= {"turns": turns, "turns_phase3_panel": p.sizes}
    path.write_text(json.dumps(known | mine, indent=2) + "\n")
    (artifacts / f"table-turns-inputs-{run}.txt").write_text(  # every input, for reading where they go
        "".join(f"{part}\t{kind}\t{what}\n" for part, kind, what in p.taps.log))
    print(f"\nsix turns at {run}:", json.dumps(turns), "\nturn panel as each Phase 3 starts:", json.dumps(p.sizes),
          "\nseen:", json.dumps({k: v for k, v in seen.items() if not k.endswith("_which")}))
    assert all(t["inputs"] > 0 for t in turns.values())
    assert seen["taps_timed"] > 0 and seen["next_checked"] > 0  # the watch saw the taps (figures, not goals)
    for _, audit, name in p.audits:
        audit.write(A11Y_JSON, f"six table turns, {name} page")
    failures = [line for _, audit, _ in p.audits for line in audit.failures()]
    assert not failures, "axe found:\n" + "\n".join(failures)
    context.close()
