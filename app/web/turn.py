"""The turn, played in the browser: every play command, undo and the dice mode, as htmx posts.

An htmx post answers with the panel it changes plus the other turn panels out of band (status,
log, turn), and an `HX-Trigger: game-step` so any other panel still showing an older step
refreshes itself (turn.js). A plain form post (no JavaScript) is redirected back to the page.
Refusals answer in place: 422 a field is wrong (message next to it), 400 the engine refused
(`Refused`), 409 the game moved on (`Conflict`); the form keeps what the player typed.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, ValidationError

from app import games
from app.rules.commands import Refused
from app.rules.models import GameState
from app.rules.turn import Adjust
from app.web import house, odds, phase3_list, turn_context, view  # noqa: F401  (routes, context hook, helpers)
from app.web.command_forms import FormValues, as_json, expect_of, field_messages, form_to_body, int_or_none
from app.web.deps import POTHAM_ONLY, EditDep, FormDep, Opened, SessionDep
from app.web.panels import game_context, page_template, panel_template
from app.web.templating import templates

router = APIRouter(include_in_schema=False)
router.include_router(house.router, dependencies=[POTHAM_ONLY])

# The panels a step always changes; each answer carries them (the main one in place).
TURN_PANELS = ("turn", "status", "log")


def render(name: str, context: dict[str, Any]) -> str:
    return templates.get_template(panel_template(context["game"], name)).render(context)


def answer(request: Request, opened: Opened, session, main: str, status_code: int = 200,
           changed: bool = True, **extra: Any) -> Response:
    """The panel `main` (with any message in `extra`), and, when the game changed, the other
    turn panels out of band. Without htmx: back to the page, or the page with the message."""
    if "hx-request" not in request.headers:
        if status_code < 400 and changed:
            return RedirectResponse(f"/g/{opened.token}", status_code=303)
        context = game_context(opened, session, **extra)
        page = page_template(opened.game)
        return templates.TemplateResponse(request, page, context, status_code=status_code)
    context = game_context(opened, session, **extra)
    parts = [render(main, context)]
    if changed:
        parts += [render(name, {**context, "oob": True}) for name in TURN_PANELS if name != main]
        parts.append(templates.get_template("_announce.html").render(context))
    headers = {"X-Game-Seq": str(opened.game.seq)}  # live.js (sharing) tracks the step shown
    if changed:
        headers["HX-Trigger"] = json.dumps({"game-step": {"seq": opened.game.seq}})
    return HTMLResponse("".join(parts), status_code=status_code, headers=headers)


def run(request: Request, opened: Opened, session, data: dict[str, Any], seen: int | None,
        main: str = "turn", form: FormValues | None = None, expect: Any = None) -> Response:
    """Run one command and answer with the panels; every refusal lands in `main`."""
    failure = {"values": form, "form_id": form.get("form") if form else None}
    try:
        games.run_command(session, opened.game, data, seen, expect=expect)
    except ValidationError as error:
        messages = field_messages(error)
        return answer(request, opened, session, main, 422, changed=False, errors=messages,
                      error="Please check the marked fields.", **failure)
    except games.Conflict as conflict:
        session.refresh(opened.game)
        if form is not None:  # the typed values stay; what the page saw becomes what is there now
            failure["values"] = FormValues([(k, v) for k, v in form.items if k != "expect"])
        return answer(request, opened, session, main, 409, error=conflict.reason, **failure)
    except Refused as refused:
        return answer(request, opened, session, main, 400, changed=False, error=refused.reason, **failure)
    return answer(request, opened, session, main)


ADJUSTABLE = tuple(sorted(set(Adjust.model_fields) - {"target_id", "danger", "note"}))


def page_saw(state: GameState, command: str) -> str | None:
    """The `expect` a turn form carries (preconditions.py): what its page shows of the values
    the command sets, for any model the player may pick. None: the command sets no values."""
    if command == "adjust":
        models = [*state.characters, *state.bots]
        saw = {m.id: {k: getattr(m, k) for k in ADJUSTABLE if hasattr(m, k)} for m in models}
        return as_json(saw | {"game": {"danger": state.danger}})
    if command == "set_activation_order":
        return as_json({"game": {"activation_order": state.activation_order}})
    if command == "set_dice_mode":  # the dice-mode toggle (a set_house_rules of one field)
        return as_json({"dice_mode": state.house.dice_mode})
    return None


templates.env.globals["page_saw"] = page_saw


def without_app_dice(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Per-roll dice mode: when the app rolls, the entered-dice fields named in `_entered`
    (e.g. `rolls`) are dropped so the engine rolls them itself."""
    form = dict(items)
    if form.get("dice") != "app":
        return items
    entered = {value for name, value in items if name == "_entered"}
    return [(n, v) for n, v in items if n.split(".")[0] not in entered]


