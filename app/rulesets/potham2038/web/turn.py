"""The 2038 turn, played in the browser: every play command and the dice mode, as htmx posts.

An htmx post answers with the panel it changes plus the other turn panels out of band (status,
log, turn), and an `HX-Trigger: game-step` so any other panel still showing an older step
refreshes itself (turn.js). A plain form post (no JavaScript) is redirected back to the page.
Refusals answer in place: 422 a field is wrong (message next to it), 400 the engine refused
(`Refused`), 409 the game moved on (`Conflict`); the form keeps what the player typed.
"""

from __future__ import annotations

from random import Random
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ValidationError

from app.rulesets.potham2038.models import GameState
from app.rulesets.potham2038.turn import Adjust, NoBody, next_phase
from app.rulesets.potham2038.web import (  # noqa: F401  (routes, context hook, helpers)
    dice_folds,
    house,
    odds,
    phase3_list,
    turn_context,
)
from app.rulesets.potham2038.web.guard import POTHAM_ONLY
from app.store import games
from app.web.command_forms import FormValues, as_json, expect_of, field_messages, form_to_body, int_or_none
from app.web.deps import EditDep, FormDep, SessionDep, open_to_edit
from app.web.panels import game_context, page_template
from app.web.routes.steps import answer, run, run_steps
from app.web.templating import templates

router = APIRouter(include_in_schema=False)
router.include_router(house.router, dependencies=[POTHAM_ONLY])
router.include_router(dice_folds.router)

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



def phase3_optional(state: GameState) -> list[str] | None:
    """Phase 2 is over and Phase 3 would have nothing to resolve (no engagement, no decided Melee
    or Shoot, no other pending action): its "Next phase" may go on to Phase 4 in one tap (two
    next_phase steps). The answer names the AI-Bots whose open slots Phase 3 would still offer
    (optional re-decisions, R-PHASE-MOVE), so the page can say what that tap passes by. None:
    Phase 3 is needed (or Phase 2 is not over)."""
    if state.phase != 2 or state.to_activate():
        return None
    ahead, _ = next_phase(state, NoBody(), Random(0))  # the engine's own step (it rolls nothing)
    listed = phase3_list.phase3_list(ahead, {})
    if listed["held"] or ahead.pending_actions():
        return None
    return list(dict.fromkeys(card.bot.name for card in listed["cards"]))



def without_app_dice(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Per-roll dice mode: when the app rolls, the entered-dice fields named in `_entered`
    (e.g. `rolls`) are dropped so the engine rolls them itself."""
    form = dict(items)
    if form.get("dice") != "app":
        return items
    entered = {value for name, value in items if name == "_entered"}
    return [(n, v) for n, v in items if n.split(".")[0] not in entered]


@router.post("/g/{token}/turn", response_class=HTMLResponse)
def command(request: Request, token: str, session: SessionDep, posted: FormDep):
    """Any play command from a form: hidden `type`, fields named as the command's JSON. The game
    is opened for editing here, in the route's own worker thread (deps.open_to_edit):
    still a 404 for an unknown link and a 403 for a watch link; the form is read first, on the
    event loop."""
    opened = open_to_edit(token, session)
    items = [(k, v) for k, v in posted.multi_items() if isinstance(v, str)]
    form = FormValues(items)
    data = form_to_body(contact_is_zero(confirmed(more_than_chips(without_app_dice(items)))))
    data = shot_answered_no(data)
    if form.get("_aim") and form.get("_aim") != form.get("character_id"):  # R-CMB-TARGET-FACTS
        return answer(request, opened, session, "turn", 400, changed=False, values=form,
                      form_id=form.get("form"), error="The target changed after the button was drawn: "
                      "check the button's name and tap again.")
    if dice_folds.entered_without_dice(form):  # "I enter dice" sent before its grid arrived
        return answer(request, opened, session, "turn", 422, changed=False, values=form,
                      form_id=form.get("form"), errors={"dice": dice_folds.NOT_YET}, error=dice_folds.NOT_YET)
    before = steps_before(form)
    if before:  # one tap, several steps: e.g. Phase 1 ends and the Event is recorded
        return run_steps(request, opened, session, [*before, data], int_or_none(form.get("seen")), form=form)
    return run(request, opened, session, data, int_or_none(form.get("seen")), form=form,
               expect=expect_of(form.get("expect")))


# What a form may ask to run before its own command, in the same tap: only the phase changes
# (no fields to validate, nothing to overwrite), at most up to Phase 4.
BEFORE = frozenset({"next_phase"})


def steps_before(form: FormValues) -> list[dict[str, str]]:
    """The `_before` commands of a one-tap form (the Event's Danger button at the end of Phase 1:
    next_phase, then record_event; Phase 2's "go to Phase 4" when Phase 3 has nothing)."""
    return [{"type": kind} for kind in form.getlist("_before")[:3] if kind in BEFORE]


def shot_answered_no(data: dict) -> dict:
    """"Shoot as ticked" with line of sight or range unticked is an answer, not an error (found in
    play, docs/rules.md § 5.6): it is sent as `no_shot`, which records that the bot cannot shoot and
    leaves the card its Scan, Reload or Interact, or Skip."""
    if data.get("type") != "bot_shoot":
        return data
    facts = {k: str(data.get(k, "false")).lower() == "true" for k in ("line_of_sight", "in_range")}
    if all(facts.values()):
        return data
    return {"type": "no_shot", "bot_id": data.get("bot_id"), "character_id": data.get("character_id"),
            **facts}


def more_than_chips(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """An entered count past the last chip (more than 6 Hits, with Cover or Distracted
    dice added): the chip "7+" sends `X.hits=more` and the count in `X.hits_more`, read as `X.hits`
    (a blank count stays blank, so the roll is refused naming its field, never read as 0)."""
    more = ("hits_more", "criticals_more")
    extra = {n.removesuffix("_more"): v for n, v in items if n.endswith(more)}
    return [(n, extra.get(n, "") if v == "more" else v) for n, v in items if not n.endswith(more)]


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


# The turn panel's folds whose forms are fetched when opened (_folds.html): Phase 1's and, in
# every phase, "Correct a value" and "Record a Glitch".
FOLDS = frozenset({"shoot", "distracted", "hack", "luck", "adjust", "glitch"})


@router.get("/g/{token}/turn/folds/{fold}", response_class=HTMLResponse, dependencies=[POTHAM_ONLY])
def folded_form(request: Request, fold: str, opened: EditDep, session: SessionDep):
    """A folded form, fetched on its fold's first opening (rendered with every turn
    panel, the folds were a third of it, rarely opened): the same forms and ids as when the
    panel renders the fold open. Without htmx: the whole page with that fold open."""
    if fold not in FOLDS:
        raise HTTPException(404, f"No folded form named {fold!r}.")
    if request.headers.get("HX-Request") != "true":
        context = game_context(opened, session, open_fold=fold)
        return templates.TemplateResponse(request, page_template(opened.game), context)
    context = game_context(opened, session, with_log=False, fold=fold)
    return templates.TemplateResponse(request, "potham2038/_folds.html", context,
                                      headers={"X-Game-Seq": str(opened.game.seq)})


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
    return templates.TemplateResponse(request, "potham2038/_odds.html",
                                      {"state": state, "shooter": shooter, "target": target, "shot": shot})


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
    return templates.TemplateResponse(request, "potham2038/_melee_odds.html", context)


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
    return templates.TemplateResponse(request, "potham2038/_shot_odds.html", context)
