"""Play together: the share panel (two links, copy buttons, QR codes) and regenerating a link.

Each QR code is an image of its own (`/g/{token}/qr/play.svg`, `/v/{token}/qr/watch.svg`) that
the panel's closed fold loads only when a player opens it (two codes made on every new
game's first page were most of its CPU, for codes nobody opened).

`install(app)` wires everything this issue adds: the share, live and exchange routes, the 409
answer for a command that lost a race, and the access-log filter that keeps tokens out of logs.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any, Literal

import segno
from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import RedirectResponse, Response
from sqlmodel import Session

from app.live import hub as live
from app.store import game_commands, games
from app.store.tables import Game
from app.web.deps import EditDep, OpenedDep, SessionDep
from app.web.logs.access_log import install_plain_access_lines
from app.web.logs.redact import install_access_log_filter
from app.web.panels import game_context, render_panel
from app.web.reach import SHARE_COMMAND, reach
from app.web.routes import exchange
from app.web.routes import live as live_routes
from app.web.templating import templates

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/games", tags=["games"])
watch_guard = APIRouter(include_in_schema=False)  # last of all: see watch_path_changes_nothing

Which = Literal["play", "watch"]


def install(app: FastAPI) -> None:
    for r in (router, api_router, live_routes.router, exchange.router, exchange.api_router, watch_guard):
        app.include_router(r)
    app.add_exception_handler(game_commands.Conflict, live_routes.conflict_answer)
    install_access_log_filter(app.routes)
    install_plain_access_lines()


@lru_cache(maxsize=512)
def qr_svg(url: str, label: str = "link") -> str:
    """The link as a QR code, a standalone SVG document: dark on white with a quiet zone, so
    phones read it in either theme; a size and a viewBox, so it scales sharply to its box. Only
    our own absolute URL goes in (token characters are URL-safe). Made once per link and label."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", scale=6, unit="px", border=2, dark="#000",
                                    light="#fff", title=f"QR code of the {label}", svgclass="qr",
                                    xmldecl=False, nl=False)
    return out.getvalue().decode()


def qr_answer(request: Request, path: str, label: str) -> Response:
    """The code of `path` at the address the panel shows it (the same `absolute`: the image is
    fetched from the page's own origin, so SHARE_HOST and the table's address apply alike)."""
    return Response(qr_svg(absolute(request, path), label), media_type="image/svg+xml")


@router.get("/g/{token}/qr/play.svg")
def play_qr(request: Request, opened: EditDep) -> Response:
    """The play link's code, for the play link only: a watch token is refused (403), and on a
    watch path this has no route (404, like every read a watch path does not serve)."""
    return qr_answer(request, f"/g/{opened.game.edit_token}", "play link")


@router.get("/v/{token}/qr/watch.svg")
def watch_qr(request: Request, opened: OpenedDep) -> Response:
    """The watch link's code, on the watch path of its own token on every page: a new watch link
    is a new image URL, so no page keeps showing the image of the revoked one (a browser reuses
    an image already loaded at the same URL, whatever its Cache-Control)."""
    return qr_answer(request, f"/v/{opened.game.view_token}", "watch link")


def absolute(request: Request, path: str) -> str:
    """`/g/…` at an address another device can open when there is one (app/web/reach.py)."""
    return reach(request).origin + path


templates.env.globals["absolute_url"] = absolute
templates.env.globals["share_reach"] = reach
templates.env.globals["share_command"] = SHARE_COMMAND


def regenerate(session: Session, game: Game, which: Which) -> Game:
    """A new token replaces the old one at once: the old link answers 404 from now on, and open
    pages that used it are told so."""
    column = "edit_token" if which == "play" else "view_token"
    old = getattr(game, column)
    setattr(game, column, games.new_token())
    session.add(game)
    session.commit()
    session.refresh(game)
    live.hub.links_changed(game.id, old)
    return game


def links(game: Game) -> dict[str, Any]:
    return {"edit_token": game.edit_token, "view_token": game.view_token,
            "edit_url": f"/g/{game.edit_token}", "view_url": f"/v/{game.view_token}"}


@router.post("/g/{token}/links/{which}")
def regenerate_link(request: Request, which: Which, opened: EditDep, session: SessionDep) -> Response:
    game = regenerate(session, opened.game, which)
    htmx = bool(request.headers.get("HX-Request"))
    if which == "play":  # this page's own link is gone: move to the new one
        target = f"/g/{game.edit_token}"
        return Response(headers={"HX-Redirect": target}) if htmx else RedirectResponse(target, 303)
    if htmx:
        return render_panel(request, "share", game_context(opened, session, with_log=False))
    return RedirectResponse(f"/g/{game.edit_token}", 303)


@watch_guard.api_route("/v/{token}", methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"])
@watch_guard.api_route("/v/{token}/{rest:path}", methods=["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"])
def watch_path_changes_nothing(request: Request, opened: OpenedDep) -> None:
    """Every change sent to a watch path answers 403 with its reason, as on the play paths and the
    API (deps.edit_game), not 404 for want of a route; an unknown token still answers 404.
    Installed after every other router, so it shadows no route; a read of a path no route serves
    stays 404 (a 405 would come from the write methods alone matching the path)."""
    if request.method in ("GET", "HEAD"):
        raise HTTPException(404, "Not Found")
    raise HTTPException(403, "This is a watch link: it can follow the game but not change it.")


@api_router.post("/{token}/links/{which}")
def regenerate_link_json(which: Which, opened: EditDep, session: SessionDep) -> dict[str, Any]:
    """Replace the play or the watch link; answers both links as they are now."""
    return links(regenerate(session, opened.game, which))
