"""The report as JSON (the api.md contract) and its sentences, shared by the page, the Markdown
and the card."""

from __future__ import annotations

from typing import Any

from app.report.build import Report, Turn


def counted(value: float, unit: str) -> str:
    """"1 Hit", "2.5 Hits", "1 success"."""
    if value != 1:
        return f"{number(value)} {unit}"
    return f"1 {unit[:-2] if unit.endswith('sses') else unit[:-1]}"


def number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def threat_text(report: Report, turn: Turn) -> str:
    """"Danger 5/24", "by NPCs 3, by Characters 1"."""
    parts = [f"{name} {number(v)}" for name, v in turn.threat.items()]
    if report.limit is not None and len(parts) == 1:
        parts[0] += f"/{number(report.limit)}"
    return ", ".join(parts)


def luck_sentences(report: Report) -> list[str]:
    """"The AI-Bots rolled 3.4 Hits above their odds (12 rolls)." per side that rolled."""
    luck, unit, out = report.luck, report.pieces.luck_unit, []
    for side, name in report.pieces.sides.items():
        if not luck.rolls.get(side):
            continue
        gap = luck.actual[side] - luck.expected[side]
        way = "above" if gap > 0 else "below"
        how = "exactly at" if abs(gap) < 0.05 else f"{counted(round(abs(gap), 1), unit)} {way}"
        rolls = luck.rolls[side]
        out.append(f"{name[0].upper()}{name[1:]} rolled {how} their odds: {counted(luck.actual[side], unit)} "
                   f"against {luck.expected[side]:.1f} expected over {counted(rolls, 'rolls')}.")
    if luck.unlikeliest is not None:
        when = f"{report.word} {luck.unlikeliest_turn}"
        out.append(f"The most unlikely roll ({when}): {luck.unlikeliest.text}, "
                   f"a {chance(luck.unlikeliest.tail)} chance or less.")
    return out or ["No dice were rolled."]


def chance(p: float) -> str:
    if p < 0.001:
        return "<0.1%"
    return f"{p:.1%}" if p < 0.1 else f"{p:.0%}"


def dates(report: Report) -> str:
    first, last = report.started, report.last
    if first is None:
        return ""
    if last is None or last.date() == first.date():
        return day(first)
    return f"{day(first)} to {day(last)}"


def day(moment) -> str:
    return f"{moment.day} {moment:%B %Y}"


def side_one(report: Report, side: str) -> str:
    """"Character", "AI-Bot", "NPC": one of the side."""
    return report.pieces.sides[side].removeprefix("the ")[:-1]


def turns_played(report: Report) -> str:
    n = len(report.turns)
    return f"{n} {report.word.lower()}{'s' if n != 1 else ''}"


def as_json(report: Report) -> dict[str, Any]:
    return {
        "ruleset": report.ruleset, "name": report.name, "title": report.title, "outcome": report.outcome,
        "started": report.started.isoformat() if report.started else None,
        "last_played": report.last.isoformat() if report.last else None,
        "seq": report.seq, "turn_word": report.word, "threat_name": report.pieces.threat_name,
        "threat_limit": report.limit,
        "turns": [turn_json(report, t) for t in report.turns],
        "luck": {"unit": report.pieces.luck_unit,
                 "sides": {side: {"expected": round(report.luck.expected[side], 3),
                                  "actual": report.luck.actual[side], "rolls": report.luck.rolls[side]}
                           for side in ("characters", "npcs")},
                 "most_unlikely": None if report.luck.unlikeliest is None else {
                     "text": report.luck.unlikeliest.text, "side": report.luck.unlikeliest.side,
                     "chance": round(report.luck.unlikeliest.tail, 5), "turn": report.luck.unlikeliest_turn},
                 "sentences": luck_sentences(report)},
        "fell": [{"name": f.name, "side": f.side, "turn": f.turn, "cause": f.cause} for f in report.fell],
        "roster": {"start": [member(m) for m in report.start], "end": [member(m) for m in report.end]},
    }


def member(m) -> dict[str, Any]:
    return {"name": m.name, "side": m.side, "down": m.down, "detail": m.detail}


def turn_json(report: Report, turn: Turn) -> dict[str, Any]:
    threat: Any = turn.threat
    if list(threat) == [report.pieces.threat_name]:  # one series (2038's Danger): the number itself
        threat = threat[report.pieces.threat_name]
    return {
        "number": turn.number, "threat": threat,
        "events": [p.text for p in turn.of("event")],
        "actions": [p.text for p in turn.of("action")],
        "attacks": [{"attacker": a.attacker, "target": a.target, "side": a.side, "odds": a.odds,
                     "odds_text": a.odds_text, "result": a.result, "damage": a.damage, "rule": a.rule}
                    for a in (p.attack for p in turn.of("attack")) if a is not None],
        "glitches": [p.text for p in turn.of("glitch")],
        "danger": [p.text for p in turn.of("danger")],
        "fell": [{"name": f.name, "side": f.side, "cause": f.cause} for f in turn.fell],
        "note": turn.note,
    }
