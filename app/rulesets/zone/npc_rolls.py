"""An NPC's decided attack, rolled (or entered): roll, look, push by the house choice, pay for
the push between pushes, then apply the hit (Z-CLOSE, Z-SHOOT, Z-PUSH-CHOICE, Z-FULL-AUTO).
Registers into the zone namespace (commands.py)."""

from __future__ import annotations

from random import Random

from app.kernel.commands import Entry, Refused
from app.rulesets.zone import books, combat, pools
from app.rulesets.zone.commands import NpcAttack, character, command, npc, put
from app.rulesets.zone.dice import PoolRoll, push, rerolled_count, roll
from app.rulesets.zone.models import Decision, Npc, PlannedAction, Weapon, ZoneHouse, ZoneState
from app.rulesets.zone.pools import Parts, sheet_parts


def pending_attack(state: ZoneState, npc_id: str) -> tuple[Decision, PlannedAction]:
    decision = state.decision(npc_id)
    attack = next((a for a in decision.actions if a.status == "pending"), None) if decision else None
    if decision is None or attack is None:
        raise Refused("This NPC has no attack waiting this round.", "Z-ROUND")
    return decision, attack


def attack_parts(who: Npc, close: bool, aimed: bool, house: ZoneHouse) -> tuple[Weapon, Parts]:
    """Z-CLOSE: Fight + the melee weapon's bonus (bare hands when disarmed); Z-SHOOT: Shoot + the
    gun's bonus, + the house's aim bonus (skill dice) when the NPC aimed this round; Z-POOL."""
    weapon = who.melee if close or who.gun is None else who.gun
    if close and who.disarmed:
        weapon = Weapon()
    bonus = 0 if weapon.broken else weapon.bonus
    if close:
        return weapon, sheet_parts(who, "fight", who.fight, bonus)
    parts = sheet_parts(who, "shoot", who.shoot, bonus)
    return weapon, Parts(parts.base, parts.skill + (house.aim_bonus if aimed else 0), parts.gear)


@command("npc_attack", NpcAttack)
def npc_attack(state: ZoneState, body: NpcAttack, rng: Random):
    """The NPC's decided attack: rolled, pushed by the house choice after the roll is seen
    (Z-PUSH-CHOICE), stunts by the house choice (Z-STUNT-CHOICE), trauma to the target."""
    who = npc(state, body.npc_id)
    books.able(who, "attack")
    books.on_turn(state, who, "attack")
    decision, attack = pending_attack(state, who.id)
    target = character(state, body.character_id or attack.target_id or "")
    books.target(state, target)
    close = attack.name == "fight"
    aimed = any(a.name == "aim" for a in decision.actions)
    weapon, parts = attack_parts(who, close, aimed, state.house)
    skill = "Fight" if close else "Shoot"
    full_auto = not close and weapon.full_auto
    pool = roll(parts.total, state.house.success_faces, rng, body.faces)
    entries = [Entry(f"{who.name} attacks {target.name} ({skill}, {parts.total} dice: {parts.said()}"
                     f"{', aimed' if aimed and not close else ''}).", "Z-CLOSE" if close else "Z-SHOOT")]
    who, weapon, pool, pushes = npc_pushes(state, who, weapon, parts, pool, full_auto, body.pushes, rng,
                                           entries)
    entries[0] = Entry(entries[0].text, entries[0].rule, pool.as_dict())
    hit = combat.stunts(pool.successes, weapon, state.house.npc_stunt, close)
    entries += combat.hit_entries(who.name, target.name, hit, skill)
    for track, points in (("damage", hit.damage), ("fatigue", hit.fatigue)):
        target, said = combat.take_trauma(target, track, points)  # type: ignore[arg-type]
        entries += said
    who = spent_bullets(who, weapon, close, pushes if full_auto else 0, entries)
    return attack_done(put(put(state, target), who), decision, attack), entries


def npc_pushes(state: ZoneState, who: Npc, weapon: Weapon, parts: Parts, pool: PoolRoll, full_auto: bool,
               told: list[list[int]], rng: Random, entries: list[Entry]):
    """Z-PUSH-CHOICE: the NPC looks at its roll, then pushes by the house choice; Z-FULL-AUTO:
    again and again while it has no success and bullets last (each re-roll one bullet). Each push
    is paid for before the next (Z-PUSH-COST, Z-GEAR): one that breaks the NPC or its weapon
    ends the pushing before the hit is applied. Entered dice: a push it makes needs its faces."""
    bullets = (who.gun.bullets - 1) if who.gun and full_auto else 0
    times, paid = 0, (0, 0)
    kind = "shoot" if weapon.ranged else "fight"
    while combat.wants_push(state.house, pool) and (times == 0 or (full_auto and pool.successes == 0)):
        if (full_auto and bullets - times <= 0) or who.out_of_fight or weapon.broken:
            break
        entered = None
        if pool.by == "entered":
            if times >= len(told):
                raise Refused(f"{who.name} pushes the roll: roll the {rerolled_count(pool)} dice that show "
                              "neither a success nor a 1 again and enter them.", "Z-PUSH-CHOICE")
            entered = told[times]
        pool = push(pool, rng, entered)
        times += 1
        entries.append(Entry(f"{who.name} pushes the roll ({times}×).", "Z-PUSH-CHOICE"))
        if state.house.push_fatigue:
            who, weapon, paid = pools.pay(who, kind, parts, pool, paid, weapon, entries)  # type: ignore[assignment]
            who = with_weapon(who, weapon)
    if who.out_of_fight and times:
        entries.append(Entry(f"{who.name} collapses: no more pushing.",
                             "Z-FULL-AUTO" if full_auto else "Z-PUSH-COST"))
    return who, weapon, pool, times


def with_weapon(who: Npc, weapon: Weapon) -> Npc:
    if who.gun is not None and weapon.ranged and weapon.name == who.gun.name:
        return who.model_copy(update={"gun": weapon})
    if not weapon.ranged and not who.disarmed:
        return who.model_copy(update={"melee": weapon})
    return who


def attack_done(state: ZoneState, decision: Decision, attack: PlannedAction) -> ZoneState:
    """Z-ROUND: the decided attack is marked done in the NPC's decision for this round."""
    actions = [a.model_copy(update={"status": "done"}) if a is attack else a for a in decision.actions]
    done = decision.model_copy(update={"actions": actions})
    return state.model_copy(update={"decisions": [done if d is decision else d for d in state.decisions]})


def spent_bullets(who: Npc, weapon: Weapon, close: bool, pushes: int, entries: list[Entry]) -> Npc:
    """Z-SHOOT: a shot uses one bullet; Z-FULL-AUTO: each re-roll one more."""
    if close or who.gun is None:
        return who
    used = 1 + pushes
    left = max(0, who.gun.bullets - used)
    entries.append(Entry(f"{who.name} uses {used} bullet{'s' if used != 1 else ''} ({left} left).",
                         "Z-FULL-AUTO" if pushes else "Z-SHOOT"))
    return who.model_copy(update={"gun": who.gun.model_copy(update={"bullets": left})})
