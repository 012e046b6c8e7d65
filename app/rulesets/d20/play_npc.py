"""An NPC's turn as a command (D20-TURN, D20-ROLE-*): the start of its turn, the brain's
decision from the facts the player reports (D20-FACTS), and what the turn leaves on the NPC.

What the decision does to the NPC happens here, not on the card only: it stands up with its
Minor (D20-COND-PRONE), keeps the weapon it drew in hand (D20-MINOR-DRAW), and a turn that began
Dying is spent on the Vigor Save (D20-DYING-SAVE). A fact the brain needs and was not given
refuses the turn, naming the field, so the NPC keeps its turn until the player gives it.
"""

from __future__ import annotations

from random import Random

from app.rulesets.d20.books import begun, hand_over
from app.rulesets.d20.brain import decide
from app.rulesets.d20.brain_types import SLOTS, Decision, Facts, Orders
from app.rulesets.d20.brain_types import Unused as BrainUnused
from app.rulesets.d20.commands import Entry, NpcTurn, Refused, command
from app.rulesets.d20.conditions import spend_glitch, stand_up
from app.rulesets.d20.game import D20State, Npc, Planned, Turn, Unused
from app.rulesets.d20.play_round import begin, finish

ASKED = {"subject_distance": "the squares from {npc} to its subject {place}",
         "next_waypoint_distance": "the squares from {npc}'s waypoint on to {place}"}


def facts_of(state: D20State, body: NpcTurn) -> list[Facts]:
    """The Characters the player reported (D20-FACTS); one out of action is no target."""
    facts = []
    for seen in body.seen:
        c = state.character(seen.character_id)
        if c is None:
            raise Refused(f"No Character has the id {seen.character_id!r}.", "D20-FACTS")
        if not c.combatant().out_of_action:
            facts.append(Facts(c.name, seen.distance, seen.line_of_sight, seen.cover, c.defense,
                               "prone" in c.conditions))
    return facts


def orders_of(npc: Npc, body: NpcTurn) -> Orders:
    two = len(npc.waypoints) > 1
    return Orders(npc.subject, body.subject_distance, npc.object, body.object_distance, npc.object_minor,
                  npc.waypoint(), body.waypoint_distance, npc.waypoint(1) if two else npc.waypoint(),
                  body.next_waypoint_distance, body.direction, npc.exempt)


def stored(state: D20State, npc: Npc, decision: Decision) -> Turn:
    ids = {c.name: c.id for c in state.characters}
    steps = [Planned(**s.as_dict(), target_id=ids.get(s.target or ""),
                     status="pending" if s.action == "attack" else "done") for s in decision.steps]
    return Turn(npc_id=npc.id, round=state.round, steps=steps, ties=list(decision.ties),
                notes=list(decision.notes),
                unused=[Unused(slot=u.slot, reason=u.reason, rule=u.rule) for u in decision.unused])


def asked(npc: Npc, decision: Decision) -> None:
    """D20-FACTS: a fact never given is never assumed; the turn is refused with the field named
    and the NPC keeps it."""
    if not decision.needs:
        return
    field = decision.needs[0]
    place = npc.subject if field == "subject_distance" else decision.next_waypoint or npc.waypoint(1)
    what = ASKED.get(field, field).format(npc=npc.name, place=place or "")
    raise Refused(f"Give {what.strip()} ({field}): {npc.name} keeps its turn until you do.", "D20-FACTS")


def saved_only(npc: Npc) -> Decision:
    """D20-DYING-SAVE: "On your turn: Vigor Save DC 10 + Wounded" is the turn of a Dying creature:
    even when the save stabilises it (HP 1) it takes no other action this turn."""
    why = f"{npc.name} spent this turn on its Dying save: no other action"
    return Decision(npc.name, (), tuple(BrainUnused(slot, why + ".", "D20-DYING-SAVE") for slot in SLOTS),
                    notes=(why + ".",))


def kept(npc: Npc, decision: Decision) -> Npc:
    """What the turn leaves on the NPC: standing up clears Prone (D20-COND-PRONE), a
    drawn weapon stays in hand (D20-MINOR-DRAW)."""
    c = npc.combatant()
    if any(s.action == "stand" for s in decision.steps):
        c = stand_up(c)
    drawn = next((s.weapon for s in decision.steps if s.action == "draw"), None)
    npc = npc.with_combatant(c)
    return npc.model_copy(update={"wielding": drawn}) if drawn else npc


