"""Issue 21: what a panel reads of a game at one step (the latest step, the log's page, the ends of
turn) is read once per step and process (app/web/step_reads.py), and never served stale: a step
another process wrote, an undo, a replaced link, a new game given a deleted game's id each show
what the database holds now, and a page shows the same HTML from kept reads as from fresh ones."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from app.store import game_commands, games, latest_state
from app.store.latest_state import LatestStates
from app.web import step_reads
from app.web.step_reads import StepReads
from tests.support.api_game import new_game

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

STEP_PANELS = "status,turn,roster,log"


@pytest.fixture
def fresh_reads(monkeypatch) -> StepReads:
    reads = StepReads()
    monkeypatch.setattr(step_reads, "READS", reads)
    return reads


def panels(client, link: str, **params) -> str:
    answer = client.get(f"{link}/panels", params={"names": STEP_PANELS, **params})
    answer.raise_for_status()
    return answer.text


def test_a_steps_reads_are_made_once_for_both_links_then_once_per_new_step(client, fresh_reads):
    play, watch, send = new_game(client, "Ada", "Bo")
    panels(client, f"/g/{play}")
    first = fresh_reads.read
    assert first == 4  # the latest step, the log's page, the ends of turn (2038's danger track), the status
    panels(client, f"/v/{watch}")
    client.get(f"/g/{play}")  # the full page reads the same log page
    assert fresh_reads.read == first
    client.post(send, json={"type": "add_character", "character": {"name": "Cyrano"}}).raise_for_status()
    assert "Cyrano" in panels(client, f"/v/{watch}")
    assert fresh_reads.read == first + 4


def test_kept_reads_give_the_panels_fresh_reads_give(client, monkeypatch, fresh_reads):
    play, watch, send = new_game(client, "Ada", "Bo")
    client.post(send, json={"type": "add_bot", "bot": {"name": "Hunter-1", "role": "hunter"}}).raise_for_status()
    client.post(send, json={"type": "next_phase"})
    warm = [panels(client, link) for link in (f"/g/{play}", f"/v/{watch}")]
    client.get(f"/g/{play}")
    for link, html in zip((f"/g/{play}", f"/v/{watch}"), warm, strict=True):
        monkeypatch.setattr(step_reads, "READS", StepReads())
        assert client.get(f"{link}/panels/log").status_code == 200
        assert panels(client, link) == html


def test_a_step_another_process_wrote_is_shown_not_the_reads_kept_before_it(client, engine, monkeypatch, fresh_reads):
    play, watch, _ = new_game(client, "Ada")
    assert "Cyrano" not in panels(client, f"/v/{watch}")
    with monkeypatch.context() as elsewhere:  # another process: its own caches, ours never hears of it
        elsewhere.setattr(latest_state, "LATEST", LatestStates())
        elsewhere.setattr(step_reads, "READS", StepReads())
        with Session(engine) as theirs:
            game, _ = games.find_game(theirs, play)
            game_commands.run_command(theirs, game, {"type": "add_character", "character": {"name": "Cyrano"}})
    roster = panels(client, f"/v/{watch}").split('id="panel-log"')[0]  # status, turn, roster
    assert "Cyrano" in roster


def test_an_undo_shows_the_steps_it_went_back_to(client, fresh_reads):
    play, watch, _ = new_game(client, "Ada", "Bellatrix", "Cyrano")
    roster = panels(client, f"/v/{watch}").split('id="panel-log"')[0]  # status, turn, roster
    assert "Bellatrix" in roster and "Cyrano" in roster
    client.post(f"/g/{play}/undo", data={"to_seq": 1, "seen": 3}).raise_for_status()  # "Go back here"
    roster, log = panels(client, f"/v/{watch}").split('id="panel-log"')
    assert "Ada" in roster and "Bellatrix" not in roster and "Cyrano" not in roster
    assert log.count('class="log-step undone"') == 2


def test_a_replaced_play_link_reads_afresh_and_the_old_one_opens_nothing(client, fresh_reads):
    play, watch, _ = new_game(client, "Ada")
    panels(client, f"/g/{play}")
    read = fresh_reads.read
    new = client.post(f"/api/games/{play}/links/play").json()["edit_token"]
    assert "Ada" in panels(client, f"/g/{new}")
    assert fresh_reads.read > read
    assert client.get(f"/g/{play}/panels", params={"names": STEP_PANELS}).status_code == 404


def test_a_new_game_given_a_deleted_games_id_shows_its_own_steps(client, engine, fresh_reads):
    old, _, _ = new_game(client, "Ada")
    old_id = client.get(f"/api/games/{old}").json()["id"]
    assert "Ada" in panels(client, f"/g/{old}")
    client.delete(f"/api/games/{old}").raise_for_status()
    new, _, _ = new_game(client, "Zed")
    if engine.dialect.name == "sqlite":  # SQLite hands the freed ids out again: the case at stake
        assert client.get(f"/api/games/{new}").json()["id"] == old_id
    shown = panels(client, f"/g/{new}")
    assert "Zed" in shown and "Ada" not in shown


def test_a_read_that_went_past_the_rows_step_is_kept_under_no_step():
    """latest_step reads on past a step committed meanwhile and moves the row on: if the step it
    read is not the row's, nothing is kept (the next request reads again)."""
    class Row:
        id, edit_token, seq, updated_at = 7, "t", 3, "then"

    reads, row = StepReads(), Row()
    assert reads.get(row, ("latest",), lambda: 4, seq=lambda n: n) == 4  # the row still says 3
    assert reads.get(row, ("latest",), lambda: 5, seq=lambda n: n) == 5  # read again, not kept
    row.seq = 5
    assert reads.get(row, ("latest",), lambda: 5, seq=lambda n: n) == 5
    assert reads.get(row, ("latest",), lambda: 6, seq=lambda n: n) == 5  # kept under step 5
    assert reads.read == 3


