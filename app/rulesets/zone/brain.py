"""The NPC brain in range bands (Z-ROLE-*): the four roles of Potham 2038 (docs/rules.md
§ Activation) deciding the same way, in seed 002's round of one action and one maneuver, or two
maneuvers (Z-ROUND).

What 2038 measures in inches, zone answers in bands: "inside its zone" is a band no further than
the house `zone_band` (Near by default, Z-ROLE-ZONE); a Walk is one move of one band step
(Z-MOVE), a Run two moves; "the closest Character" is the one in the closest band, ties listed.
The player reports each Character's band and line of sight (Z-FACTS): the app never guesses.
"""

from __future__ import annotations

from app.rulesets.zone.models import (  # noqa: F401  (Fact and Facts are the brain's words)
    BAND_NAMES,
    BANDS,
    Band,
    Character,
    Fact,
    Facts,
    Npc,
    PlannedAction,
    ZoneHouse,
    step,
)


class Target:
    def __init__(self, character: Character, fact: Fact):
        self.character, self.fact = character, fact
        self.name, self.band = character.name, fact.band


class Plan:
    """An activation being decided: at most one action and two slots in all (Z-ROUND)."""

    def __init__(self, npc: Npc, house: ZoneHouse, targets: list[Target]):
        self.npc, self.house, self.targets = npc, house, targets
        self.actions: list[PlannedAction] = []
        self.ties: list[str] = []
        self.notes: list[str] = []
        self.needs: list[str] = []
        self.advance = False  # Z-PATROL-ROUTE: it stands on its waypoint and heads for the next

    def full(self) -> bool:
        return len(self.actions) >= 2

    def has_action(self) -> bool:
        return any(a.kind == "action" for a in self.actions)

    def add(
        self,
        kind: str,
        name: str,
        reason: str,
        rule: str,
        target: Target | str | None = None,
        band_after: Band | None = None,
    ) -> None:
        if self.full() or (kind == "action" and self.has_action()):
            return
        who = target.name if isinstance(target, Target) else target
        self.actions.append(
            PlannedAction(
                kind=kind,
                name=name,
                target=who,
                target_id=target.character.id if isinstance(target, Target) else None,
                band_after=band_after,
                reason=reason,
                rule=rule,
                status="pending" if name in ("fight", "shoot") else "done",
            )
        )

    def zone(self) -> list[Target]:
        return [t for t in self.targets if step(t.band) <= step(self.house.zone_band)]

    def visible(self) -> list[Target]:
        return [t for t in self.targets if t.fact.line_of_sight]


def band(n: int) -> Band:
    return BANDS[max(0, min(n, len(BANDS) - 1))]


def closest(targets: list[Target], plan: Plan) -> Target:
    """The Character in the closest band; ties are listed, the first reported is taken."""
    best = min(step(t.band) for t in targets)
    tied = [t for t in targets if step(t.band) == best]
    plan.ties = [t.name for t in tied] if len(tied) > 1 else []
    return tied[0]


def melee_reach(npc: Npc) -> Band:
    """Z-CLOSE: Fight at Arm's Length; some close weapons reach Near (a disarmed NPC has fists)."""
    return "arms_length" if npc.disarmed else npc.melee.reach


def can_fight(npc: Npc, at: Band) -> bool:
    return step(at) <= step(melee_reach(npc)) and npc.fight > 0


def can_shoot(npc: Npc, target: Target, at: Band | None = None) -> bool:
    """Z-SHOOT: a ranged weapon, a bullet, line of sight and the target within the weapon's range."""
    gun = npc.gun
    where = at or target.band
    return (
        gun is not None
        and gun.ranged
        and gun.bullets > 0
        and npc.shoot + gun.bonus > 0
        and not npc.disarmed
        and target.fact.line_of_sight
        and step(where) <= step(gun.reach)
    )


def ready(plan: Plan) -> None:
    """Z-PRONE: an NPC on the ground spends one maneuver getting up; Z-PICK-UP: a disarmed one
    spends one picking its weapon up ("Pick up an item from the ground"). The plan goes on with
    the NPC standing and armed, so neither is done twice and the action is still there."""
    npc = plan.npc
    if npc.prone:
        plan.add("maneuver", "get_up", f"{npc.name} is on the ground, so it gets up first.", "Z-PRONE")
    if npc.disarmed:
        plan.add("maneuver", "pick_up", f"{npc.name} was disarmed: it picks its weapon up from the ground.",
                 "Z-PICK-UP")
    plan.npc = npc.model_copy(update={"prone": False, "disarmed": False})


