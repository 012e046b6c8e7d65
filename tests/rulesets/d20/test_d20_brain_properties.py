"""d20 ruleset: properties of every NPC decision (hypothesis) — D20-TURN's economy is never
overspent, every step and every unused part has a reason and a D20 rule id, moves stay within
Speed, a Dash follows a Move, and the same facts give the same decision."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.rulesets.d20.brain import decide
from app.rulesets.d20.brain_types import ROLES, Facts, Npc, Orders
from app.rulesets.d20.models import COVERS, Combatant, Weapon
from tests.support.examples import examples

WEAPONS = st.lists(st.sampled_from([
    Weapon("Machete", "melee", "1d8"), Weapon("Rapier", "melee", "1d6", finesse=True),
    Weapon("Carbine", "ranged", "1d10", short=8, long=20), Weapon("Hex", "tech", "2d6", short=4, long=10),
]), max_size=3, unique_by=lambda w: w.name)
CONDITIONS = st.lists(st.sampled_from(["prone", "stunned", "grappled", "glitched", "poisoned", "blinded"]),
                      max_size=3, unique=True)
FACTS = st.builds(Facts, name=st.sampled_from(["Ada", "Bo", "Cy", "Di"]), distance=st.integers(1, 40),
                  line_of_sight=st.booleans(), cover=st.sampled_from(list(COVERS)),
                  defense=st.none() | st.integers(8, 22), prone=st.booleans())
MAYBE = st.none() | st.integers(0, 30)


@st.composite
def turns(draw):
    weapons = tuple(draw(WEAPONS))
    stats = Combatant("Raider", attributes={"vigor": draw(st.integers(-1, 4)), "agility": 2},
                      speed=draw(st.integers(0, 8)), weapons=weapons, conditions=tuple(draw(CONDITIONS)),
                      reaction_used=draw(st.booleans()))
    wielding = draw(st.none() | st.sampled_from([w.name for w in weapons] or [None]))
    npc = Npc(stats, draw(st.sampled_from(ROLES)), zone=draw(st.integers(0, 6)), wielding=wielding)
    chars = draw(st.lists(FACTS, max_size=4, unique_by=lambda f: f.name))
    orders = Orders(subject="Vault", subject_distance=draw(MAYBE), object="Console", object_distance=draw(MAYBE),
                    object_minor=draw(st.booleans()), waypoint="B", waypoint_distance=draw(MAYBE),
                    next_waypoint="C", next_waypoint_distance=draw(MAYBE), direction=draw(st.integers(1, 8)),
                    exempt=draw(st.booleans()))
    return npc, chars, orders


@settings(max_examples=examples(400), deadline=None)
@given(turns())
def test_D20_TURN_a_decision_never_overspends_and_always_says_why(turn):
    npc, chars, orders = turn
    d = decide(npc, chars, orders, random.Random(0))
    slots = [s.slot for s in d.steps]
    for slot in ("minor", "move", "action", "reaction"):
        assert slots.count(slot) <= 1, slots
    assert {"minor", "move", "action"} <= set(slots) | {u.slot for u in d.unused}
    for part in (*d.steps, *d.unused):
        assert part.reason and part.rule.startswith("D20-")
    stats = npc.stats
    if stats.has("stunned"):
        assert "action" not in slots
    if stats.has("glitched"):
        assert "minor" not in slots
    moved = [s for s in d.steps if s.slot == "move"]
    if moved:
        assert 0 < moved[0].squares <= stats.speed and not stats.has("grappled")
    dash = d.step("action")
    if dash is not None and dash.action == "dash":
        assert moved and 0 < dash.squares <= stats.speed
    for step in d.steps:
        if step.action == "attack" and step.odds and "p_hit" in step.odds:
            assert 0 <= step.odds["p_crit"] <= step.odds["p_hit"] <= 1
    assert decide(npc, chars, orders, random.Random(0)) == d


@settings(max_examples=examples(200), deadline=None)
@given(turns())
def test_D20_CONTACT_MELEE_next_to_a_character_it_never_walks_away(turn):
    npc, chars, orders = turn
    d = decide(npc, chars, orders, random.Random(0))
    adjacent = any(c.distance <= 1 for c in chars)
    if adjacent and npc.stats.speed and not npc.stats.out_of_action:
        assert d.step("move") is None
