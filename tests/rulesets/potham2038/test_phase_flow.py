"""When Phase 2 may go straight on to Phase 4 (issue 18): only when Phase 3 would resolve nothing
(app/rulesets/potham2038/web/turn.py `phase3_optional`). Read from R-ACT-PHASE ("Melee and Shoot
resolve in Phase 3"), R-CMB-GANGUP (seed 001: "Continue unresolved engagements until their
required opponents resolve or separate") and R-PHASE-MOVE (an open slot's re-decision is optional)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.models import DecidedAction, Decision, SeenFact
from app.rulesets.potham2038.web.turn import phase3_optional
from tests.support.turn_games import roster_state

MELEE = DecidedAction(slot=1, family="attack", action="melee", phase=3, target_id="ada", reason="In contact.")
SHOT = DecidedAction(slot=2, family="attack", action="shoot", phase=3, target_id="bo", reason="In sight.")
WALKED = DecidedAction(slot=1, family="maneuver", action="walk", phase=2, move=4, status="done", reason="To A.")
TOUCHING = SeenFact(character_id="ada", distance=0, line_of_sight=True, base_contact=True)


def turn(hunter: Decision | None = None, **changes):
    """Phase 2 with every AI-Bot activated; Hunter-1's activation as given (else it only walked)."""
    state = roster_state(phase=2, event="Event card", **changes)
    others = [Decision(bot_id=b.id, turn=1, actions=[WALKED]) for b in state.bots if b.id != "hunt"]
    return state.model_copy(update={"decisions": [hunter or Decision(bot_id="hunt", turn=1, actions=[WALKED]),
                                                  *others]})


@pytest.mark.parametrize("hunter, onward", [
    (None, True),
    (Decision(bot_id="hunt", turn=1, actions=[MELEE]), False),  # R-ACT-PHASE: its Melee is Phase 3's
    (Decision(bot_id="hunt", turn=1, actions=[WALKED, SHOT]), False),  # R-ACT-PHASE: so is its Shoot
    (Decision(bot_id="hunt", turn=1, seen=[TOUCHING]), False),  # R-CMB-GANGUP: undecided, still fought
], ids=["every bot only moved", "a melee decided", "a shot decided", "a base contact, no melee decided"])
def test_R_ACT_PHASE_R_CMB_GANGUP_phase_2_goes_on_to_phase_4_only_when_phase_3_resolves_nothing(hunter, onward):
    assert (phase3_optional(turn(hunter)) is not None) is onward


def test_R_ACT_ORDER_not_while_an_ai_bot_is_still_to_activate():
    state = turn()
    assert phase3_optional(state.model_copy(update={"decisions": state.decisions[1:]})) is None


def test_R_PHASE_MOVE_open_slots_phase_3_would_offer_are_named_not_waited_for():
    """Sentry-1 (an 18" gun) walked and has a slot open: Phase 3 may offer it a Shoot; optional."""
    named = phase3_optional(turn())
    assert named is not None and "Sentry-1" in named


def test_only_in_phase_2():
    assert phase3_optional(turn().model_copy(update={"phase": 3})) is None
