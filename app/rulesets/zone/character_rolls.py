"""A Character's attack on an NPC, and the push that may follow it (Z-PUSH-AFTER): roll, look,
push. The attack is resolved from the roll as it lies; a push re-rolls what shows neither a
success nor a 1 and adds what it brings (a push never takes a success away, so nothing dealt is
rewritten). Only the Character who rolled may push, only before anyone else acts (books.py), never
when out of the fight; full automatic fire pushes again and again, a bullet each (Z-FULL-AUTO).
Registers into the zone namespace (commands.py)."""

from __future__ import annotations

from random import Random

from app.kernel.commands import Entry, Refused
from app.rulesets.zone import books, combat, pools
from app.rulesets.zone.commands import CharacterAttack, PushRoll, character, command, npc, put
from app.rulesets.zone.dice import PoolRoll, from_counts, push, push_counts, rerolled_count, roll
from app.rulesets.zone.models import Arm, Character, LastRoll, Npc, Weapon, ZoneState
from app.rulesets.zone.pools import Parts, sheet_parts


@command("character_attack", CharacterAttack)
def character_attack(state: ZoneState, body: CharacterAttack, rng: Random):
    """A Character attacks an NPC: Fight or Shoot (Z-CLOSE, Z-SHOOT), stunts chosen for the extra
    successes (Z-STUNTS); pushed only when asked, and then only a roll with no success."""
    attacker, target = character(state, body.character_id), npc(state, body.npc_id)
    books.able(attacker, "attack")
    books.on_turn(state, attacker, "attack")
    books.target(state, target)
    kind, parts, damage, arm = with_weapon(attacker, body)
    if kind == "shoot" and attacker.aimed:  # Z-AIM: its aim maneuver this round
        parts = Parts(parts.base, parts.skill + state.house.aim_bonus, parts.gear)
    attacker = books.spend(attacker, "action", "attack")
    attacker = attacker.model_copy(update={"aimed": False})
    faces = state.house.success_faces
    if body.faces is not None and body.successes is not None:
        raise Refused("Enter the dice's faces or the count of successes, not both.", "Z-DICE")
    if body.successes is not None:
        pool = from_counts(parts.total, faces, body.successes, body.ones)
    else:
        pool = roll(parts.total, faces, rng, body.faces)
    last = LastRoll(npc_id=target.id, kind=kind, rolls=[list(r) for r in pool.rolls], by=pool.by,
                    weapon_damage=damage, stunt=body.stunt, base=parts.base, gear=parts.gear,
                    weapon=body.weapon if arm else None,
                    full_auto=bool(arm and arm.full_auto and kind == "shoot"),
                    stunts=body.stunts[max(0, pool.successes - 1):])
    entries = [Entry(f"{attacker.name} attacks {target.name} ({'Fight' if kind == 'fight' else 'Shoot'}, "
                     f"{parts.total} dice: {parts.said()}).", "Z-CLOSE" if kind == "fight" else "Z-SHOOT",
                     pool.as_dict())]
    attacker = shot(attacker, last, entries)
    hit = combat.stunts(pool.successes, Weapon(damage=damage), body.stunts, kind == "fight", body.stunt)
    entries += combat.hit_entries(attacker.name, target.name, hit, "Fight" if kind == "fight" else "Shoot")
    state, target = dealt(put(state, attacker), attacker, target, hit, entries)
    state, attacker = kept(state, state.character(attacker.id), last, pool)
    if body.push and pool.successes == 0 and attacker.last_roll is not None:
        state, more = pushed(state, attacker, PushRoll(character_id=attacker.id, faces=body.push_faces,
                                                       stunts=body.stunts, stunt=body.stunt), rng)
        entries += more
    return state, entries


