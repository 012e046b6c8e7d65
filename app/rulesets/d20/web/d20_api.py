"""The d20 ruleset's stateless rules as JSON (docs/api.md § Rulesets): `POST /api/rulesets/d20/odds`
and `/activation`. Same request, same answer; bodies validated in d20_schemas (422 naming the
field). The rules live in app/rulesets/d20 (pure)."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi.responses import JSONResponse

from app.kernel.dice import SeededOnUse, seed_of
from app.rulesets.d20.brain import decide
from app.rulesets.d20.brain_plan import hit_on
from app.rulesets.d20.dice import parse_dice
from app.rulesets.d20.models import HouseRules
from app.rulesets.d20.odds import at_least, attack_odds, damage_odds, expected
from app.rulesets.d20.web.d20_schemas import ActivationIn, OddsIn

router = APIRouter(tags=["rules: d20"])  # mounted at /api/rulesets/d20
HOUSE = HouseRules()

ODDS_EXAMPLES = {
    "api": {"summary": "+5 against DEF 15 at Short range (docs/api.md)",
            "value": {"bonus": 5, "defense": 15, "range": "short", "cover": "none"}},
    "heavy": {"summary": "Through heavy cover with a 1d8 weapon and +3",
              "value": {"bonus": 5, "defense": 15, "cover": "heavy", "damage": "1d8", "damage_bonus": 3}},
}
ACTIVATION_EXAMPLES = {
    "hunter": {"summary": "A Hunter 4 squares from Ada", "value": {
        "npc": {"name": "Raider", "role": "hunter", "speed": 6, "attributes": {"vigor": 2, "agility": 1},
                "skills": {"blade_waltz": 2, "arrow_time": 1},
                "weapons": [{"name": "Machete", "kind": "melee", "damage": "1d8"},
                            {"name": "Carbine", "kind": "ranged", "damage": "1d10", "short": 8, "long": 20}]},
        "characters": [{"name": "Ada", "distance": 4, "line_of_sight": True, "defense": 14}],
        "directive": {}}},
    "sentry": {"summary": "A Sentry 10 squares from its Vault", "value": {
        "npc": {"name": "Gate-1", "role": "sentry", "weapons": [{"name": "Pistol", "kind": "ranged",
                                                                "damage": "1d8", "short": 6, "long": 18}]},
        "characters": [{"name": "Ada", "distance": 5, "line_of_sight": True, "cover": "light"}],
        "directive": {"subject": "Vault", "subject_distance": 10}}},
}


def as_float(p: Fraction) -> float:
    return float(p)  # the nearest double: 11/20 -> 0.55 exactly as docs/api.md writes it


@router.post("/odds", summary="Exact odds of one d20 attack before it is rolled")
async def odds(body: Annotated[OddsIn, Body(openapi_examples=ODDS_EXAMPLES)]) -> dict[str, Any]:
    """A hit when d20 + bonus ≥ DEF (+ cover); a natural 20 always hits and is a critical (not
    through heavy cover), a natural 1 always misses and is a Glitch; Long range -2; beyond:
    no shot (every probability 0, `no_shot: true`). Exact, by enumeration of the d20."""
    result = attack_odds(body.bonus, body.defense, body.range, body.cover, body.mode, HOUSE)
    answer: dict[str, Any] = {
        "p_hit": as_float(result.p_hit), "p_crit": as_float(result.p_crit),
        "p_glitch": as_float(result.p_glitch), "p_miss": as_float(result.p_miss),
        "no_shot": result.no_shot, "bonus": result.bonus, "defense": result.defense,
        "hit_on": None if result.no_shot else hit_on(body.bonus, body.defense, body.range, body.cover, HOUSE),
        "exact": {"p_hit": str(result.p_hit), "p_crit": str(result.p_crit), "p_glitch": str(result.p_glitch)},
        "rule": "D20-RANGE" if result.no_shot else "D20-ATTACK-ROLL",
    }
    if body.damage is not None:
        dist = damage_odds(result, parse_dice(body.damage), body.damage_bonus, HOUSE)
        answer["damage_at_least"] = {str(n): as_float(p) for n, p in at_least(dist).items()}
        answer["expected_damage"] = as_float(expected(dist))
    return answer


@router.post("/activation", response_model=None, summary="One d20 NPC's turn: Move, Action, Minor, Reaction")
async def activation(
        body: Annotated[ActivationIn, Body(openapi_examples=ACTIVATION_EXAMPLES)]) -> JSONResponse:
    """The four roles of 2038 deciding in the d20 economy; every step and every unused part of the
    turn with a reason and a D20 rule id, every attack with its exact odds (when DEF is given)."""
    decision = decide(body.npc.build(), [c.build() for c in body.characters], body.directive.build(),
                      SeededOnUse(lambda: seed_of(body)), HOUSE)
    return JSONResponse({"ruleset": "d20", **decision.as_dict()})
