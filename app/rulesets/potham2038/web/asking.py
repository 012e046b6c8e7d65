"""Phase 2 by taps: one question at a time, each a row of tap buttons.

The activation section asks `told.next_fact` for the bot's next question and shows it as taps
(`screen`). A tap posts the answers so far (a hidden JSON field of this form only: facts belong
to one activation and are never carried into another, R-ACT-FACTS) plus the reply; the answer is
the next question, or, once the answers fix the decision, the `activate_bot` step itself with the
same answers (the command decides again from them, never from a guess). Exact inches stay a
typed option on every distance question, and the only way when a band cannot fix the decision.

Screens ask what the engine always needs together as one tap: the first question is "who is
inside its zone", whose buttons also say base contact ("Ada, in base contact"), so the contact
and zone facts (asked first by every role: R-CONTACT-MELEE, R-MARK-ACT) take one tap, not two.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import ValidationError

from app.kernel.commands import Refused
from app.rulesets.potham2038.activation import Activation
from app.rulesets.potham2038.models import GameState
from app.rulesets.potham2038.play import bot_of
from app.rulesets.potham2038.questions import Question
from app.rulesets.potham2038.told import Answers, next_fact, sight_follows_nobody, table_names
from app.rulesets.potham2038.web.guard import POTHAM_ONLY
from app.store import games
from app.web.command_forms import FormValues, as_json, field_messages, int_or_none
from app.web.deps import EditDep, FormDep, SessionDep
from app.web.routes.steps import answer, run

router = APIRouter(include_in_schema=False)

DIRECTIONS = {1: "1 · ahead", 2: "2 · ahead right", 3: "3 · right", 4: "4 · behind right", 5: "5 · behind",
              6: "6 · behind left", 7: "7 · left", 8: "8 · ahead left"}


@dataclass
class Tap:
    label: str
    reply: str  # JSON: the facts this tap answers
    id: str = ""
    same: str = ""  # the model whose earlier fact this tap says is still true


@dataclass
class Screen:
    """A question as the page shows it: taps, and for several models at once a "Several…" list
    (`several`: "pick" ticks models, "zone" chooses outside / inside / base contact per model)."""

    fact: str
    ask: str
    taps: list[Tap] = field(default_factory=list)
    several: str | None = None
    models: list[tuple[str, str]] = field(default_factory=list)  # (id, name)
    inches_for: str | None = None  # the model whose exact inches may be typed (its key)
    inches_label: str = ""
    inches_only: bool = False  # no band fixes it: the inches are needed
    hint: str = ""


def _reply(**facts: Any) -> str:
    return as_json(facts)


def zone_screen(bot_name: str, zone: float, names: dict[str, str], sees: bool = False) -> Screen:
    """Contact and zone together: every role asks both first; base contact counts as inside.
    `sees`: with nobody inside, "who can it see?" is certain to come next (sight_ahead), so the
    "Nobody" tap says who it sees too; with two Characters, both inside or both in base contact
    is one tap as well (the "Several…" list stays for the rest)."""
    models = [(i, n) for n, i in names.items()]
    screen = Screen("zone", f'Who is inside {bot_name}\'s {zone:g}" zone?', models=models,
                    several="zone" if len(models) > 1 else None,
                    hint="Measured base edge to base edge; base contact counts as inside.")
    if sees:
        screen.taps += nobody_sees(models)
        screen.hint += " Nobody inside: tap who it can see."
    if not sees or len(models) > 2:
        screen.taps.append(Tap("Nobody" if not sees else "Nobody inside (then who it sees)",
                               _reply(contact=[], zone=[]), "ask-nobody"))
    for i, name in models:
        screen.taps.append(Tap(name, _reply(contact=[], zone=[i]), f"ask-zone-{i}"))
        screen.taps.append(Tap(f"{name}, in base contact", _reply(contact=[i], zone=[i]), f"ask-contact-{i}"))
    if len(models) == 2:
        both = [i for i, _ in models]
        screen.taps.append(Tap("Both inside", _reply(contact=[], zone=both), "ask-zone-both"))
        screen.taps.append(Tap("Both in base contact", _reply(contact=both, zone=both), "ask-contact-both"))
    return screen


def nobody_sees(models: list[tuple[str, str]]) -> list[Tap]:
    """Nobody inside its zone, and who it can see (R-LOS: told by the player, never assumed)."""
    def tap(seen: list[str], who: str, key: str) -> Tap:
        return Tap(f"Nobody inside; it sees {who}", _reply(contact=[], zone=[], line_of_sight=seen),
                   f"ask-nobody-sees-{key}")

    taps = [tap([], "nobody", "nobody"), *(tap([i], name, i) for i, name in models)]
    if len(models) > 1:
        taps.append(tap([i for i, _ in models], "both" if len(models) == 2 else "everyone", "everyone"))
    return taps


def pick_screen(q: Question, names: dict[str, str]) -> Screen:
    """Any number of Characters: Nobody, each alone, all of them; "Several…" for the rest."""
    options = [(names[o["key"]], o["key"]) for o in q.options]
    screen = Screen(q.fact, q.ask, several="pick" if len(options) > 2 else None, models=options)
    screen.taps.append(Tap("Nobody", _reply(**{q.fact: []}), "ask-nobody"))
    screen.taps += [Tap(n, _reply(**{q.fact: [i]}), f"ask-{q.fact}-{i}") for i, n in options]
    if len(options) > 1:
        screen.taps.append(Tap("Both" if len(options) == 2 else "Everyone",
                               _reply(**{q.fact: [i for i, _ in options]}), "ask-everyone"))
    return screen


def one_of_screen(q: Question, names: dict[str, str]) -> Screen:
    """One tap among the options: a band, a direction, the closest Character."""
    model = names.get(q.model or "", q.model)
    if q.fact == "band":
        taps = [Tap(o["label"][:1].upper() + o["label"][1:], _reply(**band_reply(model, o)), band_id(o))
                for o in q.options]
        return Screen("band", q.ask, taps, inches_for=model, inches_label=q.model or "")
    if q.fact == "split":  # the one figure the decision turns on: one tap each side
        taps = [Tap(o["label"], _reply(**{o["key"]: {model: o["inches"]}}), f"ask-split-{o['key']}")
                for o in q.options]
        return Screen("split", q.ask, taps, inches_for=model, inches_label=q.model or "")
    if q.fact == "direction":
        taps = [Tap(DIRECTIONS.get(o["key"], "Let the app roll"), _reply(direction=o["key"]),
                    f"ask-direction-{o['key']}") for o in q.options]
        return Screen("direction", q.ask, taps, hint="1 is the way it faces, then clockwise in eighths.")
    ids = {o["key"]: names.get(o["key"], o["key"]) for o in q.options}  # closest: one of them
    return Screen(q.fact, q.ask, [Tap(o["label"], _reply(**{q.fact: ids[o["key"]]}),
                                      f"ask-{q.fact}-{ids[o['key']]}") for o in q.options])


def band_reply(model: str, option: dict[str, Any], reply: dict[str, Any] | None = None) -> dict[str, Any]:
    """A band tap's facts: the band, for a piece of it the figures that bound it, and under
    `then` the next waypoint's band told in the same tap (band_pieces)."""
    reply = reply if reply is not None else {}
    reply.setdefault("bands", {})[model] = option["key"]
    for side in ("up_to", "more_than"):
        if side in option:
            reply.setdefault(side, {})[model] = option[side]
    then = option.get("then")
    return band_reply(then["model"], then, reply) if then else reply


