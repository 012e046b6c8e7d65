"""The game page is a set of panels. Each panel is one partial (`_name.html`) that renders both
inside the full page and alone (`GET /g/{token}/panels/{name}`), so htmx swaps and live
updates refresh exactly the panel that changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse
from sqlmodel import Session

from app.store import games
from app.web import log_rows, step_reads, taps
from app.web.deps import Opened, OpenedDep, SessionDep, Since, open_game
from app.web.reach import reach
from app.web.render_once import RenderedPanels
from app.web.templating import templates

router = APIRouter(include_in_schema=False)

# panel name -> template. Order is the order on the page (the template places them).
# status, turn and roster: the generic ones, for a ruleset whose web part draws none of its own.
PANELS: dict[str, str] = {
    "status": "_ruleset_status.html",
    "turn": "_ruleset_turn.html",
    "roster": "_ruleset_roster.html",
    "log": "_log.html",
    "share": "_share.html",
    "title": "_game_title.html",  # not a step panel: refreshed on a "renamed" event only
}

LOG_LENGTH = 40  # steps per page of the log; "Show older" loads the page before
LOG_MOST = 2000  # a log opened down to an old step (live refresh, going back) shows at most this many

# Panels that need more than the state (the turn panel's carried-over answers) add to the context.
Hook = Callable[[Opened, Session, dict[str, Any]], dict[str, Any]]

# Each ruleset's web part (installed by app/web/routes/rulesets.py): its game page, the panels it draws
# itself and its context hooks, by ruleset id. The log, share and title panels are everyone's.
RULESET_PAGES: dict[str, str] = {}
RULESET_PANELS: dict[str, dict[str, str]] = {}
RULESET_HOOKS: dict[str, list[Hook]] = {}


def page_template(game: Any) -> str:
    return RULESET_PAGES.get(games.ruleset_of(game).id, "ruleset_game.html")


def panel_template(game: Any, name: str) -> str:
    if name not in PANELS:
        raise HTTPException(404, f"No panel named {name!r}.")
    return RULESET_PANELS.get(games.ruleset_of(game).id, {}).get(name, PANELS[name])


def log_context(opened: Opened, session: Session, before: int | None = None,
                oldest: int | None = None, after: int | None = None, latest: Any = None) -> dict[str, Any]:
    """A page of the log, newest first: the newest LOG_LENGTH steps, or those before step
    `before`, or (a log the player opened further) every step down to `oldest`. `log_more` is
    where "Show older" continues, None when step 0 is shown. `after` (a live refresh of the
    newest page): only steps from `after` on, which live.js puts on top of those it has
    (`log_from`), so a long open log costs one step per step, not all of them again. All three
    are clamped to the game's steps, so a hand-edited `?before=10**30` (or a negative one)
    never reaches the database. `latest`: the latest step, as games.latest_step read it (its
    recent states are known)."""
    before, oldest, after = (None if n is None else min(max(n, 0), opened.game.seq + 1)
                             for n in (before, oldest, after))
    if before is None and oldest is not None and oldest > opened.game.seq - LOG_LENGTH:
        oldest = None  # the newest page reaches it anyway
    log_from = after if before is None and after is not None and \
        0 <= opened.game.seq - after <= LOG_LENGTH else None
    log = None
    if log_from is not None:
        log = log_page(session, opened.game, None, log_from, LOG_LENGTH + 1)
        if any(step.kind == "undo" for step in log):  # it strikes through steps the page already
            log = log_from = None  # shows, which live.js would keep as they were: the whole page
    if log is None and oldest is not None and (before is None or oldest < before):
        oldest = max(0, oldest)
        log = log_page(session, opened.game, before, oldest, LOG_MOST)
    elif log is None:
        oldest = None
        log = log_page(session, opened.game, before, limit=LOG_LENGTH)
    query = "&".join(f"{k}={v}" for k, v in (("before", before), ("oldest", oldest)) if v is not None)
    more = log[-1].seq if log and log[-1].seq > 0 and log_from is None else None
    return {**link_context(opened), "log_query": query, "log": log,
            "log_rows": log_rows.ROWS.rows(session, opened.game, log, latest),  # each step's rendered row
            "log_before": before, "log_oldest": oldest,
            "log_more": more, "log_from": log_from}


def log_page(session: Session, game: Any, before: int | None, oldest: int | None = None,
             limit: int = LOG_LENGTH) -> list[Any]:
    """log_rows.log_page up to the game's step, never past it (a step committed meanwhile is the
    next step's); a page of the usual length read once per step (step_reads.py), not a log
    opened far back (up to LOG_MOST steps: kept, a few would hold megabytes)."""
    newest = game.seq + 1 if before is None else min(before, game.seq + 1)
    if limit > LOG_LENGTH + 1:
        return log_rows.log_page(session, game, newest, oldest, limit)
    return step_reads.READS.get(game, ("log", newest, oldest, limit),
                                lambda: log_rows.log_page(session, game, newest, oldest, limit))


def link_context(opened: Opened) -> dict[str, Any]:
    """What every panel needs of the link it was opened with."""
    base = "/g/" if opened.can_edit else "/v/"
    return {"game": opened.game, "opened": opened, "can_edit": opened.can_edit,
            "base_url": f"{base}{opened.token}"}


def game_context(opened: Opened, session: Session, log_before: int | None = None,
                 log_oldest: int | None = None, log_after: int | None = None, with_log: bool = True,
                 **extra: Any) -> dict[str, Any]:
    """Everything any panel needs; computed once per request. `with_log=False`: for panels
    other than the log, which skip reading its steps and their states (most of a
    status panel's time)."""
    step = step_reads.READS.get(opened.game, ("latest",), lambda: games.latest_step(session, opened.game),
                                seq=lambda record: record.seq)  # read on past a newer step: kept under it
    ruleset = games.ruleset_of(opened.game)
    shown = log_context(opened, session, log_before, log_oldest, log_after, step) if with_log \
        else link_context(opened)
    context = {**shown, "state": games.state_of(step, ruleset), "step": step, "ruleset": ruleset,
               "tap_from": taps.tap_from(opened.game)}  # the Undo bar's "Undo the whole tap"
    for hook in RULESET_HOOKS.get(ruleset.id, []):
        context |= hook(opened, session, context)
    return context | extra


# Panels that show nothing of the link they were opened with (their templates read the game, its
# state, the step's danger track and `oob` only; tests/web/test_step_reads.py checks every
# ruleset's): rendered once per step for both links and every page (step_reads.py).
STEP_WIDE = {"status"}
STEP_WIDE_READS = {"game", "state", "danger_history", "danger_chart", "oob"}


# Panels whose render from a plain context (game_context's for a link, nothing added: no form,
# message, pick or request of the asker's) reads nothing else than the step and that link: a tap's
# own answer and the step's push to the same link draw the same turn panel (the play
# link's turn panel, a third of a tap's renders, was drawn twice). Rendered once per step and link;
# its templates read no log page (the only part of a plain context that differs between the two:
# tests/web/test_link_wide_panels.py checks every ruleset's).
LINK_WIDE = {"turn"}


def render_panels(game: Any, names: Any, context: dict[str, Any], plain: Opened | None = None) -> str:
    """The panels `names`, one after the other, from one context (`plain`: see render_one)."""
    return "".join(render_one(game, name, context, plain) for name in names)


def render_one(game: Any, name: str, context: dict[str, Any], plain: Opened | None = None) -> str:
    """`plain`: the link `context` is game_context's plain context for (nothing added): a LINK_WIDE
    panel is then rendered once per step and link. The key holds what a plain context is made of
    besides the step: the link (its access and token), both links of the game, the tap to undo."""
    template = templates.get_template(panel_template(game, name))
    oob = bool(context.get("oob"))
    if name in STEP_WIDE:
        return step_reads.READS.get(game, ("panel", template.name, oob), lambda: template.render(context))
    if name in LINK_WIDE and plain is not None:
        link = ("link panel", template.name, oob, plain.access, plain.token, game.view_token,
                context["tap_from"])
        return step_reads.READS.get(game, link, lambda: template.render(context))
    return template.render(context)


def render_panel(request: Request, name: str, context: dict[str, Any],
                 status_code: int = 200) -> HTMLResponse:
    template = panel_template(context["game"], name)
    # X-Game-Seq: the step this panel shows; live.js sends it back as `seen` (no lost update)
    return templates.TemplateResponse(request, template, context, status_code=status_code,
                                      headers={"X-Game-Seq": str(context["game"].seq)})


# The panel routes open their game themselves (deps.open_game, in the route's own thread), not as
# a dependency: FastAPI's solving of it and its hop to a worker thread of its own cost about a
# quarter of a panel asked again. An unknown link still answers 404.


@router.get("/g/{token}/panels/{name}", response_class=HTMLResponse)
def edit_panel(request: Request, token: str, name: str, session: SessionDep,
               before: int | None = None, oldest: int | None = None, bot: str | None = None):
    """One panel. Its `data-query` keeps what the player opened across live refreshes: the log's
    pages (`before`, `oldest`), the AI-Bot picked to activate next (`bot`)."""
    return shared_panels(request, open_game(token, session), session, name, before, oldest, None, bot)


@router.get("/v/{token}/panels/{name}", response_class=HTMLResponse)
def view_panel(request: Request, token: str, name: str, session: SessionDep,
               before: int | None = None, oldest: int | None = None):
    opened = open_game(token, session)
    opened.access = "view"  # the watch page never shows controls, whatever the token
    return shared_panels(request, opened, session, name, before, oldest)


PanelNames = Annotated[str, Query(max_length=200, pattern=r"^[a-z]+(,[a-z]+)*$",
                                  description="Panel names, comma-separated.")]


@router.get("/g/{token}/panels", response_class=HTMLResponse)
@router.get("/v/{token}/panels", response_class=HTMLResponse)
def several_panels(request: Request, token: str, session: SessionDep, names: PanelNames | None = None,
                   before: Since | None = None, oldest: Since | None = None, after: Since | None = None,
                   bot: str | None = None):
    """A live refresh in one request (five per step and page froze the server): the
    panels `names`, one after the other, from one context. `after`: the log sends only its new
    steps (see log_context)."""
    opened = open_game(token, session)  # an unknown link is a 404 first, `names` or not
    if names is None:  # required: FastAPI's own answer, once the link opened a game
        raise RequestValidationError([{"type": "missing", "loc": ("query", "names"), "msg": "Field required",
                                       "input": None}])
    if request.scope["path"].startswith("/v/"):
        opened.access, bot = "view", None
    return shared_panels(request, opened, session, names, before, oldest, after, bot)


def shared_panels(request: Request, opened: Opened, session: Session, names: str, before: int | None,
                  oldest: int | None, after: int | None = None, bot: str | None = None) -> HTMLResponse:
    """The panels `names` (comma-separated), rendered once per step and shared by every page
    that asks the same: every page on one link asks for the same panels after a step,
    so a step is rendered once per link (play, watch), however many pages are open, and pages
    asking at the same moment wait for that one render (RenderedPanels.render_once)."""
    unknown = [n for n in names.split(",") if n not in PANELS]
    if unknown:
        raise HTTPException(404, f"No panel named {unknown[0]!r}.")
    game = opened.game
    # the request's path and query name the link and what it shows; both links are in the key (a
    # replaced link changes it). Only the share panel reads the request's host and the network
    # address its links use, which change no step: in the key only for it,
    # so the other panels skip building the request's URL and its share address.
    shared = (str(request.url), reach(request).origin) if "share" in names.split(",") else None
    key = (request.scope["path"], request.scope["query_string"], shared, opened.access, game.seq,
           game.updated_at, game.edit_token, game.view_token, game.report_token)

    def render() -> str:
        wanted = dict.fromkeys(names.split(","))
        context = game_context(opened, session, before, oldest, after, with_log="log" in wanted,
                               chosen_bot=bot, request=request)
        return render_panels(game, wanted, context)

    # X-Game-Seq: the step these panels show; live.js sends it back as `seen` (no lost update)
    return HTMLResponse(RENDERED.render_once(key, render),
                        headers={"X-Game-Seq": str(game.seq), "Cache-Control": "no-store"})


RENDERED = RenderedPanels()


@router.get("/g/{token}/log", response_class=HTMLResponse)
@router.get("/v/{token}/log", response_class=HTMLResponse)
def older_steps(request: Request, opened: OpenedDep, session: SessionDep, before: int):
    """"Show older": the page of steps before step `before`, as list items appended to the log."""
    if request.url.path.startswith("/v/"):
        opened.access = "view"
    context = log_context(opened, session, before)
    return templates.TemplateResponse(request, "_log_steps.html", context,
                                      headers={"X-Game-Seq": str(opened.game.seq)})
