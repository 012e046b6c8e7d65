"""Free Glitch actions (seed 000: "Free Glitch actions can duplicate a normal action." "Free actions
spend no normal action and do not use up a family." "An impossible result has no effect and is
not rerolled.").

R-GLITCH-FREE-ACTS: a free action does what its normal twin does, at once: a free Reload reloads,
a free Stand Up stands the bot up, a free Scan gives +1 Marked to the Character the player names
in line of sight and zone (R-SCAN), a free Melee or Shoot is resolved in Phase 3 with dice like
a decided one (a free Melee may be a second attack on an opponent still in contact), a free Walk
or Run is moved in Phase 2 (R-PHASE-MOVE). R-GLITCH-IMPOSSIBLE: a free action the bot cannot take
when the Glitch occurs has no effect, is logged as such and leaves nothing pending. A Reboot
stops even free actions (R-GLITCH-REBOOT).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.kernel.commands import Entry
from app.rulesets.potham2038.activation_types import FAMILY_OF
from app.rulesets.potham2038.engagements import contacts, pair_key
from app.rulesets.potham2038.models import Bot, DecidedAction, GameState
from app.rulesets.potham2038.play import add_marked, offline, replace
from app.rulesets.potham2038.slots import put_action

FREE_IN_PHASE_3 = ("melee", "shoot")  # a free attack waits on Phase 3's list like a decided one
FREE_MOVES = ("walk", "run")  # movement belongs to Phase 2 (R-PHASE-MOVE)


@dataclass(frozen=True)
class ScanFacts:
    """The Character a free Scan names and the facts the player reports for it (R-SCAN, R-LOS)."""

    character_id: str | None = None
    line_of_sight: bool = False
    in_zone: bool = False


def _armed(bot: Bot) -> bool:
    return bot.shoot_range is not None and sum(bot.shoot.values()) > 0


def _in_contact(state: GameState, bot: Bot) -> bool:
    """A known opponent still in base contact with the bot (not separated) this turn."""
    return any(b.id == bot.id and pair_key(b, c) not in state.separated for b, c in contacts(state))


def impossible(state: GameState, bot: Bot, action: str, scan: ScanFacts) -> str | None:
    """R-GLITCH-IMPOSSIBLE: why the bot cannot take this free action now, else None."""
    if action == "shoot":
        if not _armed(bot):
            return f"{bot.name} has no ranged weapon"
        if bot.out_of_ammo:
            return f"{bot.name} is out of ammo"
    if action == "reload":
        if not _armed(bot):
            return f"{bot.name} has no ranged weapon to reload"
        if not bot.out_of_ammo:
            return f"{bot.name} is not out of ammo, so there is nothing to reload"
    if action == "stand_up" and not bot.knocked_down:
        return f"{bot.name} is not knocked down, so there is nothing to stand up from"
    if (action == "walk" and bot.walk <= 0) or (action == "run" and bot.run <= 0):
        return f"{bot.name} cannot {action} (its {action.title()} is 0)"
    if action == "melee" and state.phase >= 2 and state.decision(bot.id) is not None \
            and not _in_contact(state, bot):
        return f"{bot.name} is in base contact with no one this turn"
    if action == "scan":
        return _scan_impossible(state, bot, scan)
    return None


def _scan_impossible(state: GameState, bot: Bot, scan: ScanFacts) -> str | None:
    character = state.character(scan.character_id) if scan.character_id else None
    if character is None or character.health <= 0:
        return f"no Character is named in both {bot.name}'s line of sight and its zone"
    if not (scan.line_of_sight and scan.in_zone):
        return (f"{character.name} is not both in {bot.name}'s line of sight and inside its "
                f"{bot.control_zone:g}\" zone")
    return None


def free_action(state: GameState, bot: Bot, action: str,
                scan: ScanFacts | None = None) -> tuple[GameState, str, list[Entry]]:
    """Apply one free Glitch action: (state, the sentence for the Glitch's log line, more entries)."""
    what = action.replace("_", " ")
    if offline(state, bot):
        said = f"A free {what}, but {bot.name} is rebooted: Reboot stops even free actions. No effect."
        return state, said, []
    why = impossible(state, bot, action, scan or ScanFacts())
    if why is not None:
        return state, (f"A free {what}, but {why}: an impossible result has no effect and is not rerolled; "
                       "nothing is left pending."), []
    if action in FREE_IN_PHASE_3:
        return _attack(state, bot, action)
    if action in FREE_MOVES and state.phase != 2:
        return _wait(state, bot, action), (f"A free {what}: movement belongs to Phase 2, so it waits for "
                                           f"{bot.name}'s next activation (it spends no slot)."), []
    return _now(state, bot, action, scan or ScanFacts())


def _attack(state: GameState, bot: Bot, action: str) -> tuple[GameState, str, list[Entry]]:
    what = action.replace("_", " ")
    if state.decision(bot.id) is not None and state.phase <= 3:
        said = f"A free {what}: resolve it in Phase 3 with dice (it spends no slot)."
        return free_on_card(state, bot, action), said, []
    return _wait(state, bot, action), (f"A free {what}: it waits for {bot.name}'s next activation and "
                                       "is resolved in Phase 3 with dice (it spends no slot)."), []


def _now(state: GameState, bot: Bot, action: str, scan: ScanFacts) -> tuple[GameState, str, list[Entry]]:
    """The free action's effect at once (R-GLITCH-FREE-ACTS); on the bot's card when it activated."""
    what = action.replace("_", " ")
    entries: list[Entry] = []
    if action == "reload":
        state = replace(state, bot.model_copy(update={"out_of_ammo": False}))
        done = f"{bot.name} reloads: no longer out of ammo."
    elif action == "stand_up":
        state = replace(state, bot.model_copy(update={"knocked_down": False}))
        done = f"{bot.name} stands up: no longer knocked down."
    elif action == "scan":
        character = state.character(scan.character_id or "")
        assert character is not None  # checked by impossible()
        state, entries = add_marked(state, character, 1, f"{bot.name}'s free Scan", "R-SCAN")
        done = f"{bot.name} scans {character.name}."
    elif action in FREE_MOVES:
        done = f"{bot.name} takes it now, in Phase 2: move it on the table."
    else:
        done = f"{bot.name} takes it now."
    if state.decision(bot.id) is not None:
        state = free_on_card(state, bot, action, phase=state.phase, target=_scanned(state, scan, action))
    return state, f"A free {what}: {done} It spends no slot and may duplicate a normal action.", entries


def _scanned(state: GameState, scan: ScanFacts, action: str) -> tuple[str, str] | None:
    character = state.character(scan.character_id or "") if action == "scan" else None
    return (character.name, character.id) if character else None


def free_on_card(state: GameState, bot: Bot, action: str, phase: int = 3,
                 target: tuple[str, str] | None = None) -> GameState:
    """The free action on the bot's card: pending for Phase 3 (Melee, Shoot), else done."""
    decision = state.decision(bot.id)
    slot = max([2, *(a.slot for a in decision.actions)]) + 1 if decision else 3
    what = action.replace("_", " ")
    name, target_id = target if target else (None, None)
    free = DecidedAction(slot=slot, family=FAMILY_OF.get(action, "maneuver"), action=action,
                         phase=min(max(phase, 1), 4), target=name, target_id=target_id, free=True,
                         status="pending" if action in FREE_IN_PHASE_3 else "done", rule="R-GLITCH-FREE-ACTS",
                         reason=f"A free Glitch action: {what} (spends no slot).")
    return put_action(state, bot.id, free)


def _wait(state: GameState, bot: Bot, action: str) -> GameState:
    return state.model_copy(update={"free_waiting": [*state.free_waiting, f"{bot.id}:{action}"][-100:]})


def take_waiting(state: GameState, bot: Bot) -> tuple[GameState, list[Entry]]:
    """R-PHASE-MOVE: at its activation (Phase 2) the bot's waiting free actions join its card: a
    move is taken now, in Phase 2; a Shoot or Melee waits on Phase 3's list, marked free."""
    mine = [w for w in state.free_waiting if w.startswith(f"{bot.id}:")]
    if not mine:
        return state, []
    state = state.model_copy(update={"free_waiting": [w for w in state.free_waiting if w not in mine]})
    decision = state.decision(bot.id)
    if decision is not None and decision.rebooted:
        return state, [Entry(f"{bot.name} is rebooted: its waiting free actions are lost (Reboot stops even "
                             "free actions).", "R-GLITCH-REBOOT")]
    entries = []
    for wait in mine:
        action = wait.split(":", 1)[1]
        if action in FREE_IN_PHASE_3:
            state = free_on_card(state, bot, action)
            entries.append(Entry(f"{bot.name}'s free Glitch {action}: resolve it in Phase 3 with dice.",
                                 "R-PHASE-MOVE"))
            continue
        state, said, more = free_action(state, state.bot(bot.id) or bot, action)
        entries += [Entry(f"{bot.name}'s waiting free Glitch action. {said}", "R-GLITCH-FREE-ACTS"), *more]
    return state, entries
