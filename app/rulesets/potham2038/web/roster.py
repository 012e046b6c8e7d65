"""The roster editor: add, edit and remove Characters and AI-Bots from the game page.

Every change is a command (`add_character`, `edit_bot`, ...) run through `game_commands.run_command`, so
it is a step in the log and undo takes it back. Each form is an htmx partial that replaces
itself (422 with the messages next to the fields, the typed text kept); on success the whole
roster panel is swapped in. Without JavaScript the same forms post normally and redirect back
(or show the game page with the form open and its messages).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError
from starlette.datastructures import FormData

from app.kernel.commands import Body, Refused
from app.rulesets.potham2038.models import Bot, Character, GameState
from app.rulesets.potham2038.roster import BotSheet, CharacterSheet, sheet_of
from app.rulesets.potham2038.web.forms import (
    Reads,
    bot_values,
    character_values,
    read_bot,
    read_character,
    role_name,
)
from app.rulesets.potham2038.web.sample_roster import CHARACTER_SHEETS, character_defaults, role_defaults
from app.store import game_commands, games
from app.web.command_forms import as_json, expect_of, int_or_none
from app.web.deps import EditDep, FormDep, Opened, SessionDep
from app.web.panels import game_context, panel_template
from app.web.routes.steps import TURN_PANELS
from app.web.templating import templates

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True)
class Kind:
    slug: str  # in the URL: "characters" | "bots"
    noun: str  # in commands and template names: "character" | "bot"
    label: str  # for the player
    read: Reads
    find: Callable[[GameState, str], Any]
    sheet: type[Body]  # what an edit sets (preconditions.py)


SHEETS = {"character": CharacterSheet, "bot": BotSheet}
KINDS = {
    "characters": Kind("characters", "character", "Character", read_character, GameState.character,
                       CharacterSheet),
    "bots": Kind("bots", "bot", "AI-Bot", read_bot, GameState.bot, BotSheet),
}
NOUNS = {k.noun: k for k in KINDS.values()}
ROLES = ("hunter", "sentry", "worker", "patrol")


def form_values(noun: str, state: GameState, model: Any) -> dict[str, Any]:
    return character_values(model) if noun == "character" else bot_values(model, state.house.bot_zone)


def form_for(noun: str, state: GameState, model: Any = None, values: dict | None = None,
             errors: dict | None = None, model_id: str | None = None,
             expect: str | None = None) -> dict[str, Any]:
    """What a roster form partial needs: its key (unique on the page), values and messages, and
    for an edit `expect`, the sheet as this form first showed it (kept through a 422)."""
    if values is None:
        values = form_values(noun, state, model)
    if expect is None and model is not None:
        expect = as_json(sheet_of(model, NOUNS[noun].sheet))
    model_id = model.id if model is not None else model_id
    return {"noun": noun, "model_id": model_id, "key": f"{noun}-{model_id or 'new'}", "expect": expect,
            "values": values, "errors": errors or {}, "colours": sorted(state.house.dice_faces),
            "theirs": None}


def inches(value: float | None) -> str:
    if value is None:
        return "—"
    return f'{int(value) if float(value).is_integer() else value:g}"'





def kind_of(slug: str) -> Kind:
    if slug not in KINDS:
        raise HTTPException(404, "The roster has Characters and AI-Bots only.")
    return KINDS[slug]


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


def seen_of(form: FormData) -> int | None:
    return int_or_none(form.get("seen"))


def show_form(request: Request, opened: Opened, session, form: dict, status: int = 200) -> HTMLResponse:
    """The form alone for htmx; else the whole game page with this form open in the roster."""
    context = game_context(opened, session, with_log=not is_htmx(request), form=form)
    name = f"potham2038/_{form['noun']}_form.html" if is_htmx(request) else "potham2038/game.html"
    return templates.TemplateResponse(request, name, context, status_code=status)


def roster_changed(request: Request, opened: Opened, session) -> Response:
    """After a step: htmx gets the new roster panel and the other step panels out of band."""
    if not is_htmx(request):
        return RedirectResponse(f"/g/{opened.token}#panel-roster", status_code=303)
    context = {"request": request, **game_context(opened, session)}
    # 2038's own panels (panel_template), not the generic ones every ruleset falls back on
    parts = [templates.get_template(panel_template(opened.game, "roster")).render(context)]
    # the turn, status and log changed too; the share panel and the title never change with a
    # step (they follow their own events): sending them cost a quarter of the answer
    for name in TURN_PANELS:
        if name != "roster":
            html = templates.get_template(panel_template(opened.game, name)).render(context)
            parts.append(re.sub(r"^(\s*<[a-zA-Z][\w-]*)", r'\1 hx-swap-oob="true"', html, count=1))
    return HTMLResponse("\n".join(parts), headers={"HX-Retarget": "#panel-roster", "HX-Reswap": "outerHTML"})


def run(request: Request, opened: Opened, session, command: dict[str, Any], seen: int | None,
        form: dict, expect: Any = None) -> Response:
    """Run the command; on any refusal show the form again with the reason, nothing lost."""
    status = 422
    try:
        game_commands.run_command(session, opened.game, command, seen=seen, expect=expect)
        return roster_changed(request, opened, session)
    except ValidationError as error:  # the form reader should have caught it; say so anyway
        form["errors"] = {str(e["loc"][1] if len(e["loc"]) > 1 else "form"): e["msg"] for e in error.errors()}
    except game_commands.Conflict as conflict:
        form["errors"], status = {"form": conflict.reason}, 409
        session.rollback()
        show_theirs(form, games.current_state(session, opened.game))
    except Refused as refused:  # a name taken (R-ROSTER-NAME) is told next to the name field
        form["errors"] = {"name" if refused.rule == "R-ROSTER-NAME" else "form": refused.reason}
    session.rollback()
    return show_form(request, opened, session, form, status)


def show_theirs(form: dict, state: GameState) -> None:
    """After a stale edit: both versions. The inputs keep what was typed (yours); the form lists
    each field saved meanwhile on another device with its value there (theirs), and now expects
    those, so saving again knowingly replaces them."""
    kind = NOUNS[form["noun"]]
    model = kind.find(state, form["model_id"] or "")
    if model is None:
        return
    theirs, yours = form_values(form["noun"], state, model), form["values"]
    form["theirs"] = [(LABELS.get(k, k.replace("_", " ").capitalize()), _shown(v), _shown(yours.get(k)))
                      for k, v in theirs.items() if _shown(v) != _shown(yours.get(k))]
    form["expect"] = as_json(sheet_of(model, kind.sheet))


LABELS = {"missions": "Mission stats", "equipment_flags": "Equipment", "rule_flags": "Special Rules",
          "max_health": "Max Health", "shoot_range": "Shoot range", "control_zone": "Control Zone"}


def _shown(value: Any) -> str:
    """A form value as the player reads it: flags as yes/no, lists (Mission rows) joined."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(" · ".join(map(str, v)) if isinstance(v, list | tuple) else str(v) for v in value)
    return "" if value is None else str(value).strip()


