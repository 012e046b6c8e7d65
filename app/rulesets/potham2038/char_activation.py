"""A Character's activation, as far as base contact and Distracted need it (seed 001: "Entering
enemy base contact ends its activation except where an explicit rule permits otherwise, such as
Distracted."; seed 000: "Distracted: in base contact, spend two actions for one otherwise legal
action that excludes the NPCs in contact. Gain one stack per contacted NPC when invoked and
another for each new contact while active.").

The app does not count a Character's actions (Core rules); it models only this much of its
activation, in Phase 1 of the current turn:

- R-CHAR-CONTACT-ENDS: once the player records that the Character moved into base contact with
  an AI-Bot (`character_contact`), its Shoot and its hacking attempt are refused with the reason,
  unless it invokes Distracted; each invocation buys one such action (two actions for one).
  Zone entries (`character_move`) and further contacts stay open: they are facts of the move that
  made the contact, which the player may report in any order.
- R-DISTRACTED-EXCLUDES: the Distracted action excludes the NPCs in contact: a shot at, or a hack
  against, an AI-Bot it is in contact with (recorded, or named when invoking) is refused.
- R-DISTRACTED-NEW-CONTACT: a new contact while Distracted is active adds a stack, whether the
  player records it (`character_contact`, `distracted_contact`) or the app walks a bot into
  contact (an activation that moves a bot and then melees the Character).
"""

from __future__ import annotations

from app.kernel.commands import Entry, Refused
from app.rulesets.potham2038.engagements import contacts, pair_key
from app.rulesets.potham2038.models import Bot, Character, GameState
from app.rulesets.potham2038.play import replace


def entered_contact(state: GameState, character: Character) -> list[str]:
    """The AI-Bots the player recorded this Character moving into base contact with this turn."""
    return [k.partition(":")[0] for k in state.contacts_reported if k.partition(":")[2] == character.id
            and (bot := state.bot(k.partition(":")[0])) is not None and bot.health > 0]


def in_contact_with(state: GameState, character: Character) -> list[str]:
    """The AI-Bots known to be in base contact with the Character: recorded this turn (not
    separated), or named when it invoked Distracted this turn."""
    known = [b.id for b, c in contacts(state)
             if c.id == character.id and pair_key(b, c) not in state.separated]
    named = [k.partition(":")[0] for k in state.distracted_by if k.partition(":")[2] == character.id]
    return list(dict.fromkeys([*known, *entered_contact(state, character), *named]))


def may_act(state: GameState, character: Character, what: str,
            against: Bot | None = None) -> tuple[GameState, list[Entry]]:
    """Check one action of the Character in Phase 1 (`what`: "shoot", "hack") and spend its
    Distracted action where it takes one; refuse it where the rules do (module docstring)."""
    if state.phase != 1:
        return state, []
    ready = character.id in state.distracted_ready
    if against is not None and (ready or character.distracted_since == state.turn) \
            and against.id in in_contact_with(state, character):
        raise Refused(f"{character.name} is Distracted: its action excludes the NPCs in contact, and "
                      f"{against.name} is in base contact with it.", "R-DISTRACTED-EXCLUDES")
    touched = entered_contact(state, character)
    if not touched:
        return state, []
    names = ", ".join(b.name for i in touched if (b := state.bot(i)) is not None)
    if not ready:
        raise Refused(f"{character.name} moved into base contact with {names} this turn: entering enemy base "
                      f"contact ends its activation, so it cannot {what} now. Invoke Distracted (two actions "
                      "for one that excludes the NPCs in contact) to act.", "R-CHAR-CONTACT-ENDS")
    left = [i for i in state.distracted_ready if i != character.id]
    said = Entry(f"{character.name}'s Distracted action: it {what}s, excluding {names} (two actions for "
                 "one).", "R-CHAR-CONTACT-ENDS")
    return state.model_copy(update={"distracted_ready": left}), [said]


def invoked(state: GameState, character: Character, bots: list[Bot]) -> GameState:
    """Invoking Distracted buys one action this turn and names the NPCs in contact it excludes."""
    named = [pair_key(b, character) for b in bots]
    return state.model_copy(update={
        "distracted_ready": [*(i for i in state.distracted_ready if i != character.id), character.id],
        "distracted_by": list(dict.fromkeys([*state.distracted_by, *named]))})


def new_contact(state: GameState, character: Character, bot: Bot, how: str) -> tuple[GameState, list[Entry]]:
    """R-DISTRACTED-NEW-CONTACT: +1 stack for a new contact while Distracted is active."""
    current = state.character(character.id) or character
    if not current.distracted or current.health <= 0:
        return state, []
    new = current.model_copy(update={"distracted": current.distracted + 1,
                                     "distracted_last_gain": state.turn})
    text = (f"{bot.name} makes a new contact with {current.name} ({how}) while it is Distracted: "
            f"+1 Distracted (now {new.distracted}).")
    return replace(state, new), [Entry(text, "R-DISTRACTED-NEW-CONTACT")]


def walked_into(state: GameState, bot_id: str) -> list[str]:
    """The Characters a bot's activation walked it into base contact with: a Melee decided after
    a move toward that Character (a Melee in slot 1 means it was in contact already)."""
    decision = state.decision(bot_id)
    if decision is None:
        return []
    moved_to = {a.target_id for a in decision.actions if a.family == "maneuver" and (a.move or 0) > 0}
    return [a.target_id for a in decision.actions
            if a.action == "melee" and not a.free and a.target_id in moved_to and a.target_id]