@router.post("/g/{token}/turn", response_class=HTMLResponse)
def command(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    """Any play command from a form: hidden `type`, fields named as the command's JSON."""
    items = [(k, v) for k, v in posted.multi_items() if isinstance(v, str)]
    form = FormValues(items)
    data = form_to_body(contact_is_zero(confirmed(without_app_dice(items))))
    if form.get("_aim") and form.get("_aim") != form.get("character_id"):  # R-CMB-TARGET-FACTS
        return answer(request, opened, session, "turn", 400, changed=False, values=form,
                      form_id=form.get("form"), error="The target changed after the button was drawn: "
                      "check the button's name and tap again.")
    return run(request, opened, session, data, int_or_none(form.get("seen")), form=form,
               expect=expect_of(form.get("expect")))


def contact_is_zero(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A Character ticked in base contact and left without a distance is 0" away (R-ZONE measures
    base edge to base edge): one tap, no typing. A typed distance is kept as typed."""
    touching = {n.removesuffix("base_contact") for n, v in items
                if n.endswith(".base_contact") and v == "true"}
    typed = {n.removesuffix("distance") for n, v in items if n.endswith(".distance") and v.strip()}
    return [(n, "0") if n.endswith(".distance") and n.removesuffix("distance") in touching - typed else (n, v)
            for n, v in items]


CONFIRMABLE = frozenset({"line_of_sight", "in_range"})


def confirmed(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A button that confirms facts in one tap (`_confirm=line_of_sight in_range`, "Shoot: in
    sight and in range now", R-ACT-FACTS): those yes/no fields are sent as yes, whatever the
    boxes beside it say."""
    names = {n for name, value in items if name == "_confirm" for n in value.split() if n in CONFIRMABLE}
    return [(n, v) for n, v in items if n not in names] + [(n, "true") for n in sorted(names)]


class DiceMode(BaseModel):
    mode: Literal["app", "entered"]


@router.post("/g/{token}/dice-mode", response_class=HTMLResponse)
def dice_mode(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    """The game's default for every roll: the app rolls, or the player enters physical dice."""
    form = dict(posted.items())
    try:
        mode = DiceMode(mode=form.get("mode", "")).mode
    except ValidationError as error:
        return answer(request, opened, session, "turn", 422, changed=False, form_id="dice-mode",
                      errors=field_messages(error), error="Choose who rolls the dice.")
    current = games.current_state(session, opened.game).house
    house_rules = current.model_copy(update={"dice_mode": mode}).model_dump(mode="json")
    data = {"type": "set_house_rules", "house": house_rules}
    # it changes the dice mode only: the rest must still be what was just read (no race)
    saw = expect_of(form.get("expect"))
    expect = {"house": current.model_dump(mode="json") | saw} if isinstance(saw, dict) else None
    return run(request, opened, session, data, int_or_none(form.get("seen")), expect=expect)


@router.post("/g/{token}/undo", response_class=HTMLResponse)
def undo(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    """Undo the last step, or go back to any earlier one (`to_seq`), as a new step."""
    form = dict(posted.items())
    to_seq, seen = int_or_none(form.get("to_seq")), int_or_none(form.get("seen"))
    main = "turn" if form.get("panel") == "turn" else "log"  # the turn bar's Undo keeps the turn in view
    try:
        games.undo(session, opened.game, to_seq, seen, describe=view.step_summary)
    except games.Conflict as conflict:
        session.refresh(opened.game)
        return answer(request, opened, session, main, 409, log_error=conflict.reason, error=conflict.reason)
    except Refused as refused:
        return answer(request, opened, session, main, 400, changed=False, log_error=refused.reason,
                      error=refused.reason)
    # the log stays open down to the step gone back to, however old
    return answer(request, opened, session, main, log_oldest=to_seq)


@router.post("/g/{token}/turn/order", response_class=HTMLResponse, dependencies=[POTHAM_ONLY])
def propose_order(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    """Move one bot up or down in the proposed activation order; nothing is saved until the
    player uses the order (set_activation_order), so trying orders leaves no trace in the log."""
    items = [(k, v) for k, v in posted.multi_items() if isinstance(v, str)]
    form = FormValues(items)
    state = games.current_state(session, opened.game)
    ids = [i for i in dict.fromkeys(form.getlist("bot_ids[]")) if state.bot(i)]
    ids += [b.id for b in state.in_order() if b.id not in ids and b.health > 0]
    bot_id, _, way = form.get("move").partition(":")
    if bot_id in ids:
        i = ids.index(bot_id)
        j = max(0, min(len(ids) - 1, i + (-1 if way == "up" else 1)))
        ids[i], ids[j] = ids[j], ids[i]
    order = [b for i in ids if (b := state.bot(i)) is not None]
    return answer(request, opened, session, "turn", changed=False, order=order, proposed=True)


@router.get("/g/{token}/turn/odds", response_class=HTMLResponse, dependencies=[POTHAM_ONLY])
def shoot_odds_fragment(request: Request, opened: EditDep, session: SessionDep,
                        character_id: str = "", target_id: str = "", cover: str = "none",
                        melee_with: Annotated[list[str] | None, Query(alias="melee_with[]")] = None,
                        tie_choice: str = ""):
    """The odds of a Character's Shoot as the form is filled in (R-CMB-SHOOT, R-DISTRACTED), and
    where a Blank on the Black Die would send it when the target is in melee (R-CMB-TARGET)."""
    state = games.current_state(session, opened.game)
    shooter, target = state.character(character_id), state.bot(target_id)
    cover = cover if cover in ("none", "light", "heavy") else "none"
    shot = odds.character_shot_odds(state, shooter, target, cover, (melee_with or [])[:40], tie_choice)
    return templates.TemplateResponse(request, "_odds.html", {"state": state, "target": target, "shot": shot})


@router.get("/g/{token}/turn/melee-odds", response_class=HTMLResponse, dependencies=[POTHAM_ONLY])
def melee_odds_fragment(request: Request, opened: EditDep, session: SessionDep, bot_id: str = "",
                        character_id: str = "", attacker: str = ""):
    """Who attacks and the odds of one engagement for the side chosen on its card, so the odds
    always describe the roll the button makes (R-CMB-WHO, R-CMB-GANGUP, R-GLITCH-REBOOT)."""
    state = games.current_state(session, opened.game)
    bot, target = state.bot(bot_id), state.character(character_id)
    if bot is None or target is None:
        return HTMLResponse('<p class="muted">Choose the models to see the odds.</p>')
    o = odds.melee_odds(state, bot, target, attacker)
    preset = phase3_list.preset_card(state, bot, target)
    context = {"state": state, "bot": bot, "target": target, "o": o, "preset": preset}
    return templates.TemplateResponse(request, "_melee_odds.html", context)


@router.get("/g/{token}/turn/shot-odds", response_class=HTMLResponse, dependencies=[POTHAM_ONLY])
def shot_odds_fragment(request: Request, opened: EditDep, session: SessionDep, bot_id: str = "",
                       character_id: str = "", cover: str = "", part: str = "odds",
                       melee_with: Annotated[list[str] | None, Query(alias="melee_with[]")] = None,
                       ticks: Annotated[str, Query(alias="_ticks")] = ""):
    """A part of an AI-Bot shot card for the target and Cover on its form: the odds and whether
    the target is in a melee (R-SHOOT-COVER, R-CMB-TARGET), or the button that names the target
    (R-CMB-TARGET-FACTS). The ticks stay as the player set them for the same target; a new
    target gets the models still in melee with it."""
    state = games.current_state(session, opened.game)
    p3 = turn_context.phase3_context(state, phase3_list.phase_results(session, opened.game.id))
    shooter, target = state.bot(bot_id), state.character(character_id)
    if shooter is None:
        return HTMLResponse('<p class="muted">Choose the target to see the odds.</p>')
    context = {"state": state, "shooter": shooter, "target": target,
               "part": "aim" if part == "aim" else "odds",
               "cover": cover if cover in ("none", "light", "heavy") else None,
               "held": bool(p3["p3"]["held"]),
               "melee_with": (melee_with or [])[:40] if target and ticks == target.id else None,
               "in_melee_with": p3["in_melee_with"]}
    return templates.TemplateResponse(request, "_shot_odds.html", context)
