"""Distance bands: a distance told as one tap relative to the bot's own thresholds.

A band is an interval of inches `(low, high]` named by the threshold that closes it: base
contact (exactly 0), inside the zone, within a Walk, within a Run, within weapon range, and
farther. Thresholds are the bot's own, sorted, so a bot whose range is shorter than its Run
gets the bands in that order; equal thresholds share one band. Weapon range is a band only for
a Character (`aimed`): a waypoint, subject or object is never shot at, so its range band could
not change the decision; it gets "within a Run and a half Walk" instead (a Run, then the 50% Walk fallback).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rulesets.potham2038.activation_types import Activator

FAR = 1000.0  # the largest distance the app takes (the JSON API's bound)


@dataclass(frozen=True, slots=True)
class Band:
    key: str  # contact | zone | walk | run | range (a Character) | reach (a target) | farther
    label: str
    low: float  # exclusive (contact: inclusive 0)
    high: float  # inclusive

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "low": self.low,
                "high": None if self.high >= FAR else self.high}


def _inches(x: float) -> str:
    return f'{round(x, 2):g}"'


def thresholds(bot: Activator, aimed: bool = True) -> list[tuple[float, str, str]]:
    """(inches, key, words) for the bot's zone, Walk, Run and weapon range (`aimed`: a Character)
    or a Run and a half Walk (a waypoint, subject or object), closest first."""
    found = [(bot.control_zone, "zone", "inside its zone"), (bot.walk, "walk", "within a Walk"),
             (max(bot.run, bot.walk), "run", "within a Run")]
    if aimed and bot.shoot_range is not None:
        found.append((bot.shoot_range, "range", "within weapon range"))
    elif not aimed:  # a Run, then the fallback's 50% Walk (R-ACT-FALLBACK): does it get there?
        found.append((max(bot.run, bot.walk) + bot.walk / 2, "reach", "within a Run and a half Walk"))
    return sorted((t for t in found if t[0] > 0), key=lambda t: t[0])


def bands(bot: Activator, aimed: bool = True) -> list[Band]:
    """Base contact, one band per distinct threshold (equal ones merged), then farther.
    `aimed` False: the bands for a model the bot never shoots at (no weapon range band)."""
    out = [Band("contact", "in base contact", 0.0, 0.0)]
    low = 0.0
    for inches, key, words in thresholds(bot, aimed):
        if inches <= low:  # same threshold as the band before: say both
            last = out[-1]
            out[-1] = Band(last.key, f"{last.label.rsplit(' (', 1)[0]}, {words} ({_inches(inches)})",
                           last.low, last.high)
            continue
        out.append(Band(key, f"{words} ({_inches(inches)})", low, inches))
        low = inches
    out.append(Band("farther", f"farther than {_inches(low)}", low, FAR))
    return out


def band(bot: Activator, key: str, aimed: bool = True) -> Band:
    """The band named `key` for this bot (ValueError for a key it does not have)."""
    for b in bands(bot, aimed):
        if b.key == key:
            return b
    raise ValueError(f"{bot.name} has no distance band {key!r}")


def band_of(bot: Activator, inches: float) -> Band:
    """The band a measured distance falls in (what the page shows for typed inches)."""
    for b in bands(bot):
        if b.low < inches <= b.high or inches == b.high == 0:
            return b
    return bands(bot)[-1]
