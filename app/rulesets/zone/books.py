"""The books of a round (Z-TURN, Z-OUT): what each model's turn still allows, who is out of the
fight, and what follows from it after every command. Pure."""

from __future__ import annotations

from typing import Any

from app.kernel.commands import Entry, Refused
from app.rulesets.zone.models import Character, Npc, Person, PlannedAction, Slot, ZoneState

SLOT_SAID = {"action": "an action", "maneuver": "a maneuver"}
# commands in which a model acts: they close every other Character's push (Z-PUSH-AFTER: "only
# before anyone else acts"); the value names the body field of the model acting, if any
ACTING = {"activate_npc": None, "npc_attack": None, "character_attack": "character_id",
          "character_maneuver": "character_id", "next_turn": None, "end_round": None,
          "start_fight": None, "pass_day": None}


def able_ids(state: ZoneState) -> set[str]:
    """Z-OUT: the models in the fight (a broken or dead one has no turn)."""
    return {p.id for p in [*state.characters, *state.npcs] if not p.out_of_fight}


def why_out(person: Person) -> str:
    if getattr(person, "dead", False):
        return "dead"
    return f"Broken ({', '.join(person.broken_by())})"


def able(person: Person, doing: str) -> None:
    """Z-OUT: a broken or dead model does nothing."""
    if person.out_of_fight:
        raise Refused(f"{person.name} is {why_out(person)} and out of the fight: it cannot {doing}.", "Z-OUT")


def target(state: ZoneState, person: Person) -> None:
    """Z-OUT: an attack aimed at a model out of the fight is refused (a Broken Character may still
    be attacked when the house says NPCs keep attacking it, Z-BROKEN-TARGET)."""
    if not person.out_of_fight:
        return
    if isinstance(person, Character) and not person.dead and state.house.broken_targets == "attack":
        return
    raise Refused(f"{person.name} is {why_out(person)} and out of the fight: nobody attacks it.", "Z-OUT")


def spend(person: Person, slot: Slot, what: str) -> Person:
    """Z-TURN: "one action and one maneuver, or two maneuvers" per round: a slot already spent is
    refused, naming the rule."""
    if slot not in person.slots_left():
        had = " and ".join(SLOT_SAID[s] for s in person.spent) or "nothing"
        raise Refused(f"{person.name} cannot {what}: it has spent {had} this round, and a round is "
                      "one action and one maneuver, or two maneuvers.", "Z-ROUND")
    return person.model_copy(update={"spent": [*person.spent, slot]})


def on_turn(state: ZoneState, person: Person, what: str) -> None:
    """Z-INITIATIVE: while a fight's turn order runs, only the model whose turn it is acts."""
    order = state.turn_order
    if order.running and person.id in order.ids() and order.acting != person.id:
        acting = state.member(order.acting) if order.acting else None
        now = f"it is {acting.name}'s turn" if acting else "nobody's turn has begun"
        raise Refused(f"{person.name} cannot {what}: {now} (tap Next turn).", "Z-INITIATIVE")


def cancelled(state: ZoneState, entries: list[Entry]) -> ZoneState:
    """Z-OUT: a pending attack by a model out of the fight, or at one nobody may attack, is
    cancelled with a log line."""
    decisions = []
    for d in state.decisions:
        who = state.bot(d.npc_id)
        actions = []
        for a in d.actions:
            why = cancel_reason(state, who, a) if a.status == "pending" else None
            if why:
                said = f"{who.name if who else d.npc_id}'s {a.name} is cancelled: {why}."
                entries.append(Entry(said, "Z-OUT"))
                a = a.model_copy(update={"status": "cancelled"})
            actions.append(a)
        decisions.append(d.model_copy(update={"actions": actions}))
    return state.model_copy(update={"decisions": decisions})


def cancel_reason(state: ZoneState, who: Npc | None, attack: PlannedAction) -> str | None:
    if who is None:
        return "it has left the game"
    if who.out_of_fight:
        return f"{who.name} is {why_out(who)}"
    if attack.name == "shoot" and who.disarmed:  # Z-DISARM: the gun is on the ground
        return f"{who.name} was disarmed (it picks its weapon up with a maneuver next round)"
    aim = state.character(attack.target_id) if attack.target_id else None
    if aim is None:
        return None
    try:
        target(state, aim)
    except Refused:
        return f"{aim.name} is {why_out(aim)}"
    return None


def dated(state: ZoneState) -> ZoneState:
    """Z-DIE-LATER: the day each Character's attribute hit zero, so a condition kills only after
    another day has passed, never on the day it broke."""
    people = []
    for c in state.characters:
        now = {t: c.broken_on.get(t, state.day) for t in c.broken_by()}
        people.append(c if now == c.broken_on else c.model_copy(update={"broken_on": now}))
    return state.model_copy(update={"characters": people})


def grapples(state: ZoneState, entries: list[Entry]) -> ZoneState:
    """Z-GRAPPLE: a grapple ends when the one holding it is out of the fight or gone."""
    npcs = []
    for n in state.npcs:
        holder = state.character(n.grappled_by) if n.grappled_by else None
        if n.grappled_by and (holder is None or holder.out_of_fight):
            entries.append(Entry(f"{n.name} is no longer held in a grapple.", "Z-GRAPPLE"))
            n = n.model_copy(update={"grappled_by": None})
        npcs.append(n)
    return state.model_copy(update={"npcs": npcs})


def pushes_closed(state: ZoneState, name: str, body: Any) -> ZoneState:
    """Z-PUSH-AFTER: once anyone else acts, a roll can no longer be pushed; a roller out of the
    fight never pushes."""
    closing = name in ACTING
    field = ACTING.get(name)
    actor = getattr(body, field, None) if field else None
    if not any(c.last_roll and (closing or c.out_of_fight) for c in state.characters):
        return state
    people = [c.model_copy(update={"last_roll": None})
              if c.last_roll and ((closing and c.id != actor) or c.out_of_fight) else c
              for c in state.characters]
    return state.model_copy(update={"characters": people})


def keep_books(state: ZoneState, entries: list[Entry], name: str, body: Any) -> tuple[ZoneState, list[Entry]]:
    """After every zone command: pending attacks that can no longer happen are cancelled, pushes
    closed, grapples ended, the day of each Broken noted."""
    entries = list(entries)
    state = cancelled(grapples(pushes_closed(state, name, body), entries), entries)
    return dated(state), entries
