"""The battle report built from a game's step log (docs/report.md). Pure: no web, no SQL.

Only the live history counts: a step an undo took back is left out, and so is everything after
it up to the undo. Each live step is handed to its ruleset's pieces (app/kernel/report.py) with
the states before and after it; the threat of each turn is read from the state after the step
that ended it (the latest state for the turn still running).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from app.kernel.report import NOTE_COMMANDS, Member, Piece, ReportPieces, Roll, Side, State, Step, words_of


@dataclass(frozen=True)
class Logged:
    """One step of the log as stored: its state after it, rebuilt (app/store/steplog.py)."""

    seq: int
    kind: str
    command: Mapping[str, Any]
    entries: list[Mapping[str, Any]]
    state: State
    created_at: datetime | None = None


@dataclass(frozen=True)
class Fell:
    name: str
    side: Side
    turn: int
    cause: str


@dataclass
class Turn:
    number: int
    threat: dict[str, float] = field(default_factory=dict)
    pieces: list[Piece] = field(default_factory=list)
    fell: list[Fell] = field(default_factory=list)
    note: str = ""

    def of(self, kind: str) -> list[Piece]:
        return [p for p in self.pieces if p.kind == kind]


@dataclass(frozen=True)
class Luck:
    expected: dict[str, float]
    actual: dict[str, float]
    rolls: dict[str, int]
    unlikeliest: Roll | None
    unlikeliest_turn: int | None


@dataclass
class Report:
    name: str
    title: str
    ruleset: str
    ruleset_name: str
    pieces: ReportPieces
    seq: int
    started: datetime | None
    last: datetime | None
    turns: list[Turn]
    outcome: str
    start: list[Member]
    end: list[Member]
    fell: list[Fell]
    luck: Luck
    limit: float | None

    @property
    def word(self) -> str:
        return self.pieces.turn_word

    @property
    def series(self) -> list[str]:
        return list(self.turns[0].threat) if self.turns else []


def live_steps(log: Sequence[Logged]) -> list[Logged]:
    """The steps the game's history still holds, in order: each step's parent is the step that
    was latest when it was made; an undo makes the step it went back to the latest again."""
    parent: dict[int, int | None] = {}
    head: int | None = None
    for step in log:
        if step.kind == "undo":
            head = int(step.command.get("to_seq", step.seq))
            continue
        parent[step.seq] = head
        head = step.seq
    chain: list[int] = []
    while head is not None:
        chain.append(head)
        head = parent.get(head)
    by_seq = {s.seq: s for s in log}
    return [by_seq[seq] for seq in reversed(chain)]


def build(log: Sequence[Logged], pieces: ReportPieces, name: str, ruleset: str, ruleset_name: str) -> Report:
    """The report of a game whose whole log (step 0 first) is `log`."""
    live = live_steps(log)
    latest = log[-1].state
    turns: dict[int, Turn] = {1: Turn(1)}  # and each turn the live history reached (below)
    fell: list[Fell] = []
    start: list[Member] | None = None
    rolls: list[tuple[Roll, int]] = []
    previous = live[0].state
    for logged in live[1:]:
        step = Step(logged.seq, logged.kind, logged.command, logged.entries, previous, logged.state)
        previous = logged.state
        if logged.kind in NOTE_COMMANDS:  # the player's words: on their turn, read from the latest state
            continue
        number = pieces.turn_of(step.before)
        turn = turns.setdefault(number, Turn(number))
        said = [replace(p, seq=logged.seq) for p in pieces.pieces(step)]
        if start is None and (said or logged.kind == pieces.turn_end):
            start = pieces.roster(step.before)
        turn.pieces += said
        rolls += [(r, number) for p in said for r in p.rolls]
        for down in _fallen(pieces, step, said, number):
            turn.fell.append(down)
            fell.append(down)
        if logged.kind == pieces.turn_end:
            turn.threat = pieces.threat(step.after)
    words = words_of(latest)
    for note in words.notes:  # a note on the turn just begun shows that turn too
        turns.setdefault(note.turn, Turn(note.turn))
    _threats(turns, pieces, latest)
    for turn in turns.values():
        turn.note = words.note(turn.number)
    end = pieces.roster(latest)
    return Report(name=name, title=words.title or name, ruleset=ruleset, ruleset_name=ruleset_name,
                  pieces=pieces, seq=log[-1].seq, started=log[0].created_at, last=live[-1].created_at,
                  turns=[turns[n] for n in sorted(turns)], outcome=outcome(pieces, latest, end),
                  start=start if start is not None else end, end=end, fell=fell, luck=luck(rolls),
                  limit=pieces.threat_limit(latest))


def _threats(turns: dict[int, Turn], pieces: ReportPieces, latest: State) -> None:
    """Each turn's threat: the level at its end (the running turn's: now), or for a ruleset
    that charts what each turn changed, the rise since the turn before (never below 0)."""
    previous: dict[str, float] | None = None
    for number in sorted(turns):
        turn = turns[number]
        if not turn.threat:
            turn.threat = pieces.threat(latest)
        level = turn.threat
        if pieces.threat_per_turn:
            before = previous or {k: 0.0 for k in level}
            turn.threat = {k: max(0.0, v - before.get(k, 0.0)) for k, v in level.items()}
        previous = level


def _fallen(pieces: ReportPieces, step: Step, said: list[Piece], turn: int) -> list[Fell]:
    """The models up before this step and down after it, and what felled them."""
    up = {m.id for m in pieces.roster(step.before) if not m.down}
    out = []
    for member in pieces.roster(step.after):
        if member.down and member.id in up:
            by = next((p.attack for p in said if p.attack and p.attack.target == member.name), None)
            cause = (f"{by.attacker}'s attack" if by else
                     next((e.get("text", "") for e in step.entries if member.name in e.get("text", "")),
                          step.kind.replace("_", " ")))
            out.append(Fell(member.name, member.side, turn, cause))
    return out


def outcome(pieces: ReportPieces, latest: State, end: list[Member]) -> str:
    said = pieces.outcome(latest)
    if said:
        return said
    characters = [m for m in end if m.side == "characters"]
    if characters and all(m.down for m in characters):
        return "The mission was lost: every Character fell."
    return f"Still running: {pieces.turn_word} {pieces.turn_of(latest)}."


def luck(rolls: list[tuple[Roll, int]]) -> Luck:
    expected = {"characters": 0.0, "npcs": 0.0}
    actual = {"characters": 0.0, "npcs": 0.0}
    count = {"characters": 0, "npcs": 0}
    for roll, _ in rolls:
        expected[roll.side] += roll.expected
        actual[roll.side] += roll.actual
        count[roll.side] += 1
    worst = min(rolls, key=lambda r: r[0].tail, default=None)
    return Luck(expected, actual, count, worst[0] if worst else None, worst[1] if worst else None)
