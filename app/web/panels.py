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

LOG_LENGTH = 40  # steps per page of the log; "Show older" loads the page before
LOG_MOST = 2000  # a log opened down to an old step (live refresh, going back) shows at most this many

# Panels that need more than the state (the turn panel's carried-over answers) add to the context.
CONTEXT_HOOKS: list[Callable[[Opened, Session, dict[str, Any]], dict[str, Any]]] = []


def log_context(opened: Opened, session: Session, before: int | None = None,
                oldest: int | None = None) -> dict[str, Any]:
    """A page of the log, newest first: the newest LOG_LENGTH steps, or those before step
    `before`, or (a log the player opened further) every step down to `oldest`. `log_more` is
    where "Show older" continues, None when step 0 is shown. Both are clamped to the game's
    steps, so a hand-edited `?before=10**30` (or a negative one) never reaches the database."""
    before, oldest = (None if n is None else min(max(n, 0), opened.game.seq + 1) for n in (before, oldest))
    if before is None and oldest is not None and oldest > opened.game.seq - LOG_LENGTH:
        oldest = None  # the newest page reaches it anyway
    if oldest is not None and (before is None or oldest < before):
        oldest = max(0, oldest)
        log = games.log_page(session, opened.game, before, oldest, LOG_MOST)
    else:
        oldest = None
        log = games.log_page(session, opened.game, before, limit=LOG_LENGTH)
    base = "/g/" if opened.can_edit else "/v/"
    query = "&".join(f"{k}={v}" for k, v in (("before", before), ("oldest", oldest)) if v is not None)
    return {"log_query": query, "game": opened.game, "opened": opened, "can_edit": opened.can_edit,
            "base_url": f"{base}{opened.token}", "log": log, "log_before": before, "log_oldest": oldest,
            "log_more": log[-1].seq if log and log[-1].seq > 0 else None}


def game_context(opened: Opened, session: Session, log_before: int | None = None,
                 log_oldest: int | None = None, **extra: Any) -> dict[str, Any]:
    """Everything any panel needs; computed once per request."""
    step = games.latest_step(session, opened.game)
    context = {**log_context(opened, session, log_before, log_oldest), "state": games.state_of(step),
               "step": step}
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
def edit_panel(request: Request, name: str, opened: OpenedDep, session: SessionDep,
               before: int | None = None, oldest: int | None = None, bot: str | None = None):
    """One panel. Its `data-query` keeps what the player opened across live refreshes: the log's
    pages (`before`, `oldest`), the AI-Bot picked to activate next (`bot`)."""
    return render_panel(request, name, game_context(opened, session, before, oldest, chosen_bot=bot))


@router.get("/v/{token}/panels/{name}", response_class=HTMLResponse)
def view_panel(request: Request, name: str, opened: OpenedDep, session: SessionDep,
               before: int | None = None, oldest: int | None = None):
    opened.access = "view"  # the watch page never shows controls, whatever the token
    return render_panel(request, name, game_context(opened, session, before, oldest))


@router.get("/g/{token}/log", response_class=HTMLResponse)
@router.get("/v/{token}/log", response_class=HTMLResponse)
def older_steps(request: Request, opened: OpenedDep, session: SessionDep, before: int):
    """"Show older": the page of steps before step `before`, as list items appended to the log."""
    if request.url.path.startswith("/v/"):
        opened.access = "view"
    context = log_context(opened, session, before)
    return templates.TemplateResponse(request, "_log_steps.html", context,
                                      headers={"X-Game-Seq": str(opened.game.seq)})
