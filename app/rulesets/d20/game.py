"""A d20 game's state (frozen pydantic, as the shell stores and exports it): the roster of
Characters and NPCs with their stat blocks, the round, this round's NPC turns, house rules.

The engine works on the dataclasses of models.py and brain_types.py; these convert to them and
back (`combatant()`, `with_combatant()`). Every change is a new state (`model_copy(update=...)`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from app.kernel.frozen import Frozen
from app.kernel.names import Name
from app.kernel.report import ReportWords
from app.rulesets.d20.brain_types import Npc as BrainNpc
from app.rulesets.d20.dice import parse_dice
from app.rulesets.d20.models import CONDITIONS, Combatant, HouseRules, Weapon

Attribute = Literal["agility", "vigor", "insight", "charm"]
Skill = Literal["blade_waltz", "arrow_time", "timebender", "medicine"]
Condition = Literal[CONDITIONS]  # type: ignore[valid-type]
Role = Literal["hunter", "sentry", "worker", "patrol"]
Modifier = Annotated[int, Field(ge=-20, le=30)]
Squares = Annotated[int, Field(ge=0, le=1000)]
MAX_ROUND = 100_000


class WeaponSheet(Frozen):
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
        parse_dice(value)  # D20-DAMAGE: ValueError -> 422 naming the field
        return value

    def weapon(self) -> Weapon:
        return Weapon(self.name, self.kind, self.damage, self.finesse, self.bonus, self.short,
                      max(self.long, self.short))


class Sheet(Frozen):
    """A stat block on the roster: a Character (the player's) or an NPC (the app's)."""

    id: str = Field(max_length=40)
    name: Name
    attributes: dict[Attribute, Modifier] = Field(default_factory=dict)
    skills: dict[Skill, Modifier] = Field(default_factory=dict)
    pb: Annotated[int, Field(ge=0, le=10)] = 2
    defense: Annotated[int, Field(ge=0, le=60)] = 10
    hp: Annotated[int, Field(ge=0, le=1000)] = 10
    max_hp: Annotated[int, Field(ge=1, le=1000)] = 10
    speed: Annotated[int, Field(ge=0, le=60)] = 6
    weapons: list[WeaponSheet] = Field(default_factory=list, max_length=10)
    conditions: list[Condition] = Field(default_factory=list, max_length=len(CONDITIONS))
    dying: Annotated[int, Field(ge=0, le=4)] = 0
    wounded: Annotated[int, Field(ge=0, le=20)] = 0
    dead: bool = False
    reaction_used: bool = False
    hit_dice: Annotated[int, Field(ge=0, le=30)] = 1
    temp_hp: Annotated[int, Field(ge=0, le=1000)] = 0  # D20-TEMP-HP
    max_hit_dice: Annotated[int, Field(ge=0, le=30)] | None = None  # D20-LONG-REST restores them
    # D20-TURN-BUDGET: the parts of this round's turn spent; D20-DURATION: a timed condition's turns left
    spent: list[Literal["action", "move", "minor"]] = Field(default_factory=list, max_length=3)
    timers: dict[Condition, Annotated[int, Field(ge=1, le=1000)]] = Field(default_factory=dict)

    def combatant(self) -> Combatant:
        return Combatant(self.name, dict(self.attributes), dict(self.skills), self.pb, self.defense, self.hp,
                         self.max_hp, self.speed, tuple(w.weapon() for w in self.weapons),
                         tuple(self.conditions), self.dying, self.wounded, self.dead, self.reaction_used,
                         self.hit_dice, self.temp_hp, tuple(self.spent), tuple(self.timers.items()))

    def with_combatant(self, c: Combatant) -> Any:
        """This sheet with what play changes (HP, conditions, Dying, Wounded, Reaction, Hit Dice,
        the turn's spent parts and the conditions' clocks)."""
        return self.model_copy(update={"hp": c.hp, "conditions": list(c.conditions), "dying": c.dying,
                                       "wounded": c.wounded, "dead": c.dead, "reaction_used": c.reaction_used,
                                       "hit_dice": c.hit_dice, "temp_hp": c.temp_hp, "spent": list(c.spent),
                                       "timers": dict(c.timers)})

    def weapon(self, name: str | None) -> WeaponSheet | None:
        return next((w for w in self.weapons if w.name == name), None)


class Character(Sheet):
    side: Literal["character"] = "character"
    # whom it attacked last: the attack form offers that foe again on its turn
    last_target: str | None = Field(default=None, max_length=40)


class Npc(Sheet):
    """An NPC the app plays: role and assignment (D20-ROLE-*), zone (D20-ZONE), the weapon in
    hand (D20-MINOR-DRAW) and the features that open Reactions (D20-PARRY, D20-INTERCEPT)."""

    side: Literal["npc"] = "npc"
    role: Role = "hunter"
    zone: Annotated[int, Field(ge=0, le=60)] = 3
    wielding: Name | None = None
    # the squares to its subject (a Sentry) or object (a Worker) last given, kept only while it
    # has not moved since: its next turn's form offers them (D20-FACTS)
    post_distance: Annotated[int, Field(ge=0, le=1000)] | None = None
    features: list[Literal["parry", "intercept"]] = Field(default_factory=list, max_length=2)
    subject: Name | None = None
    object: Name | None = None
    object_minor: bool = False
    waypoints: list[Name] = Field(default_factory=list, max_length=20)
    next_waypoint: int = Field(default=0, ge=0, le=19)
    # D20-PATROL-ROUTE: a Circuit goes A B C A B C, a Route A B C B A B C; `waypoint_step` is the
    # Route's direction along the list
    patrol_mode: Literal["route", "circuit"] = "circuit"
    waypoint_step: Literal[1, -1] = 1
    exempt: bool = False
    # D20-FACTS-KEPT: the facts of its last turn (an NpcTurn body), kept only while it has not moved
    last_facts: dict[str, Any] | None = None

    def brain(self) -> BrainNpc:
        wielding = self.wielding if self.weapon(self.wielding) is not None else None
        return BrainNpc(self.combatant(), self.role, self.zone, wielding, tuple(self.features))

    def following(self, index: int, step: int) -> tuple[int, int]:
        """D20-PATROL-ROUTE: the waypoint after `index`: a Circuit loops, a Route turns at its ends."""
        count = len(self.waypoints)
        if self.patrol_mode == "circuit" or count < 2:
            return (index + 1) % max(count, 1), step
        if not 0 <= index + step < count:
            step = -step
        return index + step, step

    def waypoint(self, offset: int = 0) -> str | None:
        """A Patrol's current waypoint (offset 1: the one after), as its Route or Circuit runs."""
        if not self.waypoints:
            return None
        index, step = min(self.next_waypoint, len(self.waypoints) - 1), self.waypoint_step
        for _ in range(offset):
            index, step = self.following(index, step)
        return self.waypoints[index]

    def advanced(self, reached: int) -> Npc:
        """The Patrol after reaching `reached` waypoints: heading for the one after them."""
        index, step = min(self.next_waypoint, max(len(self.waypoints) - 1, 0)), self.waypoint_step
        for _ in range(reached):
            index, step = self.following(index, step)
        return self.model_copy(update={"next_waypoint": index, "waypoint_step": step})


