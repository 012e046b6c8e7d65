"""What a d20 NPC's decision reads and answers: the NPC with its role, the facts the player
reports per Character (squares, line of sight, cover), the role's orders, and the steps decided.

Distances are squares on the grid (the player counts them; the app never guesses: D20-FACTS).
A Character 1 square away is adjacent, inside the squares a melee weapon threatens.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.rulesets.d20.models import Combatant

ROLES = ("hunter", "sentry", "worker", "patrol")
SLOTS = ("minor", "move", "action", "reaction")  # D20-TURN


@dataclass(frozen=True, slots=True)
class Npc:
    """An NPC: its stat block, role, zone (squares, D20-ZONE), the weapon in hand (None: every
    weapon at hand, no draw needed) and features that open Reactions (`parry`, `intercept`)."""

    stats: Combatant
    role: str
    zone: int = 3
    wielding: str | None = None
    features: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.stats.name


@dataclass(frozen=True, slots=True)
class Facts:
    """One Character as the player reports it: squares away (1 = adjacent), line of sight,
    cover against this NPC, and (optional) its DEF and Prone for the odds."""

    name: str
    distance: int
    line_of_sight: bool = False
    cover: str = "none"
    defense: int | None = None
    prone: bool = False


@dataclass(frozen=True, slots=True)
class Orders:
    """The role's assignment: Sentry subject, Worker object, Patrol waypoint (distances in squares,
    0 = there). `object_minor`: working the object is a Minor (a door, a device toggle)."""

    subject: str | None = None
    subject_distance: int | None = None
    object: str | None = None
    object_distance: int | None = None
    object_minor: bool = False
    waypoint: str | None = None
    waypoint_distance: int | None = None
    next_waypoint: str | None = None
    next_waypoint_distance: int | None = None
    direction: int | None = None  # a Hunter's random move: 1..8, else rolled
    exempt: bool = False  # a Sentry free to leave its subject


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the NPC does in one part of its turn, with the reason and the rule."""

    slot: str  # minor | move | action | reaction
    action: str  # stand | draw | move | random_move | dash | attack | interact | overwatch | ready
    target: str | None
    reason: str
    rule: str
    squares: int | None = None
    weapon: str | None = None
    odds: dict[str, Any] | None = None
    direction: int | None = None
    conditional: bool = False
    condition: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"slot": self.slot, "action": self.action, "target": self.target, "squares": self.squares,
                "weapon": self.weapon, "odds": self.odds, "direction": self.direction,
                "conditional": self.conditional, "condition": self.condition,
                "reason": self.reason, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class Unused:
    slot: str
    reason: str
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return {"slot": self.slot, "reason": self.reason, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class Decision:
    """The NPC's turn: steps in the order they happen, each unused part with why, tied names
    (the player's choice, D20-ROLE-TIES), waypoints reached and facts still needed."""

    npc: str
    steps: tuple[Step, ...]
    unused: tuple[Unused, ...] = ()
    ties: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    reached: tuple[str, ...] = ()
    next_waypoint: str | None = None
    needs: tuple[str, ...] = field(default=())

    def step(self, slot: str) -> Step | None:
        return next((s for s in self.steps if s.slot == slot), None)

    def as_dict(self) -> dict[str, Any]:
        return {"npc": self.npc, "actions": [s.as_dict() for s in self.steps],
                "unused": [u.as_dict() for u in self.unused], "ties": list(self.ties),
                "notes": list(self.notes), "reached": list(self.reached),
                "next_waypoint": self.next_waypoint, "needs": list(self.needs)}
