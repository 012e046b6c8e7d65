"""The four AI-Bot roles and the readings docs/rules.md § Activation adds (R-ROLE-*, R-HUNTER-*,
R-SENTRY-*, R-WORKER-*, R-PATROL-*, R-CONTACT-MELEE, R-SCAN, R-ACT-FACTS)."""

from __future__ import annotations

import random

import pytest

from app.rulesets.potham2038.activation import Activator, Directive, Seen, activate


def bot(role: str = "hunter", **kw) -> Activator:
    return Activator(**({"name": "Warden-2", "role": role, "walk": 4.0, "run": 8.0} | kw))


def seen(name: str, distance: float, los: bool = True, contact: bool = False) -> Seen:
    return Seen(name, distance, los, contact)


def plays(activation) -> list[tuple]:
    return [(a.action, a.target, a.move) for a in activation.actions]


# --- R-ROLE-HUNTER --------------------------------------------------------------------------------

@pytest.mark.parametrize(("characters", "target"), [
    ([seen("Ada", 2.9, los=False), seen("Bo", 1.0 + 4, los=True)], "Ada"),  # in zone beats LOS
    ([seen("Ada", 2.0), seen("Bo", 1.0, los=False)], "Bo"),  # closest in zone, LOS not needed
    ([seen("Ada", 10.0), seen("Bo", 6.0), seen("Cy", 4.0, los=False)], "Bo"),  # else closest in LOS
    ([seen("Ada", 9.0), seen("Bo", 0.0, los=False, contact=True)], "Bo"),  # contact is closest
], ids=["zone-over-los", "zone-without-los", "closest-in-los", "base-contact"])
def test_R_ROLE_HUNTER_seeks_the_closest_in_its_zone_else_the_closest_visible(characters, target):
    result = activate(bot(), characters, Directive())
    assert result.actions[0].target == target


@pytest.mark.parametrize(("direction", "seed"), [(3, None), (None, 11)], ids=["given", "rolled"])
def test_R_ROLE_HUNTER_moves_randomly_a_full_walk_when_no_character_qualifies(direction, seed):
    rng = random.Random(seed) if seed is not None else None
    result = activate(bot(), [seen("Ada", 9.0, los=False)], Directive(direction=direction), rng)
    first = result.actions[0]
    assert (first.action, first.move, first.target, first.rule) == ("random_move", 4.0, None, "R-ROLE-HUNTER")
    assert first.direction in range(1, 9)
    if direction is not None:
        assert first.direction == 3 and "(given)" in first.reason


def test_R_HUNTER_RANDOM_the_fallback_goes_on_in_the_same_direction():
    result = activate(bot(), [], Directive(direction=6))
    second = result.actions[1]
    assert (second.action, second.move, second.direction, second.fallback) == ("random_move", 2.0, 6, True)


@pytest.mark.parametrize(("characters", "ties", "target"), [
    ([seen("Ada", 2.0), seen("Bo", 2.0), seen("Cy", 1.0 + 1.5)], ("Ada", "Bo"), "Ada"),
    ([seen("Cy", 6.0), seen("Bo", 6.0)], ("Cy", "Bo"), "Cy"),
    ([seen("Ada", 2.0), seen("Bo", 2.5)], (), "Ada"),
], ids=["tie-in-zone", "tie-in-los", "no-tie"])
def test_R_ROLE_HUNTER_lists_tied_names_and_takes_the_first_listed(characters, ties, target):
    result = activate(bot(), characters, Directive())
    assert result.ties == ties and result.actions[0].target == target


@pytest.mark.parametrize(("kw", "characters", "second"), [
    ({}, [seen("Ada", 2.5)], ("melee", "Ada", "R-ACT-TWO")),
    ({"shoot_range": 18.0}, [seen("Ada", 12.0)], ("shoot", "Ada", "R-CMB-SHOOT")),
    ({}, [seen("Ada", 10.0)], ("scan", "Ada", "R-SCAN")),  # 2" left after the Run: now in zone
    ({"shoot_range": 18.0}, [seen("Ada", 10.0)], ("shoot", "Ada", "R-CMB-SHOOT")),  # Shoot before Scan
    ({}, [seen("Ada", 20.0)], ("walk", "Ada", "R-ACT-FALLBACK")),
], ids=["contact-melee", "shoot", "scan", "R-SLOT2-PRIORITY-shoot-before-scan", "fallback"])
def test_R_HUNTER_SLOT2_melee_in_contact_else_shoot_else_scan_else_fallback(kw, characters, second):
    result = activate(bot(**kw), characters, Directive())
    action = result.actions[1]
    assert (action.action, action.target, action.rule) == second


def test_R_CONTACT_MELEE_a_hunter_in_contact_melees_then_scans():
    result = activate(bot(shoot_range=18.0), [seen("Ada", 0, contact=True), seen("Bo", 2)], Directive())
    assert plays(result) == [("melee", "Ada", None), ("scan", "Ada", None)]
    assert [a.rule for a in result.actions] == ["R-CONTACT-MELEE", "R-SCAN"]


