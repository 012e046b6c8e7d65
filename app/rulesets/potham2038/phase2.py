"""Phase 2 · Event & NPC Movement (seed 000 § Four phases).

  record_event          {title, danger: int change, marked: {character_id: stacks}, note, by_effect}
  set_activation_order  {bot_ids}                                   the player's order (R-ACT-ORDER)
  activate_bot          {bot_id, characters: [{character_id, distance, line_of_sight, base_contact}],
                         subject_distance?, object_distance?, object_contact?, waypoint_distance?,
                         next_waypoint_distance?, direction?, tie_choice?}

Activation order is the player's plan, not a gate: any bot not yet activated may go next.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from random import Random
from typing import Annotated

from pydantic import Field

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038.activation import Activation, Directive, Seen, activate, activator_from_bot
from app.rulesets.potham2038.char_activation import new_contact, walked_into
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.decisions import after_activation, decision_of, decision_text, scan_marks
from app.rulesets.potham2038.glitches import take_waiting
from app.rulesets.potham2038.models import Bot, GameState
from app.rulesets.potham2038.play import Result, add_danger, add_marked, bot_of, character_of, require_play
from app.rulesets.potham2038.told import Answers, decide_by_answers, roster_directive

Distance = float


class RecordEvent(Body):
    title: str = Field(min_length=1, max_length=120)
    danger: int = Field(default=0, ge=-100, le=100)  # the change, may be negative
    # character id -> stacks gained; bounded like adjust's, since the odds walk every damage value
    marked: dict[str, Annotated[int, Field(le=100)]] = Field(default_factory=dict, max_length=50)
    note: str = Field(default="", max_length=500)
    by_effect: bool = False  # drawn by an effect, beyond the turn's one Event (R-EVENT-ONE)


@command("record_event", RecordEvent)
def record_event(state: GameState, body: RecordEvent, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 2, what="Recording the Event")
    if state.event is not None and not body.by_effect:
        raise Refused(f"One Event per turn (\"Draw one Event\"): {state.event} is this turn's. Mark a second "
                      "one as drawn by an effect if a rule says to draw it.", "R-EVENT-ONE")
    characters = [(character_of(state, i), n) for i, n in body.marked.items()]
    # the page's default title is "Event card": never "Event Event card"
    source = body.title if body.title.lower().startswith("event") else f"Event {body.title}"
    if any(n < 0 for _, n in characters):
        raise Refused("An Event adds Marked stacks; correct a count with adjust.")
    note = f" {body.note}" if body.note else ""
    drawn = " Drawn by an effect, beyond the turn's one Event." if body.by_effect else ""
    entries = [Entry(f"Event: {body.title}.{drawn}{note}", "R-EVENT-ONE" if body.by_effect else None)]
    state = state.model_copy(update={"event": body.title})
    for character, stacks in characters:
        state, said = add_marked(state, character, stacks, source, "R-MARK-EVENT")
        entries += said
    state, said = add_danger(state, body.danger, source, "R-DANGER")
    return state, entries + said


class ActivationOrder(Body):
    bot_ids: list[str] = Field(max_length=100)


def _order(state: GameState, body: ActivationOrder) -> dict[str, dict[str, list[str]]]:
    return {"game": {"activation_order": list(state.activation_order)}}


@command("set_activation_order", ActivationOrder, sets=_order)
def set_activation_order(state: GameState, body: ActivationOrder, rng: Random) -> Result:
    """The player chooses NPC activation order (seed 000); bots left out follow in roster order."""
    require_play(state, 1, 2, what="Choosing the activation order")
    if len(set(body.bot_ids)) != len(body.bot_ids):
        raise Refused("Each AI-Bot appears once in the activation order.")
    for bot_id in body.bot_ids:
        bot_of(state, bot_id)
    state = state.model_copy(update={"activation_order": list(body.bot_ids)})
    names = ", ".join(b.name for b in state.in_order())
    return state, [Entry(f"Activation order: {names or 'no AI-Bots'}.", "R-ACT-ORDER")]


class SeenCharacter(Body):
    character_id: str
    distance: Distance = Field(ge=0, le=1000)  # inches, base edge to base edge (R-ZONE)
    line_of_sight: bool = False
    base_contact: bool = False


class ActivateBot(Body):
    bot_id: str
    characters: list[SeenCharacter] = Field(default_factory=list, max_length=50)
    subject_distance: Distance | None = Field(default=None, ge=0, le=1000)  # Sentry
    object_distance: Distance | None = Field(default=None, ge=0, le=1000)  # Worker
    object_contact: bool = False  # Worker
    waypoint_distance: Distance | None = Field(default=None, ge=0, le=1000)  # Patrol
    # Patrol standing on its waypoint (distance 0): the distance to the next one (R-ROLE-PATROL)
    next_waypoint_distance: Distance | None = Field(default=None, ge=0, le=1000)
    direction: int | None = Field(default=None, ge=1, le=8)  # Hunter's random move, else rolled
    # Instead of inches: the taps of questions.next_question (told.py); the decision they fix
    answers: Answers | None = None
    # R-TIE-CHOICE: where Characters tie (closest, base contact with several) the player picks one
    tie_choice: str | None = Field(default=None, max_length=80)


def _directive(bot: Bot, body: ActivateBot) -> Directive:
    """The role's assignment from the roster plus the distances the player measured."""
    missing = {"sentry": body.subject_distance is None and bot.subject is not None and "subject_distance",
               "worker": body.object_distance is None and not body.object_contact and "object_distance",
               "patrol": body.waypoint_distance is None and bool(bot.waypoints) and "waypoint_distance"}
    if missing.get(bot.role):
        raise Refused(f"{bot.name} is a {bot.role.title()}: measure {missing[bot.role].replace('_', ' ')}.",
                      f"R-ROLE-{bot.role.upper()}")
    return replace(roster_directive(bot), subject_distance=body.subject_distance,
                   object_distance=body.object_distance, object_contact=body.object_contact,
                   waypoint_distance=body.waypoint_distance, direction=body.direction,
                   next_waypoint_distance=body.next_waypoint_distance)


