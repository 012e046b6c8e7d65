"""The value types of one AI-Bot activation (Phase 2): what the bot sees and what it does.

Plain frozen slotted dataclasses, not pydantic: the engine decides ≥ 100,000 activations a
second, and these types never cross a trust boundary (the web layer validates its input with
pydantic before building them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

MANEUVER, SCAN, INTERACT, ATTACK = "maneuver", "scan", "interact", "attack"

# R-ACT-PHASE: movement in Phase 2, Melee and Shoot in Phase 3, Scan and Interact at once (Phase 2).
PHASE_OF = {"walk": 2, "run": 2, "stand_up": 2, "random_move": 2, "scan": 2, "open_close": 2,
            "activate": 2, "search": 2, "reload": 2, "melee": 3, "shoot": 3, "smash": 3, "start_fire": 3}
FAMILY_OF = {"walk": MANEUVER, "run": MANEUVER, "stand_up": MANEUVER, "random_move": MANEUVER,
             "scan": SCAN, "open_close": INTERACT, "activate": INTERACT, "search": INTERACT,
             "reload": INTERACT, "melee": ATTACK, "shoot": ATTACK, "smash": ATTACK, "start_fire": ATTACK}


@dataclass(frozen=True, slots=True)
class Seen:
    """Board facts the player reports for one Character (R-LOS: never inferred by the app)."""

    name: str
    distance: float
    line_of_sight: bool = False
    base_contact: bool = False

    @property
    def reach(self) -> float:
        """Distance to close; base contact is distance 0 whatever was measured (R-ZONE)."""
        return 0.0 if self.base_contact else self.distance


@dataclass(frozen=True, slots=True)
class Directive:
    """The role's assignment with its board facts: sentry subject, worker object, patrol waypoint."""

    subject: str | None = None
    subject_distance: float | None = None
    object: str | None = None
    object_distance: float | None = None
    object_contact: bool = False
    waypoint: str | None = None
    waypoint_distance: float | None = None
    direction: int | None = None  # Hunter's random move: 1..8, else rolled
    direction_rolled: bool = False  # `direction` is a d8 the app rolled ("let the app roll"), not told
    exempt: bool = False  # Sentry explicitly exempt from the Phase 4 position check
    # A Patrol standing on its waypoint heads for the next one (R-ROLE-PATROL): its name and the
    # distance to it, asked only then (without it the activation answers `needs`, never guesses).
    next_waypoint: str | None = None
    next_waypoint_distance: float | None = None
    # R-PATROL-NEXT: the waypoint after `next_waypoint`, where the 50% Walk goes on when a Patrol
    # that started on its waypoint reaches the next one in the same activation
    waypoint_after_next: str | None = None
    tie_choice: str | None = None  # R-TIE-CHOICE: the Character the player picks among tied ones


@dataclass(frozen=True, slots=True)
class Activator:
    """The activating AI-Bot as the activation needs it."""

    name: str
    role: str  # hunter | sentry | worker | patrol
    walk: float
    run: float
    control_zone: float = 3.0
    points: int = 0
    health: int = 1
    shoot_range: float | None = None  # None: no ranged weapon
    has_ammo: bool = True
    knocked_down: bool = False
    rebooted: bool = False
    full_throttle: bool = False
    special_rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Action:
    slot: int
    family: str
    action: str
    phase: int
    target: str | None
    move: float | None
    fallback: bool
    reason: str
    rule: str
    direction: int | None = None  # random move only: the direction 1..8 it took
    # R-ACT-FACTS: planned from facts a move made unknown (a Shoot at a Character after a move
    # toward something else): it happens only if the player confirms `condition` when it resolves.
    conditional: bool = False
    condition: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"slot": self.slot, "family": self.family, "action": self.action, "phase": self.phase,
                "target": self.target, "move": self.move, "fallback": self.fallback,
                "reason": self.reason, "rule": self.rule, "direction": self.direction,
                "conditional": self.conditional, "condition": self.condition}


# What a conditional Shoot asks of the player in Phase 3 (R-ACT-FACTS).
CONFIRM_SHOT = "confirm line of sight and range in Phase 3"


@dataclass(frozen=True, slots=True)
class EmptySlot:
    """A slot the activation leaves empty and why (docs/api.md: "A slot may be absent …")."""

    slot: int
    reason: str
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return {"slot": self.slot, "reason": self.reason, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class Mark:
    character: str
    stacks: int
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return {"character": self.character, "stacks": self.stacks, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class Activation:
    """The answer: Marked caused (R-MARK-ACT), up to two actions, tied names (R-ROLE-HUNTER).

    `arrived`: a Patrol reaches (or stands on) its waypoint this activation, so the turn engine
    advances it (R-ROLE-PATROL); `reached`: every waypoint reached, in order (the engine advances
    once per name); `next_waypoint`: where it heads afterwards, when known. `notes`: what the
    player should know; `empty`: each absent slot with its reason. `needs`: facts the decision
    waits for (e.g. "next_waypoint_distance"): while not empty, no action is decided.
    """

    bot: str
    marked: tuple[Mark, ...]
    actions: tuple[Action, ...]
    ties: tuple[str, ...] = ()
    arrived: bool = False
    notes: tuple[str, ...] = ()
    empty: tuple[EmptySlot, ...] = ()
    reached: tuple[str, ...] = ()
    next_waypoint: str | None = None
    needs: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"bot": self.bot, "marked": [m.as_dict() for m in self.marked],
                "actions": [a.as_dict() for a in self.actions], "ties": list(self.ties),
                "arrived": self.arrived, "notes": list(self.notes),
                "empty_slots": [e.as_dict() for e in self.empty], "reached": list(self.reached),
                "next_waypoint": self.next_waypoint, "needs": list(self.needs)}
