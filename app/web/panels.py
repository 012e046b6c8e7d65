"""The game page is a set of panels. Each panel is one partial (`_name.html`) that renders both
inside the full page and alone (`GET /g/{token}/panels/{name}`), so htmx swaps and live
updates refresh exactly the panel that changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse
from sqlmodel import Session

from app import games
from app.web.deps import Opened, OpenedDep, SessionDep
from app.web.templating import templates

router = APIRouter(include_in_schema=False)

# panel name -> template. Order is the order on the page (the template places them).
PANELS: dict[str, str] = {
    "status": "_status.html",
    "turn": "_turn.html",
    "roster": "_roster.html",
    "log": "_log.html",
    "share": "_share.html",
    "title": "_game_title.html",  # not a step panel: refreshed on a "renamed" event only
}

LOG_LENGTH = 40

# Panels that need more than the state (the turn panel's carried-over answers) add to the context.
CONTEXT_HOOKS: list[Callable[[Opened, Session, dict[str, Any]], dict[str, Any]]] = []


def game_context(opened: Opened, session: Session, **extra: Any) -> dict[str, Any]:
    """Everything any panel needs; computed once per request."""
    step = games.latest_step(session, opened.game)
    log = games.steps(session, opened.game, max(-1, opened.game.seq - LOG_LENGTH))[::-1]
    base = "/g/" if opened.can_edit else "/v/"
    context = {"game": opened.game, "opened": opened, "state": games.state_of(step), "step": step,
               "log": log, "can_edit": opened.can_edit, "base_url": f"{base}{opened.token}"}
    for hook in CONTEXT_HOOKS:
        context |= hook(opened, session, context)
    return context | extra


def render_panel(request: Request, name: str, context: dict[str, Any],
                 status_code: int = 200) -> HTMLResponse:
    if name not in PANELS:
        raise HTTPException(404, f"No panel named {name!r}.")
    # X-Game-Seq: the step this panel shows; live.js sends it back as `seen` (no lost update)
    return templates.TemplateResponse(request, PANELS[name], context, status_code=status_code,
                                      headers={"X-Game-Seq": str(context["game"].seq)})


@router.get("/g/{token}/panels/{name}", response_class=HTMLResponse)
def edit_panel(request: Request, name: str, opened: OpenedDep, session: SessionDep):
    return render_panel(request, name, game_context(opened, session))


@router.get("/v/{token}/panels/{name}", response_class=HTMLResponse)
def view_panel(request: Request, name: str, opened: OpenedDep, session: SessionDep):
    opened.access = "view"  # the watch page never shows controls, whatever the token
    return render_panel(request, name, game_context(opened, session))