# --- R-SCAN ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("characters", "scanned"), [
    ([seen("Ada", 0, contact=True, los=False), seen("Bo", 2.0)], "Bo"),  # Ada not in LOS
    ([seen("Ada", 0, contact=True, los=False), seen("Bo", 3.5)], None),  # Bo outside the zone
    ([seen("Ada", 0, contact=True, los=False), seen("Bo", 2.0, los=False)], None),
    ([seen("Ada", 0, contact=True), seen("Bo", 1.0)], "Ada"),  # the foe itself first
], ids=["other-eligible", "outside-zone", "no-los", "foe-first"])
def test_R_SCAN_only_a_character_both_in_line_of_sight_and_in_zone(characters, scanned):
    result = activate(bot(), characters, Directive())
    scans = [a.target for a in result.actions if a.action == "scan"]
    assert scans == ([scanned] if scanned else [])


@pytest.mark.parametrize(("role", "directive", "characters", "second"), [
    # The Hunter runs 8" at Ada (10" away): Ada is 2" away now, inside its zone: Scan.
    ("hunter", Directive(), [seen("Ada", 10.0)], ("scan", "Ada", None)),
    # The Worker runs 8" at its Console; Bo stays 6" away as reported: no Scan, the fallback.
    ("worker", Directive(object="Console", object_distance=20), [seen("Bo", 6.0)], ("walk", "Console", 2.0)),
], ids=["approached-closer", "others-as-reported"])
def test_R_ACT_FACTS_only_the_approached_distance_changes_after_the_move(role, directive, characters, second):
    result = activate(bot(role), characters, directive)
    assert plays(result)[1] == second


# --- R-ROLE-SENTRY, R-SENTRY-RETURN ---------------------------------------------------------------

@pytest.mark.parametrize(("away", "expected"), [
    (6.0, [("walk", "Vault", 4.0)]),  # a Walk gets it within one Walk: 2" left
    (8.0, [("walk", "Vault", 4.0)]),  # 4" left: exactly one Walk
    (10.0, [("run", "Vault", 8.0)]),
    (7.0 + 14, [("run", "Vault", 8.0), ("walk", "Vault", 2.0)]),  # still 13" out: fallback on
], ids=["walk", "walk-to-edge", "run", "run-and-fallback"])
def test_R_SENTRY_RETURN_a_sentry_more_than_one_walk_away_heads_back(away, expected):
    result = activate(bot("sentry"), [], Directive(subject="Vault", subject_distance=away))
    assert plays(result) == expected
    assert result.actions[0].rule == "R-ROLE-SENTRY"


def test_R_SENTRY_RETURN_slot_2_deals_with_its_zone():
    result = activate(bot("sentry", shoot_range=12.0), [seen("Ada", 2.0)], Directive(subject="Vault", subject_distance=12))
    assert plays(result) == [("run", "Vault", 8.0), ("shoot", "Ada", None)]


@pytest.mark.parametrize(("away", "kw", "characters", "expected", "rule"), [
    (1.0, {}, [seen("Ada", 2.5)], [("walk", "Ada", 2.5), ("melee", "Ada", None)], "R-SENTRY-INTRUDER"),
    (3.0, {"shoot_range": 18.0}, [seen("Ada", 2.5)], [("shoot", "Ada", None), ("scan", "Ada", None)],
     "R-SENTRY-INTRUDER"),
    (3.0, {}, [seen("Ada", 2.5)], [("scan", "Ada", None)], "R-SENTRY-INTRUDER"),
    (3.0, {}, [seen("Ada", 2.5, los=False)], [], None),
    (2.0, {}, [seen("Ada", 5.0)], [], None),  # R-SENTRY-HOLD: nobody in its zone
    (0.0, {}, [seen("Ada", 0, contact=True)], [("melee", "Ada", None), ("scan", "Ada", None)], "R-CONTACT-MELEE"),
], ids=["safe-charge", "shoot-from-post", "scan-from-post", "cannot-see", "R-SENTRY-HOLD", "R-CONTACT-MELEE"])
def test_R_SENTRY_INTRUDER_at_its_post_a_sentry_deals_with_its_zone(away, kw, characters, expected, rule):
    result = activate(bot("sentry", **kw), characters, Directive(subject="Vault", subject_distance=away))
    assert plays(result) == expected
    assert (result.actions[0].rule if result.actions else None) == rule
    if not expected:
        assert "holds its post" in " ".join(result.notes)


def test_R_SENTRY_EXEMPT_an_exempt_sentry_far_from_its_subject_charges_freely():
    result = activate(bot("sentry"), [seen("Ada", 3.0)], Directive(subject="Vault", subject_distance=15, exempt=True))
    assert plays(result) == [("walk", "Ada", 3.0), ("melee", "Ada", None)]


