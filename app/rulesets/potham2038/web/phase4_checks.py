"""Phase 4 in one tap (issue 18): "Every check passed" answers every pending Primary Directive
position check as passed (R-END-CHECK).

It reuses the engine's own `position_check` command, one logged step per check, so the engine
and its rules stay as they are and Undo takes back one check at a time. The form names the checks
its page showed: if another device answered or changed one meanwhile, nothing is recorded (409).
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app import games
from app.kernel.commands import Refused
from app.rulesets.potham2038.web.guard import POTHAM_ONLY
from app.web.command_forms import FormValues, int_or_none
from app.web.deps import EditDep, FormDep, SessionDep
from app.web.steps import answer

router = APIRouter(include_in_schema=False)

FORM_ID = "checks-passed"


@router.post("/g/{token}/turn/checks-passed", response_class=HTMLResponse, dependencies=[POTHAM_ONLY])
def every_check_passed(request: Request, opened: EditDep, session: SessionDep, posted: FormDep):
    """One `position_check` (passed) per check still due, in the page's order."""
    form = FormValues([(k, v) for k, v in posted.multi_items() if isinstance(v, str)])
    failure = {"values": form, "form_id": FORM_ID}
    seen = int_or_none(form.get("seen"))
    due = [b.id for b in games.current_state(session, opened.game).checks_due()]
    if (seen is not None and seen != opened.game.seq) or sorted(form.getlist("bot_ids[]")) != sorted(due):
        return answer(request, opened, session, "turn", 409, error="The position checks changed since you "
                      "looked: the ones waiting now are shown, answer them again.", **failure)
    if not due:
        return answer(request, opened, session, "turn", 400, changed=False,
                      error="No position check is waiting.", **failure)
    done = 0
    for bot_id in due:
        try:
            seen = games.run_command(session, opened.game, {"type": "position_check", "bot_id": bot_id,
                                                            "passed": True}, seen).seq
        except (games.Conflict, Refused) as stopped:  # another device got there between two checks
            session.refresh(opened.game)
            return answer(request, opened, session, "turn", 409 if done else 400, changed=done > 0,
                          error=stopped.reason, **failure)
        done += 1
    return answer(request, opened, session, "turn")
