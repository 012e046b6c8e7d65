"""The zone round (Z-ROUND): an NPC's decision, attacks each way, the end of a round; days and
recovery (Z-DAY, Z-RECOVER). Registers into the zone namespace (commands.py)."""

from __future__ import annotations

from random import Random

from app.kernel.commands import Entry, Refused
from app.rulesets.zone import combat, conditions
from app.rulesets.zone.brain import Target
from app.rulesets.zone.commands import (
    Activate,
    Cold,
    Nothing,
    NpcAttack,
    PassDay,
    Recover,
    character,
    command,
    npc,
    put,
)
from app.rulesets.zone.models import Decision, Facts, PlannedAction, Weapon, ZoneState
from app.rulesets.zone.roles import decide


@command("activate_npc", Activate)
def activate_npc(state: ZoneState, body: Activate, rng: Random):
    """Z-ROUND: the NPC's round from the reported facts; a decision card with reasons and rule ids.
    Moves are done at once; a Fight or Shoot waits to be resolved (npc_attack)."""
    who = npc(state, body.npc_id)
    if state.decision(who.id) is not None:
        raise Refused(f"{who.name} has already taken its round {state.round}.", "Z-ROUND")
    facts = kept_facts(state, who) if body.same_as_last else body.facts
    targets, left = targets_of(state, facts)
    plan = decide(who, state.house, targets, facts, rng)
    if left:
        verb = "is" if len(left) == 1 else "are"
        plan.notes.append(f"{' and '.join(left)} {verb} Broken: {who.name} turns to the next threat.")
    if plan.needs:
        raise Refused(" ".join(plan.notes), "Z-FACTS")
    decision = Decision(
        npc_id=who.id, round=state.round, actions=plan.actions, ties=plan.ties, note=" ".join(plan.notes)
    )
    entries = [Entry(n) for n in plan.notes]
    for a in plan.actions:
        entries.append(
            Entry(
                f"{who.name}, {a.kind}: {a.name.replace('_', ' ')}"
                f"{' → ' + a.target if a.target else ''}. {a.reason}",
                a.rule,
            )
        )
    if plan.ties:
        entries.append(
            Entry(
                f"Tied in the same band: {', '.join(plan.ties)}; the first reported is taken.",
                "Z-ROLE-HUNTER",
            )
        )
    moved = reload(after_plan(who, plan), plan.actions)
    moved = moved.model_copy(update={"last_facts": carried(facts, plan)})
    state = put(state, moved)
    return state.model_copy(update={"decisions": [*state.decisions, decision]}), entries


def targets_of(state: ZoneState, facts: Facts) -> tuple[list[Target], list[str]]:
    """The reported Characters the NPC may take as targets, and the Broken ones it turns from
    (Z-BROKEN-TARGET, house `broken_targets`); the dead are no one's target."""
    targets, left = [], []
    for fact in facts.seen:
        found = character(state, fact.character_id)
        if found.broken and state.house.broken_targets == "next_threat":
            left.append(found.name)
        elif not found.dead:
            targets.append(Target(found, fact))
    return targets, left


def kept_facts(state: ZoneState, who) -> Facts:
    """Z-BANDS-KEPT: the bands of the NPC's last round, as its own moves left them, when the player
    says nothing changed (never assumed: asked for with `same_as_last`)."""
    if who.last_facts is None:
        raise Refused(f"{who.name} has no bands from a last round: say them.", "Z-BANDS-KEPT")
    seen = [f for f in who.last_facts.seen if state.character(f.character_id) is not None]
    return who.last_facts.model_copy(update={"seen": seen, "direction": None})


