"""The board as the answers so far leave it: every distance an interval of inches, and the
engine run at points inside them (questions.Board decides from these runs what to ask next).

A distance told in inches is a point; base contact is 0; a zone or a band bounds it; a split
answer ("up to"/"more than" a figure) cuts it. The engine is run at sample points of every
interval (wording_bounds.sample_points: each threshold, sum and difference of thresholds inside
it), each run's shape kept once per point and sight.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from app.rulesets.potham2038.activation import Activation, Activator, Directive, Seen, activate
from app.rulesets.potham2038.bands import FAR, band, bands
from app.rulesets.potham2038.wording_bounds import EPS, sample_points, shape_of


class BoardDistances:
    """Every distance as an interval of inches from the answers; the engine run over them."""

    def __init__(self, bot: Activator, characters: Sequence[str], directive: Directive,
                 answers: Mapping[str, Any], rng: random.Random | None, refine: bool = True):
        self.bot, self.names, self.answers, self.rng = bot, list(characters), answers, rng
        self.refine = refine  # cut bands where the decision turns (band_pieces); off inside that check
        self.directive = directive
        told = answers.get("direction")  # "roll": one d8 for every run, so all runs agree
        self.rolled = (rng or random.Random()).randint(1, 8) if told == "roll" else None
        self.bands = bands(bot)  # a Character's; a role target's omit weapon range (`bands_for`)
        self.target = directive.subject or directive.object or directive.waypoint
        self._runs: dict = {}  # the engine's runs by point and sight (`outcome`)
        self._samples: dict[str, list[float]] | None = None  # the sample points (`samples`)
        self.spans: dict[str, tuple[float, float]] = {n: self.span(n) for n in self.names}
        if self.target is not None and bot.role != "hunter":
            self.spans[self.target] = self.span(self.target, self.directive_default())
        self.next = None
        if bot.role == "patrol" and self.spans.get(self.target or "") == (0.0, 0.0):
            self.next = directive.next_waypoint or "its next waypoint"
            if self.next != self.target:
                self.spans[self.next] = self.span(self.next)

    def directive_default(self) -> tuple[float, float] | None:
        """Distances given in the directive itself (inches) or a Worker's object contact."""
        d = self.directive
        if d.object_contact:
            return (0.0, 0.0)
        given = {"sentry": d.subject_distance, "worker": d.object_distance,
                 "patrol": d.waypoint_distance}.get(self.bot.role)
        return None if given is None else (given, given)

    def span(self, name: str, default: tuple[float, float] | None = None) -> tuple[float, float]:
        a = self.answers
        if name in a.get("inches", {}):
            x = float(a["inches"][name])
            return (x, x)
        if name in a.get("contact", ()):
            return (0.0, 0.0)
        low, high = (0.0, FAR) if name in self.names and "contact" in a else (-EPS, FAR)
        if name in self.names and "zone" in a:
            zone = self.bot.control_zone
            low, high = (low, min(high, zone)) if name in a["zone"] else (max(low, zone), high)
        if name in a.get("bands", {}):
            b = band(self.bot, a["bands"][name], aimed=name in self.names)
            if b.key == "contact":
                return (0.0, 0.0)
            low, high = max(low, b.low), min(high, b.high)
        elif default is not None and not self.split_told(name):
            return default
        low = max(low, a.get("more_than", {}).get(name, low))
        high = min(high, a.get("up_to", {}).get(name, high))
        return (low, high)

    def split_told(self, name: str) -> bool:
        return name in self.answers.get("up_to", {}) or name in self.answers.get("more_than", {})

    # --- running the engine --------------------------------------------------------------

    def run(self, at: Mapping[str, float], sight: bool | None) -> Activation:
        """The engine at one point: `sight` fills unanswered line of sight (None: answered)."""
        seen_by = self.answers.get("line_of_sight")
        d = self.directive
        seen = [Seen(n, at[n], (n in seen_by) if seen_by is not None else bool(sight), at[n] <= 0)
                for n in self.names]
        role = self.bot.role
        given = at.get(self.target or "")
        directive = replace(
            d, subject_distance=given if role == "sentry" and d.subject else d.subject_distance,
            object_distance=given if role == "worker" else d.object_distance,
            object_contact=role == "worker" and given == 0,
            waypoint_distance=given if role == "patrol" else d.waypoint_distance,
            next_waypoint_distance=at.get(self.next or "") if self.next else d.next_waypoint_distance,
            direction=self.direction(), direction_rolled=not isinstance(self.answers.get("direction"), int))
        return activate(self.bot, seen, directive)

    def direction(self) -> int:
        """The told or rolled direction; unanswered, 1 stands in (asked before any decision)."""
        told = self.answers.get("direction")
        return told if isinstance(told, int) else (self.rolled or 1)

    def samples(self) -> dict[str, list[float]]:
        if self._samples is None:
            critical = self.critical()
            self._samples = {n: sample_points(lo, hi, critical) for n, (lo, hi) in self.spans.items()}
        return self._samples

    def kind(self, n: str) -> tuple:
        seen_by = self.answers.get("line_of_sight")
        return (self.spans[n], seen_by is None or n in seen_by, n == self.answers.get("closest"))

    def varied(self) -> list[str]:
        """The models to vary: the role's targets, then one Character per kind (same interval,
        sight and contact: varying one tells what varying any of them does)."""
        kinds: set[tuple] = set()
        out = []
        for n in self.spans:
            kind = self.kind(n)
            if n not in self.names or kind not in kinds:
                kinds.add(kind)
                out.append(n)
        return out

    def points(self, name: str | None = None) -> list[dict[str, float]]:
        """The base point and, for `name`, that model at each of its samples (None: the two
        corners, every model at its lowest then at its highest)."""
        samples = self.samples()
        base = self.order({n: s[len(s) // 2] for n, s in samples.items()})
        if name is None:
            return [base, self.order({n: s[0] for n, s in samples.items()}),
                    self.order({n: s[-1] for n, s in samples.items()})]
        return [self.order(base | {name: v}) for v in samples[name]]

    def order(self, at: dict[str, float]) -> dict[str, float]:
        """The Character told closest stays strictly closest among those it was compared with."""
        first = self.answers.get("closest")
        if first in at:
            for n in self.names:
                lo, hi = self.spans[n]
                if n != first and at[n] <= at[first] and at[first] + EPS <= hi:
                    at = at | {n: at[first] + EPS}
        return at

    def critical(self) -> list[float]:
        """Every distance a role compares one model's distance with: the thresholds and the
        sums of two (a Run then range, two Walks back to a subject, a Run and a half-Walk)."""
        bot = self.bot
        ts = [0.0, bot.control_zone, bot.walk, max(bot.run, bot.walk), bot.walk / 2]
        if bot.shoot_range is not None:
            ts.append(bot.shoot_range)
        return sorted({x for x in [*ts, *(a + b for a in ts for b in ts)] if x >= 0})

    def outcome(self, at: dict[str, float], sight: bool | None) -> tuple[tuple, Activation]:
        key = (tuple(sorted(at.items())), sight)
        if key not in self._runs:
            result = self.run(at, sight)
            self._runs[key] = (shape_of(result), result)
        return self._runs[key]
