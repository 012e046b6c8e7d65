"""Phase 3's engagements: which AI-Bot fights which Character, who attacks, and which action an
attack spends (seed 001 § Phase 3 · Engagement and AI-Bot Shoot).

An engagement is a bot and a Character in base contact this turn, decided or not: the Melee a
bot decided, and every Character the player reported in base contact when the bot activated
(while the bot did not move away). A rebooted bot's contacts count too: it is fought, it does
not fight (R-CMB-WHO). Each pairing is resolved on its own (R-CMB-GANGUP); an engagement is
settled once fought (`GameState.engaged`) or reported out of contact (`GameState.separated`);
a pair pushed apart by a melee is in both: no longer a melee a shot must check.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rulesets.potham2038.combat import Side, points_clause, who_attacks
from app.rulesets.potham2038.models import Bot, Character, DecidedAction, Decision, GameState
from app.rulesets.potham2038.play import offline
from app.rulesets.potham2038.slots import open_slot


def pair_key(bot: Bot, character: Character) -> str:
    return f"{bot.id}:{character.id}"


def _moved(actions: list[DecidedAction]) -> bool:
    return any(a.family == "maneuver" and (a.move or 0) > 0 and a.status == "done" for a in actions)


def reported(state: GameState, bot_id: str) -> list[str]:
    """The Characters the player reported in base contact with this bot in Phase 1
    (`contacts_reported`, R-LOS), in the order reported."""
    return [k.partition(":")[2] for k in state.contacts_reported if k.partition(":")[0] == bot_id]


def contacts(state: GameState) -> list[tuple[Bot, Character]]:
    """Every known base contact this turn between models still in the fight, in activation
    order: each bot's decided Melee first, then the others it was reported touching (at its
    activation, or in Phase 1: `contacts_reported`), then the Phase 1 contacts of bots not
    activated. A bot that moved in its activation keeps none of the earlier contacts (R-ACT-FACTS);
    a pair the player finds apart is reported so on its Phase 3 card ("Apart: no melee")."""
    found: list[tuple[Bot, Character]] = []
    activated = [d.bot_id for d in state.decisions]
    idle = [k.partition(":")[0] for k in state.contacts_reported]
    for bot_id in dict.fromkeys([*activated, *(b for b in idle if b not in activated)]):
        bot, decision = state.bot(bot_id), state.decision(bot_id)
        if bot is None or bot.health <= 0:
            continue
        for character_id in _touching(state, bot_id, decision):
            character = state.character(character_id)
            if character is not None and character.health > 0:
                found.append((bot, character))
    return found


def _touching(state: GameState, bot_id: str, decision: Decision | None) -> list[str]:
    if decision is None:
        return list(dict.fromkeys(reported(state, bot_id)))
    ids = [a.target_id for a in decision.actions if a.action == "melee" and a.target_id and not a.free]
    if not _moved(decision.actions):  # after a move the old contacts are unknown (R-ACT-FACTS)
        ids += [s.character_id for s in decision.seen if s.base_contact]
        ids += reported(state, bot_id)
    return list(dict.fromkeys(ids))


def settled(state: GameState, bot: Bot, character: Character) -> bool:
    """Fought (`engaged`) or reported apart before any melee (`separated` alone). A pair fought
    and still in contact is open again while the bot has a free Glitch Melee waiting: its second
    attack on an opponent still in contact (R-GLITCH-FREE-ACTS)."""
    key = pair_key(bot, character)
    if key in state.separated:
        return True
    return key in state.engaged and free_melee(state, bot) is None


def free_melee(state: GameState, bot: Bot) -> DecidedAction | None:
    """The bot's pending free Glitch Melee (R-GLITCH-ANY), unless a Reboot stops it."""
    if offline(state, bot):
        return None
    return next((a for a in _mine(state, bot) if a.free and a.action == "melee"), None)


def second_bout(state: GameState, bot: Bot, character: Character) -> bool:
    """R-GLITCH-FREE-ACTS: this pair already fought this phase, is still in contact, and the bot
    attacks again with its free Melee."""
    key = pair_key(bot, character)
    return key in state.engaged and key not in state.separated and free_melee(state, bot) is not None


def open_engagements(state: GameState) -> list[tuple[Bot, Character]]:
    """R-CMB-GANGUP: engagements, decided or not, neither fought nor separated this phase. Every
    AI-Bot Shoot waits for them (seed 001 "AFTER MELEE · ELIGIBLE NPC RANGED ATTACKS")."""
    return [(b, c) for b, c in contacts(state) if not settled(state, b, c)]


