"""The live push (issue 21): a step event carries the step panels as the stream's link shows them,
rendered once per link and step however many pages follow it; a watch link's never carry the
play link or a control."""

from __future__ import annotations

import asyncio
import threading

import pytest

from app.web.routes import live as web_live
from tests.support.loops import run_in_own_loop
from tests.web.test_live import add_character, engine, new_game, stream_while  # noqa: F401 (engine: the fixture)

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


def pushed_steps(client, url, game, steps=1, first=0):
    token = game["edit_token"]

    def play():
        for n in range(first, first + steps):
            assert add_character(client, token, f"C{n}").status_code == 200

    events = stream_while(client, url, game["id"], play)
    return [data for kind, data in events if kind == "step"]


def test_the_first_step_event_is_bare_and_a_new_step_brings_its_four_panels(client):
    game = new_game(client)
    first, after = pushed_steps(client, f"/g/{game['edit_token']}/events", game)
    assert first == {"seq": 0}
    assert after["seq"] == 1 and after["panels"]["names"] == ["status", "turn", "roster", "log"]
    html = after["panels"]["html"]
    for name in after["panels"]["names"]:
        assert f'data-panel="{name}"' in html
    assert 'data-panel="share"' not in html  # it follows the `links` event only
    assert "C0" in html  # the new Character is on the roster


def test_the_push_says_where_each_panel_is_in_its_html_counted_as_javascript_counts(client):
    """`at`: each panel's start and end in `html`, in UTF-16 code units (live.js slices the panels
    it takes): a name beyond the BMP (an emoji, two units) must not shift the panels after it."""
    game = new_game(client)
    assert add_character(client, game["edit_token"], "Vex 🦊").status_code == 200
    after = pushed_steps(client, f"/g/{game['edit_token']}/events", game, first=1)[-1]["panels"]
    assert "🦊" in after["html"] and len(after["html"].encode("utf-16-le")) // 2 > len(after["html"])
    units = after["html"].encode("utf-16-le")
    pieces = [units[2 * start:2 * end].decode("utf-16-le") for start, end in after["at"]]
    assert "".join(pieces) == after["html"]
    for name, piece in zip(after["names"], pieces, strict=True):
        opening = piece.lstrip()[:piece.lstrip().index(">")]
        assert opening.startswith("<") and f'data-panel="{name}"' in opening


@pytest.mark.parametrize(("parts", "spans"), [
    (["<a>", "<b>"], [[0, 3], [3, 6]]),
    (["<a>V🦊x</a>", "<b>"], [[0, 11], [11, 14]]),  # the fox is two code units in JavaScript
    (["é", ""], [[0, 1], [1, 1]]),  # within the BMP: one unit
])
def test_the_spans_of_the_push_count_utf16_code_units(parts, spans):
    assert web_live.utf16_spans(parts) == spans


def test_a_watch_stream_pushes_read_only_panels_without_the_play_link(client):
    game = new_game(client)
    watch = pushed_steps(client, f"/v/{game['view_token']}/events", game)[-1]["panels"]["html"]
    play = pushed_steps(client, f"/g/{game['edit_token']}/events", game, first=1)[-1]["panels"]["html"]
    assert game["edit_token"] in play and "hx-post" in play
    assert game["edit_token"] not in watch and "hx-post" not in watch and "<form" not in watch


def test_the_pushed_log_starts_a_few_steps_back_so_a_page_that_missed_some_still_merges_it(client):
    game = new_game(client)
    last = pushed_steps(client, f"/v/{game['view_token']}/events", game, steps=6)[-1]
    assert last["panels"]["log_from"] == last["seq"] - web_live.PUSH_LOG_BACK
    for seq in range(last["seq"] - web_live.PUSH_LOG_BACK, last["seq"] + 1):
        assert f'data-seq="{seq}"' in last["panels"]["html"]


def test_a_step_is_rendered_once_per_link_whatever_the_number_of_streams(monkeypatch):
    calls, lock = [], threading.Lock()

    def render(session, token, view, seq):
        with lock:
            calls.append((token, view, seq))
        threading.Event().wait(0.05)  # long enough for every stream to ask meanwhile
        return seq, f'{{"seq": {seq}, "by": "{token}"}}'

    monkeypatch.setattr(web_live, "_render_step", render)
    pushed = web_live.PushedSteps()

    async def streams():
        asks = [pushed.data(None, 7, "watch", True, 3) for _ in range(20)]
        asks += [pushed.data(None, 7, "play", False, 3) for _ in range(5)]
        return await asyncio.gather(*asks)

    answers = run_in_own_loop(streams())
    assert sorted(calls) == [("play", False, 3), ("watch", True, 3)]
    assert set(answers[:20]) == {(3, '{"seq": 3, "by": "watch"}')}
    assert set(answers[20:]) == {(3, '{"seq": 3, "by": "play"}')}


def test_a_failed_rendering_sends_the_bare_step_and_the_next_stream_tries_again(monkeypatch):
    calls = []

    def broken(session, token, view, seq):
        calls.append(seq)
        raise RuntimeError("database gone")

    monkeypatch.setattr(web_live, "_render_step", broken)
    pushed = web_live.PushedSteps()
    first = run_in_own_loop(pushed.data(None, 7, "watch", True, 4))
    second = run_in_own_loop(pushed.data(None, 7, "watch", True, 4))
    assert first == second == (4, '{"seq": 4}') and calls == [4, 4]
