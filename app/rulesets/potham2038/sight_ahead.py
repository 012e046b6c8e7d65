"""Is line of sight certain to be asked? Then the page may ask it together with the zone.

After "nobody is inside its zone" most activations go on to "who can it see?": a Hunter with
nobody inside its zone goes for the closest Character in its line of sight (R-ROLE-HUNTER), a
bot with a loaded gun shoots one in sight and range (R-ACT-SHOOT-ANY). When that question is
certain to come, whatever the other answers will be, one tap can answer both; when it is not
(a Worker with no gun has no use for sight; a Sentry whose Characters are all known out of
range neither), it is not asked (R-ACT-FACTS: never a fact that cannot change the decision).

Certain means: the next question is line of sight, or it is one of the bot's own distances (its
subject, object or waypoint; for a Patrol standing on its waypoint, the next one) and, wherever
that distance lies, some distance of the Characters (all at one distance) makes sight change the
decision: the engine asks line of sight once the own distances are told and before any
Character's distance. The check only ever errs toward "not certain" (a point it does not try):
sight is then asked on its own, as before.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.rulesets.potham2038.activation import Activation, Activator, Directive
from app.rulesets.potham2038.questions import Board


def sight_follows(bot: Activator, characters: Sequence[str], directive: Directive,
                  answers: Mapping[str, Any]) -> bool:
    """Will "who can it see?" be asked after these answers, on every path?"""
    if bot.rebooted or not characters or "line_of_sight" in answers:
        return False
    after = Board(bot, characters, directive, answers, random.Random(0), refine=False).decide()
    if isinstance(after, Activation):
        return False
    if after.fact == "line_of_sight":
        return True
    if after.fact not in ("band", "split", "inches") or after.model in characters:
        return False  # a Character's distance or the closest comes first: not asked yet
    return _everywhere(Board(bot, characters, directive, answers, None, refine=False))


def _own(board: Board) -> str | None:
    """The bot's own distance still open: its target, else a Patrol's next waypoint."""
    for name in (board.target, board.next):
        if name is not None and board.spans[name][0] != board.spans[name][1]:
            return name
    return None


def _everywhere(board: Board) -> bool:
    board._runs, board._samples = {}, None  # the caches `decide` starts with
    own = _own(board)
    samples = board.samples()
    base = board.points()[0]
    for value in samples[own] if own is not None else [None]:
        at = base if own is None else base | {own: value}
        on_waypoint = board.bot.role == "patrol" and board.directive.next_waypoint is not None
        if own == board.target and value == 0 and on_waypoint:
            told = {**board.answers, "inches": {**board.answers.get("inches", {}), own: 0.0}}
            on_it = Board(board.bot, board.names, board.directive, told, None, refine=False)
            if _own(on_it) is not None and not _everywhere(on_it):  # on it: the next one's distance
                return False
            continue
        if not _sight_matters(board, at, samples):
            return False
    return True


def _sight_matters(board: Board, at: dict[str, float], samples: dict[str, list[float]]) -> bool:
    """Somewhere, every Character at one distance, seen by the bot or not changes its decision."""
    near = sorted({x for n in board.names for x in samples[n]})
    for x in near:
        point = board.order(at | {n: min(max(x, samples[n][0]), samples[n][-1]) for n in board.names})
        if board.outcome(point, True)[0] != board.outcome(point, False)[0]:
            return True
    return False

