"""The house rules page: dice faces per colour, the Glitch table, zone sizes, cover and the
Danger limit for one game (rules.md, everything marked *house*), with the defaults and a reset.

Saving is the `set_house_rules` command, so a change is a step like any other: logged, undoable
and seen by every screen. Checks that need the game (colours the roster uses, the Danger already
reached) are made here, at the edge, and shown next to their field.
"""

from __future__ import annotations

from typing import Any, get_args

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import ValidationError

from app.kernel.commands import Refused
from app.rulesets.potham2038.house_checks import FACES, colours_in_use, game_checks
from app.rulesets.potham2038.house_rules import FreeAction, HouseRules
from app.store import game_commands, games
from app.web.command_forms import as_json, expect_of, field_messages, form_to_body, int_or_none
from app.web.deps import EditDep, FormDep, Opened, SessionDep
from app.web.templating import templates

router = APIRouter(include_in_schema=False)

GLITCH_RESULTS = ("reboot", "overcharged", "full_throttle", "free_action", "no_effect")
FREE_ACTIONS = get_args(FreeAction)  # R-GLITCH-ANY
DEFAULTS = HouseRules()


def read_form(items: list[tuple[str, str]], current: HouseRules) -> dict[str, Any]:
    """The form as a HouseRules dict: faces typed as 'blank, hit, critical' become lists, a new
    colour row is added, empty Glitch rows are dropped, fields not on the form keep their value."""
    body = form_to_body(items)  # `expect` and `seen` are not house rules (UI_FIELDS)
    faces = _faces(body)
    rows = body.pop("glitch_table", [])
    rows = [r for r in (rows if isinstance(rows, list) else [rows]) if _filled(r)]
    return {**current.model_dump(mode="json"), **body, "dice_faces": faces, "glitch_table": rows}


def _faces(body: dict[str, Any]) -> Any:
    """`dice_faces.<colour>` texts (and the new colour row) as face lists; anything else posted
    as `dice_faces` is passed on as it is, for HouseRules to refuse with a message."""
    posted = body.pop("dice_faces", {})
    new_colour = str(body.pop("new_colour", "")).strip().lower()
    new_faces = str(body.pop("new_faces", ""))
    if not isinstance(posted, dict):
        return posted
    faces = {colour.strip().lower(): _faces_list(text) for colour, text in posted.items()}
    if new_colour:
        faces[new_colour] = _faces_list(new_faces)
    return {k: v for k, v in faces.items() if v}


def _filled(row: Any) -> bool:
    """A Glitch row counts once any number is typed (the selects always have a value)."""
    return not isinstance(row, dict) or any(k not in ("result", "action") for k in row)


def _faces_list(text: str) -> list[str]:
    return [f.strip().lower() for f in str(text).replace(";", ",").split(",") if f.strip()]


def page_context(opened: Opened, session, **extra: Any) -> dict[str, Any]:
    state = games.current_state(session, opened.game)
    house = state.house
    return {"game": opened.game, "opened": opened, "state": state, "house": house, "defaults": DEFAULTS,
            "faces_choices": FACES, "glitch_results": GLITCH_RESULTS, "free_actions": FREE_ACTIONS,
            "in_use": colours_in_use(state), "values": None, "errors": {},
            "house_json": as_json(house.model_dump(mode="json")), **extra}


def answer(request: Request, opened: Opened, session, status_code: int = 200, **extra: Any):
    if "hx-request" not in request.headers and status_code < 400:
        return RedirectResponse(f"/g/{opened.token}/house", status_code=303)
    name = "potham2038/_house.html" if "hx-request" in request.headers else "potham2038/house.html"
    return templates.TemplateResponse(request, name, page_context(opened, session, **extra),
                                      status_code=status_code)


@router.get("/g/{token}/house", response_class=HTMLResponse)
def house_page(request: Request, opened: EditDep, session: SessionDep):
    return templates.TemplateResponse(request, "potham2038/house.html", page_context(opened, session))


@router.post("/g/{token}/house", response_class=HTMLResponse)
def save_house(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    items = [(k, v) for k, v in posted.multi_items() if isinstance(v, str)]
    form = dict(items)
    state = games.current_state(session, opened.game)
    try:
        house = HouseRules.model_validate(read_form(items, state.house))
    except ValidationError as error:
        return answer(request, opened, session, 422, values=form, errors=_by_field(field_messages(error)))
    errors = game_checks(house, state)
    if errors:
        return answer(request, opened, session, 422, values=form, errors=errors)
    return _save(request, opened, session, house, form, "House rules saved.", form)


@router.post("/g/{token}/house/reset", response_class=HTMLResponse)
def reset_house(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    """Back to the rules.md defaults, unless the roster uses a colour the defaults lack."""
    form = {k: v for k, v in posted.items() if isinstance(v, str)}
    state = games.current_state(session, opened.game)
    house = HouseRules(dice_mode=state.house.dice_mode)  # who rolls is a habit, not a rule
    errors = game_checks(house, state)
    if errors:
        return answer(request, opened, session, 400, errors=errors,
                      error="The defaults do not fit this game: " + " ".join(errors.values()))
    return _save(request, opened, session, house, form, "House rules reset to the rules.md defaults.")


def _save(request, opened, session, house: HouseRules, posted: dict[str, str], message: str, form=None):
    """Run set_house_rules with what the page saw (`expect`, the whole table: a field added to
    HouseRules is covered too). A stale save answers 409: the message lists their values, the
    form keeps yours and now expects theirs, so saving again replaces them knowingly."""
    data = {"type": "set_house_rules", "house": house.model_dump(mode="json")}
    saw = expect_of(posted.get("expect"))
    try:
        game_commands.run_command(session, opened.game, data, int_or_none(posted.get("seen")),
                          expect=None if saw is None else {"house": saw})
    except (Refused, game_commands.Conflict) as refused:
        values = None if form is None else {k: v for k, v in form.items() if k != "expect"}
        return answer(request, opened, session, 409 if isinstance(refused, game_commands.Conflict) else 400,
                      values=values, error=refused.reason)
    return answer(request, opened, session, saved=message)


def _by_field(messages: dict[str, str]) -> dict[str, str]:
    """Face-list errors point at the colour's one text field (`dice_faces.white.2` -> `dice_faces.white`)."""
    out: dict[str, str] = {}
    for name, msg in messages.items():
        parts = name.split(".")
        key = ".".join(parts[:2]) if parts[0] == "dice_faces" else name
        out.setdefault(key, msg)
    return out
