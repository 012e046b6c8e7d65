"""The Content-Security-Policy in real Chromium (issue 10 § 4): playing a little on the home page
and the game page (create, theme, roster add, one command, live updates, resume, open a pasted
link) breaks no rule of the policy; htmx, the SSE extension and our scripts all work under it."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_roster import CHARACTERS, add_character
from tests.support import http

BOT = {"name": "Warden-2", "role": "hunter", "melee": {"red": 3}}

# Collected in the page before any of its own scripts run (an init script is not page content).
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", e =>
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


def test_playing_a_little_breaks_no_rule_of_the_content_security_policy(browser, live_server, artifacts):
    context = browser.new_context(viewport={"width": 768, "height": 1024})
    context.add_init_script(WATCH_VIOLATIONS)
    page = context.new_page()
    console = []
    page.on("console", lambda m: console.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    violations = []

    def collect():
        violations.extend(page.evaluate("window.__violations"))

    home = page.goto(live_server.url + "/")
    assert "script-src 'self'" in home.headers["content-security-policy"]
    page.get_by_label("Name").fill("Policy night")
    page.get_by_role("button", name="Create game").click()
    page.wait_for_url("**/g/**")
    play_url = page.url
    expect(page.locator('#live-status[data-state="live"]')).to_be_visible()  # the SSE extension runs

    start = page.evaluate("document.documentElement.dataset.theme")
    page.locator("#theme-toggle").click()  # static/theme.js, no inline handler
    flipped = "light" if start == "dark" else "dark"
    expect(page.locator("html")).to_have_attribute("data-theme", flipped)
    collect()

    token = play_url.rsplit("/g/", 1)[1]
    http.post(f"{live_server.url}/api/games/{token}/commands", json={"type": "add_bot", "bot": BOT},
              timeout=10).raise_for_status()  # another device adds a bot: the page hears it live
    expect(page.locator("#panel-roster li[data-model=bot]")).to_have_count(1)
    add_character(page, CHARACTERS[1])  # htmx posts and swaps
    page.locator("#section-move-many > summary").click()  # the move form with several entries
    move = page.locator("#form-move")
    move.get_by_label("Moving Character").select_option(label=CHARACTERS[1]["Name"])
    move.get_by_label(BOT["name"]).fill("2")
    move.get_by_role("button", name="Record movement").click()
    expect(page.locator("#turn-news")).to_contain_text("Marked")
    collect()

    page.reload()  # the theme chosen survives, set before the first paint by a static file
    expect(page.locator("html")).to_have_attribute("data-theme", flipped)
    watch_url = page.locator("#share-watch-url").input_value()
    collect()

    page.goto(live_server.url + "/")
    row = page.locator("li.game-row", has_text="Policy night")
    row.locator("a.game-link").click()  # one tap resumes
    page.wait_for_url(play_url)
    collect()

    page.goto(live_server.url + "/")
    page.get_by_label("Open a game from its play or watch link").fill(watch_url)
    page.get_by_role("button", name="Open", exact=True).click()
    page.wait_for_url("**/v/**")
    expect(page.locator('#live-status[data-state="live"]')).to_be_visible()
    collect()
    page.screenshot(path=str(artifacts / "csp-watch-768x1024.png"))

    assert violations == []
    assert [m for m in console if "Content Security Policy" in m or "Refused to" in m] == []
    context.close()


def test_swapping_a_panel_after_something_styled_its_inputs_logs_no_content_security_policy_error(
        browser, live_server, artifacts):
    """Issue 18: 2,020 "Applying inline style violates … style-src 'self'" errors in one session.
    Anything that touches an input's style through the DOM (a password manager, a browser
    extension, Playwright's screenshot hiding the caret) leaves `style=""` on it; htmx used to
    settle that attribute onto the swapped-in copy with setAttribute, which the policy refuses.
    The pages carry no style attribute of their own, so htmx settles none."""
    context = browser.new_context(viewport={"width": 768, "height": 1024})
    page = context.new_page()
    console = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.goto(live_server.url + "/")
    page.get_by_role("button", name="Start a sample game").click()
    expect(page.locator("#phase-1")).to_be_visible()
    token = page.url.rsplit("/g/", 1)[1]

    styled = page.evaluate("""() => { let n = 0;
        for (const input of document.querySelectorAll('input:not([type=hidden])')) {
            input.style.caretColor = 'transparent'; input.style.caretColor = ''; n++; }  // CSSOM: allowed
        return n; }""")
    assert styled > 10 and page.locator("[style]").count() == styled  # the attribute is there, empty
    page.screenshot(path=str(artifacts / "csp-styled-inputs-768x1024.png"))
    for n in range(3):  # another device plays: every panel of this page is swapped live
        http.post(f"{live_server.url}/api/games/{token}/commands",
                  json={"type": "add_character", "character": {"name": f"Guest {n}"}}, timeout=10).raise_for_status()
        expect(page.locator("#panel-roster li.roster-item", has_text=f"Guest {n}")).to_have_count(1)
    page.reload()
    expect(page.locator("#phase-1")).to_be_visible()
    page.screenshot(path=str(artifacts / "csp-styled-inputs-768x1024.png"))  # styles the inputs again
    add_character(page, CHARACTERS[1])  # a form posted and swapped by htmx
    policy = [m for m in console if "Content Security Policy" in m]
    assert policy == [], f"{len(policy)} CSP errors, first: {policy[0][:200]}"
    context.close()