def test_R_ROLE_SENTRY_a_knocked_down_sentry_away_from_post_stands_then_falls_back():
    result = activate(bot("sentry", knocked_down=True), [], Directive(subject="Vault", subject_distance=9))
    assert plays(result) == [("stand_up", None, None), ("walk", "Vault", 2.0)]
    assert result.actions[1].fallback


# --- R-ROLE-WORKER, R-WORKER-RUN, R-WORKER-SLOT2 -----------------------------------------------------

@pytest.mark.parametrize(("directive", "kw", "characters", "expected"), [
    (Directive(object="Console", object_distance=3), {}, [], [("walk", "Console", 3.0), ("activate", "Console", None)]),
    (Directive(object="Console", object_contact=True), {}, [], [("activate", "Console", None)]),
    (Directive(object="Console", object_distance=0), {}, [], [("activate", "Console", None)]),
    (Directive(object="Console", object_distance=6), {}, [], [("run", "Console", 6.0), ("activate", "Console", None)]),
    (Directive(object="Console", object_distance=20), {}, [], [("run", "Console", 8.0), ("walk", "Console", 2.0)]),
    (Directive(object="Console", object_contact=True), {}, [seen("Ada", 2)], [("activate", "Console", None), ("scan", "Ada", None)]),
    (Directive(object="Console", object_contact=True), {"shoot_range": 12.0}, [seen("Ada", 2)],
     [("activate", "Console", None), ("shoot", "Ada", None)]),
    (Directive(object="Console", object_distance=20), {"shoot_range": 12.0}, [seen("Ada", 2)],
     [("run", "Console", 8.0), ("shoot", "Ada", None)]),
    (Directive(object="Console", object_distance=5), {}, [seen("Ada", 0, contact=True)],
     [("melee", "Ada", None), ("scan", "Ada", None)]),
    (Directive(object="Console", object_contact=True), {"knocked_down": True}, [],
     [("stand_up", None, None), ("activate", "Console", None)]),
    (Directive(object="Console"), {}, [], []),  # R-ACT-UNKNOWN: no distance reported
], ids=["walk-then-interact", "contact", "distance-0", "R-WORKER-RUN-run-then-interact", "fallback",
        "R-WORKER-SLOT2-interact-then-scan", "R-WORKER-SLOT2-interact-then-shoot", "R-WORKER-SLOT2-shoot-after-run",
        "R-CONTACT-MELEE", "knocked-down", "R-ACT-UNKNOWN"])
def test_R_ROLE_WORKER_moves_to_its_object_then_interacts(directive, kw, characters, expected):
    result = activate(bot("worker", **kw), characters, directive)
    assert plays(result) == expected
    for action in result.actions:
        if action.action == "activate":
            assert (action.family, action.phase, action.rule) == ("interact", 2, "R-ROLE-WORKER")


# --- R-ROLE-PATROL, R-PATROL-SLOT2 ----------------------------------------------------------------------

@pytest.mark.parametrize(("away", "kw", "characters", "expected", "arrived"), [
    (3.0, {}, [], [("walk", "B", 3.0)], True),
    (7.0, {}, [], [("run", "B", 7.0)], True),
    (20.0, {}, [], [("run", "B", 8.0), ("walk", "B", 2.0)], False),
    (9.0, {}, [], [("run", "B", 8.0), ("walk", "B", 1.0)], True),  # the fallback reaches B
    (20.0, {"shoot_range": 12.0}, [seen("Ada", 2.5)], [("run", "B", 8.0), ("shoot", "Ada", None)], False),
    # R-ACT-FACTS: after the Run toward B, whether Ada is still in the zone is unknown, and a
    # Scan resolves at once: no Scan on a stale fact, the fallback goes on toward B.
    (20.0, {}, [seen("Ada", 2.5)], [("run", "B", 8.0), ("walk", "B", 2.0)], False),
    (5.0, {}, [seen("Ada", 0, contact=True)], [("melee", "Ada", None), ("scan", "Ada", None)], False),
    (0.0, {}, [], [], True),
], ids=["walk-arrives", "run-arrives", "fallback-on", "fallback-arrives", "R-PATROL-SLOT2-shoot-in-zone",
        "R-ACT-FACTS-no-scan-after-a-move-elsewhere", "R-CONTACT-MELEE", "already-there"])
def test_R_ROLE_PATROL_moves_toward_its_waypoint_and_says_when_it_arrives(away, kw, characters, expected, arrived):
    result = activate(bot("patrol", **kw), characters, Directive(waypoint="B", waypoint_distance=away))
    assert plays(result) == expected
    assert result.arrived is arrived
    if expected and expected[0][1] == "B":
        assert result.actions[0].rule == "R-ROLE-PATROL"


def test_R_ACT_UNKNOWN_a_patrol_without_its_waypoint_distance_does_not_move():
    result = activate(bot("patrol", shoot_range=12.0), [seen("Ada", 2.0)], Directive(waypoint="B"))
    assert plays(result) == [("shoot", "Ada", None), ("scan", "Ada", None)]  # it still uses both slots
    assert result.arrived is False and "No distance to B" in result.notes[0]
