"""The daily conditions of seed 002 (starving, dehydrated, sleepless, hypothermic), per Character,
and what they do to recovery (Z-COND-*, Z-RECOVER)."""

from __future__ import annotations

from app.kernel.commands import Entry, Refused
from app.rulesets.zone.combat import take_trauma
from app.rulesets.zone.models import TRACK_OF, Character, Track

# Z-RECOVER: which trauma a condition stops recovering
BLOCKS: dict[str, set[str]] = {
    "starving": {"damage"},  # Z-COND-STARVING: cannot restore Strength
    "dehydrated": {"damage", "fatigue", "confusion", "doubt"},  # Z-COND-DEHYDRATED: any trauma
    "sleepless": {"confusion"},  # Z-COND-SLEEPLESS: cannot restore Wits
    "hypothermic": {"damage", "confusion"},  # Z-COND-HYPOTHERMIC: not Strength or Wits
}
RULE_OF = {
    "starving": "Z-COND-STARVING",
    "dehydrated": "Z-COND-DEHYDRATED",
    "sleepless": "Z-COND-SLEEPLESS",
    "hypothermic": "Z-COND-HYPOTHERMIC",
}


def hurt(c: Character, track: Track, points: int, entries: list[Entry], day: int = 1) -> Character:
    """Trauma from a condition; the day an attribute hits zero is noted (Z-DIE-LATER)."""
    new, said = take_trauma(c, track, points)
    entries.extend(said)
    broke = {t: day for t in new.broken_by() if t not in c.broken_on}
    return new.model_copy(update={"broken_on": {**c.broken_on, **broke}}) if broke else new  # type: ignore[return-value]


def broken_before(c: Character, day: int, tracks: tuple[str, ...]) -> bool:
    """Z-DIE-LATER: broken (by one of these tracks) on an earlier day than this one: "you will die
    after another day has passed", never on the day it broke."""
    return any(t in c.broken_by() and c.broken_on.get(t, day) < day for t in tracks)


def starve(c: Character, ate: bool, entries: list[Entry], day: int = 1) -> Character:
    """Z-COND-STARVING: a day without grub makes a Character starving; each further day starving
    without grub is one more damage; broken by damage while starving, another day without grub
    kills. One ration ends it."""
    if ate:
        if c.starving:
            entries.append(Entry(f"{c.name} eats a ration of grub: no longer starving.", "Z-COND-STARVING"))
        return c.model_copy(update={"starving": False})
    if not c.starving:
        entries.append(Entry(f"{c.name} had no grub today: starving.", "Z-COND-STARVING"))
        return c.model_copy(update={"starving": True})
    if broken_before(c, day, ("damage",)):
        entries.append(
            Entry(f"{c.name}, broken by damage while starving, dies without grub.", "Z-COND-STARVING")
        )
        return c.model_copy(update={"dead": True})
    if c.score("damage") == 0:
        entries.append(Entry(f"{c.name} is broken by damage while starving: without grub, {c.name} dies "
                             "after another day.", "Z-COND-STARVING"))
        return c
    return hurt(c, "damage", 1, entries, day)


def thirst(c: Character, drank: bool, entries: list[Entry], day: int = 1) -> Character:
    """Z-COND-DEHYDRATED: a day without water makes a Character dehydrated, and every day without
    water costs one damage and one fatigue, the first one too (the seed says "one point … per day",
    not "one more" as for grub and sleep); broken by any trauma while dehydrated, another day kills."""
    if drank:
        if c.dehydrated:
            entries.append(
                Entry(f"{c.name} drinks a ration of water: no longer dehydrated.", "Z-COND-DEHYDRATED")
            )
        return c.model_copy(update={"dehydrated": False})
    if not c.dehydrated:
        entries.append(Entry(f"{c.name} had no water today: dehydrated.", "Z-COND-DEHYDRATED"))
        c = c.model_copy(update={"dehydrated": True})
        return hurt(hurt(c, "damage", 1, entries, day), "fatigue", 1, entries, day)
    if broken_before(c, day, ("damage", "fatigue", "confusion", "doubt")):
        entries.append(Entry(f"{c.name}, broken while dehydrated, dies without water.", "Z-COND-DEHYDRATED"))
        return c.model_copy(update={"dead": True})
    return hurt(hurt(c, "damage", 1, entries, day), "fatigue", 1, entries, day)


