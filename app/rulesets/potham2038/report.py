"""What the battle report reads out of a Potham 2038 game (app/kernel/report.py's contract).

The threat is the Danger track at the end of each turn against its limit (R-DANGER). The
narrative is the log's own sentences, sorted: the turn's Event (R-EVENT-ONE), each AI-Bot's two
actions with their reason (R-ACT-TWO), each attack with its exact odds before the roll, worked
out again from the dice the log holds (R-CMB-ROLL, R-CMB-DAMAGE), Glitches (R-GLITCH) and every
move of the Danger track. Luck counts Hits: each die's chance of a Hit comes from the game's own
face table (rules.md § Dice).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from app.kernel.report import Attack, Member, Piece, Roll, Side, State, Step
from app.rulesets.potham2038.combat import attack_pool_against
from app.rulesets.potham2038.dice import HIT_FACES, attack_odds, hit_distribution
from app.rulesets.potham2038.house_rules import HouseRules, default_faces
from app.rulesets.potham2038.shooting import defense_pool_with_cover

ATTACKS = {"resolve_melee", "bot_shoot", "character_shoot"}
ACTION = re.compile(r"^(?P<who>.+?), action (?P<slot>\d+): (?P<what>.+?)\. (?P<why>.+)$")


class PothamReport:
    turn_end = "end_turn"
    turn_word = "Turn"
    threat_name = "Danger"
    threat_per_turn = False
    sides = {"characters": "the Characters", "npcs": "the AI-Bots"}
    luck_unit = "Hits"

    def turn_of(self, state: State) -> int:
        return int(state.get("turn", 1))

    def threat(self, state: State) -> dict[str, float]:
        return {"Danger": state.get("danger", 0)}

    def threat_limit(self, state: State) -> float | None:
        return state.get("house", {}).get("danger_limit", 24)

    def roster(self, state: State) -> list[Member]:
        return [Member(m["id"], m["name"], side, m.get("health", 0) <= 0,
                       f"Health {m.get('health', 0)}/{m.get('max_health', 0)}")
                for key, side in (("characters", "characters"), ("bots", "npcs"))
                for m in state.get(key, [])]

    def outcome(self, state: State) -> str | None:
        status, limit = state.get("status"), self.threat_limit(state)
        if status == "failed":
            return f"The mission failed: Danger went over its limit of {limit}."
        if status == "ended":
            return f"The game ended: Danger reached {limit} and the final turn was played."
        if status == "final_turn":
            return f"Danger reached {limit}: the game ends after this turn."
        return None

    def pieces(self, step: Step) -> list[Piece]:
        out: list[Piece] = []
        for entry in step.entries:
            piece = self._piece(step, entry)
            if piece is not None:
                out.append(piece)
        return out

    def _piece(self, step: Step, entry: Mapping[str, Any]) -> Piece | None:
        text, rule, dice = entry.get("text", ""), entry.get("rule"), entry.get("dice") or {}
        if step.kind == "record_event" and text.startswith("Event:"):
            return Piece("event", text, rule, source=text)
        if step.kind in ATTACKS and "attack_total" in dice:
            return _attack(step, text, rule, dice)
        if step.kind == "activate_bot" and (found := ACTION.match(text)):
            said = f"{found['who']}: {found['what']} ({short(found['why'])})"
            return Piece("action", said, rule, source=text)
        if (rule or "").startswith("R-GLITCH") and "Glitch" in text:
            return Piece("glitch", text, rule, source=text)
        if "Danger" in text and ("→" in text or "over the limit" in text):
            return Piece("danger", text, rule, source=text)
        return None


def short(reason: str, most: int = 90) -> str:
    """The reason in a few words: its first clause, cut at a word."""
    first = re.split(r"(?<=[a-z0-9\"”]), (?:so|and|but|which)\b|; |\. ", reason, maxsplit=1)[0].rstrip(".")
    if len(first) <= most:
        return first
    return first[:most].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def _names(step: Step) -> tuple[str, str]:
    """The AI-Bot's and the Character's names in an attack (from the state before it)."""
    command, state = step.command, step.before
    bot_id = command.get("bot_id") or (command.get("target_id") if step.kind == "character_shoot" else None)
    char_id = command.get("character_id")
    bot = next((b["name"] for b in state.get("bots", []) if b["id"] == bot_id), "an AI-Bot")
    char = next((c["name"] for c in state.get("characters", []) if c["id"] == char_id), "a Character")
    return bot, char


def _attack(step: Step, text: str, rule: str | None, dice: Mapping[str, Any]) -> Piece:
    bot, char = _names(step)
    faces = step.before.get("house", {}).get("dice_faces") or default_faces()
    if step.kind == "resolve_melee":
        npc_first = text.startswith(bot) and not text.startswith(char)
        side: Side = "npcs" if npc_first else "characters"
        mine, theirs = ("npc", "character") if npc_first else ("character", "npc")
        what = "melee"
    else:
        side = "npcs" if step.kind == "bot_shoot" else "characters"
        mine, theirs = "attack", "defense"
        what = "Shoot"
    attacker, target = (bot, char) if side == "npcs" else (char, bot)
    other: Side = "characters" if side == "npcs" else "npcs"
    rolled, against = dice.get(mine) or {}, dice.get(theirs) or {}
    no_defense = not against.get("faces") and not against.get("hits") and against.get("by") != "entered"
    pools = (pool_of(rolled), {} if no_defense else pool_of(against))  # (a rebooted bot rolls none)
    if None in pools:  # dice entered as totals: the pools the app would have rolled
        pools = _pools(step, side, bool(step.command.get("counter_attack")))
    odds = _odds(pools, rolled, against, dice, faces, melee=step.kind == "resolve_melee")
    odds_text = f"{odds:.0%} to do damage" if odds is not None else "odds not known"
    rolls = tuple(r for r in (_roll(side, f"{attacker}'s {what}", rolled, pools[0], faces),
                              _roll(other, f"{target}'s defence", against, pools[1], faces)) if r is not None)
    return Piece("attack", text, rule, Attack(attacker, target, side, odds, odds_text, text,
                                              int(dice.get("damage") or 0), rule), rolls, source=text)


def pool_of(roll: Mapping[str, Any]) -> dict[str, int] | None:
    """The dice a roll was made with, by colour, when its faces are in the log."""
    faces = roll.get("faces") or []
    if not faces or len(faces) < int(roll.get("hits", 0)):
        return None
    pool: dict[str, int] = {}
    for face in faces:
        pool[face.get("colour") or "red"] = pool.get(face.get("colour") or "red", 0) + 1
    return pool


def _pools(step: Step, side: Side, counter: bool) -> tuple[dict[str, int] | None, dict[str, int] | None]:
    """The pools of an attack rolled by hand (only its totals in the log), as the engine builds
    them from the state before it: R-DISTRACTED White dice against a Distracted Character, the
    Character's Melee on a counter-attack (R-CMB-TIE), Cover on a Shoot (R-CMB-SHOOT)."""
    state, command = step.before, step.command
    bot_id = command.get("bot_id") or command.get("target_id")
    bot = next((b for b in state.get("bots", []) if b["id"] == bot_id), None)
    char = next((c for c in state.get("characters", []) if c["id"] == command.get("character_id")), None)
    if bot is None or char is None:
        return None, None
    house = HouseRules.model_validate(state.get("house") or {})
    distracted = char.get("distracted", 0)
    if step.kind == "resolve_melee":
        if side == "npcs":
            attack = attack_pool_against(bot.get("melee", {}), distracted, house.distracted_colour)
            return attack, char.get("melee" if counter else "defense", {})
        return char.get("melee", {}), bot.get("defense", {})
    cover = command.get("cover") or (char.get("cover", "none") if side == "npcs" else "none")
    if side == "npcs":
        attack = attack_pool_against(bot.get("shoot", {}), distracted, house.distracted_colour)
        return attack, defense_pool_with_cover(char.get("defense", {}), cover, house)
    return char.get("shoot", {}), defense_pool_with_cover(bot.get("defense", {}), cover, house)


