"""Issue 18, Phase 2 by taps: a band cut where the decision turns (band_pieces) and line of sight
asked with the zone when it is certain to come (sight_ahead).

The property at the end is the one that matters: whatever the bot and the board, a player who
answers every question truthfully by taps reaches the decision `activate()` takes from the
measured inches (R-ACT-FACTS: never a guess)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rulesets.potham2038.activation import Activator, Directive, Seen, activate
from app.rulesets.potham2038.questions import Question, next_question
from app.rulesets.potham2038.sight_ahead import sight_follows
from app.rulesets.potham2038.wording_bounds import shape_of
from tests.support.band_taps import tell
from tests.support.examples import examples

SENTRY = Activator("Sentry-1", "sentry", 4.0, 8.0, shoot_range=18.0)
HUNTER = Activator("Hunter-2", "hunter", 4.0, 8.0)  # no ranged weapon
WORKER = Activator("Worker-1", "worker", 4.0, 8.0)
PATROL = Activator("Patrol-1", "patrol", 4.0, 8.0, shoot_range=12.0)
NOBODY = {"contact": [], "zone": []}


def options(question: Question) -> list[tuple[str, float | None, float | None]]:
    return [(o["label"], o.get("more_than"), o.get("up_to")) for o in question.options]


def test_R_SENTRY_INTRUDER_with_the_intruder_inside_its_zone_the_subject_band_is_cut_at_the_walk_less_the_zone():
    """R-SENTRY-INTRUDER: it charges only when subject + intruder distance ≤ one Walk (4"); with
    the intruder inside its 3" zone that is sure within 1" of the subject: one tap, no inches."""
    asked = next_question(SENTRY, ["Vex", "Rook"], Directive(subject="Vault"), {"contact": [], "zone": ["Vex"]})
    assert asked.fact == "band" and asked.model == "Vault"
    assert ('within 1"', None, 1.0) in options(asked)
    told = {"contact": [], "zone": ["Vex"], "bands": {"Vault": "zone"}, "up_to": {"Vault": 1.0}}
    result = next_question(SENTRY, ["Vex", "Rook"], Directive(subject="Vault"), told)
    assert [(a.action, a.target) for a in result.actions] == [("walk", "Vex"), ("melee", "Vex")]
    assert 'up to 3"' in result.actions[0].reason  # the move is bounded, never a guessed figure


def test_R_ACT_FALLBACK_a_hunter_farther_than_its_run_is_offered_the_figure_where_its_second_slot_turns():
    """Past its 8" Run, a Hunter still Scans a Character it ends within its 3" zone of (R-SCAN,
    R-HUNTER-SLOT2), else walks on (R-ACT-FALLBACK): "within 11"" is one of the bands."""
    asked = next_question(HUNTER, ["Rook"], Directive(), NOBODY | {"line_of_sight": ["Rook"]})
    assert options(asked)[-2:] == [('within 11"', None, 11.0), ('farther than 11"', 11.0, None)]


def test_a_band_no_piece_settles_is_offered_whole():
    """Pieces only where one settles the model: a Worker's Console inside its zone stays one band."""
    asked = next_question(WORKER, ["Vex"], Directive(object="Console"), NOBODY)
    assert [o["label"] for o in asked.options][:3] == ["in base contact", 'inside its zone (3")', 'within a Walk (4")']
    assert not any("up_to" in o or "more_than" in o for o in asked.options)


def test_R_ROLE_HUNTER_nobody_inside_its_zone_who_it_sees_is_certain_to_be_asked():
    assert sight_follows(HUNTER, ["Vex", "Rook"], Directive(), NOBODY)


def test_R_ACT_SHOOT_ANY_a_sentry_or_patrol_with_a_loaded_gun_asks_who_it_sees_on_every_path():
    assert sight_follows(SENTRY, ["Vex", "Rook"], Directive(subject="Vault"), NOBODY)
    assert sight_follows(PATROL, ["Vex"], Directive(waypoint="Gate", next_waypoint="Fountain"), NOBODY)


def test_R_ACT_FACTS_sight_is_not_asked_ahead_where_it_cannot_change_the_decision():
    """A Worker with no gun, a Patrol out of ammunition that moves first: sight changes nothing."""
    assert not sight_follows(WORKER, ["Vex", "Rook"], Directive(object="Console"), NOBODY)
    empty = Activator("Patrol-1", "patrol", 4.0, 8.0, shoot_range=12.0, has_ammo=False)
    assert not sight_follows(empty, ["Vex"], Directive(waypoint="Gate", next_waypoint="Fountain"), NOBODY)
    assert not sight_follows(SENTRY, ["Vex"], Directive(subject="Vault"), NOBODY | {"line_of_sight": []})


def test_R_HUNTER_RANDOM_a_knocked_down_hunter_s_random_fallback_asks_the_d8_too():
    """Knocked down and nobody inside its zone or in sight, a Hunter stands up, then its fallback
    moves on in a random direction (R-HUNTER-RANDOM): the d8 is asked (or rolled), never a 1
    standing in for it. Found by the property below."""
    down = Activator("Hunter-1", "hunter", 4.0, 8.0, knocked_down=True)
    asked = next_question(down, ["Vex"], Directive(), NOBODY | {"line_of_sight": []})
    assert asked.fact == "direction"
    result = next_question(down, ["Vex"], Directive(), NOBODY | {"line_of_sight": [], "direction": 6})
    assert [(a.action, a.direction) for a in result.actions] == [("stand_up", None), ("random_move", 6)]


def test_R_ROLE_PATROL_on_its_waypoint_the_next_waypoint_s_band_comes_in_the_same_tap():
    """R-ROLE-PATROL: standing on its waypoint a Patrol heads for the next one, so "in base
    contact" with Gate is offered with each band of Fountain (the next question on that answer)."""
    asked = next_question(PATROL, ["Vex"], Directive(waypoint="Gate", next_waypoint="Fountain"),
                          NOBODY | {"line_of_sight": []})
    on_it = [o for o in asked.options if o["key"] == "contact"]
    assert [o["label"] for o in on_it][2:4] == ['on Gate, Fountain within a Walk (4")', 'on Gate, Fountain within a Run (8")']
    assert all(o["then"]["model"] == "Fountain" for o in on_it)
    assert [o["key"] for o in asked.options if o["key"] != "contact"] == ["zone", "walk", "run", "reach", "farther"]


# --- the property: truthful taps reach the inches engine's decision -----------------------------

NAMES = ["Ada", "Bo", "Cy"]
distances = st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.5, 8.0, 9.0, 10.0, 11.0,
                             12.0, 13.0, 14.0, 16.0, 18.0, 20.0, 25.0, 26.0, 30.0, 45.0])
