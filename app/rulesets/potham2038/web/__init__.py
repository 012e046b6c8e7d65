"""Potham 2038's web part (docs/rulesets.md): its game page and panels, its page routes (roster,
turn, house rules, Phase 2 by taps, Phase 4's checks) and its stateless rules API (/api/rules/…)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.rulesets.base import RulesetWeb
from app.rulesets.potham2038.engagements import melee_of
from app.rulesets.potham2038.glitches import glitch_faces
from app.rulesets.potham2038.models import PHASE_NAMES
from app.rulesets.potham2038.web import (
    activation_api,
    asking,
    forms,
    odds,
    pages_2038,
    phase4_checks,
    roster,
    rules_api,
    sample_roster,
    turn,
    turn_context,
)
from app.rulesets.potham2038.web.guard import POTHAM_ONLY


def danger_band(n: int, limit: int) -> str:
    """Thirds of the track: calm, alert, critical; the last step is the end (R-DANGER)."""
    if n >= limit:
        return "end"
    if n * 3 <= limit:
        return "calm"
    return "alert" if n * 3 <= limit * 2 else "critical"


def danger_steps(state: Any) -> list[dict[str, Any]]:
    limit = state.house.danger_limit
    return [{"n": n, "band": danger_band(n, limit), "filled": n <= state.danger} for n in range(1, limit + 1)]


# the band in words beside the track's colours (WCAG 1.4.1: never colour alone)
DANGER_BAND_NAMES = {"calm": "Calm", "alert": "Alert", "critical": "Critical", "end": "End"}

# the log's labels of 2038's own commands
STEP_LABELS = {
    "add_bot": "AI-Bot added", "edit_bot": "AI-Bot edited", "remove_bot": "AI-Bot removed",
    "next_phase": "Next phase", "end_turn": "End of turn", "character_move": "Movement",
    "character_contact": "Base contact",
    "noise": "Noise / Alarm", "character_shoot": "Character Shoot", "invoke_distracted": "Distracted",
    "distracted_contact": "Distracted: new contact", "hack": "Hacking attempt", "luck_roll": "Luck Roll",
    "record_event": "Event", "set_activation_order": "Activation order", "activate_bot": "Activation",
    "resolve_melee": "Melee", "bot_shoot": "AI-Bot Shoot", "resolve_fallback": "Fallback action",
    "position_check": "Position check",
}


def noise_label(command: dict[str, Any]) -> str:
    """A Noise step says whether it was an Alarm (R-ALARM)."""
    return "Alarm" if command.get("kind") == "alarm" else "Noise"

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

WEB = RulesetWeb(
    page="potham2038/game.html",
    panels={"status": "potham2038/_status.html", "turn": "potham2038/_turn.html",
            "roster": "potham2038/_roster.html"},
    context=turn_context.turn_context,
    router=router,
    row="potham2038/_row.html",  # a saved game's line in the lists: Turn · Phase · Danger
    rules="/rules",  # its rule glossary has a page of its own (pages_2038)
    step_labels=STEP_LABELS,
    command_labels={"noise": noise_label},
    template_globals={
        "PHASE_NAMES": PHASE_NAMES, "danger_steps": danger_steps,
        "danger_band": danger_band, "DANGER_BAND_NAMES": DANGER_BAND_NAMES,
        "page_saw": turn.page_saw, "phase3_optional": turn.phase3_optional,
        "glitch_faces": glitch_faces,  # the check card's row of faces (R-GLITCH)
        "roster_form": roster.form_for, "pool_counts": forms.pool_counts,
        "character_sheets": roster.CHARACTER_SHEETS, "first_screen": asking.first_screen,
        "melee_odds": odds.melee_odds, "shoot_odds": odds.shoot_odds,
        "character_shot_odds": odds.character_shot_odds,
        "known_melee": melee_of},  # R-CMB-BLACK-KNOWN: the Phase 1 shoot form pre-ticks it
    template_filters={"inches": roster.inches},
)
