"""The d20 round as commands: a turn's start and end (an NPC's turn itself is play_npc.py), a
Character's turn starting, an attack either way (D20-ATTACK-*), the end of the round.

Every roll may be entered (`natural`, `damage`, `bleed`) or is rolled from the step's seeded
rng; a log entry with dice records them: `{"by": "app"|"entered", "faces": [{"roll", "die",
"face"}], "natural", "damage"}`.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any

from app.rulesets.d20.attack import AttackResult, Situation, damage_attribute, resolve_attack, situation
from app.rulesets.d20.commands import Attack, EndRound, Entry, Refused, StartTurn, command
from app.rulesets.d20.conditions import end_turn, spend_glitch, start_turn
from app.rulesets.d20.dying import dying_save, fall, take_damage
from app.rulesets.d20.game import Character, D20State, Npc, Planned
from app.rulesets.d20.models import UNARMED, Combatant, HouseRules, Weapon
from app.rulesets.d20.odds import damage_odds, expected
from app.rulesets.d20.play_roster import member_or_refuse
from app.rulesets.d20.reactions import Trigger, react


def d20_record(natural: int, entered: bool, damage: AttackResult | None = None,
               sides: int = 6) -> dict[str, Any]:
    faces: list[dict[str, Any]] = [{"roll": "d20", "die": 20, "face": natural}]
    record: dict[str, Any] = {"by": "entered" if entered else "app", "faces": faces, "natural": natural}
    if damage is not None and damage.hit:
        faces += [{"roll": "damage", "die": sides, "face": f} for f in damage.damage_faces]
        record["damage"] = damage.damage
    return record


def begin(c: Combatant, rng: Random, natural: int | None, bleed: int | None,
          house: HouseRules) -> tuple[Combatant, list[Entry]]:
    """The start of a turn: Bleeding (a drop to 0 is Dying), then the Dying save."""
    c, events = start_turn(c, rng, bleed, house)
    entries = [Entry(text, rule) for text, rule in events]
    if c.hp == 0 and not (c.dying or c.dead or c.has("unconscious")):
        c = fall(c, house)
        entries.append(Entry(f"{c.name} drops to 0 HP: Dying 1 and Wounded {c.wounded}.", "D20-DYING"))
    elif c.dying and not c.dead:
        rolled = natural if natural is not None else rng.randint(1, 20)
        change = dying_save(c, rolled, house)
        c = change.combatant
        entries.append(Entry(change.text, change.rule, d20_record(rolled, natural is not None)))
    return c, entries


def finish(c: Combatant) -> tuple[Combatant, list[Entry]]:
    """The end of a creature's own turn: a Temporally Displaced one skipped it and returns, immune
    until the start of its next turn, one round later (D20-COND-TEMPORAL)."""
    c, events = end_turn(c)
    return c, [Entry(text, rule) for text, rule in events]


@command("start_turn", StartTurn)
def character_turn(state: D20State, body: StartTurn, rng: Random) -> tuple[D20State, list[Entry]]:
    member = member_or_refuse(state, body.member_id)
    c, entries = begin(member.combatant(), rng, body.natural, body.bleed, state.house.rules())
    c, glitch = spend_glitch(c)
    entries += [Entry(text, rule) for text, rule in glitch]
    c, returned = finish(c)  # a displaced Character skips this turn and returns
    entries += returned
    entries = entries or [Entry(f"{member.name}'s turn begins.", "D20-TURN")]
    return state.replace_member(member.with_combatant(c)), entries


def weapon_of(attacker: Character | Npc, name: str | None, planned: Planned | None) -> Weapon:
    wanted = name or (planned.weapon if planned is not None else None)
    sheet = attacker.weapon(wanted) if wanted else (attacker.weapons[0] if attacker.weapons else None)
    if wanted and sheet is None and wanted != UNARMED.name:
        raise Refused(f"{attacker.name} has no weapon called {wanted!r}.", "D20-ATTACK-ROLL")
    return sheet.weapon() if sheet is not None else UNARMED


def pending_attack(state: D20State, attacker_id: str, target_id: str) -> Planned | None:
    turn = state.turn_of(attacker_id)
    steps = turn.steps if turn is not None else []
    return next((s for s in steps if s.status == "pending" and s.target_id == target_id), None)


@command("attack", Attack)
def attack(state: D20State, body: Attack, rng: Random) -> tuple[D20State, list[Entry]]:
    attacker, target = member_or_refuse(state, body.attacker_id), member_or_refuse(state, body.target_id)
    a, t = attacker.combatant(), target.combatant()
    if a.out_of_action or a.has("temporal_displacement"):
        raise Refused(f"{a.name} cannot attack now.", "D20-TURN")
    if body.reaction and a.reaction_used:
        raise Refused(f"{a.name}'s Reaction is spent this round.", "D20-REACTION")
    house, planned = state.house.rules(), pending_attack(state, attacker.id, target.id)
    weapon = weapon_of(attacker, body.weapon, planned)
    where = situation(a, weapon, t, body.range, body.cover, house)
    entries: list[Entry] = []
    parried = body.parried
    if body.intercept:  # its Reaction is spent: it cannot Parry this attack as well
        t = reacting(t, "Intercept")
        entries.append(Entry(f"{t.name} Intercepts (its Reaction) and becomes the target.", "D20-INTERCEPT"))
    elif parried is None and isinstance(target, Npc) and weapon.kind == "melee":
        answer = react(target.brain(), Trigger("melee_attacked", attacker.name))
        parried = answer is not None and answer.action == "parry"
        entries += [Entry(answer.reason, answer.rule)] if parried and answer else []
    if parried:
        t, where = parry(t, weapon, where, house)
    result = resolve_attack(a, weapon, t, where, rng, body.natural, body.damage, house)
    record = d20_record(result.natural, body.natural is not None, result, weapon.dice.sides)
    entries.append(Entry(result.reason, result.rule, record if result.natural else None))
    if result.glitch:
        a = a.with_conditions("glitched")
    if body.reaction:
        a = replace(a, reaction_used=True)
    if result.hit:
        change = take_damage(t, result.damage, result.critical, body.lethal, house)
        t = change.combatant
        entries.append(Entry(change.text, change.rule))
    attacker = attacker.with_combatant(a)
    if isinstance(attacker, Character):  # the foe the attack form offers it next time
        attacker = attacker.model_copy(update={"last_target": target.id})
    state = state.replace_member(attacker)
    state = state.replace_member(state.member(target.id).with_combatant(t))  # type: ignore[union-attr]
    return done(state, attacker.id, planned), entries


def parry(t: Combatant, weapon: Weapon, where: Situation, house: HouseRules) -> tuple[Combatant, Situation]:
    """D20-PARRY: the target spends its Reaction; house default +2 DEF against this melee attack."""
    if weapon.kind != "melee":
        raise Refused("Parry answers a melee attack.", "D20-PARRY")
    return reacting(t, "Parry"), replace(where, defense=where.defense + house.parry_defense)


def reacting(t: Combatant, what: str) -> Combatant:
    """D20-REACTION: one a round; a second (Parry, Intercept) is refused."""
    if t.reaction_used or t.out_of_action:
        raise Refused(f"{t.name} has no Reaction left to {what} with this round.", "D20-REACTION")
    return replace(t, reaction_used=True)


def done(state: D20State, npc_id: str, planned: Planned | None) -> D20State:
    turn = state.turn_of(npc_id)
    if turn is None or planned is None:
        return state
    steps = [s.model_copy(update={"status": "done"}) if s == planned else s for s in turn.steps]
    turns = [t.model_copy(update={"steps": steps}) if t.npc_id == npc_id else t for t in state.turns]
    return state.model_copy(update={"turns": turns})


@command("end_round", EndRound)
def end_round(state: D20State, body: EndRound, rng: Random) -> tuple[D20State, list[Entry]]:
    """The round ends: Reactions come back (one a round), the next round begins (D20-TURN). Each
    creature's own end-of-turn timing happened with its turn (`finish`)."""
    entries: list[Entry] = []
    for member in [*state.characters, *state.npcs]:
        state = state.replace_member(member.model_copy(update={"reaction_used": False}))
    entries.append(Entry(f"Round {state.round} ends; round {state.round + 1} begins.", "D20-TURN"))
    return state.model_copy(update={"round": state.round + 1, "turns": [], "acting": None}), entries


def attack_preview(state: D20State, attacker_id: str, target_id: str, weapon: str | None,
                   range_: str, cover: str) -> dict[str, Any] | None:
    """The exact odds of an attack before it is rolled, as the attack form has it (None: the
    attacker, target or weapon is not on the roster)."""
    attacker, target = state.member(attacker_id), state.member(target_id)
    if attacker is None or target is None:
        return None
    try:
        arm = weapon_of(attacker, weapon or None, pending_attack(state, attacker.id, target.id))
    except Refused:
        return None
    house = state.house.rules()
    a, t = attacker.combatant(), target.combatant()
    where = situation(a, arm, t, range_, cover, house)
    odds = where.odds(house)
    dist = damage_odds(odds, arm.dice, a.attribute(damage_attribute(arm, house)), house)
    return {"attacker": attacker.name, "target": target.name, "weapon": arm.name, "bonus": where.bonus,
            "defense": where.defense, "range": where.range, "cover": where.cover, "mode": where.mode,
            "no_shot": odds.no_shot, "p_hit": float(odds.p_hit), "p_crit": float(odds.p_crit),
            "p_glitch": float(odds.p_glitch), "expected_damage": round(float(expected(dist)), 2),
            "notes": [text for text, _ in where.notes]}
