"""Phase 4 · End: the Primary Directive position checks (R-END-CHECK).

  position_check  {bot_id, passed: bool, glitch_roll?: int}

Each Sentry (within one Walk of its subject) and Patrol (some point of its current segment in
its zone) that is not exempt answers once per turn; a failure gives one immediate Glitch.
The cleanup itself is `end_turn` (turn.py).
"""

from __future__ import annotations

from random import Random

from pydantic import Field

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.glitches import glitch
from app.rulesets.potham2038.models import Bot, GameState
from app.rulesets.potham2038.play import bot_of, require_play

WHAT_IS_CHECKED = ("sentry", "patrol")


def _check_sentence(bot: Bot, passed: bool) -> str:
    """The R-END-CHECK answer in plain words: "Drone P4: no point of its current segment is
    inside its 3" zone"."""
    if bot.role == "sentry":
        return f"{bot.name} is {'' if passed else 'not '}within one Walk of its subject"
    return (f"{bot.name}: {'a' if passed else 'no'} point of its current segment is inside its "
            f"{bot.control_zone:g}\" zone")


class PositionCheck(Body):
    bot_id: str
    passed: bool
    glitch_roll: int | None = Field(default=None, ge=1, le=100)  # entered Glitch die, on a failure


@command("position_check", PositionCheck)
def position_check(state: GameState, body: PositionCheck, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 4, what="The position check")
    bot = bot_of(state, body.bot_id)
    _require_check(state, body.bot_id)
    checks = {**state.position_checks, bot.id: body.passed}
    state = state.model_copy(update={"position_checks": checks})
    said = _check_sentence(bot, body.passed)
    if body.passed:
        return state, [Entry(f"{said}: check passed.", "R-END-CHECK")]
    failed = Entry(f"{said}: check failed, one immediate Glitch.", "R-END-CHECK")
    state, entries = glitch(state, bot, rng, body.glitch_roll)
    return state, [failed, *entries]


def _require_check(state: GameState, bot_id: str) -> None:
    bot = bot_of(state, bot_id)
    if bot.role not in WHAT_IS_CHECKED:
        raise Refused(f"{bot.name} is a {bot.role.title()}: only Sentries and Patrols are checked.",
                      "R-END-CHECK")
    if bot.exempt:
        raise Refused(f"{bot.name} is exempt from the position check.", "R-END-CHECK")
    if bot.health <= 0:
        raise Refused(f"{bot.name} is destroyed: no position check.", "R-END-CHECK")
    if bot.id in state.position_checks:
        raise Refused(f"{bot.name}'s position check is already answered this turn.", "R-END-CHECK")
