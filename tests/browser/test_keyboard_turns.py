"""A whole turn by keyboard alone in each ruleset (WCAG 2.1.1, 2.4.3, 2.4.7, 4.1.3), in real
Chromium at 768×1024: Tab and Shift+Tab reach every control used, Enter and Space work them,
the focus is visible at every stop and, after each step, is on the step's result or on the
control that goes on (never lost to the page's top); the polite live region (#turn-announcer)
then says the step in one concise sentence, read after each step (tests/support/keyboard.py).

The sample game of each ruleset (the home page's "Start a sample … game" roster): one 2038 table
turn (Phase 1 to the end of the turn), one zone round and one d20 round."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from tests.support.keyboard import Keyboard

ONE_SENTENCE_MAX = 400  # a sentence a screen reader reads in a breath, not a panel


def sample(url: str, ruleset: str) -> str:
    answer = httpx.post(f"{url}/games/sample", data={"ruleset": ruleset}, headers={"Origin": url})
    assert answer.status_code == 303, answer.text
    return answer.headers["location"]


def start(browser, url: str, ruleset: str) -> tuple[Page, Keyboard]:
    page = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
    page.goto(url + sample(url, ruleset))
    kb = Keyboard(page)
    kb.press("Tab")  # the first stop: the skip link, shown while focused
    expect(page.locator("a.skip-link")).to_be_focused()
    assert kb.focused()["ring"] and page.locator("a.skip-link").bounding_box()["y"] >= 0
    kb.press("Enter")
    expect(page.locator("main")).to_be_focused()
    return page, kb


def concise(said: str, *words: str) -> None:
    """One sentence of the step, not the panel: the words asked for, ending with a full stop."""
    assert said and len(said) <= ONE_SENTENCE_MAX and said.endswith("."), said
    for word in words:
        assert word in said, (word, said)


def ids(page: Page, selector: str) -> list[str]:
    return page.eval_on_selector_all(selector, "els => els.map(e => e.id)")


def test_a_2038_table_turn_by_keyboard_alone(browser, live_server):
    page, kb = start(browser, live_server.url, "potham-2038")
    # Phase 1: an AI-Bot inside a Character's zone (R-MARK-MOVE), then the Event's Danger button
    # (Phase 1 done and the Event: one logged step since the fourth reading, docs/rules.md § 5.6)
    concise(kb.step("#section-characters button[name='entries[]']"), "Movement")
    concise(kb.step("#event-danger-1", key="Space"), "Event", "Danger")
    expect(page.locator("#status-phase")).to_contain_text("Phase 2")
    # Phase 2: every AI-Bot activated by answering its questions, each a button
    activations = 0
    while page.locator("#form-ask").count():
        seq = page.evaluate("() => Number(document.getElementById('panel-turn').dataset.seq)")
        first = ("#ask-decide", "#ask-nobody-sees-nobody", "#ask-nobody", "#ask-direction-roll",
                 "#form-ask .tap-row button:first-child")
        kb.answer(next(s for s in first if page.locator(s).count()))
        assert kb.focused() is not None, "the focus went to the page's top after an answer"
        if page.evaluate("() => Number(document.getElementById('panel-turn').dataset.seq)") > seq:
            activations += 1
            concise(kb.after_step("an activation"), "Activation:")
        assert activations <= 8
    assert activations >= 1
    # on to Phase 3 or 4, Phase 3's cards one primary button each, then the checks and the end
    if page.locator("#to-phase-4").count():
        kb.step("#to-phase-4", steps=2)
    else:
        kb.step("#form-next-2 button[type=submit]")
        for _ in range(12):
            open_cards = ids(page, "#phase-3 article.p3-card:not(.settled):has(button.primary:not([disabled]))")
            if not open_cards:
                break
            concise(kb.step(f"#{open_cards[0]} button.primary:not([disabled])"))
    due = page.locator("article.check-card").count()
    ahead = 1 if page.locator("#phase-3").count() else 0
    if due:
        concise(kb.step("#checks-end", steps=ahead + due + 1), "End of turn")
    else:
        concise(kb.step("#end-turn", key="Space", steps=ahead + 1), "End of turn")
    expect(page.locator("#status-turn")).to_have_text("Turn 2")
    assert all(stop["ring"] for stop in kb.path)
    print(f"\n2038 turn by keyboard: {kb.presses} key presses; said: {kb.said}")


def decide_every_npc(page: Page, kb: Keyboard, prefix: str, facts) -> None:
    """Each NPC still to act: its fold opened by Enter on its heading, `facts(kb, npc)` given by
    keys, then its Decide button; the live region says the decision."""
    for _ in range(8):
        waiting = ids(page, f"details[id^={prefix}-activate-]")
        if not waiting:
            return
        npc = waiting[0].removeprefix(f"{prefix}-activate-")
        if page.locator(f"#{waiting[0]}").get_attribute("open") is None:
            kb.tab_to(f"#{waiting[0]} > summary")
            kb.press("Enter")
            expect(page.locator(f"#{waiting[0]}")).to_have_attribute("open", "")
        facts(kb, npc)
        name = page.locator(f"#{prefix}-decide-{npc}").inner_text().removeprefix("Decide ").split("'s ")[0]
        concise(kb.step(f"#{prefix}-decide-{npc}"), name)
    raise AssertionError("NPCs still waiting after 8 decisions")


def roll_every_attack(page: Page, kb: Keyboard, prefix: str) -> None:
    for _ in range(8):
        rolls = ids(page, f"button[id^={prefix}-roll-]")
        if not rolls:
            return
        concise(kb.step(f"#{rolls[0]}", key="Space"))
    raise AssertionError("attacks still to roll after 8")


def test_a_zone_round_by_keyboard_alone(browser, live_server):
    page, kb = start(browser, live_server.url, "zone")

    def bands(kb: Keyboard, npc: str) -> None:  # the first Character's band and the NPC's goal,
        asked = ids(page, f"#zone-activate-{npc} select")  # each chosen by its arrow key
        for select in [asked[0]] + [a for a in asked if a.endswith(("-goal", "-next"))]:
            kb.tab_to(f"#{select}")
            kb.press("ArrowDown")
            assert page.locator(f"#{select}").input_value() != ""

    decide_every_npc(page, kb, "zone", bands)
    roll_every_attack(page, kb, "zone")
    concise(kb.step("#zone-end-round"), "round")
    expect(page.locator("#status-round")).to_have_text("Round 2")
    print(f"\nzone round by keyboard: {kb.presses} key presses; said: {kb.said}")


def test_a_d20_round_by_keyboard_alone(browser, live_server):
    page, kb = start(browser, live_server.url, "d20")

    def squares(kb: Keyboard, npc: str) -> None:  # each Character's distance typed, the goal too
        for field in ids(page, f"#d20-activate-{npc} input[id$='-sq'], #d20-activate-{npc} input[id$='-goal']"):
            kb.tab_to(f"#{field}")
            kb.type("3")

    decide_every_npc(page, kb, "d20", squares)
    roll_every_attack(page, kb, "d20")
    concise(kb.step("#d20-end-round"), "Round")
    expect(page.locator("#status-round")).to_have_text("Round 2")
    print(f"\nd20 round by keyboard: {kb.presses} key presses; said: {kb.said}")
