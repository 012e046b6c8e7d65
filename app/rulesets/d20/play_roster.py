"""d20 roster and bookkeeping commands: add or remove a Character or NPC, conditions, the
player's corrections, rests, Medicine checks, house rules. Pure handlers (commands.py)."""

from __future__ import annotations

import re
from random import Random
from typing import Any

from app.rulesets.d20.commands import (
    AddCharacter,
    AddNpc,
    Adjust,
    Check,
    Duplicate,
    EffectSave,
    Entry,
    MemberId,
    Refused,
    Rest,
    SetCondition,
    SetHouse,
    TempHp,
    command,
)
from app.rulesets.d20.conditions import displace, effect_save, staunch
from app.rulesets.d20.dying import long_rest, short_rest, stabilize
from app.rulesets.d20.game import Character, D20State, Npc
from app.rulesets.d20.starters import filled

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


def sheet_of(sheet: Any) -> dict[str, Any]:
    """The stat block as given, over the chosen ready sheet for what was not (starters.py)."""
    given = sheet.model_dump(include=sheet.model_fields_set - {"starter"})
    return type(sheet).model_validate(filled(sheet.starter, given)).model_dump(exclude={"starter"})


@command("add_character", AddCharacter)
def add_character(state: D20State, body: AddCharacter, rng: Random) -> tuple[D20State, list[Entry]]:
    sheet = sheet_of(body.character)
    member = Character(id=f"c{state.next_id}", max_hp=sheet["hp"], **sheet)
    return added(state, member), [Entry(f"{member.name} joins the roster (DEF {member.defense}, "
                                        f"{member.hp} HP).", "D20-TURN")]


@command("add_npc", AddNpc)
def add_npc(state: D20State, body: AddNpc, rng: Random) -> tuple[D20State, list[Entry]]:
    sheet = sheet_of(body.npc)
    if sheet["wielding"] is not None and sheet["wielding"] not in {w["name"] for w in sheet["weapons"]}:
        raise Refused("An NPC can only hold one of its own weapons.", "D20-MINOR-DRAW")
    member = Npc(id=f"n{state.next_id}", max_hp=sheet["hp"], **sheet)
    text = f"{member.name} joins the roster as a {member.role} (DEF {member.defense}, {member.hp} HP)."
    return added(state, member), [Entry(text, f"D20-ROLE-{member.role.upper()}")]


def numbered(state: D20State, name: str) -> str:
    """"Raider" -> "Raider 2" (or the next number free): names identify models in the facts."""
    base = re.sub(r" \d+$", "", name)[:74]
    taken = {m.name for m in [*state.characters, *state.npcs]}
    return next(f"{base} {n}" for n in range(2, 10_000) if f"{base} {n}" not in taken)


@command("duplicate", Duplicate)
def duplicate(state: D20State, body: Duplicate, rng: Random) -> tuple[D20State, list[Entry]]:
    """Another of the same stat block (role, assignment, weapons), fresh: full HP, no condition,
    Dying or Wounded, its Reaction free."""
    member = member_or_refuse(state, body.member_id)
    name = body.name or numbered(state, member.name)
    fresh: dict[str, Any] = {"id": f"{'n' if isinstance(member, Npc) else 'c'}{state.next_id}", "name": name,
                             "hp": member.max_hp, "conditions": [], "dying": 0, "wounded": 0, "dead": False,
                             "reaction_used": False}
    if isinstance(member, Npc):
        fresh["next_waypoint"] = 0
    return added(state, member.model_copy(update=fresh)), [
        Entry(f"{name} joins the roster: a copy of {member.name}'s stat block.", "D20-TURN")]


@command("save", EffectSave)
def save(state: D20State, body: EffectSave, rng: Random) -> tuple[D20State, list[Entry]]:
    """D20-EFFECT-SAVE: a creature's Save against an effect; the d20 entered or rolled."""
    member = member_or_refuse(state, body.member_id)
    if member.combatant().out_of_action:
        raise Refused(f"{member.name} is out of action: no Save to make.", "D20-EFFECT-SAVE")
    natural = body.natural if body.natural is not None else rng.randint(1, 20)
    c, _, text = effect_save(member.combatant(), body.attribute, natural, body.dc, body.condition,
                             body.proficient)
    record = {"by": "entered" if body.natural is not None else "app",
              "faces": [{"roll": "save", "die": 20, "face": natural}], "natural": natural}
    return state.replace_member(member.with_combatant(c)), [Entry(text, "D20-EFFECT-SAVE", record)]


@command("remove", MemberId)
def remove(state: D20State, body: MemberId, rng: Random) -> tuple[D20State, list[Entry]]:
    member = member_or_refuse(state, body.member_id)
    update = {"characters": [c for c in state.characters if c.id != member.id],
              "npcs": [n for n in state.npcs if n.id != member.id],
              "turns": [t for t in state.turns if t.npc_id != member.id],
              "initiative": [i for i in state.initiative if i.member_id != member.id],
              "acting": None if state.acting == member.id else state.acting}
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
    if member is None:  # not on the roster: the command itself refuses it (was a 500)
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


@command("temp_hp", TempHp)
def temp_hp(state: D20State, body: TempHp, rng: Random) -> tuple[D20State, list[Entry]]:
    """D20-TEMP-HP (the Core rule; the combat reference names none): temporary HP do not add up,
    the higher of the old and the new stays; `exact` is the player's correction."""
    member = member_or_refuse(state, body.member_id)
    if member.dead:
        raise Refused(f"{member.name} is Dead.", "D20-TEMP-HP")
    value = body.amount if body.exact else max(member.temp_hp, body.amount)
    kept = "" if body.exact or value == body.amount else f" (keeps its {value}: the higher stays)"
    said = f"{member.name} has {value} temporary HP{kept}."
    return state.replace_member(member.model_copy(update={"temp_hp": value})), [Entry(said, "D20-TEMP-HP")]
