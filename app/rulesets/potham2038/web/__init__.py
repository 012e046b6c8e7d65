"""Potham 2038's web part (docs/rulesets.md): its game page and panels, its page routes (roster,
turn, house rules, Phase 2 by taps, Phase 4's checks) and its stateless rules API (/api/rules/…)."""

from __future__ import annotations

from fastapi import APIRouter

from app.rulesets.potham2038.models import PHASE_NAMES
from app.rulesets.potham2038.web import (
    activation_api,
    asking,
    pages_2038,
    phase4_checks,
    roster,
    rules_api,
    sample_roster,
    turn,
    turn_context,
)
from app.web.deps import POTHAM_ONLY
from app.web.templating import templates

PAGE = "potham2038/game.html"
PANELS = {"status": "potham2038/_status.html", "turn": "potham2038/_turn.html",
          "roster": "potham2038/_roster.html"}
RULES = "/rules"  # its rule glossary has a page of its own (pages_2038)
context = turn_context.turn_context

templates.env.globals["PHASE_NAMES"] = PHASE_NAMES

# In matching order: the hot stateless endpoint first; /roster/sample is not a kind of model.
router = APIRouter()
router.include_router(activation_api.router)
router.include_router(rules_api.router)
router.include_router(pages_2038.router)
router.include_router(pages_2038.api)
router.include_router(sample_roster.router)
router.include_router(roster.router, dependencies=[POTHAM_ONLY])
router.include_router(turn.router)
router.include_router(phase4_checks.router)  # Phase 4: every check passed, one tap
router.include_router(asking.router)  # Phase 2 by taps
