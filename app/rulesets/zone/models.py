"""Frozen value types of a zone game (seed 002, the Year Zero-style quick reference): range
bands, people with four attributes and their trauma, NPCs with a role, the house rules.

Pure: pydantic only. Every change is a new state (`model_copy(update=...)`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from app.kernel.frozen import Frozen
from app.kernel.names import Name
from app.kernel.report import ReportWords
from app.kernel.turn_order import TurnOrder

# Z-BANDS: the five range bands, closest first; a move is one step along this list (Z-MOVE).
Band = Literal["arms_length", "near", "short", "long", "distant"]
BANDS: tuple[Band, ...] = ("arms_length", "near", "short", "long", "distant")
BAND_NAMES = {
    "arms_length": "Arm's Length",
    "near": "Near",
    "short": "Short",
    "long": "Long",
    "distant": "Distant",
}
Role = Literal["hunter", "sentry", "worker", "patrol"]
# Z-TRAUMA: each kind of trauma decreases one attribute
Track = Literal["damage", "fatigue", "confusion", "doubt"]
TRACK_OF = {"damage": "strength", "fatigue": "agility", "confusion": "wits", "doubt": "empathy"}
Stunt = Literal["damage", "fatigue", "disarm", "knock_down", "grapple"]
Status = Literal["playing", "ended"]
Slot = Literal["action", "maneuver"]  # Z-ROUND: what a turn spends
Dice = Annotated[int, Field(ge=0, le=30)]
Score = Annotated[int, Field(ge=1, le=10)]
Points = Annotated[int, Field(ge=0, le=100)]
MAX_ROUND = 100_000


def step(band: Band) -> int:
    """A band's distance in moves from Arm's Length (Z-MOVE: a move is one band step)."""
    return BANDS.index(band)


class Attributes(Frozen):
    """Z-TRAUMA: the four attribute scores (their maximum); trauma decreases them."""

    strength: Score = 3
    agility: Score = 3
    wits: Score = 3
    empathy: Score = 3


class Person(Frozen):
    """Anyone with attributes and trauma: a Character or an NPC."""

    id: str = Field(max_length=40)
    name: Name
    attributes: Attributes = Field(default_factory=Attributes)
    damage: Points = 0
    fatigue: Points = 0
    confusion: Points = 0
    doubt: Points = 0
    spent: list[Slot] = Field(default_factory=list, max_length=2)  # Z-TURN: this round's

    def slots_left(self) -> list[Slot]:
        """Z-TURN: "one action and one maneuver, or two maneuvers": what this round still allows."""
        if len(self.spent) >= 2:
            return []
        return ["maneuver"] if "action" in self.spent else ["action", "maneuver"]

    def score(self, track: Track) -> int:
        """What is left of the attribute a trauma track decreases (never below zero)."""
        return max(0, getattr(self.attributes, TRACK_OF[track]) - getattr(self, track))

    def broken_by(self) -> list[Track]:
        """Z-BROKEN: the tracks whose attribute is at zero."""
        return [t for t in TRACK_OF if self.score(t) == 0]  # type: ignore[misc]

    @property
    def broken(self) -> bool:
        return bool(self.broken_by())

    @property
    def out_of_fight(self) -> bool:
        """Z-OUT: broken (or dead): it does nothing and is attacked by no one."""
        return self.broken or bool(getattr(self, "dead", False))


class Weapon(Frozen):
    """A weapon as the NPC brain needs it: dice it adds, damage, and its reach (Z-CLOSE: close
    weapons reach Arm's Length or Near; Z-SHOOT: a ranged weapon's range is its furthest band)."""

    name: Name = "Fists"
    bonus: Dice = 0
    damage: Annotated[int, Field(ge=0, le=20)] = 1
    reach: Band = "arms_length"
    ranged: bool = False
    full_auto: bool = False
    bullets: Points = 0
    broken: bool = False  # Z-GEAR: its bonus worn to nothing by pushed 1s on its gear dice


class Arm(Weapon):
    """A Character's weapon: bullets are counted when the sheet says them (None: the player's)."""

    bullets: Points | None = None  # type: ignore[assignment]
    load: Points | None = None  # Z-RELOAD: what a reload fills it to (the sheet's bullets)

    @model_validator(mode="before")
    @classmethod
    def counted_as_saved(cls, data):
        """A weapon saved before bullets were counted (no `load`): 0 bullets meant "not said"."""
        if isinstance(data, dict) and data.get("load") is None and "load" not in data:
            if not data.get("bullets"):
                return {**data, "bullets": None}
            return {**data, "load": data["bullets"]}
        return data


class LastRoll(Frozen):
    """Z-PUSH-AFTER: a Character's attack roll this round, seen and not yet pushed, with what it
    did to its target, so a push can resolve the attack again and replace that trauma."""

    npc_id: str = Field(max_length=40)
    kind: Literal["fight", "shoot"]
    rolls: list[list[Annotated[int, Field(ge=1, le=6)]]] = Field(max_length=31)
    by: Literal["app", "entered"] = "app"
    weapon_damage: Annotated[int, Field(ge=0, le=20)] = 1
    stunt: Stunt = "damage"
    dealt_damage: Points = 0
    dealt_fatigue: Points = 0
    was_prone: bool = False
    was_disarmed: bool = False
    # Z-POOL: the faces are base dice, then skill dice, then gear dice (a typed total: all skill)
    base: Dice = 0
    gear: Dice = 0
    weapon: int | None = Field(default=None, ge=0, le=4)
    full_auto: bool = False
    paid_base: Dice = 0  # Z-PUSH-COST: the 1s already paid for (full auto pushes again)
    paid_gear: Dice = 0
    stunts: list[Stunt] = Field(default_factory=list, max_length=30)  # chosen and not yet bought


class Character(Person):
    """A player's Character; the daily conditions are tracked per Character (Z-COND-*)."""

    starving: bool = False
    dehydrated: bool = False
    sleepless: bool = False
    hypothermic: bool = False
    dead: bool = False
    last_roll: LastRoll | None = None  # Z-PUSH-AFTER
    fight: Dice = 0  # the sheet's pools (attribute + skill), so an attack picks a weapon
    shoot: Dice = 0
    weapons: list[Arm] = Field(default_factory=list, max_length=5)
    aimed: bool = False  # Z-AIM: an aim maneuver this round, for its next shot
    # Z-DIE-LATER: the day each attribute hit zero
    broken_on: dict[Track, Annotated[int, Field(ge=1, le=MAX_ROUND)]] = Field(default_factory=dict)


