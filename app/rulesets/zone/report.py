"""What the battle report reads out of a zone game (app/kernel/report.py's contract).

The threat is the trauma each side dealt in each round (Z-TRAUMA): the trauma the other side
holds at the round's end less what it held at the one before. The narrative is the log's own
sentences: each NPC's action and maneuver with its reason (Z-ROUND), each attack with its
chance of at least one success before the roll (Z-DICE: each die succeeds on the house's
success faces) and what it did (Z-STUNTS, Z-TRAUMA). Luck counts successes on the first roll
of each attack (a push re-rolls only some dice, so it is left out of the expectation).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from app.kernel.report import Attack, Member, Piece, Roll, Side, State, Step, binomial_tail

TRACKS = {"damage": "strength", "fatigue": "agility", "confusion": "wits", "doubt": "empathy"}
ACTION = re.compile(r"^(?P<who>.+?), (?:action|maneuver): (?P<what>.+?)\. (?P<why>.+)$")
ROLLED = re.compile(r"^(?P<who>.+?) attacks (?P<target>.+?) \((?P<skill>Fight|Shoot), (?P<dice>\d+) dice")
ATTACKS = {"npc_attack", "character_attack", "push_roll"}


def trauma(person: Mapping[str, Any]) -> int:
    return sum(int(person.get(track, 0)) for track in TRACKS)


def broken(person: Mapping[str, Any]) -> bool:
    """Z-BROKEN: an attribute at zero (or, for a Character, dead)."""
    scores = person.get("attributes", {})
    return bool(person.get("dead")) or any(
        int(scores.get(attribute, 3)) - int(person.get(track, 0)) <= 0 for track, attribute in TRACKS.items())


class ZoneReport:
    turn_end = "end_round"
    turn_word = "Round"
    threat_name = "Trauma dealt"
    threat_per_turn = True
    sides = {"characters": "the Characters", "npcs": "the NPCs"}
    luck_unit = "successes"

    def turn_of(self, state: State) -> int:
        return int(state.get("round", 1))

    def threat(self, state: State) -> dict[str, float]:
        """The trauma each side has dealt so far: what the other side holds (Z-TRAUMA)."""
        return {"by NPCs": sum(trauma(c) for c in state.get("characters", [])),
                "by Characters": sum(trauma(n) for n in state.get("npcs", []))}

    def threat_limit(self, state: State) -> float | None:
        return None

    def roster(self, state: State) -> list[Member]:
        return [Member(m["id"], m["name"], side, broken(m), f"trauma {trauma(m)}")
                for key, side in (("characters", "characters"), ("npcs", "npcs"))
                for m in state.get(key, [])]

    def outcome(self, state: State) -> str | None:
        return "The game ended." if state.get("status") == "ended" else None

    def pieces(self, step: Step) -> list[Piece]:
        out: list[Piece] = []
        entries = list(step.entries)
        for i, entry in enumerate(entries):
            text, rule, dice = entry.get("text", ""), entry.get("rule"), entry.get("dice") or {}
            if step.kind == "activate_npc" and (found := ACTION.match(text)):
                out.append(Piece("action", f"{found['who']}: {found['what']} ({short(found['why'])})", rule,
                                 source=text))
            elif step.kind in ATTACKS and "successes" in dice and (rolled := ROLLED.match(text)):
                out.append(_attack(step, rolled, entries[i + 1:], dice, rule))
        return out


def short(reason: str, most: int = 90) -> str:
    first = re.split(r": |; |\. ", reason, maxsplit=1)[0].rstrip(".")
    return first if len(first) <= most else first[:most].rsplit(" ", 1)[0] + "…"


def _attack(step: Step, rolled: re.Match, after: list[Mapping[str, Any]], dice: Mapping[str, Any],
            rule: str | None) -> Piece:
    side: Side = "npcs" if step.kind == "npc_attack" else "characters"
    n = int(rolled["dice"])
    faces = step.before.get("house", {}).get("success_faces") or [6]
    p = len(set(faces)) / 6
    odds = 1 - (1 - p) ** n if n else 0.0
    results = [e.get("text", "") for e in after if (e.get("rule") or "").startswith(("Z-STUNTS", "Z-TRAUMA"))
               and not (e.get("dice") or {}).get("successes")]
    said = (f"{rolled['who']} attacks {rolled['target']} ({rolled['skill']}, {n} dice): "
            f"{dice.get('result', '')}.")
    result = " ".join([said, *results[:3]])
    damage = sum(int(m) for e in results for m in re.findall(r"takes (\d+) damage", e))
    first = [f.get("face") for f in dice.get("faces", []) if f.get("roll") == "first"]
    actual = sum(1 for f in first if f in faces) if first else (
        int(dice["successes"]) if not dice.get("pushes") else None)
    rolls: tuple[Roll, ...] = ()
    if actual is not None and n and step.kind != "push_roll":  # a push keeps the first roll: counted once
        expected = n * p
        rolls = (Roll(side, expected, actual, binomial_tail(n, p, actual, actual >= expected),
                      f"{rolled['who']}'s {rolled['skill']}: {actual} success{'es' if actual != 1 else ''} "
                      f"from {n} dice ({expected:.1f} expected)"),)
    attack = Attack(rolled["who"], rolled["target"], side, odds, f"{odds:.0%} for at least one success",
                    result, damage, rule)
    return Piece("attack", result, rule, attack, rolls, source=rolled.string)


REPORT = ZoneReport()
