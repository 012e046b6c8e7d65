"""Phase 3's "Dice by hand" folds, fetched on their first opening.

Most players let the app roll, yet every closed fold carried its count chips: close to half of the
turn panel's elements in a busy Phase 3, rendered, pushed and swapped on every step. A closed fold
now carries its summary and its two radios (static/table.js ticks "I enter dice" as it opens) and
fetches its grid when opened (_turn_macros.html dice_fields, `lazy`).

The grid is the one the panel draws with that fold open: this route renders the turn panel with
`open_dice` set and answers the grid the macro drew for it (`dice_grids`), so its labels (the bot,
the target) and its ids are those of the full render by construction, from one template; a turn
render per opening is cheap for a tap. The answer is the grid alone (a few KB), not the panel.
Without htmx: the whole page with that fold open (the link a closed fold shows without script).

Submitting "I enter dice" before the grid arrived sends no entered field: `entered_without_dice`
refuses it (422 naming `dice`), never lets the app roll what the player meant to roll by hand.
"""

from __future__ import annotations

import re

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.rulesets.potham2038.web.guard import POTHAM_ONLY
from app.web.command_forms import FormValues
from app.web.deps import EditDep, SessionDep
from app.web.panels import game_context, page_template, render_one
from app.web.templating import templates

router = APIRouter(include_in_schema=False)

# A form's id as the Phase 3 partials make them (shoot-<bot>, melee-<bot>-<character>, melee-other).
FOLD_ID = r"^[A-Za-z0-9_-]{1,120}$"
NOT_YET = ("The dice by hand had not arrived: tap the counts the dice show, or choose “App rolls”. "
           "Nothing was rolled.")


@router.get("/g/{token}/turn/dice/{fold}", response_class=HTMLResponse, dependencies=[POTHAM_ONLY])
def dice_grid(request: Request, fold: str, opened: EditDep, session: SessionDep) -> Response:
    """The count chips of the "Dice by hand" fold of form `fold`, as the turn panel draws them
    with that fold open. 422 naming `fold` when the panel has no such fold now."""
    if not re.fullmatch(FOLD_ID, fold):
        return bad_fold("Not a form of the turn panel: letters, digits, - and _ only, at most 120.")
    if request.headers.get("HX-Request") != "true":
        context = game_context(opened, session, open_dice=fold)
        return templates.TemplateResponse(request, page_template(opened.game), context)
    grids: dict[str, str] = {}
    render_one(opened.game, "turn", game_context(opened, session, with_log=False, open_dice=fold,
                                                 dice_grids=grids))
    if fold not in grids:  # e.g. its roll was settled on another device: the panel refreshes
        return bad_fold("The turn panel has no dice by hand for this form now.")
    return HTMLResponse(grids[fold], headers={"X-Game-Seq": str(opened.game.seq)})


def bad_fold(message: str) -> JSONResponse:
    """422 naming the field, FastAPI's shape; `HX-Reswap: none`: htmx swaps a 422 (a refused form
    comes back in place), and this answer is no grid, so the fold keeps its stand-in."""
    return JSONResponse({"detail": [{"type": "value_error", "loc": ["path", "fold"], "msg": message}]},
                        status_code=422, headers={"HX-Reswap": "none"})


def entered_without_dice(form: FormValues) -> bool:
    """The player chose "I enter dice" but the form carries none of the rolls' fields (`_entered`
    names them: the grid had not arrived when the form was sent)."""
    return form.get("dice") == "entered" and not form.getlist("_entered")