def in_melee_with(state: GameState, character: Character) -> list[Bot]:
    """The bots still in base contact with `character` (not separated): a shot at it goes into a
    melee, so the Black Die target check is rolled (R-CMB-TARGET-FACTS)."""
    return [b for b, c in contacts(state)
            if c.id == character.id and pair_key(b, c) not in state.separated]


def melee_of(state: GameState, model_id: str) -> list[str]:
    """R-CMB-BLACK-KNOWN: every other model in the melee `model_id` is part of, as the app knows it
    (base contacts recorded this turn, not separated, models still in the fight): the models in
    contact with it, and theirs in turn (a gang-up is one melee). Empty: not in a known melee."""
    pairs = [(b.id, c.id) for b, c in contacts(state) if pair_key(b, c) not in state.separated]
    found, frontier = {model_id}, [model_id]
    while frontier:
        here = frontier.pop()
        for a, b in pairs:
            for this, other in ((a, b), (b, a)):
                if this == here and other not in found:
                    found.add(other)
                    frontier.append(other)
    ordered = [i for pair in pairs for i in pair]
    return [i for i in dict.fromkeys(ordered) if i in found and i != model_id]


def _mine(state: GameState, bot: Bot) -> list[DecidedAction]:
    return [a for b, a in state.pending_actions() if b == bot.id]


def attack_for(state: GameState, bot: Bot, character: Character) -> DecidedAction | int | None:
    """R-CMB-GANGUP, R-CMB-NOACTION: the action the bot's attack in this pairing spends. Its
    decided Melee at this Character; else a free Melee (R-GLITCH-ANY); else nothing while its
    decided Melee waits for another pairing; else its pending Attack, or an open slot with the
    Attack family unused (the first pairing it attacks in); else None: it cannot attack here.
    A bot the player never activated this turn has no recorded actions to check: it may attack
    once this phase (0: nothing recorded to spend)."""
    if offline(state, bot):
        return None
    if state.decision(bot.id) is None:
        return None if any(k.startswith(f"{bot.id}:") for k in state.bot_attacked) else 0
    mine = _mine(state, bot)
    for action in mine:
        if action.action == "melee" and not action.free and action.target_id == character.id:
            return action
    free = next((a for a in mine if a.free and a.action == "melee"), None)
    if free is not None:
        return free
    elsewhere = [a for a in mine if a.action == "melee" and not a.free]
    if any(_still_waits(state, bot, a) for a in elsewhere):
        return None
    normal = next((a for a in mine if a.family == "attack" and not a.free), None)
    return normal if normal is not None else open_slot(state, bot.id, "attack")


def _still_waits(state: GameState, bot: Bot, action: DecidedAction) -> bool:
    target = state.character(action.target_id or "")
    return target is not None and target.health > 0 and not settled(state, bot, target)


@dataclass(frozen=True)
class WhoAttacks:
    """R-CMB-WHO for one pairing: the default side and why, and the sides the player may name."""

    side: Side
    why: str
    choices: tuple[Side, ...]
    spends: DecidedAction | int | None  # what the bot's attack spends; None: it cannot attack


def who_attacks_here(state: GameState, bot: Bot, character: Character) -> WhoAttacks:
    """A rebooted bot never attacks; a bot with no Attack action left only Defends; otherwise
    the higher points attack (a tie: the NPC) and a Special Rule may name either side."""
    if offline(state, bot):
        return WhoAttacks("character", f"{bot.name} is rebooted: it never attacks and rolls no Defense",
                          ("character",), None)
    if second_bout(state, bot, character):
        return WhoAttacks("npc", f"{bot.name}'s free Glitch Melee is a second attack on {character.name}, "
                          "still in base contact", ("npc",), free_melee(state, bot))
    spends = attack_for(state, bot, character)
    if spends is None:
        reserved = next((a.target for a in _mine(state, bot)
                         if a.action == "melee" and not a.free and _still_waits(state, bot, a)), None)
        why = (f"{bot.name}'s one Attack action is for its melee with {reserved}, so here it only Defends"
               if reserved else f"{bot.name} has no Attack action left, so it only Defends")
        return WhoAttacks("character", why, ("character",), None)
    side, _ = who_attacks(bot.points, character.points)
    return WhoAttacks(side, points_clause(bot.points, character.points), ("npc", "character"), spends)
