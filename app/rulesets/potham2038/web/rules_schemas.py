"""Request bodies of the rules API (docs/api.md § POST /api/rules/...): validated at the edge.

Every bound is here so that a bad body is a fast 422 naming its field, never a 500: pools hold
known colours only and at most 40 dice, rolls have criticals ≤ hits, lists are short.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from app.kernel.names import Name
from app.rulesets.potham2038.dice import MAX_DICE, validate_pool
from app.rulesets.potham2038.house_rules import default_faces

Colour = Annotated[str, Field(min_length=1, max_length=20, pattern=r"^[A-Za-z][A-Za-z _-]*$")]
FaceName = Annotated[str, Field(min_length=1, max_length=20)]
BlackFace = Literal["success", "blank"]
Cover = Literal["none", "light", "heavy"]


def _at_most_40(pool: dict[str, int]) -> dict[str, int]:
    total = sum(pool.values())
    if total > MAX_DICE:
        raise ValueError(f"a pool holds at most {MAX_DICE} dice, not {total}")
    return {colour.strip().lower(): n for colour, n in pool.items()}


DicePool = Annotated[
    dict[Colour, Annotated[int, Field(ge=0, le=MAX_DICE)]],
    Field(max_length=12, description='Dice by colour, e.g. {"red": 3}; at most 40 dice.'),
    AfterValidator(_at_most_40),
]
FaceTable = Annotated[
    dict[Colour, Annotated[list[FaceName], Field(min_length=1, max_length=100)]],
    Field(max_length=12),
]


class Strict(BaseModel):
    model_config = ConfigDict(
        extra="forbid", str_strip_whitespace=True
    )  # a typo is a 422, not a silent default


class RollIn(Strict):
    """Dice read off the table: `hits` counts every Hit face INCLUDING Criticals."""

    hits: int = Field(ge=0, le=200)
    criticals: int = Field(default=0, ge=0, le=200)

    @model_validator(mode="after")
    def _criticals_are_hits(self) -> RollIn:
        if self.criticals > self.hits:
            raise ValueError("criticals cannot exceed hits: every Critical is also a Hit")
        return self


class WithFaces(Strict):
    """`faces`: the game's dice (colour -> one face per side); absent: the default dice."""

    faces: FaceTable | None = None
    seed: int | None = Field(
        default=None,
        ge=0,
        le=2**63 - 1,
        description="Seed for the dice the app rolls; absent: derived from the request.",
    )

    def face_table(self) -> dict[str, list[str]]:
        return {k.lower(): v for k, v in self.faces.items()} if self.faces else default_faces()


def check_distracted_colour(value: str, info: ValidationInfo) -> str:
    """R-DISTRACTED (house `distracted_colour`): the colour added per stack must be a known die."""
    faces = {k.lower() for k in (info.data.get("faces") or default_faces())}
    colour = value.strip().lower()
    if colour not in faces:
        raise ValueError(f"unknown dice colour {value!r} (known: {', '.join(sorted(faces))})")
    return colour


DISTRACTED_COLOUR = Field(default="white", min_length=1, max_length=20, description=(
    "R-DISTRACTED (house): the colour of the one die per Distracted stack added to an incoming attack."))


def check_colours(value: BaseModel | list | None, info: ValidationInfo) -> BaseModel | list | None:
    """Pools must use colours of the face table (the default dice unless `faces` is given)."""
    faces = info.data.get("faces") or default_faces()
    faces = {k.lower(): v for k, v in faces.items()}
    items = value if isinstance(value, list) else [value]
    for item in items:
        for pool_name in ("pool", "melee", "defense"):
            pool = getattr(item, pool_name, None)
            if pool:
                try:
                    validate_pool(pool, faces)
                except ValueError as error:
                    raise ValueError(f"{pool_name}: {error}") from None
    return value


# --- melee -----------------------------------------------------------------------------------


class Side(Strict):
    name: Name
    points: int = Field(default=0, ge=0, le=10000)
    health: int = Field(default=3, ge=0, le=100)
    pool: DicePool | None = Field(default=None, description="What this side rolls, whatever its role.")
    melee: DicePool | None = Field(default=None, description="Melee pool, rolled when attacking.")
    defense: DicePool | None = Field(default=None, description="Defense pool, rolled when defending.")

    def pool_for(self, role: Literal["melee", "defense"]) -> dict[str, int] | None:
        return getattr(self, role) or self.pool