def post_distance(npc: Npc, body: NpcTurn, decision: Decision) -> int | None:
    """The squares to its subject or object as given this turn, kept for the next only when the
    turn moved it nowhere (D20-FACTS: after a Move the fact is no longer known, so it is asked)."""
    given = {"sentry": body.subject_distance, "worker": body.object_distance}.get(npc.role)
    moved = any((s.squares or 0) > 0 for s in decision.steps)
    return None if moved else given


def same_as_last(npc: Npc, body: NpcTurn) -> NpcTurn:
    """D20-FACTS-KEPT: the facts of its last turn when the player says nothing moved (never
    assumed: asked for with `same_as_last`; kept only while its own turn moved it nowhere)."""
    if not body.same_as_last:
        return body
    if npc.last_facts is None:
        raise Refused(f"{npc.name} has no squares kept from a last turn that left it in place: give them.",
                      "D20-FACTS-KEPT")
    kept = {k: v for k, v in npc.last_facts.items() if k not in ("natural", "bleed", "direction")}
    return NpcTurn.model_validate({**kept, "npc_id": npc.id, "natural": body.natural, "bleed": body.bleed,
                                   "direction": body.direction})


def facts_kept(state: D20State, body: NpcTurn, decision: Decision) -> dict | None:
    """What `same_as_last` offers next turn: this turn's facts, only when it moved nowhere."""
    if any((s.squares or 0) > 0 for s in decision.steps) or decision.needs:
        return None
    seen = [s.model_dump() for s in body.seen if state.character(s.character_id) is not None]
    kept = body.model_dump(exclude={"natural", "bleed", "same_as_last", "direction", "npc_id"})
    return {**kept, "seen": seen}


def spent_by(decision: Decision) -> tuple[str, ...]:
    """D20-TURN-BUDGET: the parts of the turn its decided steps take (the Reaction is the round's)."""
    return tuple(dict.fromkeys(s.slot for s in decision.steps if s.slot in ("action", "move", "minor")))


@command("npc_turn", NpcTurn)
def npc_turn(state: D20State, body: NpcTurn, rng: Random) -> tuple[D20State, list[Entry]]:
    npc = state.bot(body.npc_id)
    if npc is None:
        raise Refused(f"No NPC has the id {body.npc_id!r}.")
    if npc.dead:
        raise Refused(f"{npc.name} is Dead: it has no turn.", "D20-OUT")
    if state.turn_of(npc.id) is not None or (npc.id in state.began and npc.id not in state.delayed):
        raise Refused(f"{npc.name} has already taken its turn this round.", "D20-TRACKER")
    body = same_as_last(npc, body)
    house = state.house.rules()
    was_dying = npc.dying > 0 and not npc.dead
    c, entries = begin(npc.combatant(), rng, body.natural, body.bleed, house)
    npc = npc.with_combatant(c)
    decision = saved_only(npc) if was_dying else decide(npc.brain(), facts_of(state, body),
                                                        orders_of(npc, body), rng, house)
    asked(npc, decision)
    npc = kept(npc, decision)
    npc = npc.model_copy(update={"post_distance": post_distance(npc, body, decision),
                                 "last_facts": facts_kept(state, body, decision)})
    glitched = npc.combatant().has("glitched")
    c, events = finish(spend_glitch(npc.combatant())[0])  # its unused Minor says why
    npc = npc.with_combatant(c.spending(*spent_by(decision), *(("minor",) if glitched else ())))
    if decision.reached and npc.waypoints:
        npc = npc.advanced(len(decision.reached))  # D20-PATROL-ROUTE
    entries += [Entry(f"{npc.name}: {s.reason}", s.rule) for s in decision.steps]
    entries += [Entry(f"{npc.name}: {u.slot.title()} unused. {u.reason}", u.rule) for u in decision.unused
                if not decision.steps]
    entries += events
    # deciding an NPC's turn is its turn: the tracker follows (the turn before it ends)
    state, handed = hand_over(state, npc.id)
    state = begun(state.replace_member(npc), npc.id)
    return state.model_copy(update={"turns": [*state.turns, stored(state, npc, decision)]}), handed + entries