def carried(facts: Facts, plan) -> Facts:
    """Z-BANDS-KEPT, Z-MOVE: the facts after the NPC's moves: a move changes the band to what it
    moved toward by one step; the rest stays as reported; a Patrol's next waypoint becomes its
    waypoint once it heads for it (Z-PATROL-ROUTE)."""
    moves = [a for a in plan.actions if a.name == "move" and a.band_after]
    seen = [f.model_copy(update={"band": next((a.band_after for a in reversed(moves)
                                               if a.target_id == f.character_id), f.band)})
            for f in facts.seen]
    goal = next((a.band_after for a in reversed(moves) if a.target_id is None), None)
    update: dict = {"seen": seen, "direction": None, "next_waypoint_band": None}
    if plan.advance:
        update["waypoint_band"] = goal or facts.next_waypoint_band
    for name in ("subject_band", "object_band", "waypoint_band"):
        if getattr(facts, name) is not None and name not in update:
            update[name] = goal or getattr(facts, name)
    return facts.model_copy(update=update)


def after_plan(who, plan):
    """The NPC after its maneuvers: standing (Z-PRONE), armed (Z-PICK-UP), its route's next
    waypoint its goal once it stood on the last (Z-PATROL-ROUTE)."""
    done = {a.name for a in plan.actions}
    update = {"prone": who.prone and "get_up" not in done, "disarmed": who.disarmed and "pick_up" not in done}
    if plan.advance and who.waypoints:
        update["next_waypoint"] = (who.next_waypoint + 1) % len(who.waypoints)
    return who.model_copy(update=update)


def reload(who, actions: list[PlannedAction]):
    """Z-RELOAD: a reload maneuver fills the gun (the house of the table decides with how much;
    the sheet's last full load is not known, so one magazine is taken as 10 bullets)."""
    if who.gun is not None and any(a.name == "reload" for a in actions):
        return who.model_copy(update={"gun": who.gun.model_copy(update={"bullets": 10})})
    return who


def pending_attack(state: ZoneState, npc_id: str) -> tuple[Decision, PlannedAction]:
    decision = state.decision(npc_id)
    attack = next((a for a in decision.actions if a.status == "pending"), None) if decision else None
    if decision is None or attack is None:
        raise Refused("This NPC has no attack waiting this round.", "Z-ROUND")
    return decision, attack


@command("npc_attack", NpcAttack)
def npc_attack(state: ZoneState, body: NpcAttack, rng: Random):
    """Z-CLOSE / Z-SHOOT: the NPC's decided attack, rolled (or entered), pushed by the house
    choice (Z-PUSH-CHOICE), stunts by the house choice (Z-STUNT-CHOICE), trauma to the target."""
    who = npc(state, body.npc_id)
    decision, attack = pending_attack(state, who.id)
    target = character(state, body.character_id or attack.target_id or "")
    close = attack.name == "fight"
    weapon, dice, aimed = attack_dice(who, decision, close, state.house)
    pool, bullets = combat.npc_roll(
        who, dice, not close and weapon.full_auto, state.house, rng, body.faces, body.pushes
    )
    hit = combat.stunts(pool.successes, weapon, state.house.npc_stunt, close)
    skill = "Fight" if close else "Shoot"
    entries = [
        Entry(
            f"{who.name} attacks {target.name} ({skill}, {dice} dice"
            f"{', aimed' if aimed and not close else ''}).",
            "Z-CLOSE" if close else "Z-SHOOT",
            pool.as_dict(),
        )
    ]
    if len(pool.rolls) > 1:
        entries.append(Entry(f"{who.name} pushes the roll ({len(pool.rolls) - 1}×).", "Z-PUSH-CHOICE"))
    entries += combat.hit_entries(who.name, target.name, hit, skill)
    target, said = combat.take_trauma(target, "damage", hit.damage)
    entries += said
    target, said = combat.take_trauma(target, "fatigue", hit.fatigue)
    entries += said
    who = spend(who, close, bullets, entries)
    who, banes = push_cost(who, pool, state, entries)
    return attack_done(put(put(state, target), who), decision, attack), entries