class NpcIn(Side):
    special_rules: list[Name] = Field(default_factory=list, max_length=40)
    rebooted: bool = Field(default=False, description="R-GLITCH-REBOOT: cannot attack, rolls no Defense.")

    def has_rule(self, rule: str) -> bool:
        key = rule.replace("_", " ").lower()
        return any(r.replace("_", " ").lower() == key for r in self.special_rules)


class CharacterIn(Side):
    marked: int = Field(default=0, ge=0, le=100)
    distracted: int = Field(default=0, ge=0, le=20)


class MeleeRolls(Strict):
    npc: RollIn | None = None
    character: RollIn | None = None


class MeleeRequest(WithFaces):
    npc: NpcIn
    character: CharacterIn
    attacker: Literal["npc", "character"] | None = None
    counter_attack: bool = False
    rolls: MeleeRolls | None = None
    push_on_damage: bool = Field(default=True, description="R-CMB-PUSH (house): a winning attack also "
                                 "pushes the loser back, named in `damage_push_back`.")
    counter_attack_rule: Literal["higher_wins", "melee_as_defense"] = Field(
        default="higher_wins", description="R-CMB-COUNTER (house): how a counter-attack compares the totals.")
    distracted_colour: str = DISTRACTED_COLOUR

    _colours = field_validator("npc", "character")(check_colours)
    _distracted = field_validator("distracted_colour")(check_distracted_colour)

    @model_validator(mode="after")
    def _distinct_names(self) -> MeleeRequest:
        if self.npc.name == self.character.name:
            raise ValueError("the AI-Bot and the Character need different names")
        return self


# --- shoot -----------------------------------------------------------------------------------


class ShooterIn(Strict):
    name: Name
    side: Literal["npc", "character"] = "npc"
    special_rules: list[Name] = Field(default_factory=list, max_length=40)
    pool: DicePool | None = Field(
        default=None, description="The Shoot pool, rolled when `rolls.attack` is absent."
    )

    def has_rule(self, rule: str) -> bool:
        key = rule.replace("_", " ").lower()
        return any(r.replace("_", " ").lower() == key for r in self.special_rules)


class TargetIn(Strict):
    name: Name
    health: int = Field(default=3, ge=0, le=100)
    marked: int = Field(default=0, ge=0, le=100)
    distracted: int = Field(default=0, ge=0, le=20)
    cover: Cover = "none"
    pool: DicePool | None = Field(
        default=None, description="Defense pool, rolled when `rolls.defense` is absent."
    )
    rebooted: bool = Field(default=False, description="R-GLITCH-REBOOT: a rebooted bot rolls no Defense.")


class ShootRolls(Strict):
    attack: RollIn | None = None
    defense: RollIn | None = None


class ShootRequest(WithFaces):
    shooter: ShooterIn
    target: TargetIn
    melee_with: list[TargetIn] = Field(default_factory=list, max_length=20)
    black_die: BlackFace | None = None
    chosen_target: Name | None = Field(default=None, description="The player's pick among `ties`.")
    ammo_die: BlackFace | None = Field(default=None, description="The Out of Ammo Black Die, if rolled.")
    rolls: ShootRolls | None = None
    distracted_colour: str = DISTRACTED_COLOUR

    _colours = field_validator("shooter", "target", "melee_with")(check_colours)
    _distracted = field_validator("distracted_colour")(check_distracted_colour)

    @model_validator(mode="after")
    def _distinct_names(self) -> ShootRequest:
        names = [self.target.name, *(m.name for m in self.melee_with)]
        if len(set(names)) != len(names):
            raise ValueError("the target and the models in its melee need different names")
        return self

    def model_named(self, name: str) -> TargetIn:
        return next(m for m in (self.target, *self.melee_with) if m.name == name)


# --- noise and odds --------------------------------------------------------------------------


class NoiseRequest(Strict):
    kind: Literal["noise", "alarm"]
    zones_containing: int = Field(ge=0, le=100, description="AI-Bot Control Zones containing the Character.")


class OddsSide(Strict):
    pool: DicePool = Field(default_factory=dict)
    bonus: int = Field(default=0, ge=-40, le=40)
    rebooted: bool = Field(default=False, description="R-GLITCH-REBOOT: a rebooted defender rolls no "
                           "Defense, so its pool counts for nothing.")


class OddsRequest(WithFaces):
    attack: OddsSide
    defense: OddsSide = Field(default_factory=OddsSide)
    melee: bool = True

    _colours = field_validator("attack", "defense")(check_colours)
