"""d20 roster and bookkeeping commands: add or remove a Character or NPC, conditions, the
player's corrections, rests, Medicine checks, house rules. Pure handlers (commands.py)."""

from __future__ import annotations

import re
from random import Random
from typing import Any

from app.rulesets.d20.books import join_order, may_spend
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
from app.rulesets.d20.conditions import displace, effect_save, staunch, timed
from app.rulesets.d20.dying import DEAD_AT, long_rest, short_rest, stabilize
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
    given = sheet.model_dump(include=sheet.model_fields_set - {"starter", "initiative"})
    full = type(sheet).model_validate(filled(sheet.starter, given))
    full = full.model_dump(exclude={"starter", "initiative"})
    return {**full, "max_hit_dice": full["hit_dice"]}


def in_the_fight(state: D20State, member: Character | Npc, value: int | None,
                 rng: Random) -> tuple[D20State, list[Entry]]:
    """D20-TRACKER: a creature added while the tracker runs joins the order (its initiative given,
    else d20 + Agility rolled)."""
    if not state.initiative:
        return state, []
    if value is None:
        value = rng.randint(1, 20) + member.attributes.get("agility", 0)
    return join_order(state, member, value)


@command("add_character", AddCharacter)
def add_character(state: D20State, body: AddCharacter, rng: Random) -> tuple[D20State, list[Entry]]:
    sheet = sheet_of(body.character)
    member = Character(id=f"c{state.next_id}", max_hp=sheet["hp"], **sheet)
    state, joined = in_the_fight(added(state, member), member, body.character.initiative, rng)
    return state, [Entry(f"{member.name} joins the roster (DEF {member.defense}, {member.hp} HP).",
                         "D20-TURN"), *joined]


@command("add_npc", AddNpc)
def add_npc(state: D20State, body: AddNpc, rng: Random) -> tuple[D20State, list[Entry]]:
    sheet = sheet_of(body.npc)
    if sheet["wielding"] is not None and sheet["wielding"] not in {w["name"] for w in sheet["weapons"]}:
        raise Refused("An NPC can only hold one of its own weapons.", "D20-MINOR-DRAW")
    member = Npc(id=f"n{state.next_id}", max_hp=sheet["hp"], **sheet)
    text = f"{member.name} joins the roster as a {member.role} (DEF {member.defense}, {member.hp} HP)."
    state, joined = in_the_fight(added(state, member), member, body.npc.initiative, rng)
    return state, [Entry(text, f"D20-ROLE-{member.role.upper()}"), *joined]


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
                             "reaction_used": False, "spent": [], "timers": {}, "temp_hp": 0}
    fresh["hit_dice"] = member.hit_dice if member.max_hit_dice is None else member.max_hit_dice
    if isinstance(member, Npc):
        fresh.update(next_waypoint=0, waypoint_step=1, last_facts=None, post_distance=None)
    copy = member.model_copy(update=fresh)
    state, joined = in_the_fight(added(state, copy), copy, None, rng)
    said = f"{name} joins the roster: a copy of {member.name}'s stat block."
    return state, [Entry(said, "D20-TURN"), *joined]


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
              # D20-TRACKER: the others keep their turns: who has had one this round is kept
              "began": [b for b in state.began if b != member.id],
              "delayed": [d for d in state.delayed if d != member.id],
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
    if body.present and body.rounds is not None:  # D20-DURATION: it ends with its holder's turns
        c = timed(c, body.condition, body.rounds)
        text = (f"{member.name} is {word} for {body.rounds} round{'s' * (body.rounds > 1)} (it ends at the "
                f"end of its {'turn' if body.rounds == 1 else f'{body.rounds}th turn'} from now).")
        return state.replace_member(member.with_combatant(c)), [Entry(text, "D20-DURATION")]
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
    changes: dict[str, Any] = {k: v for k, v in (("hp", body.hp), ("dying", body.dying),
                                                 ("wounded", body.wounded)) if v is not None}
    if "hp" in changes:
        changes["hp"] = min(changes["hp"], member.max_hp)
    said = ", ".join(f"{'HP' if k == 'hp' else k.title()} {v}" for k, v in changes.items())
    note = f" ({body.note})" if body.note else ""
    entries = [Entry(f"Correction: {member.name} {said or 'unchanged'}{note}.")]
    dying = changes.get("dying", member.dying)
    changes["dead"] = dying >= DEAD_AT or (member.dead and "dying" not in changes)
    if changes["dead"] and not member.dead:  # D20-DEAD: "At Dying 4: Dead."
        entries.append(Entry(f"{member.name} is at Dying {DEAD_AT}: Dead.", "D20-DEAD"))
    if changes["dead"]:
        changes.update(hp=0, dying=DEAD_AT)
    elif dying > 0 and changes.get("hp", member.hp) > 0:
        # a creature with HP is not Dying (D20-DYING-SAVE: stabilised is HP 1, Dying 0)
        changes["dying" if "hp" in changes else "hp"] = 0
    return state.replace_member(member.model_copy(update=changes)), entries


@command("rest", Rest)
def rest(state: D20State, body: Rest, rng: Random) -> tuple[D20State, list[Entry]]:
    member = member_or_refuse(state, body.member_id)
    if member.dead:
        raise Refused(f"{member.name} is Dead: no rest heals the dead.", "D20-LONG-REST")
    if body.kind == "long":
        change = long_rest(member.combatant(), member.max_hit_dice)
    elif member.dying:
        raise Refused(f"{member.name} is Dying: stabilise it before a Short Rest.", "D20-SHORT-REST")
    else:
        change = short_rest(member.combatant(), body.rolled if body.rolled is not None else rng.randint(1, 8))
    return state.replace_member(member.with_combatant(change.combatant)), [Entry(change.text, change.rule)]


def medic_acts(state: D20State, body: Check, what: str) -> D20State:
    """The creature making a Medicine check spends its Action (D20-STABILIZE: "(Action)";
    staunching is read the same way): refused when it has none left (D20-TURN-BUDGET)."""
    if body.by_id is None:
        return state
    medic = member_or_refuse(state, body.by_id)
    may_spend(state, medic, "action", what)
    return state.replace_member(medic.with_combatant(medic.combatant().spending("action")))


@command("stabilize", Check)
def stabilize_ally(state: D20State, body: Check, rng: Random) -> tuple[D20State, list[Entry]]:
    member = member_or_refuse(state, body.member_id)
    state = medic_acts(state, body, "stabilising")
    member = member_or_refuse(state, body.member_id)
    change = stabilize(member.combatant(), body.medicine_total)
    return state.replace_member(member.with_combatant(change.combatant)), [Entry(change.text, change.rule)]


@command("staunch", Check)
def staunch_bleeding(state: D20State, body: Check, rng: Random) -> tuple[D20State, list[Entry]]:
    state = medic_acts(state, body, "staunching")
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
