"""Phase 3 as one list in resolution order ("The page"): every engagement first, decided
or not (a bot's decided Melee, the other Characters it touches, a rebooted bot's contacts, the
base contacts the player reported in Phase 1: engagements.contacts), then
the AI-Bot shots, then the open slots and other pending actions. Each card carries who attacks
(preset, changeable), whether it can still happen, and once resolved the result of its step.

A thin page-side adapter over the state and the steps of this phase: the rules engine stays the
judge (every button posts an engine command); this only decides what the page shows and presets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sqlmodel import Session, col, select

from app.rulesets.potham2038.combat import who_attacks
from app.rulesets.potham2038.engagements import contacts, in_melee_with, open_engagements, who_attacks_here
from app.rulesets.potham2038.models import Bot, Character, DecidedAction, GameState
from app.rulesets.potham2038.phase3_agenda import redecisions as agenda_redecisions
from app.rulesets.potham2038.play import offline
from app.rulesets.potham2038.slots import open_slot, taken
from app.store import games
from app.store.tables import Step


@dataclass
class Card:
    kind: str  # "engagement" | "shot" | "slot" | "other"
    id: str  # the card's DOM id
    fid: str  # its main form's id
    bot: Bot
    character: Character | None = None
    action: DecidedAction | None = None  # the decided action it resolves (None: undecided)
    slot: int | None = None
    attacker: str = ""  # engagements: the preset, "npc" or "character"
    why: str = ""  # why that side attacks
    rule: str = ""
    choices: tuple[str, ...] = ("npc", "character")  # the sides the player may name
    result: list[dict[str, Any]] | None = None  # the entries of the step that settled it
    gone: str = ""  # why it cannot happen any more ("Ada is out of action")
    redecide: list[str] = field(default_factory=list)  # the slot's legal re-decisions


# --- the steps of this phase -------------------------------------------------------------------


def result_key(kind: str, command: dict[str, Any]) -> tuple | None:
    if kind == "resolve_melee":
        return ("melee", command.get("bot_id"), command.get("character_id"))
    if kind == "bot_shoot":
        return ("shot", command.get("bot_id"))
    if kind in ("redecide", "resolve_fallback"):
        return ("slot", command.get("bot_id"), command.get("slot"))
    return None


def phase_results(session: Session, game_id: int) -> dict[tuple, list[dict[str, Any]]]:
    """The entries of each Phase 3 step still in force, by what it settled: the chain of steps the
    game shows (an undo jumps back, as the log reads it), newest first, back to the step that
    began this phase."""
    rows = session.exec(select(Step.seq, Step.kind, Step.command, Step.entries)
                        .where(Step.game_id == game_id).order_by(col(Step.seq).desc()).limit(300)).all()
    by_seq = {r.seq: r for r in rows}
    if not by_seq:
        return {}
    found: dict[tuple, list[dict[str, Any]]] = {}
    seq: int | None = games.shown_position(by_seq[max(by_seq)])  # type: ignore[arg-type]
    while seq is not None and seq in by_seq:
        step = by_seq[seq]
        if step.kind in ("next_phase", "end_turn"):
            break
        key = result_key(step.kind, step.command or {})
        if key is not None:
            found.setdefault(key, step.entries or [])
        before = by_seq.get(seq - 1)
        seq = games.shown_position(before) if before is not None else None  # type: ignore[arg-type]
    return found


# --- engagements -------------------------------------------------------------------------------


def contact_pairs(state: GameState) -> list[tuple[Bot, Character, DecidedAction | None]]:
    """Every bot-Character pair in base contact this turn, in the engine's order (decided Melees
    first, then the contacts each activation reported: engagements.contacts), then the pairs
    it no longer lists because a model went out of action: a decided Melee (its card offers to
    re-decide) and a pair fought this phase (its card shows the result)."""
    keys = [(b.id, c.id) for b, c in contacts(state)]
    decided: dict[tuple[str, str], DecidedAction] = {}
    for d in state.decisions:
        for a in d.actions:
            if a.action == "melee" and a.target_id and not a.free:
                decided.setdefault((d.bot_id, a.target_id), a)
    later = [*decided, *(tuple(k.partition(":")[::2]) for k in [*state.engaged, *state.separated])]
    found = []
    for bot_id, character_id in dict.fromkeys([*keys, *later]):
        bot, character = state.bot(bot_id), state.character(character_id)
        if bot is not None and character is not None:
            found.append((bot, character, decided.get((bot_id, character_id))))
    return found


def preset_attacker(state: GameState, bot: Bot, character: Character) -> tuple[str, str, str, tuple]:
    """Who attacks unless the player changes it, why, the rule and the sides the player may name
    (the engine's reading: engagements.who_attacks_here; R-CMB-WHO, R-CMB-GANGUP, R-CMB-NOACTION,
    R-GLITCH-REBOOT)."""
    who = who_attacks_here(state, bot, character)
    rule = "R-CMB-WHO"
    if who.choices == ("character",):
        rule = "R-GLITCH-REBOOT" if offline(state, bot) else "R-CMB-NOACTION"
    elif who.side == "character" and bot.points > character.points:
        rule = "R-CMB-GANGUP"
    side, why = who_attacks(bot.points, character.points)  # the points default, in the combat rules' words
    if who.side != side or rule != "R-CMB-WHO":
        why = f"{who.why[:1].upper()}{who.why[1:]}."
    return who.side, why, rule, tuple(who.choices)


def engagement_cards(state: GameState, results: dict[tuple, list]) -> list[Card]:
    cards = []
    for bot, character, action in contact_pairs(state):
        side, why, rule, choices = preset_attacker(state, bot, character)
        fid = f"melee-{bot.id}" if action is not None else f"melee-{bot.id}-{character.id}"
        card = Card("engagement", f"engagement-{bot.id}-{character.id}", fid, bot, character, action,
                    action.slot if action else None, side, why, rule, choices=choices,
                    result=results.get(("melee", bot.id, character.id)))
        settled = (card.result is not None or (action is not None and action.status != "pending")
                   or f"{bot.id}:{character.id}" in [*state.engaged, *state.separated])
        if not settled:
            down = [m.name for m in (bot, character) if m.health <= 0]
            verb = "is" if len(down) == 1 else "are"
            card.gone = f"{' and '.join(down)} {verb} out of action" if down else ""
            if card.gone and action is not None and bot.health > 0:
                card.redecide = redecisions(state, bot, action.slot)
        elif card.result is None:
            card.result = [{"text": f"{action.action.title()}: {action.status}."}] if action else []
        cards.append(card)
    return cards


def still_in_melee(state: GameState, target_id: str) -> list[str]:
    """The bots still in base contact with the target (engagements.in_melee_with): a shot at it
    goes into a melee and the Black Die target check is rolled (R-CMB-TARGET-FACTS)."""
    target = state.character(target_id)
    return [b.id for b in in_melee_with(state, target)] if target is not None else []


# --- shots, open slots, other actions --------------------------------------------------------


def armed(bot: Bot) -> bool:
    return bot.shoot_range is not None and bool(sum(bot.shoot.values()))


def redecisions(state: GameState, bot: Bot, slot: int) -> list[str]:
    """R-PHASE-MOVE: the legal re-decisions of an open slot in Phase 3, never a move (the engine's
    reading: phase3_agenda.redecisions); a rebooted or destroyed bot has none."""
    if offline(state, bot) or bot.health <= 0:
        return []
    return list(agenda_redecisions(state, bot, slot)[0])


def shot_cards(state: GameState, results: dict[tuple, list]) -> list[Card]:
    cards = []
    for d in state.decisions:
        bot = state.bot(d.bot_id)
        for a in d.actions if bot else []:
            if a.action != "shoot" or a.free and a.status != "pending":
                continue
            target = state.character(a.target_id) if a.target_id else None
            card = Card("shot", f"shot-{bot.id}", f"shoot-{bot.id}", bot, target, a, a.slot,
                        result=results.get(("shot", bot.id)) or results.get(("slot", bot.id, a.slot)))
            if card.result is None and a.status == "pending":
                if target is not None and target.health <= 0:
                    card.gone = f"{target.name} is out of action"
                card.redecide = redecisions(state, bot, a.slot) if card.gone or bot.out_of_ammo else []
            elif card.result is None:
                card.result = [{"text": f"Shoot: {a.status}."}]
            cards.append(card)
    shooting = {c.bot.id for c in cards}
    for bot in state.in_order():  # R-CMB-SHOOT-ACTION: an open slot with the Attack family unused
        slot = open_slot(state, bot.id, "attack")
        if (bot.id not in shooting and slot is not None and bot.health > 0 and not offline(state, bot)
                and armed(bot) and not bot.out_of_ammo):
            cards.append(Card("shot", f"shot-{bot.id}", f"shoot-{bot.id}", bot, slot=slot,
                              redecide=redecisions(state, bot, slot)))
    return cards


def slot_cards(state: GameState, results: dict[tuple, list], covered: set[tuple[str, int]]) -> list[Card]:
    """Each activated bot's open slots (with their legal re-decisions), pending actions that are
    neither Melee nor Shoot (done or skipped by the player), and slots re-decided this phase."""
    cards = []
    for bot in state.in_order():
        decision = state.decision(bot.id)
        if decision is None or bot.health <= 0 or offline(state, bot):
            continue
        used = {a.slot for a in taken(state, bot.id)}
        for a in decision.actions:
            if a.status == "pending" and a.action not in ("melee", "shoot"):
                cards.append(Card("other", f"other-{bot.id}-{a.slot}", f"fallback-{bot.id}-{a.slot}", bot,
                                  action=a, slot=a.slot))
        for slot in (1, 2):
            if (bot.id, slot) in covered:
                continue
            result = results.get(("slot", bot.id, slot))
            if slot not in used or result is not None:
                cards.append(Card("slot", f"slot-{bot.id}-{slot}", f"redecide-{bot.id}-{slot}", bot,
                                  slot=slot, result=result,
                                  redecide=[] if result else redecisions(state, bot, slot)))
    return [c for c in cards if c.result is not None or c.redecide or c.kind == "other"]


def phase3_list(state: GameState, results: dict[tuple, list]) -> dict[str, Any]:
    engagements = engagement_cards(state, results)
    shots = shot_cards(state, results)
    covered = {(c.bot.id, c.slot) for c in engagements + shots if c.slot is not None}
    return {"cards": engagements + shots + slot_cards(state, results, covered),
            "held": open_engagements(state)}


def preset_card(state: GameState, bot: Bot, character: Character) -> Card:
    """The preset of one pair, as its card has it (for the odds fragment)."""
    side, why, rule, choices = preset_attacker(state, bot, character)
    return Card("engagement", "", "", bot, character, attacker=side, why=why, rule=rule, choices=choices)
