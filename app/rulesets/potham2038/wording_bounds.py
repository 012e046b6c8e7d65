"""The words and sample points behind `questions.Board` (split from questions.py): a decision's
shape (what it is, numbers aside), the distances tried inside a band, and one sentence for every
sample, its numbers said as bounds ("up to 8\"") where the band leaves them open. Never a guess:
a sentence that differs beyond its numbers is not merged (R-ACT-FACTS).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.rulesets.potham2038.activation import Activation
from app.rulesets.potham2038.bands import FAR

EPS = 0.01


NUMBER = re.compile(r'(\d+(?:\.\d+)?)"')


def bounded(texts: list[str]) -> str | None:
    """One sentence for every sample: numbers that differ become "up to X\"" (or "more than
    X\"" for an open band); None when the sentences differ in more than numbers."""
    words = [NUMBER.split(t) for t in texts]
    if any(len(w) != len(words[0]) or w[::2] != words[0][::2] for w in words):
        return None
    out = list(words[0])
    for i in range(1, len(out), 2):
        values = {float(w[i]) for w in words}
        if len(values) > 1:
            low = round(min(values) - EPS, 2)  # the samples start just past the band's edge
            out[i] = f"more than {low:g}" if max(values) >= FAR else f"up to {max(values):g}"
    return "".join(p + ('"' if i % 2 else "") for i, p in enumerate(out))


def said(texts: list[str]) -> str:
    """A note or empty-slot reason for every sample; one that differs beyond its numbers is
    kept without them rather than with a guessed one."""
    found = bounded(texts)
    return found if found is not None else NUMBER.sub("that far", texts[0])


def shape_of(result: Activation) -> tuple:
    """What a decision is, numbers aside: its actions, ties, Marked, empty slots and needs."""
    return (tuple((a.slot, a.family, a.action, a.target, a.fallback, a.conditional, a.rule, a.direction)
                  for a in result.actions), result.ties, tuple(m.character for m in result.marked),
            len(result.empty), result.needs, result.reached)


def sample_points(lo: float, hi: float, critical: Sequence[float]) -> list[float]:
    """Both ends of (lo, hi] and each critical value inside it with a point just past it."""
    if lo == hi:
        return [lo]
    start = max(lo + EPS, 0.0) if lo >= 0 else 0.0
    inside = [x for c in critical for x in (c, c + EPS) if start < x < hi]
    return sorted({start, *inside, hi})
