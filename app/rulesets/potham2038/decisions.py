"""An activation's answer turned into game state: the stored Decision and the bot's conditions.

The Decision keeps both actions for the UI's decision card and Phase 3's to-do list; movement,
Scan and Interact are done at once in Phase 2, Melee and Shoot wait for Phase 3 (R-ACT-PHASE).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.kernel.commands import Entry
from app.rulesets.potham2038.activation import Activation, Mark
from app.rulesets.potham2038.glitches import spend_activation
from app.rulesets.potham2038.models import Bot, DecidedAction, Decision, EmptySlotNote, GameState, SeenFact
from app.rulesets.potham2038.play import replace


def decision_of(state: GameState, bot: Bot, result: Activation, names: dict[str, str],
                seen: Sequence) -> Decision:
    actions = [DecidedAction(slot=a.slot, family=a.family, action=a.action, phase=a.phase, target=a.target,
                             target_id=names.get(a.target or ""), move=a.move, fallback=a.fallback,
                             reason=a.reason, rule=a.rule, direction=a.direction,
                             status="pending" if a.phase == 3 else "done", conditional=a.conditional,
                             condition=a.condition)
               for a in result.actions]
    marked: dict[str, int] = {}
    for mark in [*result.marked, *scan_marks(result)]:
        marked[names[mark.character]] = marked.get(names[mark.character], 0) + mark.stacks
    facts = [s if isinstance(s, SeenFact) else SeenFact(
        character_id=s.character_id, distance=s.distance, line_of_sight=s.line_of_sight,
        base_contact=s.base_contact) for s in seen]
    ties = [names.get(t, t) for t in result.ties]
    empty = [EmptySlotNote(slot=e.slot, reason=e.reason, rule=e.rule) for e in result.empty]
    notes = [n for n in result.notes if not n.startswith("Slot ")]  # the empty slots show on their own
    return Decision(bot_id=bot.id, turn=state.turn, actions=actions, marked=marked, ties=ties, seen=facts,
                    note=" ".join(notes), rebooted=bot.rebooted, empty=empty)


def scan_marks(result: Activation) -> list[Mark]:
    """R-SCAN: a decided Scan resolves at once (R-ACT-PHASE): +1 Marked on its target."""
    return [Mark(a.target, 1, "R-SCAN") for a in result.actions if a.action == "scan" and a.target]


def decision_text(bot: Bot, result: Activation) -> list[Entry]:
    entries = [Entry(note, "R-GLITCH" if bot.rebooted else None) for note in result.notes]
    for a in result.actions:
        move = f" {a.move:g}\"" if a.move is not None else ""
        target = f" → {a.target}" if a.target else ""
        when = "now" if a.phase == 2 else "in Phase 3"
        label = " (fallback)" if a.fallback else " (if confirmed)" if a.conditional else ""
        said = f"{a.action.replace('_', ' ')}{move}{target}"
        entries.append(Entry(f"{bot.name}, action {a.slot}{label}: {said}, {when}. {a.reason}", a.rule))
    if result.ties:
        entries.append(Entry(f"Tied at equal distance: {', '.join(result.ties)}; the first listed is taken "
                             "unless the player chooses otherwise.", "R-ROLE-HUNTER"))
    return entries


def after_activation(state: GameState, bot: Bot, result: Activation) -> tuple[GameState, list[Entry]]:
    """Glitch durations are spent, Stand Up clears knocked down, a Reload clears Out of Ammo
    (an Interact resolves at once: R-ACT-RELOAD, R-ACT-PHASE), a Patrol heads on once per
    waypoint reached (R-PATROL-ROUTE)."""
    entries: list[Entry] = []
    new = spend_activation(state.bot(bot.id) or bot)
    done = {a.action for a in result.actions}
    if new.knocked_down and "stand_up" in done:
        new = new.model_copy(update={"knocked_down": False})
        entries.append(Entry(f"{bot.name} stands up.", "R-ACT-MOVE"))
    if new.out_of_ammo and "reload" in done:
        new = new.model_copy(update={"out_of_ammo": False})
        entries.append(Entry(f"{bot.name} reloads: no longer out of ammo.", "R-ACT-RELOAD"))
    if new.role == "patrol" and new.waypoints:
        for _ in result.reached:
            new, said = next_waypoint(new)
            entries.append(said)
    return replace(state, new), entries


def next_waypoint(bot: Bot) -> tuple[Bot, Entry]:
    """R-ROLE-PATROL: the Patrol heads for the following waypoint."""
    count = len(bot.waypoints)
    index, step = bot.following()
    arrived = bot.waypoints[bot.waypoint_index] if bot.waypoint_index < count else "its waypoint"
    text = f"{bot.name} reaches {arrived}; next waypoint: {bot.waypoints[index]}."
    new = bot.model_copy(update={"waypoint_index": index, "waypoint_step": step})
    return new, Entry(text, "R-ROLE-PATROL")