def _odds(pools: tuple[dict[str, int] | None, dict[str, int] | None], rolled: Mapping[str, Any],
          against: Mapping[str, Any], dice: Mapping[str, Any], faces: dict[str, list[str]],
          melee: bool) -> float | None:
    attack, defense = pools
    if attack is None or defense is None:
        return None
    try:
        odds = attack_odds(attack, defense, faces,
                           attack_bonus=int(dice["attack_total"]) - int(rolled.get("hits", 0)),
                           defense_bonus=int(dice.get("defense_total", 0)) - int(against.get("hits", 0)),
                           melee=melee)
    except (ValueError, KeyError):
        return None
    return odds.p_damage


def _roll(side: Side, label: str, roll: Mapping[str, Any], pool: dict[str, int] | None,
          faces: dict[str, list[str]]) -> Roll | None:
    if not pool:
        return None
    try:
        total, _ = hit_distribution(pool, faces)
    except ValueError:
        return None
    hits = int(roll.get("hits", 0))
    expected = sum(n * sum(f in HIT_FACES for f in faces.get(c, [])) / max(len(faces.get(c, [])), 1)
                   for c, n in pool.items())
    tail = sum(total[hits:]) if hits >= expected else sum(total[:hits + 1])
    dice = sum(pool.values())
    return Roll(side, expected, hits, min(tail, 1.0),
                f"{label}: {hits} Hit{'s' if hits != 1 else ''} from {dice} {'dice' if dice != 1 else 'die'} "
                f"({expected:.1f} expected)")


REPORT = PothamReport()
