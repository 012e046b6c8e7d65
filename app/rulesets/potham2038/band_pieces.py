"""Bands cut where the decision turns: one tap instead of a band, then the inches.

A band says a distance lies between two of the bot's thresholds. Some decisions turn on a
figure inside a band: a Sentry charges an intruder only when the subject's distance plus the
intruder's is at most one Walk (R-SENTRY-INTRUDER), so with the intruder inside its 3" zone and
a Walk of 4" the subject's distance turns at 1" (the Walk less the zone); a Hunter farther than
its Run turns at a Run and a half Walk (R-ACT-FALLBACK). Asking the band and then the inches
costs the keyboard where one finer tap settles it.

`pieces(board, name, band, low, high)` cuts a band at those figures — every threshold, sum and
difference of two thresholds inside it — but only where a piece then settles this model's part
of the decision (the next question is about another fact, or there is none). Pieces that
settle alike are merged back, and a band no piece settles stays whole: a finer tap is offered
only where it spares a question, never a fact that cannot change the decision (R-ACT-FACTS).
Each piece is told as the band plus `up_to` / `more_than`, the same answers the split question
gives, so the engine decides again from them, never from a guess.
"""

from __future__ import annotations

from typing import Any

from app.rulesets.potham2038.bands import FAR, Band
from app.rulesets.potham2038.wording_bounds import EPS

# `board` below is a questions.Board; it is not imported (questions imports this module): a
# board decides again through `again` (its own class), a question is told by its `fact`.
Board = Any


def again(board: Board, answers: dict[str, Any], refine: bool = False) -> Any:
    """The next question (or the decision) of the same board with these answers."""
    return type(board)(board.bot, board.names, board.directive, answers, None, refine=refine).decide()


def asks_about(after: Any, name: str) -> bool:
    """Is `after` a question about this model's distance?"""
    return getattr(after, "fact", None) is not None and after.model == name


def cuts(board: Board) -> list[float]:
    """The thresholds a role compares one distance with, their sums and their differences."""
    ts = [x for x in board.critical() if x <= FAR]
    bot = board.bot
    base = [bot.control_zone, bot.walk, max(bot.run, bot.walk), bot.walk / 2,
            *([bot.shoot_range] if bot.shoot_range is not None else [])]
    return sorted({*ts, *(a - b for a in base for b in base if a > b)})


def told_piece(answers: dict[str, Any], name: str, band: Band, low: float, high: float) -> dict[str, Any]:
    """The answers with this model told inside (low, high] of `band`."""
    told = {**answers, "bands": {**answers.get("bands", {}), name: band.key}}
    if low > band.low:
        told["more_than"] = {**answers.get("more_than", {}), name: low}
    if high < band.high:
        told["up_to"] = {**answers.get("up_to", {}), name: high}
    return told


def settles(board: Board, name: str, band: Band, low: float, high: float) -> bool:
    """Told inside (low, high], is this model asked no more (the next fact is another's)?"""
    return not asks_about(again(board, told_piece(dict(board.answers), name, band, low, high)), name)


def pieces(board: Board, name: str, band: Band, low: float, high: float) -> list[dict[str, Any]]:
    """The band as one option, or cut into the pieces that settle it (module docstring)."""
    inside = [c for c in cuts(board) if low + EPS / 2 < c < high - EPS / 2]
    if not inside or settles(board, name, band, low, high):
        return [band.as_dict()]
    edges = [low, *inside, high]
    groups: list[tuple[float, float, bool]] = []
    i, last = 0, len(edges) - 1
    while i < last:  # greedy: a settling piece grows while it still settles; others merge
        ok, j = settles(board, name, band, edges[i], edges[i + 1]), i + 1
        while j < last and (settles(board, name, band, edges[i], edges[j + 1]) if ok
                            else not settles(board, name, band, edges[j], edges[j + 1])):
            j += 1
        groups.append((edges[i], edges[j], ok))
        i = j
    if not any(ok for _, _, ok in groups):
        return [band.as_dict()]
    return [piece(band, lo, hi) for lo, hi, _ in groups]


def piece(band: Band, low: float, high: float) -> dict[str, Any]:
    """One piece as a band option: its label says its upper figure ("within 1\\"") in the row of
    bands, the last keeps the band's own words (or "farther than X\\"")."""
    if high < band.high:
        label = f'within {round(high, 2):g}"'
    elif low > band.low and band.key == "farther":
        label = f'farther than {round(low, 2):g}"'
    else:
        label = band.label
    out = {**band.as_dict(), "label": label, "low": low, "high": None if high >= FAR else high}
    if low > band.low:
        out["more_than"] = low
    if high < band.high:
        out["up_to"] = high
    return out


def on_the_waypoint(board: Board, name: str, options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A Patrol's waypoint: "in base contact" is where the next question is the next waypoint's
    distance (R-ROLE-PATROL: standing on it, it heads for the next one), so that tap says both:
    one option per band of the next waypoint, its figures under `then`. Offered only when that
    question is the very next one on that answer: never a fact the decision does not need."""
    if board.bot.role != "patrol" or name != board.target or not options or options[0]["key"] != "contact":
        return options
    told = {**board.answers, "bands": {**board.answers.get("bands", {}), name: "contact"}}
    after = again(board, told, board.refine)
    if getattr(after, "fact", None) != "band" or after.model in (name, *board.names):
        return options
    here = options[0]
    both = [{**here, "label": f"on {name}, {after.model} {o['label']}", "then": {"model": after.model, **o}}
            for o in after.options]
    return [*options[1:], *both]  # its own bands first, as on every other distance question
