"""Live updates over server-sent events (architecture.md § Live sharing), and what a page shows when
its command lost a race (409).

`GET /g/{token}/events` and `/v/{token}/events` stream tiny messages: `step` with the newest step
number (first one at once, so a late or reconnecting page catches up), `links` when a link was
regenerated, `revoked` when the link the stream was opened with no longer works, and a comment
line every HEARTBEAT_SECONDS. The page re-fetches its panels itself (static/live.js).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from html import escape
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from sqlmodel import Session, select

from app import games, live
from app.db import get_session
from app.tables import Game
from app.web.deps import OpenedDep, SessionDep, Since
from app.web.templating import templates

router = APIRouter(include_in_schema=False)

# The stream outlives the request handler: this session closes when the handler returns, so an
# open page never holds one of the pool's connections.
ShortSession = Annotated[Session, Depends(get_session, scope="function")]

RETRY_MS = 1000  # the browser's own first retry; live.js adds back-off on top
CHANGES_SHOWN = 20  # steps listed in a "the game moved on" message


@router.get("/g/{token}/events")
@router.get("/v/{token}/events")
async def events(token: str, session: ShortSession) -> StreamingResponse:
    opened = await run_in_threadpool(_subscribe, session, token, asyncio.get_running_loop())
    if opened is None:
        raise HTTPException(404, "No game opens with this link. It may have been deleted or regenerated.")
    subscription, seq = opened
    live.install_shutdown_hook()
    return StreamingResponse(_stream(subscription, seq), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _subscribe(session: Session, token: str, loop: asyncio.AbstractEventLoop
               ) -> tuple[live.Subscription, int] | None:
    """One trip to a thread, and the connection is given back before it ends (issue 11: 200
    watchers opening at once must not hold connections while they wait for a thread)."""
    try:
        found = games.find_game(session, token)
        if found is None:
            return None
        game_id = found[0].id
        subscription = live.hub.subscribe(game_id, token, loop)
        try:  # read the step number only after subscribing, so no step can fall in between
            return subscription, session.exec(select(Game.seq).where(Game.id == game_id)).one()
        except BaseException:
            live.hub.unsubscribe(subscription)
            raise
    finally:
        session.close()


async def _stream(subscription: live.Subscription, seq: int) -> AsyncIterator[str]:
    try:
        yield f"retry: {RETRY_MS}\n" + live.frame("step", json.dumps({"seq": seq}), seq)
        while True:
            frames = await subscription.next_frames(live.HEARTBEAT_SECONDS)
            if frames is None:
                yield ": heartbeat\n\n"
                continue
            yield "".join(frames)
            if subscription.ending:
                return
    finally:
        live.hub.unsubscribe(subscription)


@router.get("/g/{token}/changes", response_class=HTMLResponse)
@router.get("/v/{token}/changes", response_class=HTMLResponse)
def changes(request: Request, opened: OpenedDep, session: SessionDep, since: Since = -1):
    """What happened after step `since`: shown next to a command that lost a race."""
    later = games.steps(session, opened.game, since)
    context = {"steps": later[-CHANGES_SHOWN:], "hidden": max(0, len(later) - CHANGES_SHOWN), "since": since}
    return templates.TemplateResponse(request, "_changes.html", context,
                                      headers={"X-Game-Seq": str(opened.game.seq)})


async def conflict_answer(request: Request, conflict: games.Conflict):
    """Any route may let games.Conflict through: the API gets JSON, an htmx form a short fragment
    (live.js shows it in place, with what changed, and refreshes the panels), a plain form a page."""
    headers = {"X-Game-Seq": str(conflict.seq)}
    if request.url.path.startswith("/api/"):
        return JSONResponse({"detail": conflict.reason, "seq": conflict.seq}, 409, headers=headers)
    if request.headers.get("HX-Request"):  # live.js shows it; nothing on the page is replaced
        return HTMLResponse(f'<p class="live-conflict">{escape(conflict.reason)}</p>', 409,
                            headers={**headers, "HX-Reswap": "none"})
    return templates.TemplateResponse(request, "error.html", {"status": 409, "detail": conflict.reason},
                                      status_code=409, headers=headers)
