"""The battle report in real Chromium after two table turns played through the page's own forms
(the turns of test_two_turns.py): the report opened from the share panel, printed to PDF (A4 and
Letter), its Markdown and PNG card fetched and each checked against the game's log; the report
link made in the share panel opens the report alone (Open Graph tags, no controls), then revoked
it is 404. Screenshots (390×844 and 1024×768), the PDFs and the card go to test-artifacts/."""

from __future__ import annotations

import io
import re

from playwright.sync_api import expect

from tests.browser.test_two_turns import Game, play_turn_one, play_turn_two
from tests.support import http
from tests.support.layout import layout_problems

ATTACKS = {"resolve_melee", "bot_shoot", "character_shoot"}


def live_attack_lines(url: str, token: str) -> list[str]:
    """The log's attack lines of the live history (an undo takes its steps out)."""
    steps = http.get(f"{url}/api/games/{token}/steps").json()
    live: list[dict] = []
    for step in steps:
        if step["kind"] == "undo":
            to = step["command"]["to_seq"]
            while live and live[-1]["seq"] > to:
                live.pop()
        else:
            live.append(step)
    return [e["text"] for s in live if s["kind"] in ATTACKS for e in s["entries"]
            if "attack_total" in (e.get("dice") or {})]


def test_two_table_turns_make_a_report_printed_posted_and_shared(browser, live_server, artifacts):
    from PIL import Image

    page = browser.new_page(viewport={"width": 1024, "height": 768})
    game = Game(page, live_server.url, artifacts)
    page.goto(f"{live_server.url}/g/{game.token}")
    play_turn_one(game)
    play_turn_two(game)
    lines = live_attack_lines(live_server.url, game.token)
    assert lines, "two turns with melees and shots"

    page.locator("#open-report").click()  # from the share panel
    expect(page.locator("h1#report-heading")).to_have_text("Two turns")
    expect(page.locator("#report-turns")).to_have_text("2 turns")  # the third has just begun: nothing in it
    expect(page.locator(".report-turn h3")).to_have_count(2)
    shown = page.locator(".report-turn li.line-attack").all_inner_texts()
    assert len(shown) == len(lines) and all(line in text for line, text in zip(lines, shown, strict=True))
    state = game.state()
    expect(page.locator("#report-threat tbody tr").nth(1).locator("td")).to_have_text(str(state["danger"]))
    assert page.locator("svg.report-chart title").text_content() == "Danger over the turns"
    # a note, as a step, from the page's own form (same origin)
    page.locator("#turn-1 details.report-edit > summary").click()
    page.get_by_label("Your note for Turn 1").fill("Ada held the line.")
    page.locator("#turn-1 form button[type=submit]").click()
    expect(page.locator("#turn-1 .report-note")).to_have_text("Ada held the line.")

    for width, height in ((390, 844), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        assert [p for p in layout_problems(page) if "scrolls sideways" in p] == [], f"at {width}px"
        page.screenshot(path=str(artifacts / f"report-{width}x{height}.png"), full_page=True)
    for paper in ("A4", "Letter"):
        pdf = page.pdf(path=str(artifacts / f"report-{paper}.pdf"), format=paper, print_background=False)
        assert pdf.startswith(b"%PDF") and len(pdf) > 5000
        width = {"A4": b"595.9", "Letter": b"612"}[paper]  # the page's size in points
        assert re.search(rb"/MediaBox\s*\[0 0 " + width, pdf), paper
    page.emulate_media(media="print")  # what the PDF shows: no controls
    assert page.locator(".report-tools").is_hidden() and page.locator(".report-edit").first.is_hidden()
    page.screenshot(path=str(artifacts / "report-print.png"), full_page=True)
    page.emulate_media(media="screen")

    md = http.get(f"{live_server.url}/g/{game.token}/report.md")
    assert md.headers["content-type"].startswith("text/markdown")
    assert all(f"## Turn {n}" in md.text for n in (1, 2)) and "> Ada held the line." in md.text
    assert md.text.count("- **Attack:**") == len(lines)
    (artifacts / "report.md").write_text(md.text)
    card = http.get(f"{live_server.url}/g/{game.token}/report.png")
    image = Image.open(io.BytesIO(card.content))
    assert image.size == (1200, 630)
    (artifacts / "report-card.png").write_bytes(card.content)
    report = http.get(f"{live_server.url}/api/games/{game.token}/report").json()
    assert [t["threat"] for t in report["turns"]][-1] == state["danger"]
    assert sum(len(t["attacks"]) for t in report["turns"]) == len(lines)

    # the report link: made in the share panel, opens the report alone, revoked it is 404
    page.goto(f"{live_server.url}/g/{game.token}")
    page.locator("#make-report-link").click()
    link = page.locator("#share-report-url")
    expect(link).to_be_visible()
    url = link.input_value()
    alone = browser.new_page(viewport={"width": 390, "height": 844})
    alone.goto(url)
    expect(alone.locator("h1#report-heading")).to_have_text("Two turns")
    assert alone.locator("form").count() == 0 and alone.locator("[data-panel]").count() == 0
    assert alone.locator('meta[property="og:image"]').get_attribute("content") == url + ".png"
    alone.screenshot(path=str(artifacts / "report-link-390x844.png"), full_page=True)
    page.locator("#revoke-report-link").click()
    expect(page.locator("#make-report-link")).to_be_visible()
    assert alone.goto(url).status == 404
    alone.close()
    page.close()
