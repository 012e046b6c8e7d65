"""Live updates over server-sent events (docs/architecture.md § Live sharing), and what a page shows when
its command lost a race (409).

`GET /g/{token}/events` and `/v/{token}/events` stream `step` with the newest step number (first
one at once, so a late or reconnecting page catches up), `links` when a link was regenerated,
`revoked` when the link the stream was opened with no longer works, and a comment line every
HEARTBEAT_SECONDS. A `step` after the first also carries the step panels as the page shows them
(the live push): rendered once per link and step in this process, whatever the number
of pages open on it, so a page no longer asks for them (static/live.js takes them when it can).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator
from html import escape
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, StreamingResponse
from sqlmodel import Session, select

from app.live import hub as live
from app.store import game_commands, games
from app.store.db import get_session
from app.store.kept import keep
from app.store.tables import Game
from app.web.deps import Opened, OpenedDep, SessionDep, Since
from app.web.middleware import answer_first
from app.web.panels import game_context, render_one
from app.web.templating import templates

router = APIRouter(include_in_schema=False)

# The stream outlives the request handler: this session closes when the handler returns, so an
# open page never holds one of the pool's connections.
ShortSession = Annotated[Session, Depends(get_session, scope="function")]

RETRY_MS = 1000  # the browser's own first retry; live.js adds back-off on top
CHANGES_SHOWN = 20  # steps listed in a "the game moved on" message
PUSHED_PANELS = ("status", "turn", "roster", "log")  # the share panel follows `links` only
PUSH_AT_ONCE = 2  # renderings of a push at once, per process (CPU-bound: more would not be faster)
PUSH_LOG_BACK = 3  # the pushed log starts this many steps back: a page that missed as many still takes it


@router.get("/g/{token}/events")
@router.get("/v/{token}/events")
async def events(request: Request, token: str, session: ShortSession) -> StreamingResponse:
    opened = await run_in_threadpool(_subscribe, session, token, asyncio.get_running_loop())
    if opened is None:
        raise HTTPException(404, "No game opens with this link. It may have been deleted or regenerated.")
    subscription, seq = opened
    live.install_shutdown_hook()
    view = request.url.path.startswith("/v/")  # a watch page shows no controls, whatever the token

    async def step_data(step: int) -> tuple[int, str]:
        return await PUSHED.data(session, subscription.game_id, token, view, step)

    return StreamingResponse(_stream(subscription, seq, step_data), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _subscribe(session: Session, token: str, loop: asyncio.AbstractEventLoop
               ) -> tuple[live.Subscription, int] | None:
    """One trip to a thread, and the connection is given back before it ends (200
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


async def _stream(subscription: live.Subscription, seq: int, step_data: live.StepData) -> AsyncIterator[str]:
    try:
        yield f"retry: {RETRY_MS}\n" + live.frame("step", json.dumps({"seq": seq}), seq)
        while True:
            frames = await subscription.next_frames(live.HEARTBEAT_SECONDS, step_data)
            if frames is None:
                yield ": heartbeat\n\n"
                continue
            yield "".join(frames)
            if subscription.ending:
                return
    finally:
        live.hub.unsubscribe(subscription)


class PushedSteps:
    """A step's event data per (game, link, audience, step): the first stream to need it renders
    it in a worker thread, the game's other streams in this process wait for that one rendering
    (they may run on other event loops: a thread-safe future). The last few hundred are kept."""

    def __init__(self, size: int = 512):
        self.size, self._lock = size, threading.Lock()
        self._items: OrderedDict[tuple, concurrent.futures.Future] = OrderedDict()
        self._gates: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def _gate(self) -> asyncio.Semaphore:
        """PUSH_AT_ONCE renderings at a time per event loop. A stream is not admitted like a
        request (app/web/middleware/admission.py): unbounded, 100 games stepping at once would take every
        worker thread, each waiting for a connection held by a request waiting for a thread."""
        loop = asyncio.get_running_loop()
        if loop not in self._gates:
            self._gates[loop] = asyncio.Semaphore(PUSH_AT_ONCE)
        return self._gates[loop]

    async def data(self, session: Session, game_id: int, token: str, view: bool, seq: int) -> tuple[int, str]:
        key = (game_id, token, view, seq)
        with self._lock:
            future = self._items.get(key)
            mine = future is None
            if mine:
                future = concurrent.futures.Future()
                keep(self._items, key, future, self.size)
        if not mine:
            return await asyncio.wrap_future(future)
        result = (seq, json.dumps({"seq": seq}))  # without panels: the page fetches them
        try:
            await answer_first.answered(game_id, seq)  # the tap's own answer goes first
            async with self._gate():
                result = await run_in_threadpool(_render_step, session, token, view, seq)
        except Exception:  # the stream goes on: its pages fetch, like before the push
            with self._lock:
                self._items.pop(key, None)
        finally:  # also when this stream is cancelled: the streams waiting on it get an answer
            future.set_result(result)
        return result


PUSHED = PushedSteps()


def _render_step(session: Session, token: str, view: bool, seq: int) -> tuple[int, str]:
    """The step event's data: the step panels at the game's newest step (`seq` or later), as the
    link's page shows them, one after the other in `html` (`at`: where each starts and ends); the
    log from PUSH_LOG_BACK steps back (`log_from`, see log_context)."""
    try:
        found = games.find_game(session, token)
        if found is None:
            return seq, json.dumps({"seq": seq})
        game, access = found
        opened = Opened(game, "view" if view else access, token)
        context = game_context(opened, session, log_after=max(0, game.seq - PUSH_LOG_BACK))
        parts = [render_one(game, name, context, plain=opened) for name in PUSHED_PANELS]  # nothing added
        panels = {"names": PUSHED_PANELS, "html": "".join(parts), "at": utf16_spans(parts),
                  "log_from": context["log_from"]}
        return game.seq, json.dumps({"seq": game.seq, "panels": panels})
    finally:
        session.close()  # an open page holds no connection between steps


def utf16_spans(parts: list[str]) -> list[list[int]]:
    """Where each part starts and ends in the joined text, counted as JavaScript counts (UTF-16 code
    units: a character beyond the BMP, an emoji in a name, is two): the page parses only the
    panels it takes out of a push (live.js), not all four."""
    spans, at = [], 0
    for part in parts:
        end = at + len(part.encode("utf-16-le")) // 2
        spans.append([at, end])
        at = end
    return spans


@router.get("/g/{token}/changes", response_class=HTMLResponse)
@router.get("/v/{token}/changes", response_class=HTMLResponse)
def changes(request: Request, opened: OpenedDep, session: SessionDep, since: Since = -1):
    """What happened after step `since`: shown next to a command that lost a race."""
    later = games.steps(session, opened.game, since)
    context = {"steps": later[-CHANGES_SHOWN:], "hidden": max(0, len(later) - CHANGES_SHOWN), "since": since}
    return templates.TemplateResponse(request, "_changes.html", context,
                                      headers={"X-Game-Seq": str(opened.game.seq)})


async def conflict_answer(request: Request, conflict: game_commands.Conflict):
    """Any route may let game_commands.Conflict through: the API gets JSON, an htmx form a short fragment
    (live.js shows it in place, with what changed, and refreshes the panels), a plain form a page."""
    headers = {"X-Game-Seq": str(conflict.seq)}
    if request.url.path.startswith("/api/"):
        return JSONResponse({"detail": conflict.reason, "seq": conflict.seq}, 409, headers=headers)
    if request.headers.get("HX-Request"):  # live.js shows it; nothing on the page is replaced
        return HTMLResponse(f'<p class="live-conflict">{escape(conflict.reason)}</p>', 409,
                            headers={**headers, "HX-Reswap": "none"})
    return templates.TemplateResponse(request, "error.html", {"status": 409, "detail": conflict.reason},
                                      status_code=409, headers=headers)
