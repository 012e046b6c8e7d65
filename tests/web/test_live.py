"""Live sharing (docs/architecture.md § Live sharing): the event stream, the hub, and no lost update."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import pytest
from sqlmodel import SQLModel

from app.live import hub as live
from app.store import game_commands
from app.store.db import make_engine
from app.web.deps import EditDep
from tests.conftest import emptied
from tests.support.loops import run_in_own_loop

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


@pytest.fixture
def engine(postgres_engine, tmp_path):
    """A SQLite file, not the shared in-memory connection: the live push renders a step's panels
    in a thread of its own while the next command commits, and one connection shared by two
    threads ends the other's transaction ("cannot commit - no transaction is active")."""
    if postgres_engine is not None:
        yield emptied(postgres_engine)
        return
    engine = make_engine(f"sqlite:///{tmp_path / 'live.db'}", size=5)
    SQLModel.metadata.create_all(engine)
    yield engine
    engine.dispose()


def new_game(client, name="Night shift"):
    response = client.post("/api/games", json={"name": name})
    assert response.status_code == 201
    return response.json()


def add_character(client, token, name, seen=None):
    body = {"type": "add_character", "character": {"name": name}}
    if seen is not None:
        body["seen"] = seen
    return client.post(f"/api/games/{token}/commands", json=body)


def parse_events(text: str) -> list[tuple[str, dict]]:
    """SSE text -> [(event, data)], comments as ("comment", {})."""
    found = []
    for block in text.split("\n\n"):
        lines = [line for line in block.split("\n") if line]
        if not lines:
            continue
        if all(line.startswith(":") for line in lines):
            found.append(("comment", {}))
            continue
        fields = dict(line.split(": ", 1) for line in lines if not line.startswith(":"))
        if "event" in fields:
            found.append((fields["event"], json.loads(fields["data"])))
    return found


def stream_while(client, url, game_id, action) -> list[tuple[str, dict]]:
    """Open the event stream, run `action` once it is subscribed, then end the stream and
    answer what it sent. (The test client returns a response only when its stream ends.)"""
    out = {}
    reader = threading.Thread(target=lambda: out.setdefault("response", client.get(url)))
    before, sent = live.hub.count(game_id), client.chunks_sent(url)
    reader.start()
    # The stream subscribes, then reads the game's step (so it can miss none), then sends its
    # first event: wait for that event to go out before acting, or a fast command lands in between
    # and the first event is already seq 1. (A fixed 0.2 s sleep, before: idle time.)
    deadline = time.monotonic() + 10
    while (live.hub.count(game_id) == before or client.chunks_sent(url) == sent) and time.monotonic() < deadline:
        time.sleep(0.005)
    action()
    time.sleep(0.1)  # let the loop deliver before the stream is told to end
    live.hub.close_all()
    reader.join(10)
    response = out["response"]
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    return parse_events(response.text)


def game_id(client, token):
    return client.get(f"/api/games/{token}").json()["id"]


@pytest.mark.parametrize("path", ["/g/{edit}/events", "/v/{view}/events", "/v/{edit}/events"])
def test_a_new_stream_starts_with_the_current_step_so_a_late_watcher_catches_up(client, path):
    game = new_game(client)
    for name in ("Ada", "Bo"):
        add_character(client, game["edit_token"], name)
    url = path.format(edit=game["edit_token"], view=game["view_token"])
    events = stream_while(client, url, game["id"], lambda: None)
    assert events[0] == ("step", {"seq": 2})


def test_the_stream_emits_an_event_after_each_step(client):
    game = new_game(client)
    token = game["edit_token"]
    events = stream_while(client, f"/v/{game['view_token']}/events", game["id"],
                          lambda: add_character(client, token, "Ada"))
    assert [data["seq"] for kind, data in events if kind == "step"] == [0, 1]
    assert events[-1][0] == "closing"


def test_undo_from_any_device_reaches_the_stream_as_a_new_step(client):
    game = new_game(client)
    token = game["edit_token"]
    add_character(client, token, "Ada")
    events = stream_while(client, f"/v/{game['view_token']}/events", game["id"],
                          lambda: client.post(f"/api/games/{token}/undo", json={}))
    assert 2 in [data["seq"] for kind, data in events if kind == "step"]


def test_an_idle_stream_sends_heartbeat_comments(client, monkeypatch):
    monkeypatch.setattr(live, "HEARTBEAT_SECONDS", 0.02)
    game = new_game(client)
    events = stream_while(client, f"/v/{game['view_token']}/events", game["id"], lambda: time.sleep(0.2))
    assert ("comment", {}) in events


