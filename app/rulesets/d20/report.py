"""What the battle report reads out of a d20 game (app/kernel/report.py's contract).

The threat is each side's total HP at the end of each round (D20-DAMAGE). The narrative is the
log's own sentences: each NPC's turn with its reason (D20-TURN), each attack with its chance to
hit before the roll (D20-ATTACK-*: d20 + bonus against DEF; a natural 20 always hits and a
natural 1 always misses, as the game's house rules say) and what it did, Glitches (D20-GLITCH).
Luck counts hits: each attack was expected to hit with its chance to hit.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from app.kernel.report import Attack, Member, Piece, Roll, Side, State, Step

ROLLED = re.compile(r"^(?P<who>.+?) rolls (?P<natural>\d+) on the d20, (?P<total>-?\d+) in all "
                    r"against DEF (?P<defense>-?\d+): (?P<what>.+)$")
TARGET = re.compile(r"damage to (?P<target>.+?)\.$")
NPC_LINE = re.compile(r"^(?P<who>[^:]+?): (?P<why>.+)$")


def down(member: Mapping[str, Any]) -> bool:
    """Dead, Dying or Unconscious: out of the fight (D20-DYING, D20-KO)."""
    return bool(member.get("dead")) or int(member.get("dying", 0)) > 0 or \
        "unconscious" in member.get("conditions", [])


def chance_to_hit(bonus: int, defense: int, house: Mapping[str, Any]) -> float:
    """D20-ATTACK: d20 + bonus ≥ DEF; a natural 20 always hits and a natural 1 always misses
    when the house rules say so (they do by default)."""
    hits = 0
    for natural in range(1, 21):
        if natural == 20 and house.get("nat20_always_hits", True):
            hits += 1
        elif natural == 1 and house.get("nat1_always_misses", True):
            continue
        elif natural + bonus >= defense:
            hits += 1
    return hits / 20


class D20Report:
    turn_end = "end_round"
    turn_word = "Round"
    threat_name = "HP left"
    threat_per_turn = False
    sides = {"characters": "the Characters", "npcs": "the NPCs"}
    luck_unit = "hits"

    def turn_of(self, state: State) -> int:
        return int(state.get("round", 1))

    def threat(self, state: State) -> dict[str, float]:
        return {"Characters": sum(int(c.get("hp", 0)) for c in state.get("characters", [])),
                "NPCs": sum(int(n.get("hp", 0)) for n in state.get("npcs", []))}

    def threat_limit(self, state: State) -> float | None:
        return None

    def roster(self, state: State) -> list[Member]:
        return [Member(m["id"], m["name"], side, down(m), f"HP {m.get('hp', 0)}/{m.get('max_hp', 0)}")
                for key, side in (("characters", "characters"), ("npcs", "npcs"))
                for m in state.get(key, [])]

    def outcome(self, state: State) -> str | None:
        return "The fight ended." if state.get("status") == "ended" else None

    def pieces(self, step: Step) -> list[Piece]:
        out: list[Piece] = []
        entries = list(step.entries)
        for i, entry in enumerate(entries):
            text, rule, dice = entry.get("text", ""), entry.get("rule"), entry.get("dice") or {}
            if step.kind == "attack" and "natural" in dice and (rolled := ROLLED.match(text)):
                out.append(_attack(step, rolled, entries[i + 1:], dice, rule))
            elif step.kind == "npc_turn" and (found := NPC_LINE.match(text)) and rule != "D20-AOO" \
                    and " unused. " not in text:
                out.append(Piece("action", f"{found['who']}: {short(found['why'])}", rule, source=text))
            elif rule == "D20-GLITCH" or "Glitch" in text and step.kind != "attack":
                out.append(Piece("glitch", text, rule, source=text))
        return out


def short(reason: str, most: int = 110) -> str:
    first = reason.rstrip(".")
    return first if len(first) <= most else first[:most].rsplit(" ", 1)[0] + "…"


def _side(state: State, member_id: str | None) -> Side:
    return "npcs" if any(n.get("id") == member_id for n in state.get("npcs", [])) else "characters"


def member_name(state: State, member_id: str | None) -> str:
    for key in ("characters", "npcs"):
        for m in state.get(key, []):
            if m.get("id") == member_id:
                return m["name"]
    return "someone"


def _attack(step: Step, rolled: re.Match, after: list[Mapping[str, Any]], dice: Mapping[str, Any],
            rule: str | None) -> Piece:
    side = _side(step.before, step.command.get("attacker_id"))
    natural, total, defense = int(rolled["natural"]), int(rolled["total"]), int(rolled["defense"])
    house = step.before.get("house", {})
    odds = chance_to_hit(total - natural, defense, house)
    hit = "hit" in rolled["what"] or "critical" in rolled["what"]
    found = TARGET.search(rolled["what"])
    target = found["target"] if found else member_name(step.before, step.command.get("target_id"))
    after_text = [e.get("text", "") for e in after[:1] if (e.get("rule") or "").startswith("D20-")]
    result = " ".join([rolled.group(0), *after_text])
    tail = odds if hit else 1 - odds
    roll = Roll(side, odds, 1.0 if hit else 0.0, tail,
                f"{rolled['who']} rolled {natural} ({total} against DEF {defense}): "
                f"{'a hit' if hit else 'a miss'} at {odds:.0%} to hit")
    attack = Attack(rolled["who"], target, side, odds, f"{odds:.0%} to hit", result,
                    int(dice.get("damage") or 0), rule)
    return Piece("attack", result, rule, attack, (roll,), source=rolled.string)


REPORT = D20Report()
