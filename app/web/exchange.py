"""Export, import and backup over HTTP. The document format lives in app/exchange.py."""

from __future__ import annotations

import json
import re
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.datastructures import UploadFile as StarletteUpload

from app import exchange, games
from app.tables import Game, now
from app.web.deps import OpenedDep, SessionDep
from app.web.errors import safe_loc, utf8
from app.web.templating import templates

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", tags=["export and import"])

TOO_LARGE = f"The document is larger than {exchange.MAX_BYTES // (1024 * 1024)} MB."


class TooLarge(Exception):
    pass


def download(document: dict[str, Any], filename: str) -> JSONResponse:
    return JSONResponse(document, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40] or "game"


def created(game: Game) -> dict[str, Any]:
    return {"id": game.id, "name": game.name, "seq": game.seq, "edit_token": game.edit_token,
            "view_token": game.view_token, "edit_url": f"/g/{game.edit_token}",
            "view_url": f"/v/{game.view_token}"}


@api_router.get("/games/{token}/export")
def export(opened: OpenedDep, session: SessionDep) -> JSONResponse:
    """The whole game as one versioned JSON document (either link may export)."""
    document = exchange.export_game(session, opened.game)
    return download(document, f"potham-{slug(opened.game.name)}-{now():%Y%m%d-%H%M}.json")


@api_router.get("/backup")
def backup(session: SessionDep) -> JSONResponse:
    """Every saved game in one document; importing it restores them all as new games."""
    return download(exchange.export_backup(session), f"potham-backup-{now():%Y%m%d-%H%M}.json")


async def read_limited(chunks) -> bytes:
    body = bytearray()
    async for chunk in chunks:
        body.extend(chunk)
        if len(body) > exchange.MAX_BYTES:
            raise TooLarge
    return bytes(body)


def decode(raw: bytes) -> Any:
    try:
        return json.loads(raw)
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
    return exchange.import_documents(session, exchange.parse_document(decode(raw)))


@api_router.post("/games/import", status_code=201)
async def import_json(request: Request, session: SessionDep):
    """Body: an exported game (answers the new game, with new links) or a backup (answers `games`)."""
    try:
        if _declared_too_large(request):
            raise TooLarge
        raw = await read_limited(request.stream())
        stored = await run_in_threadpool(_import, session, raw)
    except TooLarge:
        return JSONResponse({"detail": TOO_LARGE}, status_code=413)
    except exchange.Problem as problem:
        return JSONResponse({"detail": [{**e, "loc": safe_loc(e["loc"])} for e in problem.errors]},
                            status_code=422)
    if len(stored) == 1:
        return created(stored[0])
    return {"games": [created(g) for g in stored]}


@router.post("/games/import")
async def import_upload(request: Request, session: SessionDep):
    """The home page's upload: opens the imported game, or the list after a backup."""
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
        stored = await run_in_threadpool(_import, session, raw)
    except (TooLarge, exchange.Problem) as error:
        message = TOO_LARGE if isinstance(error, TooLarge) else utf8(str(error))
        context = {"games": await run_in_threadpool(games.list_games, session), "import_error": message}
        return templates.TemplateResponse(request, "home.html", context,
                                          status_code=413 if isinstance(error, TooLarge) else 422)
    target = f"/g/{stored[0].edit_token}" if len(stored) == 1 else "/"
    return RedirectResponse(target, status_code=303)
