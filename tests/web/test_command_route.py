"""Issue 21: the command routes open their game for editing in their own worker thread
(deps.open_to_edit), not in a dependency; which answer wins when several things are wrong stays
as it was: no game 404, then a watch link 403, and only then a bad `seen` or body 422, naming the
field (errors.LINK_CHECKED_IN_ROUTE); a body that is not JSON at all is a 422 first, as FastAPI
answers it before any dependency."""

from __future__ import annotations

import pytest

ADD = {"type": "add_character", "character": {"name": "Ada"}}


@pytest.fixture
def links(client) -> dict[str, str]:
    game = client.post("/api/games", json={"name": "Order of answers"}).json()
    return {"edit": game["edit_token"], "view": game["view_token"], "none": "no-such-link"}


@pytest.mark.parametrize(("link", "query", "body", "status", "field"), [
    ("none", "?seen=-1", ADD, 404, None),
    ("none", "", ["not", "a", "command"], 404, None),
    ("view", "?seen=-1", ADD, 403, None),
    ("view", "", ["not", "a", "command"], 403, None),
    ("edit", "?seen=-1", ADD, 422, ["query", "seen"]),
    ("edit", "", ["not", "a", "command"], 422, ["body"]),
    ("none", "", None, 404, None),
    ("view", "", None, 403, None),
    ("edit", "", None, 422, ["body"]),
    ("edit", "?seen=0", ADD, 200, None),
])
def test_a_missing_game_then_a_watch_link_then_a_bad_field_decide_the_answer(client, links, link, query,
                                                                              body, status, field):
    r = client.post(f"/api/games/{links[link]}/commands{query}", json=body) if body is not None \
        else client.post(f"/api/games/{links[link]}/commands{query}")  # no body at all
    assert r.status_code == status
    if field is not None:
        assert [e["loc"] for e in r.json()["detail"]] == [field]
    seq = client.get(f"/api/games/{links['edit']}").json()["seq"]
    assert seq == (1 if status == 200 else 0)  # nothing written but by the one good command


@pytest.mark.parametrize("link", ["none", "view", "edit"])
def test_a_body_that_is_not_json_is_a_422_before_the_link(client, links, link):
    r = client.post(f"/api/games/{links[link]}/commands", content=b"{not json",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert r.json()["detail"][0]["type"] == "json_invalid"


def test_the_route_opens_its_game_without_a_dependency_of_its_own():
    """What saves the worker thread: the route's only dependency is the (async) session."""
    from app.web.routes.api import router

    route = next(r for r in router.routes if r.path == "/api/games/{token}/commands")
    assert [d.call.__name__ for d in route.dependant.dependencies] == ["get_session"]


@pytest.mark.parametrize(("link", "status"), [("none", 404), ("view", 403), ("edit", 200)])
def test_a_tap_opens_its_game_in_its_own_route_with_the_same_answers(client, links, link, status):
    """The play page's form route (/g/{token}/turn) opens the game itself, in its worker thread:
    an unknown link is still a 404 and a watch link a 403, and neither writes anything."""
    form = {"type": "add_character", "character.name": "Bo", "form": "add-character", "seen": "0"}
    r = client.post(f"/g/{links[link]}/turn", data=form, headers={"HX-Request": "true"})
    assert r.status_code == status
    seq = client.get(f"/api/games/{links['edit']}").json()["seq"]
    assert seq == (1 if status == 200 else 0)


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_the_link_is_checked_on_the_sessions_the_app_s_routes_get(fresh_client, tmp_path, kind):
    """The session dependency overridden (a database of the test's own, not the app's), by a
    plain generator or an async one: the link check on a wrong field reads that database too
    (deps.session_of), so a game made there is found (403, 422), an unknown link is not (404)."""
    from sqlmodel import Session, SQLModel

    from app.store.db import get_session, make_engine

    engine = make_engine(f"sqlite:///{tmp_path / 'elsewhere.db'}")
    SQLModel.metadata.create_all(engine)

    def plain():
        with Session(engine) as session:
            yield session

    async def asynchronous():
        with Session(engine) as session:
            yield session

    fresh_client.app.dependency_overrides[get_session] = plain if kind == "sync" else asynchronous
    game = fresh_client.post("/api/games", json={"name": "Overridden"}).json()
    for link, status in (("no-such-link", 404), (game["view_token"], 403), (game["edit_token"], 422)):
        r = fresh_client.post(f"/api/games/{link}/commands?seen=-1", json=ADD)
        assert r.status_code == status, (link, r.text)