bots = st.builds(
    Activator, name=st.just("Warden"), role=st.sampled_from(["hunter", "sentry", "worker", "patrol"]),
    walk=st.sampled_from([3.0, 4.0, 5.0]), run=st.sampled_from([6.0, 8.0, 10.0]),
    control_zone=st.sampled_from([2.0, 3.0, 4.0]),
    shoot_range=st.one_of(st.none(), st.sampled_from([8.0, 12.0, 18.0])), has_ammo=st.booleans(),
    knocked_down=st.booleans(), full_throttle=st.booleans())


@st.composite
def boards(draw):
    bot = draw(bots)
    count = draw(st.integers(1, 3))
    at = draw(st.lists(distances, min_size=count, max_size=count, unique=True))  # no tie: R-TIE-CHOICE aside
    seen = {n: (d, draw(st.booleans())) for n, d in zip(NAMES, at, strict=False)}
    own = {"Vault": draw(distances), "Console": draw(distances), "B": draw(distances), "C": draw(distances)}
    directive = {"sentry": Directive(subject="Vault"), "worker": Directive(object="Console"),
                 "patrol": Directive(waypoint="B", next_waypoint="C"), "hunter": Directive()}[bot.role]
    return bot, seen, own, directive


def holds(option: dict, x: float) -> bool:
    """Does this band option (or piece) hold a distance of `x` inches?"""
    if option["key"] == "contact" or x == 0:
        return option["key"] == "contact" and x == 0
    return option["low"] < x and (option["high"] is None or x <= option["high"])


def truthful(question: Question, seen: dict, own: dict, zone: float) -> tuple[str, object]:
    """The reply of a player who measured the board (a band or piece holding the inches)."""
    inches = {**{n: d for n, (d, _) in seen.items()}, **own}
    if question.fact == "contact":
        return "contact", [n for n, (d, _) in seen.items() if d == 0]
    if question.fact == "zone":
        return "zone", [o["key"] for o in question.options if 0 < seen[o["key"]][0] <= zone]
    if question.fact == "line_of_sight":
        return "line_of_sight", [n for n, (_, los) in seen.items() if los]
    if question.fact == "closest":
        return "closest", min((o["key"] for o in question.options), key=lambda n: inches[n])
    if question.fact == "direction":
        return "direction", 3
    x = inches[question.model]
    if question.fact == "band":
        return "band", next(o for o in question.options if holds(o, x) and (
            "then" not in o or holds(o["then"], inches[o["then"]["model"]])))
    if question.fact == "split":
        return ("up_to" if x <= question.options[0]["inches"] else "more_than"), question.options[0]["inches"]
    return "inches", x


@settings(max_examples=examples(400), deadline=None)
@given(boards())
def test_R_ACT_FACTS_truthful_taps_reach_the_decision_the_measured_inches_give(board):
    bot, seen, own, directive = board
    answers: dict = {}
    for _ in range(16):
        result = next_question(bot, list(seen), directive, answers)
        if not isinstance(result, Question):
            break
        fact, reply = truthful(result, seen, own, bot.control_zone)
        if fact == "band":
            tell(answers, result.model, reply)
        elif fact in ("inches", "up_to", "more_than"):
            answers.setdefault(fact, {})[result.model] = reply
        else:
            answers[fact] = reply
    else:
        raise AssertionError(f"still asking after 16 taps: {answers}")
    measured = activate(bot, [Seen(n, d, los, d == 0) for n, (d, los) in seen.items()], exact(directive, own))
    assert shape_of(result) == shape_of(measured)
    assert [a.move for a in result.actions if a.move is not None] == [
        m.move for a, m in zip(result.actions, measured.actions, strict=True) if a.move is not None]


def exact(directive: Directive, own: dict) -> Directive:
    """The directive with the measured distances, as `questions.Board.run` fills it."""
    at_b = own["B"] if directive.waypoint else None
    return replace(directive, direction=3, direction_rolled=False,
                   subject_distance=own["Vault"] if directive.subject else None,
                   object_distance=own["Console"] if directive.object else None,
                   object_contact=bool(directive.object) and own["Console"] == 0,
                   waypoint_distance=at_b,
                   next_waypoint_distance=own["C"] if at_b == 0 else None)
