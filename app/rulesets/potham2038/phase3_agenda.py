"""Phase 3's agenda: everything left to resolve, in the order seed 001 resolves it.

`agenda(state) -> list[EngagementItem | ShotItem | SlotItem]`, pure and frozen, for the page
and the JSON side alike:

1. **Engagements** (`EngagementItem`), decided and undecided alike, in activation order
   (R-CMB-GANGUP): each bot–Character pair in base contact this turn, with `status` "open",
   "fought" (`fought_by`: the side that attacked) or "separated"; `attacker` is the default
   side and `why` says why (R-CMB-WHO: points; a rebooted bot or one with no Attack action
   left: the Character); `choices` are the sides the
   player may name (`resolve_melee`'s `attacker`); `spends_attack` says whether the bot's
   Attack action is spent if it attacks (False for a free Glitch Melee, and when it cannot attack).
2. **AI-Bot shots** (`ShotItem`): each pending Shoot, decided, free or a bot that may still
   shoot with an open slot (`decided` False, no target yet). `intended_id` is the Character it
   planned to shoot; `facts_known` False when the plan's line of sight and range are unknown
   after its move (R-ACT-FACTS: `bot_shoot` always carries both facts for the Character it
   names, R-CMB-TARGET-FACTS); `target_out` True when that Character is out of action, so the
   shot must be re-decided (another target with its facts, or a `redecide`); `into_melee` lists
   the bots still in contact with the target (the Black Die target check is rolled); `blocked`
   True while any engagement is open (they are listed in `blocked_by` as "bot:character").
3. **Open slots** (`SlotItem`): slot 1 or 2 of an activated bot that nothing fills, with its
   legal re-decisions (`redecide`'s scan, reload, interact) or, when none, `reason`. Never a
   movement: movement belongs to Phase 2 (R-PHASE-MOVE).

A rebooted or destroyed bot has no shots and no slots; a rebooted bot's engagements stay (it is
fought, it does not fight).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rulesets.potham2038.combat import Side
from app.rulesets.potham2038.engagements import (
    contacts,
    in_melee_with,
    open_engagements,
    pair_key,
    who_attacks_here,
)
from app.rulesets.potham2038.models import Bot, DecidedAction, GameState
from app.rulesets.potham2038.play import offline
from app.rulesets.potham2038.slots import family_used, open_slot, taken


@dataclass(frozen=True)
class EngagementItem:
    bot_id: str
    character_id: str
    status: str  # "open" | "fought" | "separated"
    decided: bool  # the bot decided this Melee (its card's action)
    slot: int | None  # the decided Melee's slot, if any
    attacker: Side  # the default side (R-CMB-WHO)
    why: str
    choices: tuple[Side, ...]  # the sides resolve_melee's `attacker` may name
    spends_attack: bool  # attacking here spends the bot's Attack action (R-CMB-GANGUP)
    rebooted: bool  # the bot never attacks and rolls no Defense
    fought_by: Side | None = None  # once fought: the side that attacked (the log has the dice)
    kind: str = "engagement"


@dataclass(frozen=True)
class ShotItem:
    bot_id: str
    slot: int | None  # None: a new Shoot would take an open slot
    decided: bool
    free: bool  # a free Glitch Shoot (R-GLITCH-ANY): spends no slot
    intended_id: str | None
    facts_known: bool
    target_out: bool
    into_melee: tuple[str, ...]
    blocked: bool
    blocked_by: tuple[str, ...]
    kind: str = "shot"


@dataclass(frozen=True)
class SlotItem:
    bot_id: str
    slot: int
    redecisions: tuple[str, ...]  # "scan" | "reload" | "interact"; never a movement (R-PHASE-MOVE)
    reason: str  # why the slot is open, or why it stays empty
    kind: str = "slot"


Item = EngagementItem | ShotItem | SlotItem


def agenda(state: GameState) -> list[Item]:
    """Phase 3 in resolution order: engagements, then shots, then open slots (module docstring)."""
    waiting = tuple(pair_key(b, c) for b, c in open_engagements(state))
    return [*_engagements(state), *_shots(state, waiting), *_slots(state)]


def _engagements(state: GameState) -> list[EngagementItem]:
    items = []
    for bot, character in contacts(state):
        key = pair_key(bot, character)
        decided = _decided_melee(state, bot, character.id)
        status = "fought" if key in state.engaged else "separated" if key in state.separated else "open"
        who = who_attacks_here(state, bot, character)
        spends = isinstance(who.spends, int) and who.spends > 0 or (
            isinstance(who.spends, DecidedAction) and not who.spends.free)
        fought_by = None if status != "fought" else "npc" if key in state.bot_attacked else "character"
        items.append(EngagementItem(bot.id, character.id, status, decided is not None,
                                    decided.slot if decided else None, who.side, who.why, who.choices,
                                    bool(spends), offline(state, bot), fought_by))
    return items


def _decided_melee(state: GameState, bot: Bot, character_id: str) -> DecidedAction | None:
    decision = state.decision(bot.id)
    return next((a for a in (decision.actions if decision else [])
                 if a.action == "melee" and not a.free and a.target_id == character_id), None)


def _active(state: GameState) -> list[Bot]:
    return [b for b in state.in_order()
            if b.health > 0 and state.decision(b.id) is not None and not offline(state, b)]


def _armed(bot: Bot) -> bool:
    return bot.shoot_range is not None and sum(bot.shoot.values()) > 0


def _shots(state: GameState, waiting: tuple[str, ...]) -> list[ShotItem]:
    items = []
    for bot in _active(state):
        pending = [a for b, a in state.pending_actions() if b == bot.id and a.action == "shoot"]
        for action in pending:
            target = state.character(action.target_id or "")
            out = target is None or target.health <= 0
            melee = tuple(b.id for b in in_melee_with(state, target)) if target and not out else ()
            items.append(ShotItem(bot.id, action.slot, True, action.free, action.target_id,
                                  not action.conditional and not out, out, melee, bool(waiting), waiting))
        slot = open_slot(state, bot.id, "attack")
        if not pending and _armed(bot) and not bot.out_of_ammo and slot:
            items.append(ShotItem(bot.id, slot, False, False, None, False, False, (), bool(waiting), waiting))
    return items


def redecisions(state: GameState, bot: Bot, slot: int) -> tuple[tuple[str, ...], str]:
    """R-PHASE-MOVE: the legal re-decisions of one slot in Phase 3 (Scan, Reload, Interact,
    one per family: R-ACT-TWO), and the reason when none is left. The facts (line of sight and
    zone for a Scan, base contact for an Interact) are asked when it is taken."""
    legal = []
    if not family_used(state, bot.id, "scan", but=slot):
        legal.append("scan")
    interact_free = not family_used(state, bot.id, "interact", but=slot)
    if interact_free and _armed(bot) and bot.out_of_ammo:
        legal.append("reload")
    if interact_free:
        legal.append("interact")
    if legal:
        ways = ", ".join(legal)
        return tuple(legal), f"Slot {slot} is open: it may become {ways} (no movement in Phase 3)."
    return (), (f"Slot {slot} stays empty: its Scan and Interact families are used and movement belongs "
                "to Phase 2 (R-PHASE-MOVE).")


def _slots(state: GameState) -> list[SlotItem]:
    items = []
    for bot in _active(state):
        used = {a.slot for a in taken(state, bot.id)}
        for slot in (1, 2):
            if slot not in used:
                legal, reason = redecisions(state, bot, slot)
                items.append(SlotItem(bot.id, slot, legal, reason))
    return items