def band_id(option: dict[str, Any]) -> str:
    """ask-band-walk; a piece cut at a figure: ask-band-zone-upto-1 (dots as "_"); on the
    waypoint with the next one's band: ask-band-contact-then-walk."""
    then = option.get("then")
    if then:
        return f"ask-band-{option['key']}-then-{band_id(then).removeprefix('ask-band-')}"
    if "up_to" not in option:
        return f"ask-band-{option['key']}"
    return f"ask-band-{option['key']}-upto-{option['up_to']:g}".replace(".", "_")


def still_in_contact(state: GameState, bot_id: str, shown: Screen) -> Screen:
    """A distance to the object this bot was left working last turn (it stood in base contact:
    R-ROLE-WORKER): one tap says it still does. Offered, never assumed (R-ACT-FACTS): the player
    taps it only when neither moved; the band or the inches stay for when one did."""
    worked = state.worked_last_turn.get(bot_id)
    if shown.fact == "zone" and worked is not None:  # nobody near, and still at it: one tap for both
        both = _reply(contact=[], zone=[], inches={worked: 0})
        after = sum(1 for t in shown.taps if t.id.startswith("ask-nobody"))  # after the "Nobody" taps
        shown.taps.insert(after, Tap(f"Nobody, and still in base contact with {worked}", both,
                                     "ask-nobody-still", same=worked))
    if shown.fact in ("band", "split", "inches") and worked is not None and shown.inches_label == worked:
        shown.taps.insert(0, Tap(f"Still in base contact with {worked}", _reply(inches={worked: 0}),
                                 "ask-still", same=worked))
        shown.hint = "" if shown.fact == "band" else shown.hint
    return shown


