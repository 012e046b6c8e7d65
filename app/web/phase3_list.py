"""Phase 3 as one list in resolution order (issue 15, "The page"): every engagement first, decided
or not (a bot's decided Melee, the other Characters it touches, a rebooted bot's contacts), then
the AI-Bot shots, then the open slots and other pending actions. Each card carries who attacks
(preset, changeable), whether it can still happen, and once resolved the result of its step.

A thin page-side adapter over the state and the steps of this phase: the rules engine stays the
judge (every button posts an engine command); this only decides what the page shows and presets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, get_args

from sqlmodel import Session, col, select

from app import games
from app.rules.combat import who_attacks
from app.rules.models import Bot, Character, DecidedAction, GameState
from app.rules.play import offline
from app.rules.redecide import Redecide
from app.rules.slots import family_used, open_slot, taken
from app.tables import Step


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
    """Every bot-Character pair in base contact this turn: decided Melees first, in activation
    order, then the contacts each activation reported (a gang-up's other Character, a rebooted
    bot's contact), then pairs resolved from the manual form."""
    pairs: dict[tuple[str, str], DecidedAction | None] = {}
    for d in state.decisions:
        for a in d.actions:
            if a.action == "melee" and a.target_id and not a.free:
                pairs.setdefault((d.bot_id, a.target_id), a)
    for d in state.decisions:
        for seen in d.seen:
            if seen.base_contact:
                pairs.setdefault((d.bot_id, seen.character_id), None)
    for key in state.engaged:
        bot_id, _, character_id = key.partition(":")
        pairs.setdefault((bot_id, character_id), None)
    found = []
    for (bot_id, character_id), action in pairs.items():
        bot, character = state.bot(bot_id), state.character(character_id)
        if bot is not None and character is not None:
            found.append((bot, character, action))
    return found


def preset_attacker(state: GameState, bot: Bot, character: Character,
                    action: DecidedAction | None) -> tuple[str, str, str]:
    """Who attacks unless the player changes it, why, and the rule (R-CMB-WHO, R-CMB-GANGUP,
    R-CMB-NOACTION, R-GLITCH-REBOOT)."""
    side, why = who_attacks(bot.points, character.points)
    if offline(state, bot):
        return ("character", f"{bot.name} is rebooted: it cannot attack and rolls no Defense.",
                "R-GLITCH-REBOOT")
    if action is None and side == "npc":
        other = next((a for a in _melees(state, bot) if a.target_id != character.id), None)
        if other is not None:
            return ("character", f"Gang-up: {bot.name}'s one Attack action is for {other.target}; "
                    "here it only Defends.", "R-CMB-GANGUP")
        if open_slot(state, bot.id, "attack") is None:
            return "character", f"{bot.name} has no Attack action left: it only Defends.", "R-CMB-NOACTION"
    return side, why, "R-CMB-WHO"


def _melees(state: GameState, bot: Bot) -> list[DecidedAction]:
    decision = state.decision(bot.id)
    actions = decision.actions if decision else []
    return [a for a in actions if a.action == "melee" and a.status != "skipped"]


def engagement_cards(state: GameState, results: dict[tuple, list]) -> list[Card]:
    cards = []
    for bot, character, action in contact_pairs(state):
        side, why, rule = preset_attacker(state, bot, character, action)
        fid = f"melee-{bot.id}" if action is not None else f"melee-{bot.id}-{character.id}"
        card = Card("engagement", f"engagement-{bot.id}-{character.id}", fid, bot, character, action,
                    action.slot if action else None, side, why, rule,
                    result=results.get(("melee", bot.id, character.id)))
        settled = card.result is not None or (action is not None and action.status != "pending")
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


def open_pairs(cards: list[Card]) -> list[tuple[Bot, Character]]:
    """R-CMB-GANGUP: AI-Bot shots wait until every engagement, decided or not, is settled."""
    return [(c.bot, c.character) for c in cards
            if c.kind == "engagement" and c.result is None and not c.gone and c.character is not None]


def still_in_melee(cards: list[Card], target_id: str) -> list[str]:
    """Models still in base contact with the target: its engagements not pushed apart nor ended."""
    found = []
    for c in cards:
        if c.kind != "engagement" or c.character is None or c.character.id != target_id or c.gone:
            continue
        said = " ".join(str(e.get("text", "")).lower() for e in (c.result or []))
        apart = "push back" in said or "no longer in base contact" in said
        if not apart and c.bot.health > 0:
            found.append(c.bot.id)
    return found


# --- shots, open slots, other actions --------------------------------------------------------


def armed(bot: Bot) -> bool:
    return bot.shoot_range is not None and bool(sum(bot.shoot.values()))


def redecisions(state: GameState, bot: Bot, slot: int) -> list[str]:
    """R-PHASE-MOVE: the legal re-decisions of an open slot in Phase 3 (never a move): Scan while
    the Scan family is unused, Reload when out of ammo, Interact, where the engine offers them."""
    if offline(state, bot) or bot.health <= 0:
        return []
    offered = get_args(Redecide.model_fields["action"].annotation)
    interact_free = not family_used(state, bot.id, "interact", but=slot)
    legal = {"scan": not family_used(state, bot.id, "scan", but=slot),
             "reload": interact_free and armed(bot) and bot.out_of_ammo,
             "interact": interact_free}
    return [a for a in ("scan", "reload", "interact") if a in offered and legal[a]]


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
            "held": open_pairs(engagements), "engagement_cards": engagements}


def preset_card(state: GameState, bot: Bot, character: Character) -> Card:
    """The preset of one pair, as its card has it (for the odds fragment)."""
    action = next((a for b, c, a in contact_pairs(state) if b.id == bot.id and c.id == character.id), None)
    side, why, rule = preset_attacker(state, bot, character, action)
    return Card("engagement", "", "", bot, character, action, attacker=side, why=why, rule=rule)
