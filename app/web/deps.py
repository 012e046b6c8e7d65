"""Shared dependencies: the database session and the game a capability token opens."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator
from contextlib import aclosing, asynccontextmanager, closing
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Query, Request
from pydantic import ValidationError
from sqlmodel import Session
from starlette.datastructures import FormData

from app.store import games
from app.store.db import get_session
from app.store.tables import Game
from app.web.errors import safe_loc

SessionDep = Annotated[Session, Depends(get_session)]


@asynccontextmanager
async def session_of(app: Any) -> AsyncIterator[Session]:
    """The session `get_session` gives this app's routes (a test's override too, whether a sync
    or an async generator), for code outside a route: an exception handler."""
    made = app.dependency_overrides.get(get_session, get_session)()
    if inspect.isasyncgen(made):
        async with aclosing(made):
            yield await anext(made)
    else:
        with closing(made):
            yield next(made)


async def posted_form(request: Request) -> FormData:
    """The posted form, read on the event loop, so that the route itself is a plain `def` that
    FastAPI runs in a worker thread: a command waits there for the game's lock and the database,
    never on the event loop that every other request (health, pages, live streams) needs."""
    return await request.form()


FormDep = Annotated[FormData, Depends(posted_form)]


@dataclass
class Opened:
    game: Game
    access: games.Access
    token: str
    session: Session | None = field(default=None, repr=False, compare=False)  # given by open_to_edit

    @property
    def can_edit(self) -> bool:
        return self.access == "edit"


def open_game(token: str, session: SessionDep) -> Opened:
    found = games.find_game(session, token)
    # Give the connection back before FastAPI hops to another thread for the handler: held across
    # that wait, 40 requests took every connection and every thread waited on the pool.
    # The game stays loaded and attached; the handler's first query takes a connection again.
    # (find_game reads on a connection of its own, given back, unless the session had begun.)
    if session.in_transaction():
        session.close()
    if found is None:
        raise HTTPException(404, "No game opens with this link. It may have been deleted or regenerated.")
    session.add(found[0])
    return Opened(found[0], found[1], token)


async def edit_game(opened: Annotated[Opened, Depends(open_game)]) -> Opened:
    """Mutating routes take this: a watch link may read everything and change nothing. Async: it
    only reads `opened`, so it runs on the event loop, not on another hop to a worker thread."""
    return _may_edit(opened)


def _may_edit(opened: Opened) -> Opened:
    if not opened.can_edit:
        raise HTTPException(403, "This is a watch link: it can follow the game but not change it.")
    return opened


def open_to_edit(token: str, session: Session) -> Opened:
    """open_game then edit_game in one call, which also gives the request's session
    (`opened.session`): the same 404, then 403, the same session. The command routes (a tap, the
    games API's commands) call it themselves, in their own worker thread: as a dependency it took
    a worker thread of its own, a second wait for one under load, and FastAPI's solving of two
    more levels. errors.LINK_CHECKED_IN_ROUTE keeps the link's answer before a wrong
    field's. A route calling it takes no OpenedDep (two games opened)."""
    opened = _may_edit(open_game(token, session))
    opened.session = session
    return opened


OpenedDep = Annotated[Opened, Depends(open_game)]


def only_ruleset(ruleset_id: str, name: str) -> Any:
    """A dependency for a ruleset's own page routes (its web part builds it with its own id and
    name): a game of another ruleset gets a 404, since its pages have routes of their own."""
    async def only(opened: OpenedDep) -> None:  # reads `opened` only: no hop to a thread
        if opened.game.ruleset != ruleset_id:
            raise HTTPException(404, f"This page belongs to {name} games; this game has rules of its own.")

    return Depends(only)


# A step number as a query parameter: bounded so the database never sees an integer it cannot
# hold (SQLite's is 64-bit, PostgreSQL's INTEGER 32-bit): out of range is a 422, not a 500.
Since = Annotated[int, Query(ge=-1, le=2**31 - 1, description="Only steps after this one (-1: all).")]
EditDep = Annotated[Opened, Depends(edit_game)]
# The step a client last saw (`seen`): the same bounds.
SEQ_MAX = 2**31 - 1
Seen = Annotated[int | None, Query(ge=0, le=SEQ_MAX, description="The step the client last saw.")]


def field_errors(error: ValidationError, prefix: tuple = ("body",)) -> list[dict]:
    """A pydantic error as FastAPI's 422 `detail`, each naming its field."""
    return [{"type": e["type"], "loc": safe_loc([*prefix, *e["loc"]]), "msg": e["msg"]}
            for e in error.errors()]