def _tie_choice(names: dict[str, str], body: ActivateBot) -> str | None:
    """R-TIE-CHOICE: the display name of the Character picked among tied ones (a reported one)."""
    if body.tie_choice is None:
        return None
    picked = next((name for name, i in names.items() if i == body.tie_choice), None)
    if picked is None:
        raise Refused(f"tie_choice {body.tie_choice!r} is not a Character reported for this activation.",
                      "R-TIE-CHOICE")
    return picked


def seen_names(state: GameState, body: ActivateBot) -> dict[str, str]:
    """Display name -> character id; a name two Characters share gets a number."""
    ids = [s.character_id for s in body.characters]
    if len(set(ids)) != len(ids):
        raise Refused("Each Character is reported once.")
    names: dict[str, str] = {}
    for i in ids:
        name = character_of(state, i).name
        names[name if name not in names else f"{name} #{len(names) + 1}"] = i
    return names


@command("activate_bot", ActivateBot)
def activate_bot(state: GameState, body: ActivateBot, rng: Random) -> tuple[GameState, list[Entry]]:
    require_play(state, 2, what="Activating an AI-Bot")
    bot = bot_of(state, body.bot_id)
    if state.decision(bot.id) is not None:
        raise Refused(f"{bot.name} has already activated this turn.", "R-MARK-ACT")
    if bot.health <= 0:
        raise Refused(f"{bot.name} is destroyed and no longer activates.")
    if body.answers is not None:  # told by taps: bands and sets, not inches (told.py)
        result, names, told = decide_by_answers(state, bot, body.answers, rng, body.tie_choice)
        return _apply(state, bot, result, names, told)
    names = seen_names(state, body)
    facts = {s.character_id: s for s in body.characters}
    seen = [Seen(n, facts[i].distance, facts[i].line_of_sight, facts[i].base_contact)
            for n, i in names.items() if character_of(state, i).health > 0]  # out of action: not a target
    directive = replace(_directive(bot, body), tie_choice=_tie_choice(names, body))
    result = _activate(bot, seen, directive, rng)
    if result.needs:  # R-ROLE-PATROL: standing on its waypoint, the next one's distance is asked
        raise Refused(" ".join(result.notes), f"R-ROLE-{bot.role.upper()}")
    return _apply(state, bot, result, names, body.characters)


def _activate(bot: Bot, seen: list[Seen], directive: Directive, rng: Random) -> Activation:
    try:
        return activate(activator_from_bot(bot), seen, directive, rng)
    except ValueError as error:
        raise Refused(f"{bot.name} cannot decide: {error}.") from error


def _apply(state: GameState, bot: Bot, result: Activation, names: dict[str, str],
           seen: Sequence) -> tuple[GameState, list[Entry]]:
    """R-MARK-ACT then R-SCAN Marked, the decision stored for the card and Phase 3, the bot's
    conditions (Glitch durations, Stand Up, Patrol waypoint)."""
    decision = decision_of(state, bot, result, names, seen)
    entries = decision_text(bot, result)
    for mark in [*result.marked, *scan_marks(result)]:
        character = character_of(state, names[mark.character])
        why = (f"{bot.name} activates with {character.name} inside its zone" if mark.rule == "R-MARK-ACT"
               else f"{bot.name} scans {character.name}")
        state, said = add_marked(state, character, mark.stacks, why, mark.rule)
        entries += said
    state, said = after_activation(state, bot, result)
    state = state.model_copy(update={"decisions": [*state.decisions, decision]})
    for character_id in walked_into(state, bot.id):  # R-DISTRACTED-NEW-CONTACT
        state, stack = new_contact(state, character_of(state, character_id), bot, "its move")
        said += stack
    state, waiting = take_waiting(state, bot)  # R-PHASE-MOVE: free Glitch actions kept for their phase
    return state, entries + said + waiting