def _model(kind: Kind, state: GameState, model_id: str):
    model = kind.find(state, model_id)
    if model is None:
        raise HTTPException(404, f"That {kind.label} is no longer in the game.")
    return model


@router.get("/g/{token}/roster/{slug}/new", response_class=HTMLResponse)
def new_form(request: Request, slug: str, opened: EditDep, session: SessionDep, role: str = "",
             sheet: str = ""):
    """The add form; `role` (an AI-Bot's, "+ Sentry"): that role's starting sheet (sample.py);
    `sheet` (a Character's, "+ Hacker"): that starting sheet."""
    kind = kind_of(slug)
    state = games.current_state(session, opened.game)
    values = None
    if kind.noun == "bot" and role in ROLES:
        bot = Bot(id="new", name="new", control_zone=state.house.bot_zone, **role_defaults(role))
        # offered its role's next free name (a player who keeps it types nothing); at full Health
        values = bot_values(bot) | {"name": role_name(role, [b.name for b in state.bots]), "health": ""}
    elif kind.noun == "character" and (found := character_defaults(sheet)):  # "+ Hacker"
        character = Character(id="new", name="new", **found)
        values = character_values(character) | {"name": "", "health": "", "sheet": sheet}
    return show_form(request, opened, session, form_for(kind.noun, state, values=values))


@router.post("/g/{token}/roster/{slug}", response_class=HTMLResponse)
def add(request: Request, slug: str, opened: EditDep, session: SessionDep, posted: FormDep):
    kind = kind_of(slug)
    state = games.current_state(session, opened.game)
    if not str(posted.get("name") or "").strip():
        posted = named_after_role(posted, state) if kind.noun == "bot" else named_after_sheet(posted, state)
    data, errors, values = kind.read(posted, state.house.dice_faces)
    form = form_for(kind.noun, state, values=values, errors=errors)
    if errors:
        return show_form(request, opened, session, form, 422)
    return run(request, opened, session, {"type": f"add_{kind.noun}", kind.noun: data}, seen_of(posted), form)