def test_an_unknown_token_has_no_stream(client):
    assert client.get("/g/not-a-real-token/events").status_code == 404
    assert client.get("/v/not-a-real-token/events").status_code == 404


def test_a_regenerated_watch_link_ends_its_streams_and_tells_the_others(client):
    game = new_game(client)
    old_view, edit = game["view_token"], game["edit_token"]
    heard = {}

    def watch_with_play_link():
        heard["play"] = parse_events(client.get(f"/g/{edit}/events").text)

    other = threading.Thread(target=watch_with_play_link)
    other.start()
    events = stream_while(client, f"/v/{old_view}/events", game["id"],
                          lambda: (time.sleep(0.1), client.post(f"/api/games/{edit}/links/watch")))
    other.join(10)
    assert events[-1][0] == "revoked"  # the stream ended itself, before close_all
    assert ("links", {}) in heard["play"] and ("revoked", {}) not in heard["play"]


def test_a_stream_holds_no_database_session_while_it_is_open(client, engine):
    """The stream's session closes when the handler returns (else each open page holds one)."""
    from sqlalchemy import event

    game = new_game(client)
    opened, closed = [], []
    event.listen(engine, "checkout", lambda *a: opened.append(1))
    event.listen(engine, "checkin", lambda *a: closed.append(1))
    counts = {}

    def check():  # the handler may still be finishing; the stream stays open all along
        deadline = time.monotonic() + 5
        while len(opened) > len(closed) and time.monotonic() < deadline:
            time.sleep(0.01)
        counts["open"] = len(opened) - len(closed)

    stream_while(client, f"/v/{game['view_token']}/events", game["id"], check)
    assert counts["open"] == 0


# --- the hub -----------------------------------------------------------------------------


def test_the_hub_delivers_a_step_published_from_another_thread():
    async def scenario():
        hub = live.Hub()
        subscription = hub.subscribe(7, "t")
        worker = threading.Thread(target=hub.step, args=(7, 3))
        worker.start()
        frames = await subscription.next_frames(5)
        worker.join()
        hub.unsubscribe(subscription)
        return frames, hub.count()

    frames, left = run_in_own_loop(scenario())
    assert frames == [live.frame("step", '{"seq": 3}', 3)] and left == 0