class Planned(Frozen):
    """One step of an NPC's turn card (brain_types.Step as stored); attacks wait as `pending`."""

    slot: Literal["minor", "move", "action", "reaction"]
    action: str = Field(max_length=40)
    target: str | None = Field(default=None, max_length=80)
    target_id: str | None = Field(default=None, max_length=40)
    squares: int | None = Field(default=None, ge=0, le=1000)
    weapon: str | None = Field(default=None, max_length=80)
    odds: dict[str, float | int | str | None] | None = None
    direction: int | None = Field(default=None, ge=1, le=8)
    conditional: bool = False
    condition: str | None = Field(default=None, max_length=200)
    reason: str = Field(max_length=800)
    rule: str = Field(max_length=80)
    status: Literal["pending", "done", "skipped"] = "done"


class Unused(Frozen):
    slot: str = Field(max_length=20)
    reason: str = Field(max_length=800)
    rule: str = Field(max_length=80)


class Turn(Frozen):
    """An NPC's decided turn this round."""

    npc_id: str = Field(max_length=40)
    round: int = Field(ge=1, le=MAX_ROUND)
    steps: list[Planned] = Field(default_factory=list, max_length=8)
    unused: list[Unused] = Field(default_factory=list, max_length=4)
    ties: list[str] = Field(default_factory=list, max_length=50)
    notes: list[str] = Field(default_factory=list, max_length=20)


