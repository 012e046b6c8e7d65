"""The battle report's addresses (docs/report.md): the page, its Markdown and its PNG card on
the play path (`/g/{token}/report`), the watch path (`/v/{token}/report`) and the report link
(`/r/{report_token}`), which opens the report alone; the JSON (`GET /api/games/{token}/report`,
any of the game's three links); making and revoking the report link (play link only); the
player's title and per-turn notes, each a step (undoable, exported).

A play token on the watch path only reads, as the watch page does; a watch token on the play
path is sent to the watch path; a report token opens nothing but `/r/…` and the JSON."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from markupsafe import Markup
from pydantic import ValidationError
from sqlmodel import Session

from app import rulesets
from app.kernel.commands import Refused
from app.live import hub as live
from app.report import card, chart, markdown, source, words
from app.store import game_commands, games
from app.store.tables import Game
from app.web.command_forms import int_or_none
from app.web.deps import EditDep, SessionDep
from app.web.panels import game_context, render_panel
from app.web.templating import templates

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/games", tags=["games"])
GONE = "No report opens with this link. It may have been revoked, or the game deleted."
MARKDOWN = "text/markdown; charset=utf-8"


def install(app: FastAPI) -> None:
    """Before the share routes: the watch path's catch-all (share.watch_guard) must come after."""
    app.include_router(router)
    app.include_router(api_router)


def open_any(session: Session, token: str) -> tuple[Game, str]:
    """The game any of its three links opens, and which link it is: "edit", "view" or "report"."""
    found = games.find_game(session, token)
    if found is not None:
        return found
    game = source.find_by_report_token(session, token)
    if game is None:
        raise HTTPException(404, GONE)
    return game, "report"


def open_as(session: Session, token: str, path: str) -> Game:
    """The game for a report on `path` ("g", "v" or "r"); 404 for a link that path does not take."""
    game, access = open_any(session, token)
    if rulesets.get(game.ruleset).report is None:
        raise HTTPException(404, "This game's rules have no battle report.")
    if (path == "r") != (access == "report"):
        raise HTTPException(404, GONE)
    if path == "g" and access != "edit":
        raise HTTPException(404, GONE)
    return game


def base_of(path: str, token: str) -> str:
    return f"/r/{token}" if path == "r" else f"/{path}/{token}/report"


def page(request: Request, session: Session, game: Game, path: str, token: str, status_code: int = 200,
         **extra: Any) -> HTMLResponse:
    report = source.report_of(session, game)
    base = base_of(path, token)
    context = {"report": report, "game": game, "words": words, "base": base, "token": token,
               "can_edit": path == "g", "alone": path == "r",
               "chart_svg": Markup(source.cached(game, "svg", lambda: chart.svg(report))),
               "chart_text": chart.description(report), "errors": {}, "values": {}, "error": "", **extra}
    return templates.TemplateResponse(request, "report.html", context, status_code=status_code)


def as_markdown(session: Session, game: Game) -> Response:
    text = source.cached(game, "markdown", lambda: markdown.markdown(source.report_of(session, game)))
    return Response(text, media_type=MARKDOWN)


def as_png(session: Session, game: Game) -> Response:
    data = source.cached(game, "png", lambda: card.png(source.report_of(session, game)))
    return Response(data, media_type="image/png")


# Each path's three answers; `.md` and `.png` first, so `/r/{token}` never takes "x.md" as a token.
for _path in ("g", "v", "r"):
    _base = "/r/{token}" if _path == "r" else f"/{_path}/{{token}}/report"

    def markdown_answer(token: str, session: SessionDep, _path: str = _path) -> Response:
        return as_markdown(session, open_as(session, token, _path))

    def _png(token: str, session: SessionDep, _path: str = _path) -> Response:
        return as_png(session, open_as(session, token, _path))

    def _page(request: Request, token: str, session: SessionDep, _path: str = _path) -> Response:
        if _path == "g" and (found := games.find_game(session, token)) and found[1] == "view":
            return RedirectResponse(f"/v/{token}/report", status_code=303)
        return page(request, session, open_as(session, token, _path), _path, token)

    router.get(_base + ".md")(markdown_answer)
    router.get(_base + ".png")(_png)
    router.get(_base, response_class=HTMLResponse)(_page)