def move(plan: Plan, toward: str, now: Band, reason: str, rule: str) -> Band:
    """Z-MOVE: one band step closer (never past Arm's Length)."""
    after = band(step(now) - 1)
    plan.add(
        "maneuver",
        "move",
        f"{reason}: it moves one range step, from {BAND_NAMES[now]} to {BAND_NAMES[after]}.",
        rule,
        toward,
        after,
    )
    return after


def attack(plan: Plan, focus: Target, why: str, rule: str) -> None:
    """Fight if in reach; else aim and Shoot; else close in (a move, then Fight or Shoot if that
    brings it in reach); else two moves toward it (Z-ROLE-HUNTER, the same order as 2038's)."""
    npc = plan.npc
    if can_fight(npc, focus.band):
        plan.add("action", "fight", f"{why}, within reach of its {npc.melee.name}: it attacks in close "
                 "combat with Fight.", "Z-CLOSE", focus)
    elif reloads(npc, focus):
        plan.add("maneuver", "reload", f"{why}, in range and in sight, but its {npc.gun.name} is empty: it "
                 "reloads.", "Z-RELOAD", focus)
        plan.add("action", "shoot", f"It shoots at {focus.name} with its {npc.gun.name}.", "Z-SHOOT", focus)
    elif can_shoot(npc, focus) and plan.actions:  # Z-PRONE, Z-PICK-UP: no maneuver left to aim
        plan.add("action", "shoot", f"{why}: it shoots at {focus.name} with its {npc.gun.name}.", "Z-SHOOT",
                 focus)
    elif can_shoot(npc, focus):
        plan.add("maneuver", "aim", f"{why}; {focus.name} is in range and in sight, so it aims first.",
                 "Z-AIM", focus)
        plan.add("action", "shoot", f"It shoots at {focus.name} with its {npc.gun.name}.", "Z-SHOOT", focus)
    else:
        close_in(plan, focus, why, rule)


def close_in(plan: Plan, focus: Target, why: str, rule: str) -> None:
    """Out of reach: a move toward the target, then Fight or Shoot if that brings it in reach,
    else a second move while it is still out of reach (Z-ROLE-HUNTER)."""
    npc = plan.npc
    after = move(plan, focus, focus.band, f"{why} but out of reach", rule)
    if can_fight(npc, after):
        plan.add("action", "fight", f"Now at {BAND_NAMES[after]} of {focus.name}, it attacks with Fight.",
                 "Z-CLOSE", focus)
    elif can_shoot(npc, focus, after):
        plan.add("action", "shoot", f"From {BAND_NAMES[after]} it shoots at {focus.name} if it still sees "
                 "it.", "Z-SHOOT", focus)
    elif not plan.full() and step(after) > 0:
        move(plan, focus, after, f"{focus.name} is still out of reach", rule)


def reloads(npc: Npc, target: Target) -> bool:
    """Z-RELOAD: an empty gun that would otherwise reach the target is reloaded (a maneuver)."""
    gun = npc.gun
    if gun is None or gun.bullets > 0:
        return False
    loaded = npc.model_copy(update={"gun": gun.model_copy(update={"bullets": 1})})
    return can_shoot(loaded, target)


def armed_for(npc: Npc, target: Target, at: Band | None = None) -> bool:
    """Z-SHOOT, Z-RELOAD: it can shoot the target now, or after reloading its empty gun."""
    if can_shoot(npc, target, at):
        return True
    return reloads(npc, target) and step(at or target.band) <= step(npc.gun.reach)


def second_slot(plan: Plan, toward: str, now: Band, rule: str, fight: bool = True) -> None:
    """Z-SLOT2: with the move done, the other slot deals with a Character it can hit (the closest
    in reach or range and sight; an empty gun is reloaded, Z-RELOAD), else moves on toward its
    goal. `fight=False` (Z-SENTRY-RETURN): it walked away, so only a shot from one band further."""
    npc = plan.npc

    def further(t: Target) -> Band | None:
        return None if fight else band(step(t.band) + 1)

    reachable = [t for t in plan.targets
                 if (fight and can_fight(npc, t.band)) or armed_for(npc, t, further(t))]
    if reachable:
        focus = closest(reachable, plan)
        name = "fight" if fight and can_fight(npc, focus.band) else "shoot"
        if name == "shoot" and not can_shoot(npc, focus, further(focus)):
            plan.add("maneuver", "reload", f"{focus.name} is in range but its {npc.gun.name} is empty: it "
                     "reloads.", "Z-RELOAD", focus)
            return
        plan.add(
            "action",
            name,
            f"{focus.name} is the closest Character it can {name}, if still in reach after its move.",
            "Z-SLOT2",
            focus,
        )
    elif step(now) > 0:
        move(plan, toward, now, f"Nobody is in reach, so it goes on toward {toward}", rule)
