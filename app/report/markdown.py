"""The report as Markdown for forums: a heading per turn, the chart as a table. Every text a
player typed (names, notes, the title) is escaped, so it reads as typed and never as markup."""

from __future__ import annotations

import re

from app.report.build import Report, Turn
from app.report.words import dates, luck_sentences, number, threat_text, turns_played

SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|!~])")


def md(text: str) -> str:
    return SPECIAL.sub(r"\\\1", " ".join(str(text).split()))


def markdown(report: Report) -> str:
    lines = [f"# {md(report.title)}", "",
             f"*{md(report.ruleset_name)}* · {md(dates(report))} · {turns_played(report)}", "",
             f"**Outcome:** {md(report.outcome)}", ""]
    lines += roster(report)
    lines += chart_table(report)
    lines += ["## Luck", "", *[f"- {md(s)}" for s in luck_sentences(report)], ""]
    for turn in report.turns:
        lines += turn_lines(report, turn)
    lines += ["---", f"*Made with the {md(report.ruleset_name)} AI-Bot assistant from the game's log.*", ""]
    return "\n".join(lines)


def roster(report: Report) -> list[str]:
    lines = ["## Roster", "", "| Side | At the start | At the end |", "|---|---|---|"]
    end = {m.name: m for m in report.end}
    for m in report.start + [m for m in report.end if m.name not in {s.name for s in report.start}]:
        now = end.get(m.name)
        fell = next((f for f in report.fell if f.name == m.name), None)
        at_end = "removed" if now is None else (
            f"fell in {report.word} {fell.turn} ({md(fell.cause)})" if now.down and fell else
            ("down" if now.down else md(now.detail)))
        side = report.pieces.sides[m.side].removeprefix("the ")
        lines.append(f"| {side} | {md(m.name)}, {md(m.detail)} | {at_end} |")
    return [*lines, ""]


def chart_table(report: Report) -> list[str]:
    series = report.series
    lines = [f"## {md(report.pieces.threat_name)} per {report.word.lower()}", "",
             f"| {report.word} | " + " | ".join(md(s) for s in series) + " |",
             "|---|" + "---|" * len(series)]
    for turn in report.turns:
        lines.append(f"| {turn.number} | " + " | ".join(number(turn.threat.get(s, 0)) for s in series) + " |")
    if report.limit is not None:
        lines += ["", f"The limit is {number(report.limit)}."]
    return [*lines, ""]


def turn_lines(report: Report, turn: Turn) -> list[str]:
    lines = [f"## {report.word} {turn.number}", "", f"*{md(threat_text(report, turn))} at its end.*", ""]
    if turn.note:
        lines += [f"> {md(turn.note)}", ""]
    for piece in turn.pieces:
        if piece.attack is not None:
            a = piece.attack
            lines.append(f"- **Attack:** {md(a.attacker)} → {md(a.target)} ({md(a.odds_text)}): "
                         f"{md(a.result)}")
        else:
            lines.append(f"- **{piece.kind.title()}:** {md(piece.text)}")
    for fell in turn.fell:
        lines.append(f"- **Fell:** {md(fell.name)} ({md(fell.cause)})")
    if not turn.pieces and not turn.fell:
        lines.append("- Nothing the report tells happened.")
    return [*lines, ""]
