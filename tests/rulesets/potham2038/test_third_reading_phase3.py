"""The third reading of Phase 3 (docs/rules.md § Phase 3, third reading), played through the
commands from real activations: gang-ups, who attacks, Defending for free, shots after melee.

Seed 001 is the 2038 Complete Combat Flowchart; its sentences are quoted where a test rests on one.
"""

from __future__ import annotations

import pytest

from app.rulesets.potham2038.models import Bot, Decision, GameState
from app.rulesets.potham2038.phase3_agenda import EngagementItem, ShotItem, SlotItem, agenda
from tests.rulesets.potham2038.turn_kit import ADA, BEN, HUNTER, hits, refused, rules, run, texts

GUN = Bot(id="gun", name="Gunner", role="sentry", points=40, subject="Vault", melee={"red": 1},
          defense={"white": 1}, shoot={"red": 2}, shoot_range=18)


def contact(*ids: str) -> list[dict]:
    return [{"character_id": i, "distance": 0, "base_contact": True, "line_of_sight": True} for i in ids]


def gang_up(tie_choice: str | None = None, gunner: bool = True, hunter: Bot = HUNTER) -> GameState:
    """Phase 3 after the Hunter activated in base contact with Ada and Ben, and the Gunner decided
    to shoot Ada from its post."""
    state = GameState(characters=[ADA, BEN], bots=[hunter, GUN], phase=2)
    body = {"type": "activate_bot", "bot_id": "hunter", "characters": contact("ada", "ben")}
    state, _ = run(state, body | ({"tie_choice": tie_choice} if tie_choice else {}))
    if gunner:
        state, _ = run(state, {"type": "activate_bot", "bot_id": "gun", "subject_distance": 0,
                               "characters": [{"character_id": "ada", "distance": 10, "line_of_sight": True}]})
    state, _ = run(state, {"type": "next_phase"})
    return state


