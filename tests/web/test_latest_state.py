"""Issue 21: the latest state is parsed and validated once per step and process (app/store/latest_state.py),
and never served stale: whatever wrote the game (an undo, "Go back here", another process, a
restore at the same step number), a read gives the state the database holds now."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import update
from sqlmodel import Session

from app.store import game_commands, games, latest_state, steplog
from app.store.latest_state import RECENT_KEPT, LatestStates
from app.store.tables import Step
from tests.support.turn_games import make_game

pytestmark = pytest.mark.db  # run again on PostgreSQL by `make test-postgres`


def add(session, game, name: str) -> Step:
    return game_commands.run_command(session, game, {"type": "add_character", "character": {"name": name}})


def names(state) -> list[str]:
    return [c.name for c in state.characters]


def fresh_read(engine, game_id: int):
    """The game as a new request reads it: its own session, the game's row read afresh."""
    with Session(engine) as other:
        return games.current_state(other, other.get_one(games.Game, game_id))


def test_the_same_step_is_parsed_once_and_served_to_every_reader_after_it(engine, session):
    game = make_game(session)
    first = fresh_read(engine, game.id)
    assert fresh_read(engine, game.id) is first  # one validation, every reader
    add(session, game, "Cy")
    after = fresh_read(engine, game.id)
    assert after is not first and names(after)[-1] == "Cy"


def test_undo_and_go_back_here_serve_the_state_they_went_back_to(engine, session):
    game = make_game(session)
    before = names(fresh_read(engine, game.id))
    add(session, game, "Cy")
    added = add(session, game, "Di")
    assert names(fresh_read(engine, game.id)) == [*before, "Cy", "Di"]
    game_commands.undo(session, game)
    assert names(fresh_read(engine, game.id)) == [*before, "Cy"]
    game_commands.undo(session, game, to_seq=added.seq)  # "Go back here" to the step that added Di
    assert names(fresh_read(engine, game.id)) == [*before, "Cy", "Di"]
    game_commands.undo(session, game, to_seq=0)
    assert names(fresh_read(engine, game.id)) == before


def test_a_step_another_process_wrote_is_read_not_the_state_cached_before_it(engine, session, monkeypatch):
    game = make_game(session)
    cached = fresh_read(engine, game.id)
    with monkeypatch.context() as elsewhere:  # another process: its own cache, ours never hears of it
        elsewhere.setattr(latest_state, "LATEST", LatestStates())
        with Session(engine) as theirs:
            add(theirs, theirs.get_one(games.Game, game.id), "Cy")
    now = fresh_read(engine, game.id)
    assert names(now) == [*names(cached), "Cy"]


def test_a_latest_state_rewritten_at_the_same_step_number_is_parsed_afresh(engine, session):
    """A restore or any writer that stores other content under the same game and step number."""
    game = make_game(session)
    assert names(fresh_read(engine, game.id))[0] == "Ada"
    stored = games.latest_step(session, game).state
    renamed = {**stored, "characters": [{**stored["characters"][0], "name": "Zed"}, *stored["characters"][1:]]}
    with Session(engine) as writer:
        writer.execute(update(Step).where(Step.game_id == game.id, Step.seq == game.seq).values(state=renamed))
        writer.commit()
    assert names(fresh_read(engine, game.id))[0] == "Zed"


def test_a_deleted_games_id_taken_by_a_new_game_shows_the_new_games_state(client):
    """SQLite hands a deleted game's id to the next game: the cache must not mix them up."""
    def game_with(name: str) -> tuple[str, dict]:
        token = client.post("/api/games", json={"name": "Night"}).json()["edit_token"]
        client.post(f"/api/games/{token}/commands", json={"type": "add_character", "character": {"name": name}})
        return token, client.get(f"/api/games/{token}").json()

    old_token, old = game_with("Ada")
    assert client.delete(f"/api/games/{old_token}").status_code == 204
    new_token, new = game_with("Bo")
    assert new["seq"] == old["seq"] and [c["name"] for c in new["characters"]] == ["Bo"]
    assert "Bo" in client.get(f"/g/{new_token}/panels/roster").text


@pytest.mark.parametrize("seq, text, parsed_again", [
    (3, '{"a": 1}', False),   # the same step and text: the cached JSON
    (3, '{"a": 2}', True),    # the same step, other content (a restore, another writer)
    (4, '{"a": 1}', True),    # another step
])
def test_a_cached_state_is_used_only_for_exactly_the_step_and_text_it_was_made_from(seq, text, parsed_again):
    cache = LatestStates()
    first = cache.json(1, 3, '{"a": 1}')
    again = cache.json(1, seq, text)
    assert (again is not first) == parsed_again and again == json.loads(text)


def test_a_state_is_validated_once_per_step_and_an_older_writer_never_replaces_a_newer_entry():
    cache, loads = LatestStates(), []

    def load(data):
        loads.append(data)
        return ("model", data["n"])

    as_json = cache.json(1, 5, '{"n": 5}')
    assert cache.model(1, 5, as_json, "potham-2038", load) == cache.model(1, 5, as_json, "potham-2038", load)
    assert len(loads) == 1
    cache.stored(1, 7, {"n": 7}, ("model", 7), "potham-2038")
    cache.stored(1, 6, {"n": 6}, ("model", 6), "potham-2038")  # a slower writer of an older step
    assert cache.json(1, 7, '{"n": 7}') == {"n": 7} and cache.model(1, 7, cache.json(1, 7, '{"n": 7}'),
                                                                    "potham-2038", load) == ("model", 7)
    assert len(loads) == 1


def test_the_states_just_before_the_latest_are_known_and_equal_to_the_rebuilt_ones(engine, session):
    """The log panel and the live push name their newest steps' models from these (issue 21)."""
    game = make_game(session)
    for name in ("Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
        add(session, game, name)
    with Session(engine) as reader:
        opened = reader.get_one(games.Game, game.id)
        latest = games.latest_step(reader, opened)
        known = latest_state.LATEST.recent(game.id, latest.seq, latest.state)
        seqs = list(range(latest.seq - RECENT_KEPT, latest.seq + 1))
        assert sorted(known) == seqs
        assert known == steplog.states_json(reader, game.id, seqs)  # rebuilt from the log
        assert names(games.ruleset_of(opened).load(known[latest.seq - 1]))[-1] == "Gus"


def test_no_recent_states_are_given_for_a_state_the_cache_did_not_just_check():
    cache = LatestStates()
    first = cache.json(1, 3, '{"n": 3}')
    cache.stored(1, 4, {"n": 4}, ("model", 4), "potham-2038", before=first)
    fourth = cache.json(1, 4, json.dumps({"n": 4}))
    assert cache.recent(1, 4, fourth) == {3: {"n": 3}, 4: {"n": 4}}
    assert cache.recent(1, 4, {"n": 4}) == {}  # an equal state, not the one the cache checked
    cache.stored(1, 5, {"n": 5}, ("model", 5), "potham-2038", before={"n": 4})  # not the cached entry's
    assert cache.recent(1, 5, cache.json(1, 5, json.dumps({"n": 5}))) == {5: {"n": 5}}
