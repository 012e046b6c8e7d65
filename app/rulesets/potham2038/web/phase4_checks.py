"""Phase 4 in one tap: "Every check passed" answers every pending Primary Directive
position check as passed (R-END-CHECK); "Every check passed · end the turn" ends the turn too
(end_turn), and from a settled Phase 3 it first goes to Phase 4 (next_phase).

It posts the engine's own commands, one logged step each (app/web/routes/steps.py run_steps), so the
engine and its rules stay as they are and Undo takes back one step at a time, or the whole tap.
The form names the checks its page showed: if another device answered or changed one meanwhile,
nothing is recorded (409).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.rulesets.potham2038.web.guard import POTHAM_ONLY
from app.rulesets.potham2038.web.turn import steps_before
from app.store import games
from app.web.command_forms import FormValues, int_or_none
from app.web.deps import EditDep, FormDep, SessionDep
from app.web.routes.steps import answer, run_steps

router = APIRouter(include_in_schema=False)

FORM_ID = "checks-passed"


@router.post("/g/{token}/turn/checks-passed", response_class=HTMLResponse, dependencies=[POTHAM_ONLY])
def every_check_passed(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    """Any `_before` phase change, one `position_check` (passed) per check still due in the
    page's order, then `end_turn` when the form asks (`end_turn=true`)."""
    form = FormValues([(k, v) for k, v in posted.multi_items() if isinstance(v, str)])
    failure = {"values": form, "form_id": form.get("form") or FORM_ID}
    seen = int_or_none(form.get("seen"))
    due = [b.id for b in games.current_state(session, opened.game).checks_due()]
    if (seen is not None and seen != opened.game.seq) or sorted(form.getlist("bot_ids[]")) != sorted(due):
        return answer(request, opened, session, "turn", 409, error="The position checks changed since you "
                      "looked: the ones waiting now are shown, answer them again.", **failure)
    ending = form.get("end_turn") == "true"
    if not due and not ending:
        return answer(request, opened, session, "turn", 400, changed=False,
                      error="No position check is waiting.", **failure)
    passed = [{"type": "position_check", "bot_id": bot_id, "passed": True} for bot_id in due]
    commands = [*steps_before(form), *passed]
    commands += [{"type": "end_turn"}] if ending else []
    return run_steps(request, opened, session, commands, seen, form=form)
