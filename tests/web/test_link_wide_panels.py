"""Issue 21: a tap's own answer and the step's live push to the same link draw the same turn panel,
rendered once (app/web/panels.py LINK_WIDE), and never a stale one: over random taps, API commands,
undos and phase changes, the push made from kept renders is byte for byte the push made afresh."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session

from app.web import panels, step_reads
from app.web.routes import live as web_live
from app.web.step_reads import StepReads
from app.web.templating import templates
from tests.support.turn_games import HX, make_game, roster_state
from tests.support.turn_play import Table

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`

LOG_NAMES = {"log", "log_rows", "log_query", "log_before", "log_oldest", "log_more", "log_from"}


def seq_of(table: Table) -> int:
    return table.client.get(f"/api/games/{table.token}").json()["seq"]


def pushed(engine, token: str, seq: int, view: bool = False) -> str:
    """A link's step event, as its streams send it (`view`: the watch page's, whatever the token)."""
    return web_live._render_step(Session(engine), token, view, seq)[1]


def turn_templates() -> list[str]:
    """Every ruleset's turn panel and what 2038's includes by a name it computes: each phase's
    partial (by the phase), each card of Phase 3's list (by its kind)."""
    names = {panels.PANELS["turn"]} | {own["turn"] for own in panels.RULESET_PANELS.values() if "turn" in own}
    computed = ("potham2038/_phase", "potham2038/_p3_", "potham2038/_engagement")
    return sorted(names | set(templates.env.list_templates(filter_func=lambda name: name.startswith(computed))))


def read_by(name: str) -> set[str]:
    """What a template reads from its context, with the templates it names to include or import
    (one included by a computed name is in turn_templates)."""
    from jinja2 import meta

    tree = templates.env.parse(templates.env.loader.get_source(templates.env, name)[0])
    found = set(meta.find_undeclared_variables(tree))
    for other in meta.find_referenced_templates(tree):
        found |= read_by(other) if other is not None else set()
    return found


@pytest.mark.parametrize("template", turn_templates())
def test_a_turn_panel_drawn_once_per_step_and_link_reads_no_log_page_and_no_request(template, client):
    """A tap's answer and the push differ only in the log page their context holds."""
    assert len(turn_templates()) >= 12  # the generic one, 2038's, zone's, d20's, 2038's phases
    assert not read_by(template) & (LOG_NAMES | {"request"})


def test_the_push_after_a_tap_takes_the_turn_panel_the_tap_answered(client, session, engine, monkeypatch):
    monkeypatch.setattr(step_reads, "READS", StepReads())
    table = Table(client, make_game(session, roster_state(phase=1)).edit_token)
    answer = table.client.post(f"/g/{table.token}/turn", headers=HX, data={
        "type": "noise", "form": "quick-noise-ada", "seen": seq_of(table), "character_id": "ada", "kind": "noise",
        "bot_ids[]": "hunt"}).text
    turn = templates.get_template(panels.panel_template(table_game(session, table.token), "turn"))
    drawn = []
    monkeypatch.setattr(turn, "render", lambda context: drawn.append(context) or "")
    html = json.loads(pushed(engine, table.token, seq_of(table)))["panels"]["html"]
    answered = answer[:answer.rindex("<section", 0, answer.index('id="panel-status"'))]  # the turn panel first
    assert answered.lstrip().startswith('<section class="card turn-panel" id="panel-turn"') and "Hunter-1" in answered
    assert drawn == [] and answered in html  # not drawn again: the answer's own, byte for byte


def table_game(session, token):
    from app.store import games

    return games.find_game(session, token)[0]


TAPS = ["noise", "move", "alarm", "event", "undo", "api noise", "api next", "api end"]


def act(table: Table, action: str) -> None:
    """One tap (a button of the page as it is) or one command through the JSON API; a refusal
    (a form this phase does not show, an end of turn before Phase 4) changes nothing."""
    seen = seq_of(table)
    buttons = {"noise": ("quick-noise-ada", {"character_id": "ada", "kind": "noise", "bot_ids[]": "hunt"}),
               "move": ("quick-move-bo", {"character_id": "bo", "entries[]": "sent"}),
               "alarm": ("quick-alarm-ada", {"character_id": "ada", "kind": "alarm", "bot_ids[]": "work"})}
    if action in buttons:
        form, fields = buttons[action]
        type_ = "character_move" if action == "move" else "noise"
        table.client.post(f"/g/{table.token}/turn", headers=HX,
                          data={"type": type_, "form": form, "seen": seen, **fields})
    elif action == "event":  # Phase 1 ends and the Event is recorded: one tap, two steps
        table.client.post(f"/g/{table.token}/turn", headers=HX, data={
            "type": "record_event", "form": "event-quick", "seen": seen, "_before": "next_phase",
            "title": "Lights out", "danger": "1"})
    elif action == "undo":
        table.client.post(f"/g/{table.token}/undo", headers=HX, data={"seen": seen, "panel": "turn"})
    else:
        body = {"api noise": {"type": "noise", "character_id": "bo", "kind": "noise", "bot_ids": []},
                "api next": {"type": "next_phase"}, "api end": {"type": "end_turn"}}[action]
        table.client.post(f"/api/games/{table.token}/commands", json=body)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TAPS), min_size=4, max_size=12))
def test_over_random_steps_the_push_from_kept_renders_is_the_push_made_afresh(client, session, engine,
                                                                             monkeypatch, actions):
    monkeypatch.setattr(step_reads, "READS", StepReads())
    game = make_game(session, roster_state(phase=1))
    table = Table(client, game.edit_token)
    links = [(game.edit_token, False), (game.view_token, True), (game.edit_token, True)]
    for action in actions:
        act(table, action)
        seq = seq_of(table)
        kept = [pushed(engine, token, seq, view) for token, view in links]
        for (token, view), shown in zip(links, kept, strict=True):
            with monkeypatch.context() as fresh:
                fresh.setattr(step_reads, "READS", StepReads())  # nothing kept: every read and render again
                assert pushed(engine, token, seq, view) == shown, (action, token, view)
