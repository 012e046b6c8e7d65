"""The admin link's pages and API: every game with its links, a backup of all games, restoring a
backup (app/web/admin_link.py makes the token; app/transfer/backup.py writes and restores in bounded memory).

- `/admin/<admin token>` (page), `/admin/<admin token>/backup`, `POST /admin/<admin token>/restore`:
  a wrong token answers 404, like an unknown game link.
- `GET /api/games` (every game), `GET /api/backup`, `POST /api/restore`: the admin token as
  `Authorization: Bearer <admin token>`; without it (or with a wrong one) they answer 403.
"""

from __future__ import annotations

import tempfile
from typing import IO, Annotated, Any

from fastapi import APIRouter, Depends, Header, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, StreamingResponse
from starlette.datastructures import UploadFile

from app.store import games
from app.store.tables import now
from app.transfer import backup, exchange
from app.web import admin_link as admin
from app.web.deps import SessionDep
from app.web.routes.exchange import created, one_at_a_time
from app.web.templating import templates

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", tags=["admin"])

SPOOL_BYTES = 1024 * 1024  # a restore body past 1 MB waits on disk, not in memory
TOO_LARGE = f"The backup is larger than {backup.MAX_RESTORE_BYTES // 1024**3} GB."
NEEDS_ADMIN = "Only the server's admin link may do this: send Authorization: Bearer <admin token>."


def admin_page(admin_token: str, request: Request) -> str:
    if not admin.matches(admin_token, request.app.state.admin_token):
        raise HTTPException(404, "Nothing here.")
    return admin_token


def admin_api(request: Request, authorization: Annotated[str | None, Header()] = None) -> None:
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not admin.matches(given.strip(), request.app.state.admin_token):
        raise HTTPException(403, NEEDS_ADMIN)


AdminPage = Annotated[str, Depends(admin_page)]
AdminApi = Depends(admin_api)


def backup_download(session) -> StreamingResponse:
    name = f"potham-backup-{now():%Y%m%d-%H%M}.json"
    return StreamingResponse(backup.backup_chunks(session), media_type="application/json",
                             headers={"Content-Disposition": f'attachment; filename="{name}"'})


class TooLarge(Exception):
    pass


async def spooled_body(request: Request) -> IO[bytes]:
    """The request body in a temporary file (on disk past SPOOL_BYTES), at most MAX_RESTORE_BYTES."""
    file = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > backup.MAX_RESTORE_BYTES:
            file.close()
            raise TooLarge
        file.write(chunk)
    return file


# --- pages ---------------------------------------------------------------------------------


@router.get("/admin/{admin_token}", response_class=HTMLResponse)
def admin_home(request: Request, token: AdminPage, session: SessionDep, restored: int | None = None):
    context = {"admin_token": token, "all_games": games.list_games(session), "restored": restored}
    return templates.TemplateResponse(request, "admin.html", context)


@router.get("/admin/{admin_token}/backup")
def admin_backup(token: AdminPage, session: SessionDep) -> StreamingResponse:
    return backup_download(session)


@router.post("/admin/{admin_token}/restore", response_class=HTMLResponse)
async def admin_restore(request: Request, token: AdminPage, session: SessionDep):
    """The admin page's upload (spooled to disk by the form parser); back to the list after."""
    try:
        length = request.headers.get("content-length", "")
        if length.isdigit() and int(length) > backup.MAX_RESTORE_BYTES + 64 * 1024:
            raise exchange.problem(("file",), TOO_LARGE)
        form = await request.form(max_files=1, max_fields=2)
        upload = form.get("file")
        if not isinstance(upload, UploadFile) or not upload.filename:
            raise exchange.problem(("file",), "Choose a backup file first.")
        stored = await one_at_a_time(backup.restore, session, upload.file)
    except exchange.Problem as problem:
        context = {"admin_token": token, "all_games": await run_in_threadpool(games.list_games, session),
                   "restore_error": str(problem)}
        return templates.TemplateResponse(request, "admin.html", context, status_code=422)
    return RedirectResponse(f"/admin/{token}?restored={len(stored)}", status_code=303)


# --- API -----------------------------------------------------------------------------------


@api_router.get("/games", dependencies=[AdminApi])
def list_all(session: SessionDep) -> list[dict[str, Any]]:
    """Every saved game with both its links, last played first (admin only)."""
    return [{**created(g), "turn": g.turn, "phase": g.phase, "danger": g.danger, "status": g.status,
             "updated_at": g.updated_at.isoformat()} for g in games.list_games(session)]


@api_router.get("/backup", dependencies=[AdminApi])
def api_backup(session: SessionDep) -> StreamingResponse:
    """Every saved game in one document (streamed game by game); `POST /api/restore` takes it back."""
    return backup_download(session)


@api_router.post("/restore", status_code=201, dependencies=[AdminApi])
async def api_restore(request: Request, session: SessionDep):
    """Body: a backup. Every game in it becomes a new game with new links (all or nothing
    against bad input); answers `games` with their links."""
    try:
        file = await spooled_body(request)
    except TooLarge:
        return JSONResponse({"detail": TOO_LARGE}, status_code=413)
    try:
        stored = await one_at_a_time(backup.restore, session, file)
    except exchange.Problem as problem:
        return JSONResponse({"detail": problem.errors}, status_code=422)
    finally:
        file.close()
    return {"games": [created(g) for g in stored]}
