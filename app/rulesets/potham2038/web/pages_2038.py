"""2038's own page and JSON route beside the shell's: the rule glossary (/rules) and Phase 3's
agenda (`GET /api/games/{token}/phase3`, docs/api.md)."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from app import rulesets
from app.rulesets.potham2038.glossary import AREAS
from app.rulesets.potham2038.phase3_agenda import agenda
from app.store import games
from app.web.deps import OpenedDep, SessionDep
from app.web.templating import templates

router = APIRouter(include_in_schema=False)
api = APIRouter(prefix="/api/games", tags=["games"])


@router.get("/rules", response_class=HTMLResponse)
def rules(request: Request):
    """Every rule id the app cites, with its plain summary; each entry is an anchor (/rules#R-…)."""
    return templates.TemplateResponse(request, "potham2038/rules.html", {"areas": AREAS})


@api.get("/{token}/phase3", summary="Phase 3's agenda in resolution order (R-CMB-GANGUP)")
def read_phase3(opened: OpenedDep, session: SessionDep) -> dict[str, Any]:
    """Engagements (decided or not, who attacks by default and who may), then AI-Bot shots, then
    open slots with their legal re-decisions: `phase3_agenda.agenda` of the current state."""
    if opened.game.ruleset != rulesets.DEFAULT:
        raise HTTPException(404, "Phase 3's agenda belongs to Potham 2038 games.")
    state = games.current_state(session, opened.game)
    return {"turn": state.turn, "phase": state.phase, "seq": opened.game.seq,
            "items": [asdict(item) for item in agenda(state)]}
