"""Request bodies of the d20 ruleset's stateless API (`/api/rulesets/d20/…`), validated here
at the edge: a bad field is a 422 naming it, never a 500. The engine (app/rulesets/d20) trusts
what these build."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator, model_validator

from app.rulesets.d20.brain_types import Facts, Npc, Orders
from app.rulesets.d20.dice import parse_dice
from app.rulesets.d20.models import ATTRIBUTES, CONDITIONS, SKILLS, Combatant, Weapon

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Squares = Annotated[int, Field(ge=0, le=1000)]
Modifier = Annotated[int, Field(ge=-20, le=30)]
Range = Literal["short", "long", "beyond"]
Cover = Literal["none", "light", "medium", "heavy"]
Mode = Literal["normal", "edge", "hindrance"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is named in a 422, not ignored


def check_dice(text: str) -> str:
    parse_dice(text)  # ValueError -> 422 naming the field
    return text


class OddsIn(Strict):
    bonus: Modifier = Field(description="d20 + this: skill + attribute + PB + item (D20-ATTACK-*).")
    defense: int = Field(ge=0, le=60, description="The target's DEF before cover.")
    range: Range = Field(default="short", description="short; long (-2); beyond: no shot (D20-RANGE).")
    cover: Cover = Field(default="none", description="+1/+2/+4 DEF; no critical through heavy (D20-COVER).")
    mode: Mode = Field(default="normal", description="Edge or Hindrance: 2d20 keep higher/lower (D20-EDGE).")
    damage: str | None = Field(default=None, max_length=12, description="Damage dice such as 1d8 or 2d6+1.")
    damage_bonus: Modifier = Field(default=0, description="The attribute added to damage (D20-DAMAGE).")

    @field_validator("damage")
    @classmethod
    def dice_as_written(cls, value: str | None) -> str | None:
        return value if value is None else check_dice(value)


class WeaponIn(Strict):
    name: Name
    kind: Literal["melee", "ranged", "tech"] = "melee"
    damage: str = Field(default="1d6", max_length=12)
    finesse: bool = False
    bonus: Modifier = 0
    short: Squares = 1
    long: Squares = 1

    @field_validator("damage")
    @classmethod
    def dice_as_written(cls, value: str) -> str:
        return check_dice(value)

    @model_validator(mode="after")
    def long_reaches_past_short(self) -> WeaponIn:
        if self.long < self.short:
            raise ValueError("long range must be at least the short range")
        return self

    def build(self) -> Weapon:
        return Weapon(self.name, self.kind, self.damage, self.finesse, self.bonus, self.short, self.long)


class NpcIn(Strict):
    name: Name
    role: Literal["hunter", "sentry", "worker", "patrol"]
    speed: Annotated[int, Field(ge=0, le=60)] = 6
    zone: Annotated[int, Field(ge=0, le=60)] = 3
    pb: Annotated[int, Field(ge=0, le=10)] = 2
    defense: Annotated[int, Field(ge=0, le=60)] = 10
    hp: Annotated[int, Field(ge=0, le=1000)] = 10
    attributes: dict[Literal[ATTRIBUTES], Modifier] = Field(default_factory=dict)  # type: ignore[valid-type]
    skills: dict[Literal[SKILLS], Modifier] = Field(default_factory=dict)  # type: ignore[valid-type]
    weapons: list[WeaponIn] = Field(default_factory=list, max_length=10)
    conditions: list[Literal[CONDITIONS]] = Field(default_factory=list, max_length=len(CONDITIONS))  # type: ignore[valid-type]
    dying: Annotated[int, Field(ge=0, le=4)] = 0
    reaction_used: bool = False
    wielding: Name | None = Field(default=None, description="The weapon in hand; null: every weapon at hand.")
    features: list[Literal["parry", "intercept"]] = Field(default_factory=list, max_length=2)

    @model_validator(mode="after")
    def wields_its_own_weapon(self) -> NpcIn:
        if self.wielding is not None and self.wielding not in {w.name for w in self.weapons}:
            raise ValueError("wielding must name one of its weapons")
        return self

    def build(self) -> Npc:
        stats = Combatant(self.name, dict(self.attributes), dict(self.skills), self.pb, self.defense, self.hp,
                          max(self.hp, 1), self.speed, tuple(w.build() for w in self.weapons),
                          tuple(dict.fromkeys(self.conditions)), self.dying, reaction_used=self.reaction_used)
        return Npc(stats, self.role, self.zone, self.wielding, tuple(self.features))


class CharacterIn(Strict):
    name: Name
    distance: Annotated[int, Field(ge=1, le=1000, description="Squares away; 1 = adjacent.")]
    line_of_sight: bool = False
    cover: Cover = "none"
    defense: int | None = Field(default=None, ge=0, le=60, description="Its DEF, for the exact odds.")
    prone: bool = False

    def build(self) -> Facts:
        return Facts(self.name, self.distance, self.line_of_sight, self.cover, self.defense, self.prone)


class DirectiveIn(Strict):
    subject: Name | None = None
    subject_distance: Squares | None = None
    object: Name | None = None
    object_distance: Squares | None = None
    object_minor: bool = False
    waypoint: Name | None = None
    waypoint_distance: Squares | None = None
    next_waypoint: Name | None = None
    next_waypoint_distance: Squares | None = None
    direction: int | None = Field(default=None, ge=1, le=8)
    exempt: bool = False

    def build(self) -> Orders:
        return Orders(**self.model_dump())


class ActivationIn(Strict):
    npc: NpcIn
    characters: list[CharacterIn] = Field(default_factory=list, max_length=50)
    directive: DirectiveIn = Field(default_factory=DirectiveIn)
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1,
                             description="Seed for a Hunter's random direction; absent: from the request.")

    @field_validator("characters")
    @classmethod
    def names_are_unique(cls, characters: list[CharacterIn]) -> list[CharacterIn]:
        names = [c.name for c in characters]
        if len(set(names)) != len(names):
            raise ValueError("each Character needs its own name")
        return characters
