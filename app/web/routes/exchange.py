"""Export and import over HTTP (the document format lives in app/transfer/exchange.py). Either link may
export its game; anyone may import a game export, which makes a new game they hold the links of.
A backup of all games is the admin's (app/web/routes/admin.py).

Imports and restores run one at a time in the process: a 20 MB document takes some ten times that
in memory while it is parsed, and several at once must not take the whole machine.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, RedirectResponse, StreamingResponse
from starlette.datastructures import UploadFile as StarletteUpload

from app.store.tables import Game, now
from app.transfer import backup, exchange, nesting
from app.web import device
from app.web.deps import OpenedDep, SessionDep
from app.web.errors import safe_loc, utf8

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", tags=["export and import"])

TOO_LARGE = f"The document is larger than {exchange.MAX_BYTES // (1024 * 1024)} MB."
BACKUP_IS_ADMINS = ("This is a backup of all games: it restores only from the admin link "
                    "(see the README). Import one exported game here.")
T = TypeVar("T")
_one_at_a_time = asyncio.Semaphore(1)


class TooLarge(Exception):
    pass


class BackupRefused(Exception):
    """A player's import was a backup of all games (403)."""


async def one_at_a_time(work: Callable[..., T], *args: Any) -> T:
    """Run a blocking import or restore in the thread pool, never two at once."""
    async with _one_at_a_time:
        return await run_in_threadpool(work, *args)


def download(document: dict[str, Any], filename: str) -> JSONResponse:
    return JSONResponse(document, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "game"


def created(game: Game) -> dict[str, Any]:
    return {"id": game.id, "name": game.name, "seq": game.seq, "edit_token": game.edit_token,
            "view_token": game.view_token, "edit_url": f"/g/{game.edit_token}",
            "view_url": f"/v/{game.view_token}"}


@api_router.get("/games/{token}/export", response_class=JSONResponse)
def export(opened: OpenedDep, session: SessionDep) -> StreamingResponse:
    """The whole game as one versioned JSON document (either link may export), streamed a few
    hundred steps at a time (exchange.export_chunks: an answer nobody reads holds little)."""
    filename = f"potham-{slug(opened.game.name)}-{now():%Y%m%d-%H%M}.json"
    return StreamingResponse(exchange.export_chunks(session.get_bind(), opened.game.id),
                             media_type="application/json",
                             headers={"Content-Disposition": f'attachment; filename="{filename}"'})


async def read_limited(chunks) -> bytes:
    body = bytearray()
    async for chunk in chunks:
        body.extend(chunk)
        if len(body) > exchange.MAX_BYTES:
            raise TooLarge
    return bytes(body)


def decode(raw: bytes) -> Any:
    """The document, nested no deeper than ours (app/transfer/nesting.py): deeper could reach Python's
    recursion limit further on, where it would answer 500."""
    try:
        document = json.loads(raw)
        nesting.check_depth(document)
        return document
    except nesting.TooDeep as error:
        raise exchange.problem(("body",), str(error), "json_invalid") from error
    except RecursionError as error:  # json.loads gives up on arrays nested a few thousand deep
        raise exchange.problem(("body",), "Not valid JSON: nested too deeply.", "json_invalid") from error
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        where = ""
        if isinstance(error, json.JSONDecodeError):
            where = f" (line {error.lineno}, column {error.colno})"
        raise exchange.problem(("body",), f"Not valid JSON{where}: {getattr(error, 'msg', error)}.",
                               "json_invalid") from error


def _declared_too_large(request: Request) -> bool:
    length = request.headers.get("content-length", "")
    return length.isdigit() and int(length) > exchange.MAX_BYTES + 64 * 1024


def _import(session, raw: bytes) -> list[Game]:
    document = decode(raw)
    if isinstance(document, dict) and document.get("format") == backup.BACKUP_FORMAT:
        raise BackupRefused
    return exchange.import_documents(session, exchange.parse_document(document))


@api_router.post("/games/import", status_code=201)
async def import_json(request: Request, session: SessionDep):
    """Body: an exported game; answers the new game, with its new links. A backup of all games
    is refused (403): it restores only with the admin token (`POST /api/restore`)."""
    try:
        if _declared_too_large(request):
            raise TooLarge
        raw = await read_limited(request.stream())
        (stored,) = await one_at_a_time(_import, session, raw)
    except TooLarge:
        return JSONResponse({"detail": TOO_LARGE}, status_code=413)
    except BackupRefused:
        return JSONResponse({"detail": BACKUP_IS_ADMINS}, status_code=403)
    except exchange.Problem as problem:
        return JSONResponse({"detail": [{**e, "loc": safe_loc(e["loc"])} for e in problem.errors]},
                            status_code=422)
    return created(stored)


@router.post("/games/import")
async def import_upload(request: Request, session: SessionDep):
    """The home page's upload: opens the imported game (so this device remembers it)."""
    try:
        if _declared_too_large(request):
            raise TooLarge
        form = await request.form(max_files=1, max_fields=5)
        upload = form.get("file")
        if not isinstance(upload, StarletteUpload) or not upload.filename:
            raise exchange.problem(("file",), "Choose an exported game or backup file first.")
        raw = await upload.read(exchange.MAX_BYTES + 1)
        if len(raw) > exchange.MAX_BYTES:
            raise TooLarge
        (stored,) = await one_at_a_time(_import, session, raw)
    except (TooLarge, BackupRefused, exchange.Problem) as error:
        message, status = {TooLarge: (TOO_LARGE, 413), BackupRefused: (BACKUP_IS_ADMINS, 403)}.get(
            type(error), (utf8(str(error)), 422))
        context = {**await run_in_threadpool(device.home_context, request, session), "import_error": message}
        return device.render_home(request, context, status)
    return RedirectResponse(f"/g/{stored.edit_token}", status_code=303)
