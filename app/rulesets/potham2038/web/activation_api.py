"""`POST /api/rules/activation` (docs/api.md): one AI-Bot's Phase 2 activation as JSON.

Stateless: the body carries every board fact; the answer is the Marked caused and both actions
with a reason and a rule id. Input is validated here, at the edge; the engine trusts it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Body
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator

from app.kernel.dice import SeededOnUse, seed_of
from app.rulesets.potham2038.activation import Activator, Directive, Seen, activate

router = APIRouter(prefix="/api/rules", tags=["rules"])

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Inches = Annotated[float, Field(ge=0, le=1000, allow_inf_nan=False)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is named in a 422, not ignored


class ShootIn(Strict):
    range: Annotated[float, Field(ge=0, le=200, allow_inf_nan=False)]
    ammo: bool = True


class BotIn(Strict):
    name: Name
    role: Literal["hunter", "sentry", "worker", "patrol"]
    walk: Annotated[float, Field(ge=0, le=48, allow_inf_nan=False)]
    run: Annotated[float, Field(ge=0, le=96, allow_inf_nan=False)]
    control_zone: Annotated[float, Field(ge=0, le=24, allow_inf_nan=False)] = 3.0
    points: int = Field(default=0, ge=0, le=10000)
    health: int = Field(default=1, ge=0, le=100)
    shoot: ShootIn | None = None  # absent or null: no ranged weapon
    knocked_down: bool = False
    rebooted: bool = False
    full_throttle: bool = False
    special_rules: list[Name] = Field(default_factory=list, max_length=30)


class CharacterIn(Strict):
    name: Name
    distance: Inches
    line_of_sight: bool = False
    base_contact: bool = False


class DirectiveIn(Strict):
    subject: Name | None = None
    subject_distance: Inches | None = None
    object: Name | None = None
    object_distance: Inches | None = None
    object_contact: bool = False
    waypoint: Name | None = None
    waypoint_distance: Inches | None = None
    direction: int | None = Field(default=None, ge=1, le=8)
    exempt: bool = False
    next_waypoint: Name | None = Field(default=None, description=(
        "Patrol: the waypoint after `waypoint` (Route or Circuit order), named in the answer."))
    next_waypoint_distance: Inches | None = Field(default=None, description=(
        "Patrol standing on its waypoint (waypoint_distance 0): the distance to the next one. "
        "Without it the answer decides nothing and lists it in `needs`."))
    waypoint_after_next: Name | None = Field(default=None, description=(
        "Patrol standing on its waypoint: the waypoint after `next_waypoint`, toward which its 50% Walk "
        "goes on when it reaches `next_waypoint` with nothing to Shoot or Scan (R-PATROL-NEXT)."))


class ActivationIn(Strict):
    bot: BotIn
    characters: list[CharacterIn] = Field(default_factory=list, max_length=50)
    directive: DirectiveIn = Field(default_factory=DirectiveIn)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1,
                             description="Seed for a Hunter's random direction; absent: from the request.")

    @field_validator("characters")
    @classmethod
    def names_are_unique(cls, characters: list[CharacterIn]) -> list[CharacterIn]:
        names = [c.name for c in characters]
        if len(set(names)) != len(names):  # names identify models inside one request (docs/api.md)
            raise ValueError("each Character needs its own name")
        return characters


class ActionOut(BaseModel):
    slot: int
    family: Literal["maneuver", "scan", "interact", "attack"]
    action: str
    phase: int
    target: str | None
    move: float | None
    fallback: bool
    reason: str
    rule: str
    direction: int | None = None
    conditional: bool = Field(default=False, description=(
        "R-ACT-FACTS: planned on facts a move made unknown; it happens only if the player "
        "confirms `condition` when it resolves (Phase 3)."))
    condition: str | None = None


class EmptySlotOut(BaseModel):
    slot: int
    reason: str
    rule: str


class MarkOut(BaseModel):
    character: str
    stacks: int
    rule: str


class ActivationOut(BaseModel):
    bot: str
    marked: list[MarkOut]
    actions: list[ActionOut]
    ties: list[str]
    arrived: bool = Field(description="A Patrol's move reaches its waypoint: advance to the next one.")
    notes: list[str] = Field(description="Why a slot is empty, when one is.")
    empty_slots: list[EmptySlotOut] = Field(description="Each absent slot with its reason.")
    reached: list[str] = Field(description="Waypoints a Patrol reaches (or stands on), in order.")
    next_waypoint: str | None = Field(description="Where a Patrol heads after standing on its waypoint.")
    needs: list[str] = Field(description=(
        "Facts the decision waits for (e.g. next_waypoint_distance): no action is decided until given."))


# What each role needs to know about its assignment (R-ROLE-SENTRY, -WORKER, -PATROL).
NEEDED = {"sentry": "subject_distance", "worker": "object_distance", "patrol": "waypoint_distance"}


def check_directive(body: ActivationIn) -> None:
    """A Sentry, Worker or Patrol without the distance its role moves by is a 422 naming it."""
    field = NEEDED.get(body.bot.role)
    d = body.directive
    if field is None or getattr(d, field) is not None or (field == "object_distance" and d.object_contact):
        return
    raise RequestValidationError([{
        "type": "missing", "loc": ("body", "directive", field), "input": None,
        "msg": f"Field required: a {body.bot.role} needs directive.{field}"
               + (" (or object_contact: true)" if field == "object_distance" else "")}])


def to_activator(bot: BotIn) -> Activator:
    return Activator(
        bot.name, bot.role, bot.walk, bot.run, bot.control_zone, bot.points, bot.health,
        bot.shoot.range if bot.shoot else None, bot.shoot.ammo if bot.shoot else False,
        bot.knocked_down, bot.rebooted, bot.full_throttle, tuple(bot.special_rules))


EXAMPLES = {
    "hunter": {"summary": "Hunter next to Ada (docs/api.md)", "value": {
        "bot": {"name": "Warden-2", "role": "hunter", "walk": 4, "run": 8, "control_zone": 3, "points": 60,
                "health": 4, "shoot": {"range": 18, "ammo": True}, "special_rules": ["marked_target"]},
        "characters": [{"name": "Ada", "distance": 2.5, "line_of_sight": True, "base_contact": False}],
        "directive": {}}},
    "sentry": {"summary": "Sentry 6\" from its Vault", "value": {
        "bot": {"name": "Gate-1", "role": "sentry", "walk": 4, "run": 8},
        "characters": [{"name": "Ada", "distance": 2, "line_of_sight": True}],
        "directive": {"subject": "Vault", "subject_distance": 6}}},
    "worker": {"summary": "Worker 3\" from its Console", "value": {
        "bot": {"name": "Loader-3", "role": "worker", "walk": 3, "run": 6},
        "characters": [], "directive": {"object": "Console", "object_distance": 3, "object_contact": False}}},
    "patrol": {"summary": "Patrol heading to waypoint B", "value": {
        "bot": {"name": "Beat-4", "role": "patrol", "walk": 4, "run": 8, "shoot": {"range": 12}},
        "characters": [{"name": "Bo", "distance": 3, "line_of_sight": True}],
        "directive": {"waypoint": "B", "waypoint_distance": 7}}},
}


@router.post("/activation", response_model=None, responses={200: {"model": ActivationOut}},
             summary="One AI-Bot's Phase 2 activation: Marked caused and both actions")
async def activation(body: Annotated[ActivationIn, Body(openapi_examples=EXAMPLES)]) -> JSONResponse:
    """Marked (R-MARK-ACT) and both actions with reasons (R-ACT-*, R-ROLE-*). A Hunter's random
    direction comes from `directive.direction` when given, else the app rolls it. A Sentry needs
    `directive.subject_distance`, a Worker `object_distance` (or `object_contact`), a Patrol
    `waypoint_distance`: without it the answer is 422 naming that field."""
    check_directive(body)
    d = body.directive
    result = activate(
        to_activator(body.bot),
        [Seen(c.name, c.distance, c.line_of_sight, c.base_contact) for c in body.characters],
        Directive(subject=d.subject, subject_distance=d.subject_distance, object=d.object,
                  object_distance=d.object_distance, object_contact=d.object_contact, waypoint=d.waypoint,
                  waypoint_distance=d.waypoint_distance, direction=d.direction, exempt=d.exempt,
                  next_waypoint=d.next_waypoint, next_waypoint_distance=d.next_waypoint_distance,
                  waypoint_after_next=d.waypoint_after_next),
        SeededOnUse(lambda: seed_of(body)),
    )
    return JSONResponse(result.as_dict())

