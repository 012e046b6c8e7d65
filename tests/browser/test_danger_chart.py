"""In real Chromium at 768×1024 (issue 18): the Danger chart is readable from a chair: its heading
shows a disclosure marker, and once open the chart is large with labels of 12 px or more."""

from __future__ import annotations

from tests.browser.test_turn_polish import command, new_game, open_page

MEASURE = """() => {
  const svg = document.querySelector('#danger-over-turns svg.danger-chart');
  const box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;  // user units to CSS px
  const labels = [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
  return {width: box.width, height: box.height, labels, smallest: Math.min(...labels)};
}"""

MARKER = """() => {
  const s = document.querySelector('#danger-over-turns > summary');
  const before = getComputedStyle(s, '::before').content;
  return {before, display: getComputedStyle(s).display};
}"""


def test_the_danger_chart_has_a_marker_and_opens_large_with_labels_of_12px_or_more(browser, live_server, artifacts):
    url = live_server.url
    game = new_game(url, "Chart", roster=False)
    command(url, game, {"type": "add_character", "character": {"name": "Ada"}})
    for danger in (2, 5):  # two turns ended: three bars (turn 1, turn 2, now)
        command(url, game, {"type": "adjust", "danger": danger})
        for _ in range(3):
            command(url, game, {"type": "next_phase"})
        command(url, game, {"type": "end_turn"})
    page = open_page(browser, url, game["edit_url"], 768, 1024)
    marker = page.evaluate(MARKER)
    assert marker["display"] == "list-item" or marker["before"] not in ("none", "normal", '""'), marker
    page.locator("#danger-over-turns > summary").click()
    size = page.evaluate(MEASURE)
    page.locator("#danger-over-turns").screenshot(path=str(artifacts / "danger-chart-768x1024.png"))
    assert len(size["labels"]) == 7  # each bar's Danger and its turn, and the limit line's
    assert size["smallest"] >= 12, size
    assert size["width"] >= 240 and size["height"] >= 150, size
    page.context.close()
