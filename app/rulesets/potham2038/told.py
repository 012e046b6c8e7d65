"""Phase 2 by taps: `questions.next_question` on a game's roster (engine part).

The page asks `next_fact(state, bot_id, answers)` for the next question, stores each reply in
`answers` and, once it gets an `Activation`, sends `activate_bot` with the same `answers`
instead of inches: the command decides again from them (the same decision) and refuses while
a fact is still missing. Keys are roster ids for Characters; the role's own targets (the
subject, the object, a waypoint) are keyed by their names as on the roster.
"""

from __future__ import annotations

from dataclasses import replace as dc_replace
from random import Random
from typing import Annotated, Literal

from pydantic import Field

from app.kernel.commands import Body, Refused
from app.rulesets.potham2038.activation import Activation, Directive, activator_from_bot
from app.rulesets.potham2038.bands import bands
from app.rulesets.potham2038.models import Bot, GameState, SeenFact
from app.rulesets.potham2038.play import bot_of, character_of
from app.rulesets.potham2038.questions import Question, next_question
from app.rulesets.potham2038.sight_ahead import sight_follows

Ids = Annotated[list[str], Field(max_length=50)]
BandKey = Literal["contact", "zone", "walk", "run", "range", "reach", "farther"]


class Answers(Body):
    """What the player tapped for one activation (None: not asked yet)."""

    contact: Ids | None = None
    zone: Ids | None = None
    line_of_sight: Ids | None = None
    closest: str | None = None
    bands: dict[str, BandKey] = Field(default_factory=dict, max_length=60)
    inches: dict[str, Annotated[float, Field(ge=0, le=1000)]] = Field(default_factory=dict, max_length=60)
    direction: Annotated[int, Field(ge=1, le=8)] | Literal["roll"] | None = None
    # a distance told against the one figure the decision turns on ("up to 20\"" / "more than 20\"")
    up_to: dict[str, Annotated[float, Field(ge=0, le=1000)]] = Field(default_factory=dict, max_length=60)
    more_than: dict[str, Annotated[float, Field(ge=0, le=1000)]] = Field(default_factory=dict, max_length=60)


def roster_directive(bot: Bot) -> Directive:
    """The role's assignment by name: subject, object, current and next waypoint (R-ROLE-*)."""
    waypoint = bot.waypoints[bot.waypoint_index] if bot.waypoint_index < len(bot.waypoints) else None
    after_next = None
    if bot.waypoints and bot.waypoint_index < len(bot.waypoints):
        index, step = bot.following()
        after_next = bot.model_copy(update={"waypoint_index": index, "waypoint_step": step}).waypoint_after
    return Directive(subject=bot.subject, object=bot.object, waypoint=waypoint, exempt=bot.exempt,
                     next_waypoint=bot.waypoint_after, waypoint_after_next=after_next)


def table_names(state: GameState) -> dict[str, str]:
    """Display name -> id for every Character still in action; a shared name gets a number."""
    names: dict[str, str] = {}
    for c in state.characters:
        if c.health > 0:
            names[c.name if c.name not in names else f"{c.name} #{len(names) + 1}"] = c.id
    return names


def next_fact(state: GameState, bot_id: str, answers: Answers,
              rng: Random | None = None, tie_choice: str | None = None) -> Question | Activation:
    """The next question for this bot's activation, or its decision (questions.next_question).
    `tie_choice`: the Character id the player picked where Characters tie (R-TIE-CHOICE)."""
    bot = bot_of(state, bot_id)
    names = table_names(state)
    by_id = {i: n for n, i in names.items()}
    told = _by_name(answers, by_id, state)
    for model, key in answers.bands.items():  # a role target is never shot at: no range band
        aimed = model in by_id or state.character(model) is not None
        available = {b.key for b in bands(activator_from_bot(bot), aimed=aimed)}
        if key not in available:
            raise Refused(f"{bot.name} has no such distance band for {model}; choose one of "
                          f"{', '.join(sorted(available))}.")
    if tie_choice is not None and tie_choice not in by_id:
        raise Refused(f"tie_choice {tie_choice!r} is not a Character in action.", "R-TIE-CHOICE")
    directive = dc_replace(roster_directive(bot), tie_choice=by_id.get(tie_choice or ""))
    return next_question(activator_from_bot(bot), list(names), directive, told, rng)


def sight_follows_nobody(state: GameState, bot_id: str) -> bool:
    """With nobody in base contact or inside its zone, is "who can it see?" certain to be asked
    (sight_ahead)? The page then asks both in one tap (R-LOS: the player still reports sight)."""
    bot = bot_of(state, bot_id)
    names = list(table_names(state))
    return sight_follows(activator_from_bot(bot), names, roster_directive(bot), {"contact": [], "zone": []})


def _by_name(answers: Answers, by_id: dict[str, str], state: GameState) -> dict:
    """Roster ids to the display names the engine speaks (the role's targets keep their names)."""
    def name(key: str) -> str:
        if key in by_id:
            return by_id[key]
        if state.character(key) is not None:
            raise Refused(f"{character_of(state, key).name} is out of action.")
        return key

    def character(key: str) -> str:  # who is in contact, in the zone, in sight, closest: a Character
        if key not in by_id and state.character(key) is None:
            raise Refused("Only the game's Characters can be told here.")
        return name(key)

    told: dict = {}
    for fact in ("contact", "zone", "line_of_sight"):
        value = getattr(answers, fact)
        if value is not None:
            told[fact] = [character(i) for i in value]
    if answers.closest is not None:
        told["closest"] = character(answers.closest)
    told["bands"] = {name(k): v for k, v in answers.bands.items()}
    told["inches"] = {name(k): v for k, v in answers.inches.items()}
    for side in ("up_to", "more_than"):
        if getattr(answers, side):
            told[side] = {name(k): v for k, v in getattr(answers, side).items()}
    if answers.direction is not None:
        told["direction"] = answers.direction
    return told


def decide_by_answers(state: GameState, bot: Bot, answers: Answers, rng: Random,
                      tie_choice: str | None = None) -> tuple[Activation, dict[str, str], list[SeenFact]]:
    """The decision the answers fix (refused while a fact is missing), the names it speaks and
    the facts to store with it (a distance only where inches were told)."""
    result = next_fact(state, bot.id, answers, rng, tie_choice)
    if isinstance(result, Question):
        raise Refused(f"{bot.name} needs one more fact: {result.ask}", f"R-ROLE-{bot.role.upper()}")
    names = table_names(state)
    touching, sight = set(answers.contact or ()), set(answers.line_of_sight or ())
    seen = [SeenFact(character_id=i, distance=0.0 if i in touching else answers.inches.get(i),
                     band=answers.bands.get(i), line_of_sight=i in sight, base_contact=i in touching)
            for i in names.values()]
    return result, names, seen