def with_weapon(attacker: Character, body: CharacterAttack) -> tuple[str, Parts, int, Arm | None]:
    """Z-CLOSE, Z-SHOOT, Z-POOL: the skill, its dice (base, skill, gear) and damage of the attack:
    a weapon picked from the sheet gives Fight or Shoot + its bonus and its damage (what the
    player typed still wins); dice typed as one number are skill dice."""
    if body.weapon is None:
        if body.pool is None:
            raise Refused(f"Say the dice, or pick a weapon from {attacker.name}'s sheet.", "Z-DICE")
        return body.kind, typed(body.pool), body.weapon_damage, None
    if body.weapon >= len(attacker.weapons):
        raise Refused(f"{attacker.name}'s sheet has no weapon {body.weapon + 1}.", "Z-DICE")
    w = attacker.weapons[body.weapon]
    kind = "shoot" if w.ranged else "fight"
    if w.broken:
        raise Refused(f"{attacker.name}'s {w.name} is broken (its bonus worn to nothing).", "Z-GEAR")
    if w.ranged and w.bullets == 0:
        raise Refused(f"{attacker.name}'s {w.name} has no bullets left: reload it (a maneuver).", "Z-RELOAD")
    parts = sheet_parts(attacker, kind, attacker.shoot if w.ranged else attacker.fight, w.bonus)
    if body.pool is not None:
        parts = typed(body.pool)
    damage = body.weapon_damage if "weapon_damage" in body.model_fields_set else w.damage
    return kind, parts, damage, w


def typed(pool) -> Parts:
    """Z-POOL: a total is all skill dice; parts are kept apart."""
    return Parts(skill=pool) if isinstance(pool, int) else Parts(pool.base, pool.skill, pool.gear)


def shot(attacker: Character, last: LastRoll, entries: list[Entry], pushes: int = 0) -> Character:
    """Z-SHOOT: a shot uses one bullet of a gun whose bullets are counted; Z-FULL-AUTO: each push
    of full automatic fire one more."""
    arm = attacker.weapons[last.weapon] if last.weapon is not None else None
    if arm is None or not arm.ranged or arm.bullets is None:
        return attacker
    used = 1 if pushes == 0 else pushes
    left = max(0, arm.bullets - used)
    what = "the shot" if pushes == 0 else "the push"
    entries.append(Entry(f"{attacker.name}'s {arm.name}: {what} uses a bullet ({left} left).",
                         "Z-FULL-AUTO" if pushes else "Z-SHOOT"))
    return armed(attacker, last.weapon, arm.model_copy(update={"bullets": left}))


def armed(attacker: Character, index: int | None, arm: Weapon | None) -> Character:
    if index is None or arm is None:
        return attacker
    weapons = [Arm(**arm.model_dump()) if i == index else w for i, w in enumerate(attacker.weapons)]
    return attacker.model_copy(update={"weapons": weapons})


def dealt(state: ZoneState, attacker: Character, target: Npc, hit: combat.Hit, entries: list[Entry]):
    """The hit's trauma and one-off stunts on the NPC (Z-STUNTS, Z-TRAUMA, Z-GRAPPLE)."""
    for track, points in (("damage", hit.damage), ("fatigue", hit.fatigue)):
        target, said = combat.take_trauma(target, track, points)
        entries += said
    update: dict = {}
    if "knock_down" in hit.effects:
        update["prone"] = True
    if "disarm" in hit.effects:
        update["disarmed"] = True
    if "grapple" in hit.effects:
        update["grappled_by"] = attacker.id
        entries.append(Entry(f"{attacker.name} holds {target.name} in a grapple: it cannot move away.",
                             "Z-GRAPPLE"))
    target = target.model_copy(update=update) if update else target
    return put(state, target), target


def kept(state: ZoneState, attacker: Character, last: LastRoll,
         pool: PoolRoll) -> tuple[ZoneState, Character]:
    """Z-PUSH-AFTER, Z-FULL-AUTO: the roll stays open to a push while it has dice to re-roll, the
    roller stands, and it was not pushed yet (full automatic fire: while bullets and the weapon
    last)."""
    arm = attacker.weapons[last.weapon] if last.weapon is not None else None
    again = len(pool.rolls) == 1 or (last.full_auto and arm is not None and (arm.bullets or 0) > 0
                                     and not arm.broken)
    open_ = again and rerolled_count(pool) > 0 and not attacker.out_of_fight
    last = last.model_copy(update={"rolls": [list(r) for r in pool.rolls]})
    attacker = attacker.model_copy(update={"last_roll": last if open_ else None})
    return put(state, attacker), attacker


