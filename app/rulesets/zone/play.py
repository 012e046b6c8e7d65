"""The zone round (Z-ROUND): an NPC's decision, attacks each way, the end of a round; days and
recovery (Z-DAY, Z-RECOVER). Registers into the zone namespace (commands.py)."""

from __future__ import annotations

from random import Random

from app.kernel import turn_order
from app.kernel.commands import Entry, Refused
from app.rulesets.zone import books, conditions
from app.rulesets.zone.brain import Target
from app.rulesets.zone.commands import (
    Activate,
    Cold,
    Nothing,
    PassDay,
    Recover,
    character,
    command,
    npc,
    put,
)
from app.rulesets.zone.models import Decision, Facts, PlannedAction, ZoneState
from app.rulesets.zone.roles import decide


@command("activate_npc", Activate)
def activate_npc(state: ZoneState, body: Activate, rng: Random):
    """Z-ROUND: the NPC's round from the reported facts; a decision card with reasons and rule ids.
    Moves are done at once; a Fight or Shoot waits to be resolved (npc_attack)."""
    who = npc(state, body.npc_id)
    books.able(who, "act")
    books.on_turn(state, who, "act")
    if state.decision(who.id) is not None or who.spent:
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
    for a in plan.actions:  # Z-TURN: the card spends its slots (Plan.add never overspends)
        moved = books.spend(moved, a.kind, a.name.replace("_", " "))
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
        update["next_waypoint"], update["waypoint_step"] = who.following()
    return who.model_copy(update=update)


def reload(who, actions: list[PlannedAction]):
    """Z-RELOAD: a reload maneuver fills the gun (the house of the table decides with how much;
    the sheet's last full load is not known, so one magazine is taken as 10 bullets)."""
    if who.gun is not None and any(a.name == "reload" for a in actions):
        return who.model_copy(update={"gun": who.gun.model_copy(update={"bullets": 10})})
    return who


@command("end_round", Nothing)
def end_round(state: ZoneState, body: Nothing, rng: Random):
    """Z-ROUND: a new round; every model's turn is whole again. While a fight's turn order runs,
    the round ends only when everyone in it has had a turn (Z-INITIATIVE: Next turn ends it)."""
    order = state.turn_order
    if order.running:
        able = books.able_ids(state)
        left = [state.member(m).name for m in order.ids() if m in able and m not in order.done]
        if left:
            raise Refused(f"Round {state.round} still has turns to come ({', '.join(left)}): tap Next turn, "
                          "or "
                          "end the fight.", "Z-INITIATIVE")
    return new_round(state)


def new_round(state: ZoneState):
    """Z-ROUND, Z-TURN: the next round; every model's action and maneuvers are whole again."""
    waiting = [d for d in state.decisions if any(a.status == "pending" for a in d.actions)]
    note = f" ({len(waiting)} attack{'s' if len(waiting) != 1 else ''} left unresolved)" if waiting else ""
    # Z-PUSH-AFTER: a roll is pushed in its round; the next round starts with none to push
    fresh = [c.model_copy(update={"last_roll": None, "spent": [], "aimed": False}) for c in state.characters]
    npcs = [n.model_copy(update={"spent": []}) for n in state.npcs]
    order = state.turn_order  # Z-INITIATIVE: the order starts again from the top
    if order.running:
        order = turn_order.started_round(order, books.able_ids(state))
    return state.model_copy(update={"round": state.round + 1, "decisions": [], "characters": fresh,
                                    "npcs": npcs, "turn_order": order}), [
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
            c, *(report.ate, report.drank, report.slept) if report else (True,) * 3, day=state.day
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
