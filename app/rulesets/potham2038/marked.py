"""Noise and Alarm: the Marked and Danger they cause (seed 000 § Noise, Alarm, and Glitches)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class NoiseResult:
    """Marked stacks the Character gains, Danger added, and the rule that says so."""

    marked: int
    danger: int
    rule: str
    reason: str = ""

    def as_dict(self) -> dict:
        return {"marked": self.marked, "danger": self.danger, "rule": self.rule, "reason": self.reason}


def noise(kind: Literal["noise", "alarm"], zones_containing: int) -> NoiseResult:
    """`zones_containing`: how many AI-Bot Control Zones contain the Character (R-ZONE).

    Noise (R-NOISE): inside at least one zone -> +1 Marked in total and +1 Danger; else nothing.
    Alarm (R-ALARM): +1 Marked per containing zone, and +1 Danger always.
    """
    if zones_containing < 0:
        raise ValueError("zones_containing must be ≥ 0")
    if kind == "noise":
        if zones_containing == 0:
            return NoiseResult(0, 0, "R-NOISE", "Noise outside every AI-Bot zone: nothing happens.")
        return NoiseResult(1, 1, "R-NOISE", "Noise inside an AI-Bot zone: +1 Marked in total and +1 Danger.")
    if kind == "alarm":
        if zones_containing == 0:
            return NoiseResult(0, 1, "R-ALARM", "Alarm outside every AI-Bot zone: no Marked, but +1 Danger.")
        n, plural = zones_containing, "" if zones_containing == 1 else "s"
        reason = f"Alarm inside {n} AI-Bot zone{plural}: +{n} Marked (one per zone) and +1 Danger."
        return NoiseResult(n, 1, "R-ALARM", reason)
    raise ValueError(f"kind must be 'noise' or 'alarm', not {kind!r}")
