"""Close and ranged combat, stunts, pushing and trauma (seed 002: Close Combat Stunts, Ranged
Combat Stunts, full automatic fire, Trauma, Broken)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.kernel.commands import Entry
from app.rulesets.zone.dice import PoolRoll, rerolled_count
from app.rulesets.zone.models import TRACK_OF, Person, Stunt, Track, Weapon, ZoneHouse

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
    """What an attack did: successes, the trauma it deals and the one-off stunts it bought."""

    successes: int
    damage: int = 0
    fatigue: int = 0
    effects: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def effect(self) -> str | None:
        return self.effects[0] if self.effects else None


def stunts(successes: int, weapon: Weapon, choice: Stunt | list[Stunt], close: bool, fill: Stunt = "damage",
           hit_already: bool = False) -> Hit:
    """Z-STUNTS: a hit (one success) deals the weapon's damage; each success beyond the first buys
    one stunt, "each", in any mix: one more point of damage, one point of fatigue (subdue, tire,
    pin down), or a one-off effect (disarm, knock down; grapple in close combat only). `choice`:
    the stunts in order (the rest are `fill`). `hit_already`: the successes come on top of a hit
    (a push), so each of them buys a stunt."""
    if successes < 1:
        return Hit(successes)
    hit = Hit(successes) if hit_already else Hit(successes, damage=weapon.damage)
    extra = successes if hit_already else successes - 1
    chosen = [choice] if isinstance(choice, str) else list(choice)
    if isinstance(choice, str):
        fill = choice
    if any(c != "damage" for c in chosen[extra:]) and not isinstance(choice, str):
        hit.notes.append(f"{extra} extra success{'es' if extra != 1 else ''}: only the first {extra} "
                         "stunt(s) chosen are bought.")
    for i in range(extra):
        buy(hit, chosen[i] if i < len(chosen) else fill, close)
    return hit


def buy(hit: Hit, stunt: Stunt, close: bool) -> None:
    if stunt == "grapple" and not close:
        hit.notes.append("A grapple is a close combat stunt: that success goes to damage instead.")
        stunt = "damage"
    if stunt in hit.effects:
        hit.notes.append(f"{stunt.replace('_', ' ')} is bought once: that success goes to damage instead.")
        stunt = "damage"
    if stunt == "damage":
        hit.damage += 1
    elif stunt == "fatigue":
        hit.fatigue += 1
    else:
        hit.effects.append(stunt)


def wants_push(house: ZoneHouse, pool: PoolRoll) -> bool:
    """Z-PUSH-CHOICE (house): whether an NPC pushes its roll."""
    if rerolled_count(pool) == 0:
        return False
    return house.npc_push == "always" or (house.npc_push == "no_success" and pool.successes == 0)


def take_trauma(person: Person, track: Track, points: int) -> tuple[Person, list[Entry]]:
    """Z-TRAUMA: trauma decreases its attribute; Z-BROKEN: at zero the person is broken."""
    if points <= 0:
        return person, []
    was = person.score(track)
    # Z-RECOVER-BROKEN: trauma past zero is not stored (one point of recovery gives 1 back)
    cap = getattr(person.attributes, TRACK_OF[track])
    new = person.model_copy(update={track: min(cap, max(getattr(person, track), 0) + points)})
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
            *(f"{target} {ONE_OFF[e]}" for e in hit.effects),
        ]
        text += f"; {extra} extra bought {', '.join(b for b in bought if b)}"
    return [Entry(text + ".", "Z-STUNTS" if extra else "Z-DICE"), *(Entry(n, "Z-STUNTS") for n in hit.notes)]
