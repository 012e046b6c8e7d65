"""The battle report on the web: its three addresses (play, watch, report link) with the Markdown
and the PNG card beside each, the JSON for any of the game's links, the report link's rights (it
opens the report only; revoked, it is 404), and the player's title and notes as steps."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from app.transfer import exchange
from tests.support.report_games import six_turns

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

API_NAMES = {"ruleset", "name", "outcome", "turns", "luck", "fell"}
TURN_NAMES = {"number", "threat", "events", "actions", "attacks", "fell", "note"}


@pytest.fixture
def game(client) -> dict:
    game = six_turns(client)
    game["report_token"] = client.post(f"/api/games/{game['edit_token']}/report-link").json()["report_token"]
    return game


def test_every_link_of_the_game_reads_the_same_report_and_a_stranger_gets_404(client, game):
    answers = [client.get(f"/api/games/{game[k]}/report") for k in ("edit_token", "view_token", "report_token")]
    assert [r.status_code for r in answers] == [200, 200, 200]
    assert answers[0].json() == answers[1].json() == answers[2].json()
    report = answers[0].json()
    assert API_NAMES <= set(report) and all(TURN_NAMES <= set(t) for t in report["turns"])
    assert report["ruleset"] == "potham-2038" and report["name"] == "Night shift at the depot"
    assert [t["number"] for t in report["turns"]] == [1, 2, 3, 4, 5, 6]
    state = client.get(f"/api/games/{game['edit_token']}").json()
    assert report["turns"][-1]["threat"] == state["danger"]  # 2038: Danger at the end of the turn
    assert client.get("/api/games/" + "A" * 32 + "/report").status_code == 404


def test_the_report_link_opens_the_report_and_nothing_else(client, game):
    token = game["report_token"]
    for path in (f"/r/{token}", f"/r/{token}.md", f"/r/{token}.png"):
        assert client.get(path).status_code == 200, path
    page = client.get(f"/r/{token}").text
    assert "<form" not in page and 'data-panel="share"' not in page and game["edit_token"] not in page
    assert game["view_token"] not in page  # nothing of the live game: no link to it
    for path in (f"/g/{token}", f"/v/{token}", f"/g/{token}/report", f"/v/{token}/report", f"/g/{token}/report.md",
                 f"/v/{token}/report.png", f"/api/games/{token}", f"/api/games/{token}/steps",
                 f"/api/games/{token}/export", f"/g/{token}/panels/log", f"/v/{token}/panels/status"):
        assert client.get(path).status_code == 404, path
    for path, body in ((f"/api/games/{token}/commands", {"type": "end_turn"}), (f"/api/games/{token}/undo", {}),
                       (f"/api/games/{token}/report-link", None)):
        assert client.post(path, json=body).status_code == 404, path
    assert client.post(f"/g/{token}/report/note", data={"turn": "1", "text": "x"}).status_code == 404
    assert client.delete(f"/api/games/{token}/report-link").status_code == 404


def test_a_revoked_report_link_is_404_everywhere_and_a_new_one_replaces_the_old(client, game):
    old = game["report_token"]
    new = client.post(f"/api/games/{game['edit_token']}/report-link").json()
    assert new["report_token"] != old and new["report_url"] == f"/r/{new['report_token']}"
    assert client.get(f"/r/{old}").status_code == 404 and client.get(f"/r/{new['report_token']}").status_code == 200
    assert client.delete(f"/api/games/{game['edit_token']}/report-link").status_code == 204
    for path in (f"/r/{new['report_token']}", f"/r/{new['report_token']}.md", f"/r/{new['report_token']}.png",
                 f"/api/games/{new['report_token']}/report"):
        assert client.get(path).status_code == 404, path
    assert client.get(f"/api/games/{game['edit_token']}/report").status_code == 200  # the game itself stays


def test_only_the_play_link_makes_or_revokes_the_report_link(client, game):
    view = game["view_token"]
    assert client.post(f"/api/games/{view}/report-link").status_code == 403
    assert client.delete(f"/api/games/{view}/report-link").status_code == 403
    assert client.post(f"/g/{view}/report-link").status_code == 403
    assert client.get(f"/r/{game['report_token']}").status_code == 200  # unchanged


def test_the_share_panel_makes_shows_and_revokes_the_report_link(client):
    game = client.post("/api/games", json={"name": "Night"}).json()
    play = f"/g/{game['edit_token']}"
    panel = client.get(play).text
    assert 'id="make-report-link"' in panel and "/r/" not in panel
    assert f'href="{play}/report"' in panel
    assert f'href="/v/{game["view_token"]}/report"' in client.get(f"/v/{game['view_token']}").text
    answer = client.post(f"{play}/report-link", headers={"HX-Request": "true"})
    token = client.get(f"/api/games/{game['edit_token']}").json()  # (the JSON has no report token)
    assert answer.status_code == 200 and 'id="share-report-url"' in answer.text
    url = re.search(r'id="share-report-url" readonly value="([^"]+)"', answer.text).group(1)
    assert url.startswith("http://testserver/r/") and client.get(url.removeprefix("http://testserver")).status_code == 200
    assert "report_token" not in token
    client.post(f"{play}/report-link/revoke", headers={"HX-Request": "true"})
    assert client.get(url.removeprefix("http://testserver")).status_code == 404


def test_the_pages_carry_the_report_and_only_the_report_link_carries_open_graph(client, game):
    for path in (f"/g/{game['edit_token']}/report", f"/v/{game['view_token']}/report", f"/r/{game['report_token']}"):
        page = client.get(path).text
        assert "<h1" in page and "Six turns at the depot" in page and 'id="turn-6"' in page
        assert '<svg class="report-chart"' in page and "<desc" in page and 'id="report-threat"' in page
        assert ('property="og:image"' in page) == path.startswith("/r/")
    r_page = client.get(f"/r/{game['report_token']}").text
    assert f'content="http://testserver/r/{game["report_token"]}.png"' in r_page
    assert 'content="1200"' in r_page and 'content="630"' in r_page
    play = client.get(f"/g/{game['edit_token']}/report").text
    assert 'action="/g/' in play and 'name="text"' in play  # the notes, on the play link only
    assert "<form" not in client.get(f"/v/{game['view_token']}/report").text
    # a watch token on the play path only watches
    assert client.get(f"/g/{game['view_token']}/report", follow_redirects=False).headers["location"] == \
        f"/v/{game['view_token']}/report"


def test_the_markdown_and_the_card(client, game):
    md = client.get(f"/g/{game['edit_token']}/report.md")
    assert md.headers["content-type"].startswith("text/markdown")
    text = md.text
    assert text.startswith("# Six turns at the depot\n")
    assert all(f"## Turn {n}\n" in text for n in range(1, 7))
    assert "| Turn | Danger |" in text and "> Vex drew them all in." in text
    report = client.get(f"/api/games/{game['edit_token']}/report").json()
    assert text.count("- **Attack:**") == sum(len(t["attacks"]) for t in report["turns"])
    card = client.get(f"/g/{game['edit_token']}/report.png")
    assert card.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(card.content))
    assert image.size == (1200, 630) and image.format == "PNG"
    assert client.get(f"/v/{game['view_token']}/report.png").content == card.content  # the same card, kept


def test_player_text_is_escaped_in_the_page_and_the_markdown(client):
    game = client.post("/api/games", json={"name": "<script>alert(1)</script> *bold*"}).json()
    send = f"/api/games/{game['edit_token']}/commands"
    client.post(send, json={"type": "add_character", "character": {"name": "Ada <b>"}}).raise_for_status()
    client.post(send, json={"type": "report_note", "turn": 1, "text": "<img src=x onerror=alert(1)> # not a heading"})
    page = client.get(f"/g/{game['edit_token']}/report").text
    assert "<script>alert" not in page and "<img src=x" not in page and "&lt;img src=x" in page
    md = client.get(f"/g/{game['edit_token']}/report.md").text
    assert md.startswith("# \\<script\\>alert(1)\\</script\\> \\*bold\\*")
    assert "> \\<img src=x onerror=alert(1)\\> \\# not a heading" in md


def test_a_note_and_the_title_are_steps_undone_and_exported_like_any_other(client):
    game = client.post("/api/games", json={"name": "Night"}).json()
    play = f"/g/{game['edit_token']}"
    r = client.post(f"{play}/report/note", data={"turn": "1", "text": "Quiet start.", "seen": "0"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"{play}/report#turn-1"
    client.post(f"{play}/report/title", data={"title": "The quiet night"})
    api = f"/api/games/{game['edit_token']}"
    assert client.get(f"{api}/report").json()["turns"][0]["note"] == "Quiet start."
    assert client.get(f"{api}/report").json()["title"] == "The quiet night"
    kinds = [s["kind"] for s in client.get(f"{api}/steps").json()]
    assert kinds[-2:] == ["report_note", "report_title"]
    exported = client.get(f"{api}/export").json()
    copy = client.post("/api/games/import", json=exported)
    assert copy.status_code in (200, 201), copy.text[:300]
    imported = client.get(f"/api/games/{copy.json()['edit_token']}/report").json()
    assert imported["turns"][0]["note"] == "Quiet start." and imported["title"] == "The quiet night"
    client.post(f"{api}/undo", json={})  # the title taken back
    client.post(f"{api}/undo", json={})  # and the note
    report = client.get(f"{api}/report").json()
    assert report["title"] == "Night" and report["turns"][0]["note"] == ""
    exchange.parse_game(client.get(f"{api}/export").json())  # still a valid export


def test_a_wrong_note_is_answered_next_to_its_field(client):
    game = client.post("/api/games", json={"name": "Night"}).json()
    play = f"/g/{game['edit_token']}"
    r = client.post(f"{play}/report/note", data={"turn": "3", "text": "Too soon."})
    assert r.status_code == 400 and 'id="note-3-error"' not in r.text  # no turn 3 on the page yet
    assert "Turn 3 has not been played yet." in r.text
    r = client.post(f"{play}/report/note", data={"turn": "1", "text": "x" * 2001})
    assert r.status_code == 422 and 'id="note-1-error"' in r.text and 'aria-invalid="true"' in r.text
    assert client.post(f"/g/{game['view_token']}/report/note", data={"turn": "1", "text": "x"}).status_code == 403


def test_an_undone_attack_never_appears(client):
    game = client.post("/api/games", json={"name": "Night", "seed": 3}).json()
    send = f"/api/games/{game['edit_token']}/commands"
    client.post(send, json={"type": "add_character", "character": {"name": "Ada", "shoot": {"red": 3}}})
    client.post(send, json={"type": "add_bot", "bot": {"name": "Hunter-1", "role": "hunter"}})
    state = client.get(f"/api/games/{game['edit_token']}").json()
    shot = {"type": "character_shoot", "character_id": state["characters"][0]["id"],
            "target_id": state["bots"][0]["id"]}
    client.post(send, json=shot).raise_for_status()
    assert len(client.get(f"/api/games/{game['edit_token']}/report").json()["turns"][0]["attacks"]) == 1
    client.post(f"/api/games/{game['edit_token']}/undo", json={}).raise_for_status()
    report = client.get(f"/api/games/{game['edit_token']}/report").json()
    assert report["turns"][0]["attacks"] == [] and report["luck"]["sides"]["characters"]["rolls"] == 0
    assert "shoots" not in client.get(f"/g/{game['edit_token']}/report.md").text


@pytest.mark.parametrize("ruleset", ["zone", "d20"])
def test_the_other_rulesets_have_their_report_too(client, ruleset):
    game = client.post("/games/sample", data={"ruleset": ruleset}, follow_redirects=False)
    token = game.headers["location"].rsplit("/", 1)[-1]
    report = client.get(f"/api/games/{token}/report").json()
    assert report["ruleset"] == ruleset and report["turn_word"] == "Round"
    assert set(report["turns"][0]["threat"]) == ({"by NPCs", "by Characters"} if ruleset == "zone"
                                                 else {"Characters", "NPCs"})
    assert client.get(f"/g/{token}/report").status_code == 200
    assert client.get(f"/g/{token}/report.md").text.startswith("# ")