def attack_dice(who, decision: Decision, close: bool, house) -> tuple[Weapon, int, bool]:
    """Z-CLOSE: Fight + the melee weapon's bonus (bare hands when disarmed); Z-SHOOT: Shoot + the
    gun's bonus, + the house's aim bonus when the NPC aimed this round."""
    weapon = who.melee if close or who.gun is None else who.gun
    if close and who.disarmed:
        weapon = Weapon()
    aimed = any(a.name == "aim" for a in decision.actions)
    if close:
        return weapon, who.fight + weapon.bonus, aimed
    return weapon, who.shoot + weapon.bonus + (house.aim_bonus if aimed else 0), aimed


def attack_done(state: ZoneState, decision: Decision, attack: PlannedAction) -> ZoneState:
    """Z-ROUND: the decided attack is marked done in the NPC's decision for this round."""
    actions = [a.model_copy(update={"status": "done"}) if a is attack else a for a in decision.actions]
    done = decision.model_copy(update={"actions": actions})
    return state.model_copy(update={"decisions": [done if d is decision else d for d in state.decisions]})


def spend(who, close: bool, pushes: int, entries: list[Entry]):
    """Z-SHOOT: a shot uses one bullet; Z-FULL-AUTO: each re-roll one more."""
    if close or who.gun is None:
        return who
    used = 1 + pushes
    left = max(0, who.gun.bullets - used)
    entries.append(
        Entry(
            f"{who.name} uses {used} bullet{'s' if used != 1 else ''} ({left} left).",
            "Z-FULL-AUTO" if pushes else "Z-SHOOT",
        )
    )
    return who.model_copy(update={"gun": who.gun.model_copy(update={"bullets": left})})


def push_cost(who, pool, state: ZoneState, entries: list[Entry]):
    """Z-PUSH-COST (house): each 1 showing after a push costs the roller one fatigue."""
    if not state.house.push_fatigue or pool.banes == 0:
        return who, 0
    who, said = combat.take_trauma(who, "fatigue", pool.banes)
    entries.extend(said)
    return who, pool.banes


@command("end_round", Nothing)
def end_round(state: ZoneState, body: Nothing, rng: Random):
    """Z-ROUND: a new round; every NPC may take its round again."""
    waiting = [d for d in state.decisions if any(a.status == "pending" for a in d.actions)]
    note = f" ({len(waiting)} attack{'s' if len(waiting) != 1 else ''} left unresolved)" if waiting else ""
    # Z-PUSH-AFTER: a roll is pushed in its round; the next round starts with none to push
    fresh = [c.model_copy(update={"last_roll": None}) for c in state.characters]
    return state.model_copy(update={"round": state.round + 1, "decisions": [], "characters": fresh}), [
        Entry(f"Round {state.round} ends{note}; round {state.round + 1} begins.", "Z-ROUND")
    ]


@command("pass_day", PassDay)
def pass_day(state: ZoneState, body: PassDay, rng: Random):
    """Z-DAY: a day passes; each Character's grub, water and sleep (unreported: had all three)."""
    told = {r.character_id: r for r in body.reports}
    entries = [Entry(f"Day {state.day} ends.", "Z-DAY")]
    for c in state.characters:
        report = told.get(c.id)
        new, said = conditions.pass_day(
            c, *(report.ate, report.drank, report.slept) if report else (True,) * 3
        )
        state, entries = put(state, new), entries + said
    return state.model_copy(update={"day": state.day + 1}), entries


@command("endure_cold", Cold)
def endure_cold(state: ZoneState, body: Cold, rng: Random):
    new, entries = conditions.endure_cold(character(state, body.character_id), body.failed)
    return put(state, new), entries


@command("warm_up", Cold)
def warm_up(state: ZoneState, body: Cold, rng: Random):
    new, entries = conditions.warm_up(character(state, body.character_id))
    return put(state, new), entries


@command("recover", Recover)
def recover(state: ZoneState, body: Recover, rng: Random):
    new, entries = conditions.recover(character(state, body.character_id), body.track, body.points)
    return put(state, new), entries