def screen(state: GameState, bot_id: str, told: Answers) -> Screen | Activation:
    """The next question of this activation as taps, or the decision the answers fix."""
    result = next_fact(state, bot_id, told)
    if not isinstance(result, Question):
        return result
    return still_in_contact(state, bot_id, asked_screen(state, bot_id, result, told))


def asked_screen(state: GameState, bot_id: str, result: Question, told: Answers) -> Screen:
    names = table_names(state)
    if result.fact == "contact" and told.zone is None:
        bot = bot_of(state, bot_id)
        return zone_screen(bot.name, bot.control_zone, names, sight_follows_nobody(state, bot_id))
    if result.kind == "pick_many":
        return pick_screen(result, names)
    if result.kind == "inches":
        return Screen("inches", result.ask, inches_for=names.get(result.model or "", result.model),
                      inches_label=result.model or "", inches_only=True,
                      hint="The bands cannot settle it here: measure it.")
    return one_of_screen(result, names)


def first_screen(state: GameState, bot_id: str) -> Screen | Activation | None:
    """The first question of a fresh activation (no answer carried over); None: cannot ask."""
    try:
        return screen(state, bot_id, Answers())
    except (Refused, ValueError):
        return None



# --- the route --------------------------------------------------------------------------------


def told_of(form: FormValues) -> dict[str, Any]:
    """The answers so far and this tap's reply, merged (distances add up; a set is replaced)."""
    told = _json(form.get("told")) or {}
    updates = [_json(form.get("reply")) or {}]
    several = form.get("several")
    if several == "pick":
        updates.append({form.get("fact"): form.getlist("pick[]")})
    elif several == "zone":
        at = {i: form.get(f"at.{i}") for i in form.getlist("model[]")}
        updates.append({"contact": [i for i, v in at.items() if v == "contact"],
                        "zone": [i for i, v in at.items() if v in ("zone", "contact")]})
    if form.get("measured"):
        updates.append({"inches": {form.get("measured"): form.get("inches").strip() or None}})
    for update in updates:
        for key, value in update.items():
            if key in ("bands", "inches", "up_to", "more_than") and isinstance(value, dict):
                told[key] = {**(told.get(key) or {}), **value}
            else:
                told[key] = value
    return told


def _json(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text) if text and len(text) < 64 * 1024 else None
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


SAY_AGAIN = {True: "Enter the inches as a number from 0 to 1000, like 6.5.",
             False: "That answer does not fit this question: please tap again."}


def _answers(text: str) -> Answers:
    """The answers a form carried; none when they are unreadable (asked again from the start)."""
    try:
        return Answers.model_validate(_json(text) or {})
    except ValidationError:
        return Answers()


@router.post("/g/{token}/turn/ask", response_class=HTMLResponse, dependencies=[POTHAM_ONLY])
def ask(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    """One tap of an activation: the next question, or the activation decided by the answers."""
    items = [(k, v) for k, v in posted.multi_items() if isinstance(v, str)]
    form = FormValues(items)
    bot_id = form.get("bot_id")
    keep: dict[str, Any] = {"form_id": "ask", "chosen_bot": bot_id}
    try:
        answers, status = Answers.model_validate(told_of(form)), 200
    except ValidationError as error:  # the answers so far stay; the bad reply is asked again
        answers, status = _answers(form.get("told")), 422
        keep |= {"errors": field_messages(error), "error": SAY_AGAIN[bool(form.get("measured"))]}
    state = games.current_state(session, opened.game)
    try:
        if state.phase != 2 or state.decision(bot_id) is not None:
            raise Refused("That activation is over: the game has moved on.")
        shown = screen(state, bot_id, answers)
    except Refused as refused:
        keep["error"] = refused.reason
        return answer(request, opened, session, "turn", 400, changed=False, **keep)
    if isinstance(shown, Screen) or status != 200:
        return answer(request, opened, session, "turn", status, changed=False, asked=shown,
                      told=as_json(answers.model_dump(exclude_none=True)), **keep)
    data = {"type": "activate_bot", "bot_id": bot_id, "answers": answers.model_dump(exclude_none=True)}
    seen = int_or_none(form.get("seen"))  # the game moved on since the first question: 409, asked afresh
    return run(request, opened, session, data, seen, form=FormValues([("form", "ask"), *items]))