@command("push_roll", PushRoll)
def push_roll(state: ZoneState, body: PushRoll, rng: Random):
    """Z-PUSH-AFTER: the Character's last roll, pushed after it was seen: the dice showing neither
    a success nor a 1 are rolled again (entered, told as new totals, or rolled by the app); what
    the push adds is dealt on top (`stunt`/`stunts` for the successes it bought)."""
    attacker = character(state, body.character_id)
    books.able(attacker, "push")
    if attacker.last_roll is None:
        raise Refused(f"{attacker.name} has no roll to push: only the one who rolled pushes, after seeing "
                      "the roll and before anyone else acts (full automatic fire: while bullets last).",
                      "Z-PUSH-AFTER")
    if state.bot(attacker.last_roll.npc_id) is None:
        raise Refused("The NPC of that roll has left the game.", "Z-PUSH-AFTER")
    return pushed(state, attacker, body, rng)


def pushed(state: ZoneState, attacker: Character, body: PushRoll, rng: Random):
    last = attacker.last_roll
    target = state.bot(last.npc_id)
    pool = PoolRoll(tuple(tuple(r) for r in last.rolls), tuple(state.house.success_faces), last.by)
    entered = body.faces
    if body.successes is not None:
        ones = body.ones if body.ones is not None else sum(1 for f in pool.faces if f == 1)
        entered = push_counts(pool, body.successes, ones)
    after = push(pool, rng, entered)
    skill = "Fight" if last.kind == "fight" else "Shoot"
    entries = [Entry(f"{attacker.name} pushes the roll ({skill}).", "Z-PUSH-AFTER", after.as_dict())]
    if last.full_auto:
        attacker = shot(attacker, last, entries, pushes=1)
    attacker = costs(state, attacker, last, after, entries)
    gained = after.successes - pool.successes
    told = body.model_fields_set & {"stunt", "stunts"}
    choices, fill = (body.stunts, body.stunt) if told else (last.stunts, last.stunt)
    hit = combat.stunts(gained, Weapon(damage=last.weapon_damage), choices, last.kind == "fight", fill,
                        hit_already=pool.successes > 0)
    entries.append(Entry(f"The push brings {gained} more success{'es' if gained != 1 else ''} "
                         f"({after.successes} in all).", "Z-PUSH"))
    entries += [Entry(n, "Z-STUNTS") for n in hit.notes]
    state, _ = dealt(put(state, attacker), attacker, target, hit, entries)
    paid = paid_of(state, last, after)
    used = max(0, gained - (0 if pool.successes else 1))
    last = last.model_copy(update={"paid_base": paid[0], "paid_gear": paid[1], "stunts": list(choices)[used:],
                                   "stunt": fill})
    state, _ = kept(state, state.character(attacker.id), last, after)
    return state, entries


def paid_of(state: ZoneState, last: LastRoll, after: PoolRoll) -> tuple[int, int]:
    if not state.house.push_fatigue:
        return last.paid_base, last.paid_gear
    return pools.ones(after, Parts(last.base, 0, last.gear))


def costs(state: ZoneState, attacker: Character, last: LastRoll, after: PoolRoll,
          entries: list[Entry]) -> Character:
    """Z-PUSH-COST, Z-GEAR (house `push_fatigue`): the 1s on base and gear dice, paid once each."""
    if not state.house.push_fatigue:
        return attacker
    arm = attacker.weapons[last.weapon] if last.weapon is not None else None
    parts = Parts(last.base, len(after.faces) - last.base - last.gear, last.gear)
    who, arm, _ = pools.pay(attacker, last.kind, parts, after, (last.paid_base, last.paid_gear), arm, entries)
    return armed(who, last.weapon, arm)  # type: ignore[arg-type]