class D20House(Frozen):
    """The Core rules the d20 combat reference leans on, editable per game (docs/rules-d20.md § 3)."""

    nat20_always_hits: bool = True
    nat1_always_misses: bool = True
    poisoned_attacks: bool = True
    ranged_damage_attribute: Literal["agility", "none"] = "agility"
    min_damage: Annotated[int, Field(ge=0, le=5)] = 1
    wounded_on_drop: Literal["add", "set"] = "add"
    damage_while_dying: Annotated[int, Field(ge=0, le=3)] = 1
    dying_save_uses_pb: bool = False
    reach: Annotated[int, Field(ge=1, le=5)] = 1
    parry_defense: Annotated[int, Field(ge=0, le=10)] = 2
    rounds_per_minute: Annotated[int, Field(ge=1, le=60)] = 10  # D20-DURATION: 6-second rounds

    def rules(self) -> HouseRules:
        ranged = None if self.ranged_damage_attribute == "none" else self.ranged_damage_attribute
        return HouseRules(nat20_always_hits=self.nat20_always_hits,
                          nat1_always_misses=self.nat1_always_misses,
                          poisoned_attacks=self.poisoned_attacks, ranged_damage_attribute=ranged,
                          min_damage=self.min_damage, wounded_on_drop=self.wounded_on_drop,
                          damage_while_dying=self.damage_while_dying,
                          dying_save_uses_pb=self.dying_save_uses_pb, reach=self.reach,
                          parry_defense=self.parry_defense, rounds_per_minute=self.rounds_per_minute)


class Initiative(Frozen):
    """One creature's place in the initiative order (D20-INITIATIVE)."""

    member_id: str = Field(max_length=40)
    value: int = Field(ge=-20, le=60)


class D20State(Frozen):
    round: int = Field(default=1, ge=1, le=MAX_ROUND)
    status: Literal["playing", "ended"] = "playing"
    characters: list[Character] = Field(default_factory=list, max_length=50)
    npcs: list[Npc] = Field(default_factory=list, max_length=50)
    turns: list[Turn] = Field(default_factory=list, max_length=50)  # this round's NPC turns
    house: D20House = Field(default_factory=D20House)
    next_id: int = Field(default=1, ge=1)
    initiative: list[Initiative] = Field(default_factory=list, max_length=100)  # highest first
    acting: str | None = Field(default=None, max_length=40)  # whose turn it is (the tracker)
    # D20-TRACKER: whose turn has begun this round (its start done once), and those of them that
    # Delayed and still act later this round (D20-DELAY)
    began: list[str] = Field(default_factory=list, max_length=100)
    delayed: list[str] = Field(default_factory=list, max_length=100)
    report: ReportWords = Field(default_factory=ReportWords)  # the battle report's title and notes

    def character(self, model_id: str) -> Character | None:
        return next((c for c in self.characters if c.id == model_id), None)

    def bot(self, model_id: str) -> Npc | None:
        """The NPC with this id (`bot`, as every ruleset's state names it: preconditions.py)."""
        return next((n for n in self.npcs if n.id == model_id), None)

    def member(self, model_id: str) -> Character | Npc | None:
        return self.character(model_id) or self.bot(model_id)

    def turn_of(self, npc_id: str) -> Turn | None:
        return next((t for t in self.turns if t.npc_id == npc_id), None)

    def replace_member(self, member: Character | Npc) -> D20State:
        if isinstance(member, Npc):
            return self.model_copy(update={"npcs": [member if n.id == member.id else n for n in self.npcs]})
        return self.model_copy(update={"characters": [member if c.id == member.id else c
                                                      for c in self.characters]})
