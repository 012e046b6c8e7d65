"""A command run from a page, and its answer; undo. Every ruleset's pages post through these.

An htmx post answers with the panel it changes plus the other turn panels out of band (status,
log, turn), and an `HX-Trigger: game-step` so any other panel still showing an older step
refreshes itself (turn.js). A plain form post (no JavaScript) is redirected back to the page.
Refusals answer in place: 422 a field is wrong (message next to it), 400 the engine refused
(`Refused`), 409 the game moved on (`Conflict`); the form keeps what the player typed.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError

from app.kernel.commands import Refused
from app.store import game_commands, games
from app.web import announce, taps, view  # noqa: F401  (announce: the live region's template helpers)
from app.web.command_forms import FormValues, field_messages, int_or_none
from app.web.deps import EditDep, FormDep, Opened, SessionDep
from app.web.panels import game_context, page_template, render_one
from app.web.templating import templates

router = APIRouter(include_in_schema=False)

# The panels a step always changes; each answer carries them (the main one in place).
TURN_PANELS = ("turn", "status", "log")


def render(name: str, context: dict[str, Any], plain: Opened | None = None) -> str:
    """`plain`: the context is game_context's for that link, nothing added (panels.render_one)."""
    return render_one(context["game"], name, context, plain)


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
    plain = None if extra else opened  # a panel of the step's push to this link: the same render
    parts = [render(main, context, plain)]
    if changed:
        parts += [render(name, {**context, "oob": True}, plain) for name in TURN_PANELS if name != main]
        parts.append(templates.get_template("_announce.html").render(context))
    elif extra.get("error"):  # a refusal, said once in the live region (its form shows it too)
        parts.append(templates.get_template("_announce.html").render(news=None, error=extra["error"]))
    headers = {"X-Game-Seq": str(opened.game.seq)}  # live.js (sharing) tracks the step shown
    if changed:
        headers["HX-Trigger"] = json.dumps({"game-step": {"seq": opened.game.seq}})
    return HTMLResponse("".join(parts), status_code=status_code, headers=headers)


def run(request: Request, opened: Opened, session, data: dict[str, Any], seen: int | None,
        main: str = "turn", form: FormValues | None = None, expect: Any = None) -> Response:
    """Run one command and answer with the panels; every refusal lands in `main`."""
    failure = {"values": form, "form_id": form.get("form") if form else None}
    try:
        game_commands.run_command(session, opened.game, data, seen, expect=expect)
    except ValidationError as error:
        messages = field_messages(error)
        return answer(request, opened, session, main, 422, changed=False, errors=messages,
                      error="Please check the marked fields.", **failure)
    except game_commands.Conflict as conflict:
        session.refresh(opened.game)
        if form is not None:  # the typed values stay; what the page saw becomes what is there now
            failure["values"] = FormValues([(k, v) for k, v in form.items if k != "expect"])
        return answer(request, opened, session, main, 409, error=conflict.reason, **failure)
    except Refused as refused:
        return answer(request, opened, session, main, 400, changed=False, error=refused.reason, **failure)
    return answer(request, opened, session, main)


def run_steps(request: Request, opened: Opened, session, commands: list[dict[str, Any]], seen: int | None,
              main: str = "turn", form: FormValues | None = None) -> Response:
    """Several commands from one tap, in order, one logged step each: Undo takes them back one at
    a time, or the whole tap at once (app/web/taps.py: the turn panel offers it). Every body is validated
    before the first runs, so a wrong field records nothing; a refusal stops the tap there and
    the steps before it stand (the answer says which)."""
    failure = {"values": form, "form_id": form.get("form") if form else None}
    try:
        for data in commands:
            games.ruleset_of(opened.game).parse(data)
    except ValidationError as error:
        return answer(request, opened, session, main, 422, changed=False, errors=field_messages(error),
                      error="Please check the marked fields.", **failure)
    session.refresh(opened.game)  # the latest step committed: a tap runs only on what its page showed
    if seen is not None and seen != opened.game.seq:  # (a stale next_phase would skip a whole phase)
        return answer(request, opened, session, main, 409, error="The game moved on since you looked: "
                      "nothing of this tap was recorded. Look again and tap again.", **failure)
    start, done = opened.game.seq, 0
    for data in commands:
        try:
            seen = game_commands.run_command(session, opened.game, data, seen).seq
        except (game_commands.Conflict, Refused) as stopped:
            conflict = isinstance(stopped, game_commands.Conflict)
            if conflict or done:
                session.refresh(opened.game)
            if done:  # the steps before it stand: say so, and offer to take them back together
                said = f"{done} of the {len(commands)} steps of this tap were recorded; then: "
                return _answer_tap(request, opened, session, main, start, 409 if conflict else 400,
                                   error=said + stopped.reason, **failure)
            return answer(request, opened, session, main, 409 if conflict else 400, changed=conflict,
                          error=stopped.reason, **failure)
        done += 1
    return _answer_tap(request, opened, session, main, start)


def _answer_tap(request: Request, opened: Opened, session, main: str, start: int, status_code: int = 200,
                **extra: Any) -> Response:
    taps.remember(opened.game, start)  # every render at this step offers "Undo the whole tap"
    return answer(request, opened, session, main, status_code, **extra)


@router.post("/g/{token}/undo", response_class=HTMLResponse)
def undo(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    """Undo the last step, or go back to any earlier one (`to_seq`), as a new step."""
    form = dict(posted.items())
    to_seq, seen = int_or_none(form.get("to_seq")), int_or_none(form.get("seen"))
    main = "turn" if form.get("panel") == "turn" else "log"  # the turn bar's Undo keeps the turn in view
    try:
        game_commands.undo(session, opened.game, to_seq, seen, describe=view.step_summary)
    except game_commands.Conflict as conflict:
        session.refresh(opened.game)
        return answer(request, opened, session, main, 409, log_error=conflict.reason, error=conflict.reason)
    except Refused as refused:
        return answer(request, opened, session, main, 400, changed=False, log_error=refused.reason,
                      error=refused.reason)
    # the log stays open down to the step gone back to, however old
    return answer(request, opened, session, main, log_oldest=to_seq)
