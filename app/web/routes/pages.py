"""HTML pages and htmx partials. A partial (`_name.html`) serves both the first render and the swap."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import AfterValidator, BaseModel, Field, ValidationError

from app import rulesets
from app.kernel.names import GameName
from app.store import games
from app.web import device
from app.web.deps import EditDep, OpenedDep, SessionDep
from app.web.panels import game_context, page_template
from app.web.templating import templates

router = APIRouter(include_in_schema=False)


class GameForm(BaseModel):
    name: GameName
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1)
    ruleset: Annotated[str, AfterValidator(rulesets.known)] = rulesets.DEFAULT


MESSAGES = {"name": "Give a name of 1 to 80 characters.",
            "seed": f"Write a whole number from 0 to {2**31 - 1}, or leave it blank.",
            "ruleset": "Choose one of the rulesets listed."}


def form_errors(error: ValidationError) -> dict[str, str]:
    """Field name -> message, to show next to each field."""
    errors: dict[str, str] = {}
    for e in error.errors():
        key = ".".join(str(p) for p in e["loc"]) or "form"
        said = e["msg"].removeprefix("Value error, ")  # our own check's words (printable)
        errors.setdefault(key, f"The name {said}." if key == "name" and e["type"] == "value_error"
                          else MESSAGES.get(key, said))
    return errors


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


@router.get("/", response_class=HTMLResponse)
def home(request: Request, session: SessionDep):
    """The games this browser created or opened (app/web/device.py), never anyone else's."""
    return device.render_home(request, device.home_context(request, session))


@router.post("/open", response_class=HTMLResponse)
def open_link(request: Request, session: SessionDep, link: Annotated[str, Form()] = ""):
    """Open a game from a pasted play or watch link (or its token alone)."""
    token = device.find_token(link[:2000])
    found = games.find_game(session, token) if token else None
    if found is None:
        context = {**device.home_context(request, session), "open_error":
                   "No game opens with this link. Paste the whole play or watch link you were given.",
                   "open_value": link[:2000]}
        return device.render_home(request, context, 422)
    path = "g" if found[1] == "edit" else "v"
    return RedirectResponse(f"/{path}/{token}", status_code=303)


@router.post("/forget")
def forget(request: Request, token: Annotated[str, Form()] = ""):
    """Take a game off this device's list (the game and its links stay as they are)."""
    response = RedirectResponse("/", status_code=303)
    device.forget(request, response, token)
    return response


@router.post("/games", response_class=HTMLResponse)
def create_game(request: Request, session: SessionDep,
                name: Annotated[str, Form()] = "", seed: Annotated[str, Form()] = "",
                ruleset: Annotated[str, Form()] = rulesets.DEFAULT):
    try:
        form = GameForm(name=name.strip(), seed=seed.strip() or None, ruleset=ruleset)
    except ValidationError as error:
        context = {**device.home_context(request, session), "errors": form_errors(error),
                   "values": {"name": name, "seed": seed, "ruleset": ruleset}}
        return device.render_home(request, context, 422)
    game = games.create_game(session, form.name, form.seed, ruleset=form.ruleset)
    return RedirectResponse(f"/g/{game.edit_token}", status_code=303)


@router.get("/g/{token}", response_class=HTMLResponse)
def play(request: Request, opened: OpenedDep, session: SessionDep, before: int | None = None,
         bot: str | None = None):
    """The play page. `before`: the log opened at the steps before that one (no JavaScript's
    "Show older"); `bot`: the AI-Bot to activate next in Phase 2 (R-ACT-ORDER)."""
    if not opened.can_edit:  # a watch token used on the play path still only watches
        return RedirectResponse(f"/v/{opened.token}", status_code=303)
    response = game_page(request, opened, session, before, bot)
    device.remember(request, response, opened.game.edit_token)
    return response


@router.get("/v/{token}", response_class=HTMLResponse)
def watch(request: Request, opened: OpenedDep, session: SessionDep, before: int | None = None):
    opened.access = "view"  # the watch page never shows controls, whatever the token
    response = game_page(request, opened, session, before)
    device.remember(request, response, opened.game.view_token)  # never the play link, whatever opened it
    return response


def game_page(request: Request, opened, session, before: int | None = None, bot: str | None = None):
    context = game_context(opened, session, log_before=before, chosen_bot=bot)
    return templates.TemplateResponse(request, page_template(opened.game), context)


@router.post("/g/{token}/rename", response_class=HTMLResponse)
def rename(request: Request, opened: EditDep, session: SessionDep,
           name: Annotated[str, Form()] = "", back: Annotated[str, Form()] = ""):
    """Rename from the game page (swaps the title) or from the home list (`back=home`, swaps the row)."""
    from_home = back == "home"
    try:
        form = GameForm(name=name.strip())
    except ValidationError as error:
        return _rename_refused(request, opened, session, form_errors(error), name, from_home)
    games.rename(session, opened.game, form.name)
    if not is_htmx(request):
        return RedirectResponse("/" if from_home else f"/g/{opened.token}", status_code=303)
    if from_home:
        return templates.TemplateResponse(request, "_game_row.html", {"g": opened.game, "access": "edit"})
    return templates.TemplateResponse(request, "_game_title.html", {"game": opened.game, "opened": opened})


def _rename_refused(request: Request, opened, session, errors: dict[str, str], name: str, from_home: bool):
    """422 with the message next to the field and the typed name kept: a partial for htmx,
    else the whole page it came from."""
    values = {"name": name}
    if from_home:
        if is_htmx(request):
            context = {"g": opened.game, "access": "edit", "errors": errors, "values": values}
            return templates.TemplateResponse(request, "_game_row.html", context, status_code=422)
        context = {**device.home_context(request, session), "row_id": opened.game.id, "row_errors": errors,
                   "row_values": values}
        return device.render_home(request, context, 422)
    context = game_context(opened, session, errors=errors, values=values)
    name = "_game_title.html" if is_htmx(request) else page_template(opened.game)
    return templates.TemplateResponse(request, name, context, status_code=422)


@router.post("/g/{token}/duplicate")
def duplicate(request: Request, opened: EditDep, session: SessionDep, back: Annotated[str, Form()] = ""):
    copy = games.duplicate(session, opened.game)
    response = RedirectResponse("/" if back == "home" else f"/g/{copy.edit_token}", status_code=303)
    device.remember(request, response, copy.edit_token)  # the copy is listed on this device at once
    return response


@router.get("/g/{token}/delete", response_class=HTMLResponse)
def confirm_delete(request: Request, opened: EditDep, back: str = ""):
    keep = "/" if back == "home" else f"/g/{opened.token}"
    context = {"game": opened.game, "opened": opened, "keep_url": keep}
    return templates.TemplateResponse(request, "confirm_delete.html", context)


@router.post("/g/{token}/delete")
def delete(request: Request, opened: EditDep, session: SessionDep):
    games.delete(session, opened.game)
    response = RedirectResponse("/", status_code=303)
    device.forget(request, response, opened.token)
    return response