def sleep(c: Character, slept: bool, entries: list[Entry], day: int = 1) -> Character:
    """Z-COND-SLEEPLESS: a day without four hours of sleep makes a Character sleepless; each
    further day one more confusion; broken by confusion while sleepless, they collapse."""
    if slept:
        if c.sleepless:
            entries.append(Entry(f"{c.name} sleeps four hours: no longer sleepless.", "Z-COND-SLEEPLESS"))
        return c.model_copy(update={"sleepless": False})
    if not c.sleepless:
        entries.append(Entry(f"{c.name} did not sleep four hours: sleepless.", "Z-COND-SLEEPLESS"))
        return c.model_copy(update={"sleepless": True})
    was_broken = c.score("confusion") == 0
    c = hurt(c, "confusion", 1, entries, day)
    if c.score("confusion") == 0 and not was_broken:
        entries.append(
            Entry(
                f"{c.name}, broken by confusion while sleepless, collapses unconscious for four "
                "hours or more.",
                "Z-COND-SLEEPLESS",
            )
        )
    return c


def pass_day(c: Character, ate: bool, drank: bool, slept: bool,
             day: int = 1) -> tuple[Character, list[Entry]]:
    """Z-DAY: one day's needs for one Character, in the seed's order."""
    entries: list[Entry] = []
    if c.dead:
        return c, entries
    c = c.model_copy(update={"broken_on": {t: c.broken_on.get(t, day) for t in c.broken_by()}})
    for need, had in ((starve, ate), (thirst, drank), (sleep, slept)):
        c = need(c, had, entries, day)
        if c.dead:
            break
    return c, entries


def endure_cold(c: Character, failed: bool) -> tuple[Character, list[Entry]]:
    """Z-COND-HYPOTHERMIC: a failed Endure roll in the cold makes a Character hypothermic, with one
    damage and one confusion at once (and each failure after); broken by damage when hypothermic,
    they die the next time they are called upon to roll, whatever the roll."""
    if c.hypothermic and c.score("damage") == 0:
        said = f"{c.name}, broken by damage while hypothermic, dies of the cold."
        return c.model_copy(update={"dead": True}), [Entry(said, "Z-COND-HYPOTHERMIC")]
    if not failed:
        return c, [Entry(f"{c.name} endures the cold.", "Z-COND-HYPOTHERMIC")]
    entries = [Entry(f"{c.name} fails to Endure the cold: hypothermic.", "Z-COND-HYPOTHERMIC")]
    c = c.model_copy(update={"hypothermic": True})
    return hurt(hurt(c, "damage", 1, entries), "confusion", 1, entries), entries


def warm_up(c: Character) -> tuple[Character, list[Entry]]:
    return c.model_copy(update={"hypothermic": False}), [
        Entry(f"{c.name} is warm again: no longer hypothermic.", "Z-COND-HYPOTHERMIC")
    ]


def recover(c: Character, track: Track, points: int) -> tuple[Character, list[Entry]]:
    """Z-RECOVER: restore trauma the Character's conditions allow (refused, naming the condition,
    otherwise)."""
    for condition, blocked in BLOCKS.items():
        if getattr(c, condition) and track in blocked:
            raise Refused(f"{c.name} is {condition} and cannot recover {track}.", RULE_OF[condition])
    # Z-RECOVER-BROKEN: trauma past zero is not stored, so the first point gives 1 back
    stored = min(getattr(c, track), getattr(c.attributes, TRACK_OF[track]))
    healed = min(points, stored)
    new = c.model_copy(update={track: stored - healed})
    return new, [Entry(f"{c.name} recovers {healed} {track}.", "Z-RECOVER")]
