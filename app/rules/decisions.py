"""An activation's answer turned into game state: the stored Decision and the bot's conditions.

The Decision keeps both actions for the UI's decision card and Phase 3's to-do list; movement,
Scan and Interact are done at once in Phase 2, Melee and Shoot wait for Phase 3 (R-ACT-PHASE).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.activation import Activation, Mark
from app.rules.commands import Entry
from app.rules.glitches import spend_activation
from app.rules.models import Bot, DecidedAction, Decision, GameState, SeenFact
from app.rules.play import replace


def decision_of(state: GameState, bot: Bot, result: Activation, names: dict[str, str],
                seen: Sequence) -> Decision:
    actions = [DecidedAction(slot=a.slot, family=a.family, action=a.action, phase=a.phase, target=a.target,
                             target_id=names.get(a.target or ""), move=a.move, fallback=a.fallback,
                             reason=a.reason, rule=a.rule, direction=a.direction,
                             status="pending" if a.phase == 3 else "done")
               for a in result.actions]
    marked: dict[str, int] = {}
    for mark in [*result.marked, *scan_marks(result)]:
        marked[names[mark.character]] = marked.get(names[mark.character], 0) + mark.stacks
    facts = [SeenFact(character_id=s.character_id, distance=s.distance, line_of_sight=s.line_of_sight,
                      base_contact=s.base_contact) for s in seen]
    ties = [names.get(t, t) for t in result.ties]
    return Decision(bot_id=bot.id, turn=state.turn, actions=actions, marked=marked, ties=ties, seen=facts,
                    note=" ".join(result.notes), rebooted=bot.rebooted)


def scan_marks(result: Activation) -> list[Mark]:
    """R-SCAN: a decided Scan resolves at once (R-ACT-PHASE): +1 Marked on its target."""
    return [Mark(a.target, 1, "R-SCAN") for a in result.actions if a.action == "scan" and a.target]


def decision_text(bot: Bot, result: Activation) -> list[Entry]:
    entries = [Entry(note, "R-GLITCH" if bot.rebooted else None) for note in result.notes]
    for a in result.actions:
        move = f" {a.move:g}\"" if a.move is not None else ""
        target = f" → {a.target}" if a.target else ""
        when = "now" if a.phase == 2 else "in Phase 3"
        label = " (fallback)" if a.fallback else ""
        said = f"{a.action.replace('_', ' ')}{move}{target}"
        entries.append(Entry(f"{bot.name}, action {a.slot}{label}: {said}, {when}. {a.reason}", a.rule))
    if result.ties:
        entries.append(Entry(f"Tied at equal distance: {', '.join(result.ties)}; the first listed is taken "
                             "unless the player chooses otherwise.", "R-ROLE-HUNTER"))
    return entries


def after_activation(state: GameState, bot: Bot, result: Activation) -> tuple[GameState, list[Entry]]:
    """Glitch durations are spent, Stand Up clears knocked down, a Patrol that arrives heads on."""
    entries: list[Entry] = []
    new = spend_activation(state.bot(bot.id) or bot)
    if new.knocked_down and any(a.action == "stand_up" for a in result.actions):
        new = new.model_copy(update={"knocked_down": False})
        entries.append(Entry(f"{bot.name} stands up.", "R-ACT-MOVE"))
    if new.role == "patrol" and result.arrived and new.waypoints:
        new, said = next_waypoint(new)
        entries.append(said)
    return replace(state, new), entries


def next_waypoint(bot: Bot) -> tuple[Bot, Entry]:
    """R-ROLE-PATROL: a Circuit loops; a Route runs to the end and back (R-PATROL-ROUTE)."""
    count, index = len(bot.waypoints), bot.waypoint_index
    step = bot.waypoint_step
    if bot.patrol_mode == "circuit":
        index = (index + 1) % count
    elif count > 1:
        if not 0 <= index + step < count:
            step = -step  # type: ignore[assignment]
        index += step
    arrived = bot.waypoints[bot.waypoint_index] if bot.waypoint_index < count else "its waypoint"
    text = f"{bot.name} reaches {arrived}; next waypoint: {bot.waypoints[index]}."
    new = bot.model_copy(update={"waypoint_index": index, "waypoint_step": step})
    return new, Entry(text, "R-ROLE-PATROL")
