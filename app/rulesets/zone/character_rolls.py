"""A Character's attack on an NPC, and the push that comes after it (Z-PUSH-AFTER): the player
rolls (or enters faces, or a count of successes), looks, and only then may push once; the attack
is resolved again and the pushed roll's trauma replaces the first roll's. Registers into the zone
namespace (commands.py)."""

from __future__ import annotations

from random import Random

from app.kernel.commands import Entry, Refused
from app.rulesets.zone import combat
from app.rulesets.zone.commands import CharacterAttack, PushRoll, character, command, npc, put
from app.rulesets.zone.dice import PoolRoll, from_counts, push, push_counts, rerolled_count, roll
from app.rulesets.zone.models import Character, LastRoll, Npc, Weapon, ZoneState
from app.rulesets.zone.play import push_cost


@command("character_attack", CharacterAttack)
def character_attack(state: ZoneState, body: CharacterAttack, rng: Random):
    """A Character attacks an NPC: Fight or Shoot (Z-CLOSE, Z-SHOOT) with the player's stunt choice
    (Z-STUNTS); never pushed unless asked (Z-PUSH-AFTER: push_roll, after the roll is seen)."""
    attacker, target = character(state, body.character_id), npc(state, body.npc_id)
    faces = state.house.success_faces
    kind, dice, damage = with_weapon(attacker, body)
    if body.faces is not None and body.successes is not None:
        raise Refused("Enter the dice's faces or the count of successes, not both.", "Z-DICE")
    if body.successes is not None:
        pool = from_counts(dice, faces, body.successes, body.ones)
    else:
        pool = roll(dice, faces, rng, body.faces)
    if body.push:
        pool = push(pool, rng, body.push_faces)
    last = LastRoll(npc_id=target.id, kind=kind, rolls=[list(r) for r in pool.rolls], by=pool.by,
                    weapon_damage=damage, stunt=body.stunt, was_prone=target.prone,
                    was_disarmed=target.disarmed)
    return resolve(state, attacker, target, pool, last)


def with_weapon(attacker: Character, body: CharacterAttack) -> tuple[str, int, int]:
    """Z-CLOSE, Z-SHOOT: the skill, dice and damage of the attack: a weapon picked from the sheet
    gives Fight or Shoot + its bonus and its damage (what the player typed still wins)."""
    if body.weapon is None:
        if body.pool is None:
            raise Refused(f"Say the dice, or pick a weapon from {attacker.name}'s sheet.", "Z-DICE")
        return body.kind, body.pool, body.weapon_damage
    if body.weapon >= len(attacker.weapons):
        raise Refused(f"{attacker.name}'s sheet has no weapon {body.weapon + 1}.", "Z-DICE")
    w = attacker.weapons[body.weapon]
    dice = body.pool if body.pool is not None else (attacker.shoot if w.ranged else attacker.fight) + w.bonus
    damage = body.weapon_damage if "weapon_damage" in body.model_fields_set else w.damage
    return ("shoot" if w.ranged else "fight"), dice, damage


@command("push_roll", PushRoll)
def push_roll(state: ZoneState, body: PushRoll, rng: Random):
    """Z-PUSH-AFTER: the Character's last roll, pushed once: the dice showing neither a success nor
    a 1 are rolled again (entered, or told as new totals, or rolled by the app); the first roll's
    trauma is taken back and the attack resolved again."""
    attacker = character(state, body.character_id)
    last = attacker.last_roll
    if last is None:
        raise Refused(f"{attacker.name} has no roll to push: a roll is pushed once, in its round, after "
                      "it is seen.", "Z-PUSH-AFTER")
    target = state.bot(last.npc_id)
    if target is None:
        raise Refused("The NPC of that roll has left the game.", "Z-PUSH-AFTER")
    pool = PoolRoll(tuple(tuple(r) for r in last.rolls), tuple(state.house.success_faces), last.by)
    entered = body.faces
    if body.successes is not None:
        ones = body.ones if body.ones is not None else sum(1 for f in pool.faces if f == 1)
        entered = push_counts(pool, body.successes, ones)
    pushed = push(pool, rng, entered)
    target = taken_back(target, last)
    attacker = attacker.model_copy(update={"last_roll": None})
    state, entries = resolve(put(state, attacker), attacker, target, pushed, last)
    note = Entry(f"{attacker.name} pushes the roll: the first roll's result is taken back.", "Z-PUSH-AFTER")
    return state, [note, *entries]


def taken_back(target: Npc, last: LastRoll) -> Npc:
    """The NPC as it was before the first roll hit it (its trauma and the one-off stunt undone)."""
    return target.model_copy(update={
        "damage": max(0, target.damage - last.dealt_damage),
        "fatigue": max(0, target.fatigue - last.dealt_fatigue),
        "prone": last.was_prone,
        "disarmed": last.was_disarmed,
    })


def resolve(state: ZoneState, attacker: Character, target: Npc, pool: PoolRoll, last: LastRoll):
    """Stunts, trauma and the push's cost; a roll that can still be pushed is kept (Z-PUSH-AFTER)."""
    close = last.kind == "fight"
    hit = combat.stunts(pool.successes, Weapon(damage=last.weapon_damage), last.stunt, close)
    skill = "Fight" if close else "Shoot"
    pushed = len(pool.rolls) > 1
    entries = [Entry(f"{attacker.name} attacks {target.name} ({skill}, {len(pool.faces)} dice"
                     f"{', pushed' if pushed else ''}).", "Z-CLOSE" if close else "Z-SHOOT", pool.as_dict())]
    entries += combat.hit_entries(attacker.name, target.name, hit, skill)
    for track, points in (("damage", hit.damage), ("fatigue", hit.fatigue)):
        target, said = combat.take_trauma(target, track, points)
        entries += said
    if hit.effect == "knock_down":
        target = target.model_copy(update={"prone": True})
    if hit.effect == "disarm":
        target = target.model_copy(update={"disarmed": True})
    attacker, _ = push_cost(attacker, pool, state, entries)
    keep = None if pushed or rerolled_count(pool) == 0 else last.model_copy(
        update={"dealt_damage": hit.damage, "dealt_fatigue": hit.fatigue})
    attacker = attacker.model_copy(update={"last_roll": keep})
    return put(put(state, attacker), target), entries