def named_after_role(posted: FormData, state: GameState) -> FormData:
    """A new AI-Bot without a name gets its role's next free one (Hunter-1, Hunter-2, ...)."""
    role = str(posted.get("role") or "hunter")
    name = role_name(role if role in ROLES else "AI-Bot",
                     [b.name for b in state.bots])
    return FormData([(k, v) for k, v in posted.multi_items() if k != "name"] + [("name", name)])


def named_after_sheet(posted: FormData, state: GameState) -> FormData:
    """A new Character from a starting sheet, left unnamed, is named after it (Hacker-1, ...);
    without a sheet a name is still asked for (the form says so next to the field)."""
    sheet = str(posted.get("sheet") or "")
    if sheet not in CHARACTER_SHEETS:
        return posted
    name = role_name(sheet, [c.name for c in state.characters])
    return FormData([(k, v) for k, v in posted.multi_items() if k != "name"] + [("name", name)])


@router.get("/g/{token}/roster/{slug}/{model_id}/edit", response_class=HTMLResponse)
def edit_form(request: Request, slug: str, model_id: str, opened: EditDep, session: SessionDep):
    kind = kind_of(slug)
    state = games.current_state(session, opened.game)
    return show_form(request, opened, session, form_for(kind.noun, state, _model(kind, state, model_id)))


@router.post("/g/{token}/roster/{slug}/{model_id}", response_class=HTMLResponse)
def edit(request: Request, slug: str, model_id: str, opened: EditDep, session: SessionDep, posted: FormDep):
    kind = kind_of(slug)
    state = games.current_state(session, opened.game)
    model = kind.find(state, model_id)
    data, errors, values = kind.read(posted, state.house.dice_faces)
    expect = posted.get("expect") if isinstance(posted.get("expect"), str) else None
    form = form_for(kind.noun, state, model, values=values, errors=errors, model_id=model_id[:40],
                    expect=expect)
    if model is None:  # removed on another device meanwhile: keep what was typed, say why
        form["errors"] = {"form": f"That {kind.label} is no longer in the game, so nothing was saved. "
                                  "Undo brings it back."}
        return show_form(request, opened, session, form, 409)
    if errors:
        return show_form(request, opened, session, form, 422)
    command = {"type": f"edit_{kind.noun}", "id": model.id, kind.noun: data}
    saw = expect_of(expect)
    return run(request, opened, session, command, seen_of(posted), form,
               expect=None if saw is None else {model.id: saw})


@router.post("/g/{token}/roster/{slug}/{model_id}/remove", response_class=HTMLResponse)
def remove(request: Request, slug: str, model_id: str, opened: EditDep, session: SessionDep,
           posted: FormDep):
    kind = kind_of(slug)
    state = games.current_state(session, opened.game)
    model = kind.find(state, model_id)
    if model is None:  # already gone (another device, or a double tap): show the roster as it is
        return roster_changed(request, opened, session)
    form = form_for(kind.noun, state, model)
    command = {"type": f"remove_{kind.noun}", "id": model.id}
    return run(request, opened, session, command, seen_of(posted), form)


@router.post("/g/{token}/roster/{slug}/{model_id}/duplicate", response_class=HTMLResponse)
def duplicate(request: Request, slug: str, model_id: str, opened: EditDep, session: SessionDep,
              posted: FormDep):
    """A copy of a model with the next free name (Hunter-2, "Ada 2"): one tap for a second one."""
    kind = kind_of(slug)
    state = games.current_state(session, opened.game)
    model = kind.find(state, model_id)
    if model is None:
        return roster_changed(request, opened, session)
    taken = [m.name for m in state.characters + state.bots]
    sheet = SHEETS[kind.noun]
    data = sheet.model_validate({k: getattr(model, k) for k in sheet.model_fields}).model_dump(mode="json")
    data["name"] = role_name(model.role, taken) if kind.noun == "bot" else next_name(model.name, taken)
    form = form_for(kind.noun, state, model)
    return run(request, opened, session, {"type": f"add_{kind.noun}", kind.noun: data}, seen_of(posted), form)


def next_name(name: str, taken: list[str]) -> str:
    """'Ada' -> 'Ada 2' (or the next number free, whatever its case: R-ROSTER-NAME)."""
    base, n, names = re.sub(r"\s+\d+$", "", name), 2, {t.casefold() for t in taken}
    while f"{base} {n}".casefold() in names:
        n += 1
    return f"{base} {n}"[:80]