@api_router.get("/{token}/report")
def report_json(token: str, session: SessionDep) -> JSONResponse:
    """The battle report's facts (api.md § Battle report), for any of the game's three links."""
    game, _ = open_any(session, token)
    if rulesets.get(game.ruleset).report is None:
        raise HTTPException(404, "This game's rules have no battle report.")
    return JSONResponse(source.cached(game, "json", lambda: words.as_json(source.report_of(session, game))))


# --- the player's words: each a step ---------------------------------------------------------

def save_words(request: Request, opened, session: Session, data: dict[str, Any], seen: str, field: str,
         anchor: str) -> Response:
    try:
        game_commands.run_command(session, opened.game, data, int_or_none(seen))
    except ValidationError as error:
        said = "; ".join(e["msg"] for e in error.errors())
        return page(request, session, opened.game, "g", opened.token, 422, errors={field: said}, values=data,
                    error=said)
    except game_commands.Conflict as conflict:
        session.refresh(opened.game)
        return page(request, session, opened.game, "g", opened.token, 409, errors={field: conflict.reason},
                    values=data, error=conflict.reason)
    except Refused as refused:
        return page(request, session, opened.game, "g", opened.token, 400, errors={field: refused.reason},
                    values=data, error=refused.reason)
    return RedirectResponse(f"/g/{opened.token}/report#{anchor}", status_code=303)


@router.post("/g/{token}/report/note")
def save_note(request: Request, opened: EditDep, session: SessionDep, turn: Annotated[str, Form()] = "",
              text: Annotated[str, Form()] = "", seen: Annotated[str, Form()] = "") -> Response:
    number = int_or_none(turn) or 0  # (at most 9 digits: never a huge number)
    data = {"type": "report_note", "turn": number, "text": text}
    return save_words(request, opened, session, data, seen, f"note-{number}", f"turn-{number}")


@router.post("/g/{token}/report/title")
def save_title(request: Request, opened: EditDep, session: SessionDep, title: Annotated[str, Form()] = "",
               seen: Annotated[str, Form()] = "") -> Response:
    data = {"type": "report_title", "title": title}
    return save_words(request, opened, session, data, seen, "title", "report-title")


# --- the report link ---------------------------------------------------------------------------

def link_json(game: Game) -> dict[str, Any]:
    token = game.report_token
    return {"report_token": token, "report_url": f"/r/{token}" if token else None}


def set_link(session: Session, game: Game, on: bool) -> Game:
    old = game.report_token
    game = source.set_report_link(session, game, on)
    live.hub.links_changed(game.id, old or "")  # open pages show the new share panel
    return game


def _share_answer(request: Request, opened, session: Session) -> Response:
    if request.headers.get("HX-Request"):
        return render_panel(request, "share", game_context(opened, session, with_log=False))
    return RedirectResponse(f"/g/{opened.game.edit_token}", status_code=303)


@router.post("/g/{token}/report-link")
def make_link(request: Request, opened: EditDep, session: SessionDep) -> Response:
    """A new report link; any earlier one stops working."""
    set_link(session, opened.game, True)
    return _share_answer(request, opened, session)


@router.post("/g/{token}/report-link/revoke")
def revoke_link(request: Request, opened: EditDep, session: SessionDep) -> Response:
    set_link(session, opened.game, False)
    return _share_answer(request, opened, session)


@api_router.post("/{token}/report-link")
def make_link_json(opened: EditDep, session: SessionDep) -> dict[str, Any]:
    """Make (or replace) the report link: answers `report_token` and `report_url`."""
    return link_json(set_link(session, opened.game, True))


@api_router.delete("/{token}/report-link", status_code=204)
def revoke_link_json(opened: EditDep, session: SessionDep) -> Response:
    set_link(session, opened.game, False)
    return Response(status_code=204)