def melee(state, character, **fields):
    return run(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": character, **fields})


def shot(state, character="ada", **fields):
    return run(state, {"type": "bot_shoot", "bot_id": "gun", "character_id": character, "line_of_sight": True,
                       "in_range": True, "rolls": {"attack": hits(0), "defense": hits(0)}, **fields})


def engagements(state):
    return [(i.bot_id, i.character_id, i.status) for i in agenda(state) if isinstance(i, EngagementItem)]


# --- R-TIE-CHOICE --------------------------------------------------------------------------------

@pytest.mark.parametrize("choice, fought", [(None, "ada"), ("ada", "ada"), ("ben", "ben")],
                         ids=["first-listed-until-told", "choose-ada", "choose-ben"])
def test_R_TIE_CHOICE_a_bot_in_base_contact_with_two_characters_fights_the_one_the_player_picks(choice, fought):
    """R-TIE-CHOICE; seed 001: "Player chooses ties"."""
    state = gang_up(choice, gunner=False)
    decision = state.decision("hunter")
    assert decision.actions[0].action == "melee" and decision.actions[0].target_id == fought
    assert set(decision.ties) == {"ada", "ben"}  # the page still shows the tie it asked about


@pytest.mark.parametrize("choice, fought", [(None, "ada"), ("ben", "ben")])
def test_R_TIE_CHOICE_the_tapped_answers_take_the_tie_choice_too(choice, fought):
    state = GameState(characters=[ADA, BEN], bots=[HUNTER], phase=2)
    body = {"type": "activate_bot", "bot_id": "hunter",
            "answers": {"contact": ["ada", "ben"], "line_of_sight": ["ada", "ben"]}}
    state, _ = run(state, body | ({"tie_choice": choice} if choice else {}))
    assert state.decision("hunter").actions[0].target_id == fought


def test_R_TIE_CHOICE_a_choice_among_characters_not_reported_is_refused():
    state = GameState(characters=[ADA, BEN], bots=[HUNTER], phase=2)
    why = refused(state, {"type": "activate_bot", "bot_id": "hunter", "characters": contact("ada"),
                          "tie_choice": "ben"})
    assert why.rule == "R-TIE-CHOICE"


def test_R_TIE_CHOICE_resolve_melee_takes_the_attacker_the_player_names():
    """R-TIE-CHOICE, R-CMB-WHO; seed 001: "Use an applicable Special Rule first"."""
    state = gang_up("ada", gunner=False)
    after, log = melee(state, "ada", attacker="character", rolls={"npc": hits(0), "character": hits(2)})
    assert after.bot("hunter").health == HUNTER.health - 2
    assert "the player names the Character" in texts(log)


# --- R-CMB-GANGUP --------------------------------------------------------------------------------

def test_R_CMB_GANGUP_every_pairing_is_its_own_engagement_and_the_bot_attacks_once():
    """R-CMB-GANGUP; seed 001: "Resolve each pairing under the Core procedure"."""
    state = gang_up("ada")
    assert engagements(state) == [("hunter", "ada", "open"), ("hunter", "ben", "open")]
    state, log = melee(state, "ben", rolls={"npc": hits(0), "character": hits(1)})
    assert "Ben attacks" in texts(log)  # the other pairing: the Hunter only Defends
    assert engagements(state) == [("hunter", "ada", "open"), ("hunter", "ben", "fought")]
    assert [i.fought_by for i in agenda(state) if isinstance(i, EngagementItem)] == [None, "character"]
    assert state.decision("hunter").actions[0].status == "pending"  # its one Attack is still for Ada
    state, log = melee(state, "ada", rolls={"npc": hits(2), "character": hits(0)})
    assert "Warden attacks" in texts(log) and state.character("ada").health == ADA.health - 2
    attacks = [a for a in state.decision("hunter").actions if a.action == "melee" and a.status == "done"]
    assert len(attacks) == 1


def test_R_CMB_GANGUP_no_ai_bot_shot_before_every_engagement_decided_or_not_is_settled():
    """R-CMB-GANGUP; seed 001: "Continue unresolved engagements until their required opponents
    resolve or separate" and "AFTER MELEE · ELIGIBLE NPC RANGED ATTACKS"."""
    state = gang_up("ada")
    state, _ = melee(state, "ada", rolls={"npc": hits(0), "character": hits(0)})
    why = refused(state, {"type": "bot_shoot", "bot_id": "gun", "character_id": "ada", "line_of_sight": True,
                          "in_range": True})
    assert why.rule == "R-CMB-ORDER" and "Warden ⚔ Ben" in why.reason
    shots = [i for i in agenda(state) if isinstance(i, ShotItem)]
    assert shots and shots[0].blocked and shots[0].blocked_by == ("hunter:ben",)
    _, left = run(state, {"type": "next_phase"})  # leaving says so: an undecided engagement too
    assert "Warden ⚔ Ben" in texts(left)
    state, _ = melee(state, "ben", in_contact=False)  # separated: the shot may go now
    assert engagements(state)[1] == ("hunter", "ben", "separated")
    state, log = shot(state, black_die="success")
    assert state.decision("gun").actions[0].status == "done"


def test_R_CMB_GANGUP_a_second_character_fights_a_bot_whose_attack_went_first_and_it_only_defends():
    """R-CMB-GANGUP, R-CMB-NOACTION: the Attack action is spent by the first pairing it attacks in."""
    state = gang_up("ada")
    state, _ = melee(state, "ada", rolls={"npc": hits(1), "character": hits(0)})
    item = next(i for i in agenda(state) if isinstance(i, EngagementItem) and i.character_id == "ben")
    assert (item.attacker, item.choices, item.spends_attack) == ("character", ("character",), False)
    assert refused(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ben",
                           "attacker": "npc"}).rule == "R-CMB-NOACTION"


# --- R-CMB-WHO -----------------------------------------------------------------------------------

def test_R_CMB_WHO_a_rebooted_bot_with_more_points_is_attacked_and_rolls_no_defense():
    """R-CMB-WHO: a rebooted bot never attacks and rolls no Defense; the Character attacks."""
    state = GameState(characters=[ADA], bots=[HUNTER], phase=3,
                      decisions=[Decision(bot_id="hunter", turn=1, rebooted=True, seen=[
                          {"character_id": "ada", "distance": 0, "base_contact": True}])])
    item = agenda(state)[0]
    assert isinstance(item, EngagementItem) and (item.attacker, item.choices, item.rebooted) == (
        "character", ("character",), True)
    after, log = melee(state, "ada", rolls={"npc": hits(3), "character": hits(1)})
    assert after.bot("hunter").health == HUNTER.health - 1  # its Defense dice never counted
    assert "Special Rule" not in texts(log) and "rebooted" in texts(log)
    assert refused(state, {"type": "resolve_melee", "bot_id": "hunter", "character_id": "ada",
                           "attacker": "npc"}).rule == "R-CMB-WHO"