def test_a_burst_of_steps_reaches_a_slow_stream_as_one_event_with_the_newest_step():
    async def scenario():
        hub = live.Hub()
        subscription = hub.subscribe(7, "t")
        threads = [threading.Thread(target=hub.step, args=(7, seq)) for seq in range(1, 51)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        await asyncio.sleep(0.05)
        return await subscription.next_frames(1)

    assert run_in_own_loop(scenario()) == [live.frame("step", '{"seq": 50}', 50)]


def test_a_step_of_another_game_wakes_nobody():
    async def scenario():
        hub = live.Hub()
        subscription = hub.subscribe(7, "t")
        hub.step(8, 1)
        return await subscription.next_frames(0.05)

    assert run_in_own_loop(scenario()) is None


def test_committed_steps_are_announced_through_the_step_listeners(client):
    assert live.hub.step in game_commands.STEP_LISTENERS  # wired by create_app (the client's app)


# --- no lost update ------------------------------------------------------------------------


def test_a_command_that_no_longer_fits_after_another_device_acted_is_409(client):
    game = new_game(client)
    token = game["edit_token"]
    add_character(client, token, "Ada")
    ada = client.get(f"/api/games/{token}").json()["characters"][0]["id"]
    remove = {"type": "remove_character", "id": ada, "seen": 1}
    assert client.post(f"/api/games/{token}/commands", json=remove).status_code == 200
    r = client.post(f"/api/games/{token}/commands", json=remove)  # the other device saw step 1 too
    assert r.status_code == 409
    assert r.json()["seq"] == 2 and "moved on" in r.json()["detail"]
    assert client.get(f"/api/games/{token}").json()["seq"] == 2


def test_a_command_that_still_fits_is_applied_even_if_the_game_moved_on(client):
    game = new_game(client)
    token = game["edit_token"]
    add_character(client, token, "Ada")
    assert add_character(client, token, "Bo", seen=0).status_code == 200


@pytest.fixture
def conflict_route(fresh_client):
    """A form route that lost a race, as the turn and roster forms raise it (on an app of the
    test's own: the other tests share theirs)."""

    @fresh_client.app.post("/g/{token}/test-conflict")
    def lost_race(opened: EditDep):
        raise game_commands.Conflict("The game moved on since you looked: Ada already left.", opened.game.seq)

    return fresh_client


@pytest.mark.parametrize("headers, kind", [
    ({"HX-Request": "true"}, "text/html"),
    ({"Accept": "text/html"}, "text/html"),
])
def test_a_form_that_lost_a_race_answers_409_with_the_reason(conflict_route, headers, kind):
    client = conflict_route
    game = new_game(client)
    r = client.post(f"/g/{game['edit_token']}/test-conflict", headers=headers)
    assert r.status_code == 409
    assert r.headers["content-type"].startswith(kind)
    assert r.headers["x-game-seq"] == "0"
    assert "Ada already left" in r.text


def test_what_changed_since_a_step_lists_the_later_steps(client):
    game = new_game(client)
    token = game["edit_token"]
    for name in ("Ada", "Bo", "<b>Cy</b>"):
        add_character(client, token, name)
    r = client.get(f"/v/{game['view_token']}/changes", params={"since": 1})
    assert r.status_code == 200 and r.headers["x-game-seq"] == "3"
    assert "Bo joins" in r.text and "Ada joins" not in r.text
    assert "&lt;b&gt;Cy&lt;/b&gt;" in r.text  # player text is escaped


@pytest.mark.parametrize("name", ["status", "roster", "log", "share"])
def test_every_panel_tells_the_step_it_shows(client, name):
    game = new_game(client)
    add_character(client, game["edit_token"], "Ada")
    r = client.get(f"/v/{game['view_token']}/panels/{name}")
    assert r.status_code == 200 and r.headers["x-game-seq"] == "1"
    assert f'data-panel="{name}"' in r.text


def test_the_game_page_subscribes_to_its_stream_once(client):
    game = new_game(client)
    for url, base in ((game["edit_url"], "/g/"), (game["view_url"], "/v/")):
        page = client.get(url).text
        assert page.count('id="live"') == 1
        assert f'sse-connect="{base}' in page and "/static/live.js" in page
        assert "htmx-ext-sse-2.2.4.min.js" in page


def heard_on(client, url):
    """Events a second stream receives, in the background; join the thread to read them."""
    heard: list = []
    thread = threading.Thread(target=lambda: heard.extend(parse_events(client.get(url).text)))
    thread.start()
    return thread, heard


@pytest.mark.parametrize("rename", [
    lambda client, edit: client.post(f"/api/games/{edit}/rename", json={"name": "Dawn raid"}),
    lambda client, edit: client.post(f"/g/{edit}/rename", data={"name": "Dawn raid"}, headers={"HX-Request": "true"}),
], ids=["json api", "game page form"])
def test_a_rename_reaches_every_open_page_as_a_renamed_event_without_a_new_step(client, rename):
    game = new_game(client)
    edit, view = game["edit_token"], game["view_token"]
    events = stream_while(client, f"/v/{view}/events", game["id"],
                          lambda: rename(client, edit).raise_for_status())
    assert ("renamed", {}) in events
    assert [e for e in events if e[0] == "step"] == [("step", {"seq": 0})]  # no step was made
    title = client.get(f"/v/{view}/panels/title")
    assert title.status_code == 200 and "<h1>Dawn raid</h1>" in title.text
    assert "rename" not in title.text  # the watch page's title has no rename form


@pytest.mark.parametrize("delete", [
    lambda client, edit: client.delete(f"/api/games/{edit}"),
    lambda client, edit: client.post(f"/g/{edit}/delete", follow_redirects=False),
], ids=["json api", "confirm page form"])
def test_deleting_a_game_ends_every_open_stream_of_it_with_a_deleted_notice(client, delete):
    game = new_game(client)
    other = new_game(client, "Another game")
    edit, view = game["edit_token"], game["view_token"]
    play_thread, play_heard = heard_on(client, f"/g/{edit}/events")
    other_thread, other_heard = heard_on(client, f"/g/{other['edit_token']}/events")
    events = stream_while(client, f"/v/{view}/events", game["id"],
                          lambda: (time.sleep(0.1), delete(client, edit)))
    play_thread.join(10)
    other_thread.join(10)
    # the stream ended itself with "revoked" (the page's sse-close), before close_all
    assert events[-1] == ("revoked", {"reason": "deleted"})
    assert play_heard[-1] == ("revoked", {"reason": "deleted"})
    assert ("revoked", {"reason": "deleted"}) not in other_heard
    assert client.get(f"/v/{view}/events").status_code == 404


def test_the_page_handles_renamed_and_deleted_events():
    js = (Path(__file__).resolve().parents[2] / "static" / "live.js").read_text()
    assert 'addEventListener("sse:renamed"' in js and "This game was deleted" in js
