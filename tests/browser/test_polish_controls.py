"""In real Chromium: rule badges explain themselves in place (touch, mouse, keyboard); End turn
waits for the position checks (R-END-CHECK); Phase 2's planned order folds into "Activate next"
(R-ACT-ORDER); a Character Shoot into a melee shows where a Blank sends it (R-CMB-TARGET); the
landscape tablet sees the phase's first control without scrolling; a stream answering 404 ends
the page's retrying; the home page leads with saved games."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_turn_polish import command, new_game, open_page
from tests.support.layout import layout_problems

FIRST_CONTROL = """() => {
  const phase = document.querySelector('#panel-turn .phase');
  const el = [...phase.querySelectorAll('form input:not([type=hidden]), form select, form button, button[form], .pick-list a, summary')]
    .find(e => e.checkVisibility());  // a closed <details> hides its content, not its box
  const r = el.getBoundingClientRect();
  return {bottom: r.bottom, what: el.outerHTML.slice(0, 80), height: innerHeight, scrolled: scrollY};
}"""


def ids(url: str, game: dict) -> dict[str, str]:
    from tests.support import http

    state = http.get(f"{url}/api/games/{game['edit_token']}", timeout=10).json()
    return {m["name"]: m["id"] for m in state["characters"] + state["bots"]}


@pytest.mark.parametrize("width, height", [(1024, 768), (768, 1024)], ids=["landscape", "portrait"])
def test_the_first_control_of_every_phase_shows_without_scrolling(browser, live_server, artifacts, width, height):
    url = live_server.url
    game = new_game(url, "Layout")
    page = open_page(browser, url, game["edit_url"], width, height)
    for phase in (1, 2, 3, 4):
        if phase > 1:  # the page opened afresh at this phase, in the same tab
            page.goto(url + game["edit_url"])
            page.wait_for_selector('#live-status[data-state="live"]')
        first = page.evaluate(FIRST_CONTROL)
        assert first["scrolled"] == 0 and first["bottom"] <= first["height"], (phase, first)
        assert page.locator("#panel-status").bounding_box()["y"] < height  # the status is on screen too
        assert layout_problems(page) == []
        for theme in ("dark", "light"):
            page.evaluate(f"document.documentElement.dataset.theme = '{theme}'")
            page.screenshot(path=str(artifacts / f"polish2-phase{phase}-{width}x{height}-{theme}.png"))
        if phase < 4:
            command(url, game, {"type": "next_phase"})
    page.context.close()


def test_a_rule_badge_shows_its_summary_in_place_by_tap_and_by_keyboard(browser, live_server):
    url = live_server.url
    game = new_game(url)
    command(url, game, {"type": "next_phase"})
    command(url, game, {"type": "next_phase"})
    command(url, game, {"type": "next_phase"})
    page = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True).new_page()
    page.goto(url + game["edit_url"])
    page.wait_for_selector('#live-status[data-state="live"]')
    badge = page.locator("#checks-heading a.rule")
    expect(badge).to_have_text("R-END-CHECK")
    box = badge.bounding_box()
    assert box["height"] >= 14  # the visible badge; its ::after stretches the tap target to 44px
    badge.tap()
    tip = page.locator("#checks-heading .rule-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("position check")
    expect(badge).to_have_attribute("aria-expanded", "true")
    assert page.url.endswith(game["edit_url"])  # no new page mid-turn
    badge.focus()
    page.keyboard.press("Enter")
    expect(tip).to_be_hidden()
    page.keyboard.press(" ")
    expect(tip).to_be_visible()
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    expect(badge).to_have_attribute("aria-expanded", "false")
    page.keyboard.press("Enter")
    tip.get_by_role("link", name="All rules").click()  # the player asks for the whole list
    expect(page.locator("#R-END-CHECK")).to_be_visible()
    assert page.url.endswith("/rules#R-END-CHECK")
    page.context.close()


def test_R_END_CHECK_end_turn_is_disabled_until_the_checks_are_answered(browser, live_server):
    url = live_server.url
    game = new_game(url)
    for _ in range(3):
        command(url, game, {"type": "next_phase"})
    page = open_page(browser, url, game["edit_url"], 1024, 768)
    end = page.get_by_role("button", name="End turn 1")
    expect(end).to_be_disabled()
    expect(page.locator("#end-turn-wait")).to_be_visible()
    for bot in ("Sentry-1", "Patrol-1"):
        page.locator(f"article[data-bot='{bot}']").get_by_role("button", name="Yes: passed").click()
        expect(page.locator(f"ul.check-results li[data-bot='{bot}']")).to_be_visible()
    expect(end).to_be_enabled()
    expect(page.locator("#end-turn-wait")).to_have_count(0)
    page.context.close()


def test_R_ACT_ORDER_one_control_picks_the_next_bot_and_the_planned_order_opens_on_request(browser, live_server):
    url = live_server.url
    game = new_game(url)
    command(url, game, {"type": "next_phase"})
    page = open_page(browser, url, game["edit_url"], 1024, 768)
    expect(page.locator("#pick-bot .pick-list a")).to_have_count(4)
    expect(page.locator("ol.order-list")).to_be_hidden()
    page.locator("#section-order > summary").focus()
    page.keyboard.press("Enter")
    expect(page.locator("ol.order-list")).to_be_visible()
    page.locator(f"#order-down-{ids(url, game)['Hunter-1']}").click()
    expect(page.locator("ol.order-list li").first).to_have_attribute("data-bot", "Sentry-1")
    expect(page.locator("#section-order")).to_have_attribute("open", "")
    assert layout_problems(page) == []
    page.context.close()


def test_R_CMB_TARGET_ticking_a_melee_shows_the_odds_where_a_blank_sends_the_shot(browser, live_server):
    url = live_server.url
    game = new_game(url)
    page = open_page(browser, url, game["edit_url"], 1024, 768)
    page.locator("#section-shoot > summary .step-title").click()
    form = page.locator("#form-shoot")
    form.get_by_label("Target AI-Bot").select_option(label="Sentry-1")
    expect(page.locator("#shoot-odds-blank")).to_have_count(0)
    form.locator("fieldset.ticks").get_by_label("Bo").check()
    expect(page.locator("#shoot-odds-blank")).to_contain_text("If the Black Die sends the shot to Bo:")
    page.context.close()


@pytest.mark.parametrize("status, state, notice", [
    (404, "gone", "This game is gone or its link was replaced"),
    (503, "reconnecting", None),
], ids=["404 gone: stop", "503: keep trying"])
def test_a_stream_answering_404_says_the_game_is_gone_and_stops_retrying(browser, live_server, status, state, notice):
    url = live_server.url
    game = new_game(url, roster=False)
    page = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
    asked: list[str] = []

    def answer(route):
        asked.append(route.request.url)
        route.fulfill(status=status, body="No game opens with this link.")

    page.route("**/events", answer)
    page.clock.install()  # the page's timers (the back-off) run on a clock the test moves on
    page.goto(url + game["edit_url"])
    expect(page.locator("#live-status")).to_have_attribute("data-state", state)
    if notice:
        expect(page.locator("#live-gone")).to_contain_text(notice)
        later(page, 2500)  # past the first back-off steps (0.5 s, 1 s)
        settled = len(asked)
        later(page, 130_000)  # past every back-off step (up to 64 s), twice
        assert len(asked) == settled <= 3  # the stream, the check, at most one retry already on its way
        expect(page.locator("#live-status")).to_have_attribute("data-state", "gone")
    else:
        for _ in range(8):  # a second of the page's time at a time, until it has tried again twice
            if len(asked) >= 3:
                break
            later(page, 1000)
        assert len(asked) >= 3 and not page.locator("#live-gone").count()
    page.context.close()


def later(page, ms: int) -> None:
    """`ms` of the page's time at once (its timers fire), then a moment of real time for a request
    a timer started to reach the route that counts it."""
    page.clock.fast_forward(ms)
    page.wait_for_timeout(200)


def test_the_home_page_leads_with_saved_games_and_the_file_picker_is_a_44px_button(browser, live_server):
    url = live_server.url
    game = new_game(url, "Night shift", roster=False)
    page = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
    page.goto(url + game["edit_url"])  # opened on this device, so its home page lists it
    page.goto(url + "/")
    order = page.evaluate("[...document.querySelectorAll('main > section')].map(s => s.id)")
    assert order == ["saved-games", "new-game", "exchange"]
    sizes = page.evaluate("""() => {
        const input = document.getElementById('import-file');
        return {input: input.getBoundingClientRect().height,
                button: parseFloat(getComputedStyle(input, '::file-selector-button').minHeight)};
    }""")
    assert sizes["input"] >= 44 and sizes["button"] >= 40, sizes
    assert layout_problems(page) == []
    page.context.close()


FOCUS_LOW_CONTROLS = """() => {
  // every visible control below the fold, brought into view the least distance (as a browser does
  // for a field or a result): it must not end up under the fixed Undo bar
  const hidden = [];
  const controls = [...document.querySelectorAll('#panel-turn button, #panel-turn select, #panel-turn summary')]
    .filter(e => e.checkVisibility() && e.getBoundingClientRect().top > innerHeight);
  for (const el of controls) {
    window.scrollTo(0, 0);
    el.scrollIntoView({block: "nearest"});  // as the browser brings a field or a result into view
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!top || !(el === top || el.contains(top))) hidden.push(el.outerHTML.slice(0, 60));
  }
  return {checked: controls.length, hidden};
}"""


def test_a_control_scrolled_into_view_is_never_under_the_undo_bar(browser, live_server):
    """The fixed Undo bar keeps its height out of the scroll (scroll-padding), so a control the
    browser scrolls to (focus, a form's invalid field, a result) is visible and tappable."""
    game = new_game(live_server.url, "Out from under")
    page = open_page(browser, live_server.url, game["edit_url"], 768, 1024)
    found = page.evaluate(FOCUS_LOW_CONTROLS)
    assert found["checked"] > 0 and found["hidden"] == [], found