class Fact(Frozen):
    """Z-FACTS: one Character's band from the NPC and whether the NPC sees it."""

    character_id: str = Field(max_length=40)
    band: Band
    line_of_sight: bool = True


class Facts(Frozen):
    """What the player reports for one activation."""

    seen: list[Fact] = Field(default_factory=list, max_length=50)
    subject_band: Band | None = None  # a Sentry's distance to its subject
    object_band: Band | None = None  # a Worker's to its object
    waypoint_band: Band | None = None  # a Patrol's to its waypoint
    next_waypoint_band: Band | None = None  # … and from there to the next, once it stands on it
    direction: int | None = Field(default=None, ge=1, le=8)  # a Hunter's random move, else rolled


class Npc(Person):
    """An NPC the app plays: its role and assignment (Z-ROLE-*), its Fight and Shoot pools
    (attribute + skill, as on its sheet) and its weapons."""

    role: Role = "hunter"
    fight: Dice = 3
    shoot: Dice = 0
    melee: Weapon = Field(default_factory=Weapon)
    gun: Weapon | None = None
    subject: Name | None = None  # a Sentry's
    object: Name | None = None  # a Worker's
    waypoints: list[Name] = Field(default_factory=list, max_length=20)  # a Patrol's route
    patrol_mode: Literal["route", "circuit"] = "circuit"  # Z-PATROL-ROUTE: A B C B A, or A B C A
    next_waypoint: int = Field(default=0, ge=0, le=19)
    waypoint_step: Literal[1, -1] = 1  # a Route's direction along its waypoints
    grappled_by: str | None = Field(default=None, max_length=40)  # Z-GRAPPLE: the Character holding it

    def following(self) -> tuple[int, Literal[1, -1]]:
        """Z-PATROL-ROUTE: (index, step) of the waypoint after its current one: a Circuit loops
        (A B C A), a Route runs to the end and back (A B C B A)."""
        count, index, step = len(self.waypoints), self.next_waypoint, self.waypoint_step
        if self.patrol_mode == "circuit" or count < 2:
            return (index + 1) % max(count, 1), 1
        if not 0 <= index + step < count:
            step = 1 if step == -1 else -1
        return index + step, step
    prone: bool = False
    disarmed: bool = False
    last_facts: Facts | None = None  # Z-BANDS-KEPT: the bands of its last round, as its moves left them


