"""Issue 21: a step's panels are rendered once per link (play, watch) and reach every open page of
the game, not once per page; pages asking at the same moment wait for that one render."""

from __future__ import annotations

import threading

import pytest

from app.web import panels
from tests.support.api_game import new_game

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

LIVE = {"names": "status,turn,roster,log"}


def counted_renders(monkeypatch) -> list[str]:
    seen: list[str] = []
    real = panels.game_context

    def counting(opened, *args, **kwargs):
        seen.append(opened.access)
        return real(opened, *args, **kwargs)

    monkeypatch.setattr(panels, "game_context", counting)
    return seen


def test_four_pages_of_one_game_cost_one_render_per_link_and_step(client, monkeypatch):
    play, watch, send = new_game(client, "Ada")
    renders = counted_renders(monkeypatch)
    for step in range(2):
        client.post(send, json={"type": "add_character", "character": {"name": f"Cy{step}"}}).raise_for_status()
        answers = [client.get(f"{link}/panels", params=LIVE)
                   for link in (f"/g/{play}", f"/g/{play}", f"/v/{watch}", f"/v/{watch}")]
        assert all(f"Cy{step}" in a.text for a in answers)  # every page shows the new step
        assert answers[0].text == answers[1].text and answers[2].text == answers[3].text
        assert "Undo last step" in answers[0].text and "Undo last step" not in answers[2].text
    assert renders == ["edit", "view", "edit", "view"]


def test_a_panel_asked_again_without_a_new_step_is_not_rendered_again_and_a_rename_is(client, monkeypatch):
    play, _, _ = new_game(client, "Ada")
    renders = counted_renders(monkeypatch)
    first = client.get(f"/g/{play}/panels/title").text
    assert client.get(f"/g/{play}/panels/title").text == first and len(renders) == 1
    client.post(f"/api/games/{play}/rename", json={"name": "Day"}).raise_for_status()
    assert "Day" in client.get(f"/g/{play}/panels/title").text and len(renders) == 2


def test_pages_asking_while_a_render_runs_wait_for_it_instead_of_rendering_again():
    cache, started, release, calls = panels.RenderedPanels(), threading.Event(), threading.Event(), []

    def slow_render() -> str:
        calls.append(1)
        started.set()
        release.wait(5)
        return "<section>panels</section>"

    answers: list[str] = []
    first = threading.Thread(target=lambda: answers.append(cache.render_once(("k",), slow_render)))
    first.start()
    started.wait(5)
    others = [threading.Thread(target=lambda: answers.append(cache.render_once(("k",), slow_render)))
              for _ in range(3)]
    for thread in others:
        thread.start()
    release.set()
    for thread in [first, *others]:
        thread.join(5)
    assert answers == ["<section>panels</section>"] * 4 and len(calls) == 1
