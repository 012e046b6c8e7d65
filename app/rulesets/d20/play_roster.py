"""d20 roster and bookkeeping commands: add or remove a Character or NPC, conditions, the
player's corrections, rests, Medicine checks, house rules. Pure handlers (commands.py)."""

from __future__ import annotations

from random import Random

from app.rulesets.d20.commands import (
    AddCharacter,
    AddNpc,
    Adjust,
    Check,
    Entry,
    MemberId,
    Refused,
    Rest,
    SetCondition,
    SetHouse,
    command,
)
from app.rulesets.d20.conditions import displace, staunch
from app.rulesets.d20.dying import long_rest, short_rest, stabilize
from app.rulesets.d20.game import Character, D20State, Npc

MAX_MEMBERS = 50


def member_or_refuse(state: D20State, member_id: str) -> Character | Npc:
    member = state.member(member_id)
    if member is None:
        raise Refused(f"No one on the roster has the id {member_id!r}.")
    return member


def added(state: D20State, member: Character | Npc) -> D20State:
    """Names identify models in the facts the player reports, so each is the roster's only one."""
    field = "npcs" if isinstance(member, Npc) else "characters"
    if any(m.name == member.name for m in [*state.characters, *state.npcs]):
        raise Refused(f"The roster already has a {member.name}: give each one its own name.")
    if len(getattr(state, field)) >= MAX_MEMBERS:
        raise Refused(f"A game holds at most {MAX_MEMBERS} {field}.")
    return state.model_copy(update={field: [*getattr(state, field), member], "next_id": state.next_id + 1})


@command("add_character", AddCharacter)
def add_character(state: D20State, body: AddCharacter, rng: Random) -> tuple[D20State, list[Entry]]:
    sheet = body.character
    member = Character(id=f"c{state.next_id}", max_hp=sheet.hp, **sheet.model_dump())
    return added(state, member), [Entry(f"{member.name} joins the roster (DEF {member.defense}, "
                                        f"{member.hp} HP).", "D20-TURN")]


@command("add_npc", AddNpc)
def add_npc(state: D20State, body: AddNpc, rng: Random) -> tuple[D20State, list[Entry]]:
    sheet = body.npc
    if sheet.wielding is not None and sheet.wielding not in {w.name for w in sheet.weapons}:
        raise Refused("An NPC can only hold one of its own weapons.", "D20-MINOR-DRAW")
    member = Npc(id=f"n{state.next_id}", max_hp=sheet.hp, **sheet.model_dump())
    text = f"{member.name} joins the roster as a {member.role} (DEF {member.defense}, {member.hp} HP)."
    return added(state, member), [Entry(text, f"D20-ROLE-{member.role.upper()}")]


@command("remove", MemberId)
def remove(state: D20State, body: MemberId, rng: Random) -> tuple[D20State, list[Entry]]:
    member = member_or_refuse(state, body.member_id)
    update = {"characters": [c for c in state.characters if c.id != member.id],
              "npcs": [n for n in state.npcs if n.id != member.id],
              "turns": [t for t in state.turns if t.npc_id != member.id]}
    return state.model_copy(update=update), [Entry(f"{member.name} leaves the roster.")]


@command("set_condition", SetCondition)
def set_condition(state: D20State, body: SetCondition, rng: Random) -> tuple[D20State, list[Entry]]:
    """A condition set or cleared; Temporal Displacement as its rule says (D20-COND-TEMPORAL: no
    effect on a creature immune after its return)."""
    member = member_or_refuse(state, body.member_id)
    c = member.combatant()
    word = body.condition.replace("_", " ").title()
    if body.condition == "temporal_displacement" and body.present:
        c, text = displace(c)
        return state.replace_member(member.with_combatant(c)), [Entry(text, "D20-COND-TEMPORAL")]
    c = c.with_conditions(body.condition) if body.present else c.with_conditions(removed=(body.condition,))
    text = f"{member.name} is {word}." if body.present else f"{member.name} is no longer {word}."
    return state.replace_member(member.with_combatant(c)), [Entry(text, "D20-TURN")]


def adjusted(state: D20State, body: Adjust) -> dict[str, dict[str, object]]:
    member = state.member(body.member_id)
    if member is None:  # not on the roster: the command itself refuses it (issue 16: was a 500)
        return {}
    fields = {k: getattr(member, k) for k in ("hp", "dying", "wounded") if getattr(body, k) is not None}
    return {body.member_id: fields}


def house_of(state: D20State, body: SetHouse) -> dict[str, dict[str, object]]:
    return {"house": state.house.model_dump()}


@command("adjust", Adjust, sets=adjusted)
def adjust(state: D20State, body: Adjust, rng: Random) -> tuple[D20State, list[Entry]]:
    """The player's correction: absolute values, logged as such."""
    member = member_or_refuse(state, body.member_id)
    changes = {k: v for k, v in (("hp", body.hp), ("dying", body.dying), ("wounded", body.wounded))
               if v is not None}
    if "hp" in changes:
        changes["hp"] = min(changes["hp"], member.max_hp)
    if changes.get("dying", member.dying) < 4:
        changes["dead"] = False
    said = ", ".join(f"{'HP' if k == 'hp' else k.title()} {v}" for k, v in changes.items() if k != "dead")
    note = f" ({body.note})" if body.note else ""
    return state.replace_member(member.model_copy(update=changes)), [
        Entry(f"Correction: {member.name} {said or 'unchanged'}{note}.")]


@command("rest", Rest)
def rest(state: D20State, body: Rest, rng: Random) -> tuple[D20State, list[Entry]]:
    member = member_or_refuse(state, body.member_id)
    if body.kind == "long":
        change = long_rest(member.combatant())
    else:
        change = short_rest(member.combatant(), body.rolled if body.rolled is not None else rng.randint(1, 8))
    return state.replace_member(member.with_combatant(change.combatant)), [Entry(change.text, change.rule)]


@command("stabilize", Check)
def stabilize_ally(state: D20State, body: Check, rng: Random) -> tuple[D20State, list[Entry]]:
    member = member_or_refuse(state, body.member_id)
    change = stabilize(member.combatant(), body.medicine_total)
    return state.replace_member(member.with_combatant(change.combatant)), [Entry(change.text, change.rule)]


@command("staunch", Check)
def staunch_bleeding(state: D20State, body: Check, rng: Random) -> tuple[D20State, list[Entry]]:
    member = member_or_refuse(state, body.member_id)
    c, done = staunch(member.combatant(), body.medicine_total)
    text = (f"Medicine {body.medicine_total} meets DC 12: {member.name}'s Bleeding stops." if done else
            f"Medicine {body.medicine_total} misses DC 12: {member.name} still bleeds.")
    return state.replace_member(member.with_combatant(c)), [Entry(text, "D20-COND-BLEEDING")]


@command("set_house_rules", SetHouse, sets=house_of)
def set_house_rules(state: D20State, body: SetHouse, rng: Random) -> tuple[D20State, list[Entry]]:
    return state.model_copy(update={"house": body.house}), [Entry("House rules changed.")]