class PlannedAction(Frozen):
    """One line of a decision card: an action or a maneuver, with its reason and rule id."""

    kind: Literal["action", "maneuver"]
    name: str = Field(max_length=40)
    target: str | None = Field(default=None, max_length=80)
    target_id: str | None = Field(default=None, max_length=40)
    band_after: Band | None = None
    reason: str = Field(max_length=600)
    rule: str = Field(max_length=80)
    status: Literal["pending", "done", "cancelled"] = "done"


class Decision(Frozen):
    """An NPC's round (Z-ROUND): one action and one maneuver, or two maneuvers."""

    npc_id: str = Field(max_length=40)
    round: int = Field(ge=1, le=MAX_ROUND)
    actions: list[PlannedAction] = Field(max_length=2)
    ties: list[str] = Field(default_factory=list, max_length=20)
    note: str = Field(default="", max_length=600)


class ZoneHouse(Frozen):
    """What seed 002 leans on but does not state, editable per game (docs/rules-zone.md)."""

    success_faces: list[Annotated[int, Field(ge=1, le=6)]] = Field(
        default_factory=lambda: [6], min_length=1, max_length=5
    )  # Z-DICE
    npc_push: Literal["never", "no_success", "always"] = "no_success"  # Z-PUSH-CHOICE
    npc_stunt: Stunt = "damage"  # Z-STUNT-CHOICE
    zone_band: Band = "near"  # Z-ROLE-ZONE: an NPC's "zone" reaches this band
    aim_bonus: Dice = 1  # Z-AIM
    push_fatigue: bool = True  # Z-PUSH-COST: each 1 after a push costs the roller one fatigue
    dice_mode: Literal["app", "entered"] = "app"
    broken_targets: Literal["next_threat", "attack"] = "next_threat"  # Z-BROKEN-TARGET


class ZoneState(Frozen):
    round: int = Field(default=1, ge=1, le=MAX_ROUND)
    day: int = Field(default=1, ge=1, le=MAX_ROUND)
    status: Status = "playing"
    characters: list[Character] = Field(default_factory=list, max_length=50)
    npcs: list[Npc] = Field(default_factory=list, max_length=50)
    decisions: list[Decision] = Field(default_factory=list, max_length=50)  # this round's
    house: ZoneHouse = Field(default_factory=ZoneHouse)
    next_id: int = Field(default=1, ge=1)
    turn_order: TurnOrder = Field(default_factory=TurnOrder)  # Z-INITIATIVE: empty until a fight starts
    report: ReportWords = Field(default_factory=ReportWords)  # the battle report's title and notes

    def member(self, model_id: str) -> Person | None:
        return self.character(model_id) or self.bot(model_id)

    def character(self, model_id: str) -> Character | None:
        return next((c for c in self.characters if c.id == model_id), None)

    def bot(self, model_id: str) -> Npc | None:
        """The NPC with this id (named `bot` as every ruleset's state: preconditions.py)."""
        return next((n for n in self.npcs if n.id == model_id), None)

    def decision(self, npc_id: str) -> Decision | None:
        return next((d for d in self.decisions if d.npc_id == npc_id), None)
