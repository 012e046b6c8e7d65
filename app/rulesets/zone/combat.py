"""Close and ranged combat, stunts, pushing and trauma (seed 002: Close Combat Stunts, Ranged
Combat Stunts, full automatic fire, Trauma, Broken)."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

from app.kernel.commands import Entry, Refused
from app.rulesets.zone.dice import PoolRoll, push, rerolled_count, roll
from app.rulesets.zone.models import TRACK_OF, Npc, Person, Stunt, Track, Weapon, ZoneHouse

ATTRIBUTE_NAMES = {"strength": "Strength", "agility": "Agility", "wits": "Wits", "empathy": "Empathy"}
BROKEN_MEANS = {  # Z-BROKEN: what being broken means, by attribute
    "strength": "knocked out or in paralyzing pain, and suffers a critical injury (the GM's table)",
    "agility": "physically exhausted",
    "wits": "overloaded and cannot think straight",
    "empathy": "breaks down in fear, self-pity or sorrow",
}
ONE_OFF = {
    "disarm": "drops a weapon or other handheld object",
    "knock_down": "falls to the ground or is pushed back",
    "grapple": "is held in a grapple",
}


@dataclass
class Hit:
    """What an attack did: successes, the trauma it deals and the one-off stunt it bought."""

    successes: int
    damage: int = 0
    fatigue: int = 0
    effect: str | None = None
    notes: list[str] = field(default_factory=list)


def stunts(successes: int, weapon: Weapon, choice: Stunt, close: bool) -> Hit:
    """Z-STUNTS: a hit (one success) deals the weapon's damage; each success beyond the first buys
    a stunt. Z-STUNT-CHOICE: the attacker's choice (an NPC's is the house `npc_stunt`): one more
    point of damage each, or one point of fatigue each (subdue, tire, pin down), or a one-off
    effect (disarm, knock down; grapple in close combat only) for one success, the rest as damage."""
    if successes < 1:
        return Hit(successes)
    extra = successes - 1
    hit = Hit(successes, damage=weapon.damage)
    if extra == 0:
        return hit
    if choice == "grapple" and not close:
        choice = "damage"
        hit.notes.append("A grapple is a close combat stunt: the extra successes go to damage instead.")
    if choice == "damage":
        hit.damage += extra
    elif choice == "fatigue":
        hit.fatigue += extra
    else:
        hit.effect, hit.damage = choice, hit.damage + extra - 1
    return hit


def wants_push(house: ZoneHouse, pool: PoolRoll) -> bool:
    """Z-PUSH-CHOICE (house): whether an NPC pushes its roll."""
    if rerolled_count(pool) == 0:
        return False
    return house.npc_push == "always" or (house.npc_push == "no_success" and pool.successes == 0)


def npc_roll(
    npc: Npc,
    dice: int,
    full_auto: bool,
    house: ZoneHouse,
    rng: Random,
    faces: list[int] | None,
    pushes: list[list[int]],
) -> tuple[PoolRoll, int]:
    """The NPC's roll with the pushes it chooses; answers the roll and the bullets the pushes
    cost (Z-FULL-AUTO: each re-roll of full automatic fire costs one bullet, again and again
    while it has no success and bullets remain). Entered dice: a push it makes needs its faces."""
    pool = roll(dice, house.success_faces, rng, faces)
    bullets = npc.gun.bullets - 1 if npc.gun else 0  # the shot itself (Z-SHOOT)
    spent, times = 0, 0
    while wants_push(house, pool) and (times == 0 or (full_auto and pool.successes == 0)):
        if full_auto and bullets - spent <= 0:
            break
        entered = None
        if pool.by == "entered":
            if times >= len(pushes):
                raise Refused(
                    f"{npc.name} pushes the roll: roll the {rerolled_count(pool)} dice that show "
                    "neither a success nor a 1 again and enter them.",
                    "Z-PUSH-CHOICE",
                )
            entered = pushes[times]  # dice.push checks their count
        pool = push(pool, rng, entered)
        times += 1
        spent += 1 if full_auto else 0
    return pool, spent


def take_trauma(person: Person, track: Track, points: int) -> tuple[Person, list[Entry]]:
    """Z-TRAUMA: trauma decreases its attribute; Z-BROKEN: at zero the person is broken."""
    if points <= 0:
        return person, []
    was = person.score(track)
    new = person.model_copy(update={track: getattr(person, track) + points})
    attribute = TRACK_OF[track]
    entries = [
        Entry(
            f"{person.name} takes {points} {track} ({ATTRIBUTE_NAMES[attribute]} {was} → "
            f"{new.score(track)}).",
            "Z-TRAUMA",
        )
    ]
    if was > 0 and new.score(track) == 0:
        entries.append(
            Entry(
                f"{person.name} is broken: {BROKEN_MEANS[attribute]}.",
                "Z-BROKEN-STRENGTH" if track == "damage" else "Z-BROKEN",
            )
        )
    return new, entries


def hit_entries(attacker: str, target: str, hit: Hit, skill: str) -> list[Entry]:
    if hit.successes == 0:
        return [Entry(f"{attacker} rolls {skill}: no success, a miss.", "Z-DICE")]
    extra = hit.successes - 1
    text = f"{attacker} rolls {skill}: {hit.successes} success{'es' if hit.successes != 1 else ''}, a hit"
    if extra:
        bought = [
            f"{hit.damage} damage" if hit.damage else "",
            f"{hit.fatigue} fatigue" if hit.fatigue else "",
            f"{target} {ONE_OFF[hit.effect]}" if hit.effect else "",
        ]
        text += f"; {extra} extra bought {', '.join(b for b in bought if b)}"
    return [Entry(text + ".", "Z-STUNTS" if extra else "Z-DICE"), *(Entry(n, "Z-STUNTS") for n in hit.notes)]