def step_wide_templates() -> list[str]:
    from app.web import panels

    return sorted({panels.PANELS[name] for name in panels.STEP_WIDE}
                  | {own[name] for own in panels.RULESET_PANELS.values() for name in panels.STEP_WIDE if name in own})


def read_by(name: str, env) -> set[str]:
    """What a template reads from its context, with the templates it includes or imports."""
    from jinja2 import meta

    tree = env.parse(env.loader.get_source(env, name)[0])
    found = set(meta.find_undeclared_variables(tree))
    for other in meta.find_referenced_templates(tree):
        found |= read_by(other, env)
    return found


@pytest.mark.parametrize("template", step_wide_templates())
def test_a_panel_rendered_once_for_both_links_reads_nothing_of_the_link(template, client):
    """The status panels (every ruleset's) are shared by the play and the watch link of a step."""
    from app.web import panels
    from app.web.templating import templates

    assert len(step_wide_templates()) >= 4  # the generic one, 2038's, zone's, d20's
    assert read_by(template, templates.env) <= panels.STEP_WIDE_READS


def test_the_status_panel_is_rendered_once_per_step_for_both_links(client, fresh_reads):
    play, watch, send = new_game(client, "Ada")
    shown = [client.get(f"{link}/panels", params={"names": "status,roster"}).text
             for link in (f"/g/{play}", f"/v/{watch}")]
    status = [html.split('<section class="card" id="panel-roster"')[0] for html in shown]
    assert status[0] == status[1] and 'id="panel-status"' in status[0]
    kept = fresh_reads.read
    client.get(f"/g/{play}/panels", params={"names": "status,turn"})
    assert fresh_reads.read == kept  # the status kept, the latest step too
    client.post(send, json={"type": "add_character", "character": {"name": "Bellatrix"}}).raise_for_status()
    after = client.get(f"/v/{watch}/panels/status").text
    assert after != status[0] and 'data-seq="2"' in after


def test_a_log_opened_far_back_is_read_each_time_not_kept(client, fresh_reads):
    """Such a page holds up to LOG_MOST steps: a few kept would hold megabytes."""
    from app.web.panels import LOG_LENGTH

    play, watch, _ = new_game(client, *(f"Runner {n}" for n in range(LOG_LENGTH + 5)))
    far_back = client.get(f"/v/{watch}/panels/log", params={"oldest": 0}).text
    assert client.get(f"/v/{watch}/panels", params={"names": "log", "oldest": 0}).text == far_back
    assert 'id="step-0"' in far_back
    logs = [what for what in fresh_reads.kept() if what[0] == "log"]
    assert logs == [] and ("latest",) in fresh_reads.kept()
    client.get(f"/v/{watch}/panels/log")
    assert [what[-1] for what in fresh_reads.kept() if what[0] == "log"] == [LOG_LENGTH]
