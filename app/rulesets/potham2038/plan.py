"""One activation's plan: the actions in slot order and what the bot knows as it fills them.

A `Plan` collects one activation's actions in slot order. Facts are measured before the bot
moves (R-ACT-FACTS): after a move only the distance to the move's own target is known (it
shrinks by the move); every other distance and line of sight is unknown, so an action that
depends on them is planned as conditional (a Shoot the player confirms in Phase 3) or not at
all (a Scan, which resolves at once) — never from a distance with the move subtracted.

The builders the four roles share are beside it: moving, Stand Up and the fallback in
plan_moves.py; Melee, Shoot, Scan and Reload in a free slot in plan_responses.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rulesets.potham2038.activation_types import (
    FAMILY_OF,
    PHASE_OF,
    Action,
    Activator,
    Seen,
)

_INCHES: dict[float, str] = {}


def inches(x: float) -> str:
    """2.5 -> '2.5"', 4.0 -> '4"' (cached: the same few lengths come up again and again)."""
    text = _INCHES.get(x)
    if text is None:
        text = f'{round(x, 2):g}"'
        if len(_INCHES) < 4096:
            _INCHES[x] = text
    return text


class Plan:
    __slots__ = ("bot", "seen", "actions", "used", "notes", "ties", "approached", "moved", "moved_to",
                 "loaded", "last", "why", "reached", "next_waypoint", "needs", "_touching", "choice")

    def __init__(self, bot: Activator, seen: Sequence[Seen]):
        self.bot = bot
        self.seen = seen
        self.actions: list[Action] = []
        self.used: set[str] = set()  # Action Families spent (R-ACT-TWO)
        self.notes: list[str] = []
        self.ties: tuple[str, ...] = ()
        self.approached: Seen | None = None  # the Character the move went straight toward
        self.moved = 0.0
        self.moved_to: str | None = None  # what the move went toward (a name), for the reasons
        self.loaded = bot.has_ammo  # a Reload loads it for a Shoot in the next slot (R-ACT-RELOAD)
        self.last: Seen | None = None  # the Character the latest action dealt with
        self.why: dict[str, str] = {}  # family -> the role's reason it is not used (empty slots)
        self.reached: list[str] = []  # waypoints reached, in order (R-ROLE-PATROL)
        self.next_waypoint: str | None = None
        self.needs: list[str] = []  # facts the decision waits for: no action is decided
        self._touching: list[Seen] | None = None  # cached until the bot moves
        self.choice: str | None = None  # R-TIE-CHOICE: the player's pick wherever Characters tie

    def add(self, action: str, target: str | None, move: float | None, reason: str, rule: str,
            fallback: bool = False, direction: int | None = None, condition: str | None = None) -> None:
        family = FAMILY_OF[action]
        self.used.add(family)
        self.actions.append(Action(len(self.actions) + 1, family, action, PHASE_OF[action], target,
                                   move, fallback, reason, rule, direction, condition is not None, condition))

    @property
    def arrived(self) -> bool:
        return bool(self.reached)

    def known(self, c: Seen) -> bool:
        """R-ACT-FACTS: a fact about `c` still holds: the bot has not moved, or moved toward `c`."""
        return self.moved <= 0 or c is self.approached

    def now(self, c: Seen) -> float:
        """Distance to `c`: as measured, less the move when the bot moved straight toward it.
        For anyone else after a move it is the distance measured before it (R-ACT-FACTS)."""
        d = 0.0 if c.base_contact else c.distance
        return d - self.moved if c is self.approached else d

    def in_zone(self, c: Seen) -> bool:
        return self.now(c) <= self.bot.control_zone  # R-ZONE

    def zone(self) -> list[Seen]:
        return [c for c in self.seen if self.in_zone(c)]

    def touching(self) -> list[Seen]:
        if self._touching is None:
            self._touching = [c for c in self.seen if self.now(c) <= 0]
        return self._touching

    def moved_toward(self, target: str | None, move: float, seen: Seen | None = None) -> None:
        self.approached, self.moved, self.moved_to, self._touching = seen, move, target, None


def closest(candidates: Sequence[Seen], plan: Plan) -> tuple[Seen, tuple[str, ...]]:
    """The closest; equal distances are the player's choice (R-TIE-CHOICE): list them, take the
    one the player picked, else the first (R-ROLE-HUNTER)."""
    best = min(plan.now(c) for c in candidates)
    tied = [c for c in candidates if plan.now(c) == best]
    chosen = next((c for c in tied if c.name == plan.choice), tied[0])
    return chosen, (tuple(c.name for c in tied) if len(tied) > 1 else ())


def pick(candidates: Sequence[Seen], plan: Plan, focus: Seen | None = None) -> Seen:
    """`focus` if it qualifies, else the closest; equal distances are the player's choice, so the
    tied names are listed (R-ROLE-HUNTER's convention, for every role) unless ties are already set."""
    if focus in candidates:
        return focus  # type: ignore[return-value]
    foe, tied = closest(candidates, plan)
    if tied and not plan.ties:
        plan.ties = tied
    return foe
