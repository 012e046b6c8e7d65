"""A Character's move into base contact with an AI-Bot, reported in Phase 1 (issue 18): one
command that records the contact as a fact (R-LOS), marks the Character as a zone entry (base
contact is inside every zone: R-ZONE, R-MARK-MOVE), and that Phase 3 lists as an engagement even
when the bot's activation asked no facts (a Reboot: R-CMB-WHO, R-GLITCH-REBOOT)."""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.engagements import contacts, open_engagements
from app.rulesets.potham2038.models import Bot, DecidedAction, Decision
from app.rulesets.potham2038.phase3_agenda import EngagementItem, agenda
from tests.rulesets.potham2038.turn_kit import ADA, BEN, HUNTER, SENTRY, game, hits, play, refused, rules, run


def touch(state, character="ada", bot="sentry", **fields):
    return run(state, {"type": "character_contact", "character_id": character, "bot_id": bot, **fields})


@pytest.mark.parametrize("entered, marked", [(True, 1), (False, 0)], ids=["from-outside", "already-inside"])
def test_R_ZONE_base_contact_is_inside_the_zone_so_walking_in_is_a_zone_entry(entered, marked):
    """R-ZONE: "Base contact means distance 0 and inside every zone"; R-MARK-MOVE: "each time an
    AI-Bot enters a moving Character's 2" zone ... that Character gains +1 Marked"."""
    state, log = touch(game(ADA, SENTRY), entered=entered)
    assert state.character("ada").marked == marked
    assert state.contacts_reported == ["sentry:ada"]
    assert ("R-MARK-MOVE" in rules(log)) is entered and "R-ZONE" in rules(log)


def test_R_LOS_a_reported_contact_is_kept_as_the_player_gave_it_once_per_pair():
    """R-LOS: base contact is a fact the player reports; a second report of the pair is no second contact."""
    state = play(game(ADA, BEN, SENTRY, HUNTER),
                 *[{"type": "character_contact", "character_id": c, "bot_id": b, "entered": False}
                   for c, b in (("ada", "sentry"), ("ben", "hunter"), ("ada", "sentry"))])
    assert state.contacts_reported == ["hunter:ben", "sentry:ada"]


def test_a_contact_is_reported_in_phase_1_only_and_never_with_a_destroyed_bot():
    assert "Phase 1" in str(refused(game(ADA, SENTRY, phase=2), {
        "type": "character_contact", "character_id": "ada", "bot_id": "sentry"}))
    gone = SENTRY.model_copy(update={"health": 0})
    assert "destroyed" in str(refused(game(ADA, gone), {
        "type": "character_contact", "character_id": "ada", "bot_id": "sentry"}))


def phase3_after(state, *decisions: Decision):
    return state.model_copy(update={"phase": 3, "decisions": list(decisions)})


def test_R_CMB_WHO_a_rebooted_bot_walked_into_in_phase_1_is_an_engagement_the_character_attacks():
    """R-CMB-WHO: "A rebooted bot never attacks and rolls no Defense: the Character attacks"; the
    rebooted bot's activation asks no facts, so the Phase 1 report is what lists the engagement."""
    state, _ = touch(game(ADA, SENTRY))
    state = phase3_after(state, Decision(bot_id="sentry", turn=1, rebooted=True))  # a Reboot took its activation
    assert [(b.id, c.id) for b, c in contacts(state)] == [("sentry", "ada")]
    item = agenda(state)[0]
    assert isinstance(item, EngagementItem) and (item.attacker, item.choices) == ("character", ("character",))
    after, log = run(state, {"type": "resolve_melee", "bot_id": "sentry", "character_id": "ada",
                             "rolls": {"npc": hits(3), "character": hits(1)}})
    assert after.bot("sentry").health == SENTRY.health - 1  # its Defense dice never counted
    assert "R-GLITCH-REBOOT" in rules(log)


def test_R_CMB_GANGUP_a_phase_1_contact_holds_the_shots_until_it_is_fought_or_separated():
    """R-CMB-GANGUP: "AI-Bot shots wait until every engagement, decided or not, is resolved or separated"."""
    state, _ = touch(game(ADA, HUNTER), bot="hunter")
    state = phase3_after(state)  # the bot was not activated: its Phase 1 contact still counts
    assert [(b.id, c.id) for b, c in open_engagements(state)] == [("hunter", "ada")]
    apart, _ = run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada", "in_contact": False})
    assert open_engagements(apart) == []


def test_R_ACT_FACTS_a_bot_that_moved_in_its_activation_keeps_no_phase_1_contact():
    """R-ACT-FACTS: "After a move, distances and line of sight to anything but the move's own
    target are unknown": the contact reported before it moved is not assumed to stand."""
    state, _ = touch(game(ADA, HUNTER), bot="hunter")
    walked = Decision(bot_id="hunter", turn=1, actions=[
        DecidedAction(slot=1, action="walk", family="maneuver", phase=2, move=4, status="done", reason="walks")])
    assert contacts(phase3_after(state, walked)) == []
    stood = Decision(bot_id="hunter", turn=1)
    assert [(b.id, c.id) for b, c in contacts(phase3_after(state, stood))] == [("hunter", "ada")]


def test_R_MARK_CLEAR_the_turns_reported_contacts_end_with_the_turn():
    state, _ = touch(game(ADA, Bot(id="w", name="W", role="worker")), bot="w")
    state = state.model_copy(update={"phase": 4})
    after, _ = run(state, {"type": "end_turn"})
    assert after.contacts_reported == []