@pytest.mark.parametrize("bot_points, default", [(60, "npc"), (45, "npc"), (30, "character")],
                         ids=["more-points-attack", "npc-on-a-tie", "character-has-more"])
def test_R_CMB_WHO_the_default_attacker_is_by_points_and_either_side_may_be_named(bot_points, default):
    """Seed 001: "otherwise the higher current total points ... attacks. On an NPC–Character tie,
    the NPC attacks."; "Use an applicable Special Rule first"."""
    state = gang_up("ada", gunner=False, hunter=HUNTER.model_copy(update={"points": bot_points}))
    item = next(i for i in agenda(state) if isinstance(i, EngagementItem) and i.character_id == "ada")
    assert item.attacker == default and item.choices == ("npc", "character")


# --- R-CMB-DEFEND-FREE ---------------------------------------------------------------------------

def test_R_CMB_DEFEND_FREE_a_bot_that_only_defended_may_still_shoot_after_a_push_back():
    """Seed 001: "If the Character attacks, it rolls Melee and the AI-Bot Defends"; "The target
    Defends as a free action"."""
    armed = HUNTER.model_copy(update={"points": 10})
    state = gang_up("ada", gunner=False, hunter=armed)
    state, log = melee(state, "ada", rolls={"npc": hits(0), "character": hits(0)})  # a tie: Warden pushed
    assert state.decision("hunter").actions[0].status == "skipped"  # Ada attacked: no Attack spent
    assert "R-CMB-DEFEND-FREE" in rules(log)
    state, _ = melee(state, "ben", rolls={"npc": hits(0), "character": hits(0)})
    shots = [i for i in agenda(state) if isinstance(i, ShotItem) and i.bot_id == "hunter"]
    assert shots and not shots[0].blocked
    state, _ = run(state, {"type": "bot_shoot", "bot_id": "hunter", "character_id": "ada", "line_of_sight": True,
                           "in_range": True, "rolls": {"attack": hits(0), "defense": hits(0)}})
    first = state.decision("hunter").actions[0]
    assert (first.action, first.status, first.target_id) == ("shoot", "done", "ada")


# --- R-CMB-TARGET-FACTS --------------------------------------------------------------------------

def test_R_CMB_TARGET_FACTS_a_character_out_of_action_is_never_a_target():
    state = gang_up("ada")
    state, _ = melee(state, "ada", rolls={"npc": hits(5), "character": hits(0)})  # Ada: 5 damage
    assert state.character("ada").health == 0
    shots = [i for i in agenda(state) if isinstance(i, ShotItem)]
    assert shots[0].target_out and not shots[0].facts_known
    state, _ = melee(state, "ben", in_contact=False)
    assert "out of action" in refused(state, {"type": "bot_shoot", "bot_id": "gun", "character_id": "ada",
                                              "line_of_sight": True, "in_range": True}).reason


def test_R_CMB_TARGET_FACTS_a_shot_at_a_character_still_in_a_melee_rolls_the_black_die():
    """Seed 001: "It may shoot into another melee using the Core target check"."""
    state = gang_up("ada")
    state, _ = melee(state, "ada", rolls={"npc": hits(1), "character": hits(2)})  # defended: still in contact
    state, _ = melee(state, "ben", in_contact=False)
    assert state.decision("hunter").actions[0].status == "done"
    after, log = shot(state, black_die="blank")  # no melee_with given: the app knows of the melee
    assert "R-CMB-TARGET" in rules(log) and "Black Die" in texts(log)


# --- R-PHASE-MOVE --------------------------------------------------------------------------------

def test_R_PHASE_MOVE_an_open_slot_offers_scan_reload_or_interact_and_never_a_move():
    """Seed 001: "Movement and combat still belong to their respective phases"."""
    state = gang_up("ada")
    slots = [i for i in agenda(state) if isinstance(i, SlotItem)]
    assert slots and all("walk" not in i.redecisions and "fallback" not in i.redecisions for i in slots)
    gun_slot = next(i for i in slots if i.bot_id == "gun")
    assert "scan" in gun_slot.redecisions and "interact" in gun_slot.redecisions
    assert refused(state, {"type": "redecide", "bot_id": "gun", "slot": gun_slot.slot,
                           "action": "fallback"}).rule == "R-PHASE-MOVE"
    after, _ = run(state, {"type": "redecide", "bot_id": "gun", "slot": gun_slot.slot, "action": "interact",
                           "object": "Door", "object_contact": True})
    assert after.decision("gun").actions[-1].action == "activate"
