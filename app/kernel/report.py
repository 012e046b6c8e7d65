"""The battle report's contract with a ruleset (docs/report.md): what each ruleset reads out of
its own states and log lines, so the shell can build one report for any of them. Pure: stdlib
and pydantic only.

A ruleset gives a `ReportPieces`; the shell (app/report/) walks the game's live steps (undone
ones left out), asks it for the pieces of each step and for its threat at each end of turn, and
lays them out. States are handed over as the JSON the log stores (never parsed into models: a
report reads a thousand of them).

The player's own words (a title, a note per turn) are the one thing the report adds to a
game, and they are steps like any other (undoable, exported): `register_notes` adds the two
commands to a ruleset's namespace, and each state carries them in its `report` field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from random import Random
from typing import Any, Literal, Protocol

from pydantic import Field

from app.kernel.commands import Body, Commands, Entry, Refused
from app.kernel.frozen import Frozen

State = Mapping[str, Any]  # a state as the log stores it (JSON)
Side = Literal["characters", "npcs"]
Kind = Literal["event", "action", "attack", "glitch", "danger", "other"]

NOTE_MAX, TITLE_MAX, MAX_TURN = 2000, 120, 10_000


@dataclass(frozen=True)
class Member:
    """One model on the roster: `down` when it is out of the fight (fallen, broken, dying)."""

    id: str
    name: str
    side: Side
    down: bool
    detail: str = ""  # its health as the ruleset words it ("Health 2/3", "HP 8/12")


@dataclass(frozen=True)
class Roll:
    """One roll of one side, for the luck summary: what the dice were expected to give and what
    they gave (Hits, successes, or for a d20 one hit or miss), and how unlikely a result at
    least that far from the expectation was (the lower tail if below, the upper if above)."""

    side: Side
    expected: float
    actual: float
    tail: float
    text: str  # "Hunter-1's melee: 3 Hits from 3 red dice"


@dataclass(frozen=True)
class Attack:
    attacker: str
    target: str
    side: Side  # the attacker's side
    odds: float | None  # the chance of hurting the target, before the roll (None: not known)
    odds_text: str  # "41% to do damage"
    result: str  # the log's sentence of what came of it
    damage: int = 0
    rule: str | None = None


@dataclass(frozen=True)
class Piece:
    """One line of a turn's narrative."""

    kind: Kind
    text: str
    rule: str | None = None
    attack: Attack | None = None
    rolls: tuple[Roll, ...] = ()
    source: str = ""  # the log line it was made from, as the log has it
    seq: int = 0  # the step it comes from (the shell fills it in)


@dataclass(frozen=True)
class Step:
    """A live step as the pieces need it: the command and its log lines, the states around it."""

    seq: int
    kind: str
    command: Mapping[str, Any]
    entries: list[Mapping[str, Any]]
    before: State
    after: State


class ReportPieces(Protocol):
    """What a ruleset supplies. `turn_end`: the command that ends a turn or round; `turn_word`:
    "Turn" or "Round"; `threat_name`: what the chart shows ("Danger"); `threat_per_turn`: the
    chart shows what changed in each turn (zone's trauma dealt) rather than the level reached;
    `sides`: each side's name in a sentence ("the AI-Bots"); `luck_unit`: what luck counts ("Hits")."""

    turn_end: str
    turn_word: str
    threat_name: str
    threat_per_turn: bool
    sides: Mapping[Side, str]
    luck_unit: str

    def turn_of(self, state: State) -> int: ...

    def threat(self, state: State) -> dict[str, float]: ...

    def threat_limit(self, state: State) -> float | None: ...

    def roster(self, state: State) -> list[Member]: ...

    def outcome(self, state: State) -> str | None: ...

    def pieces(self, step: Step) -> list[Piece]: ...


# --- the player's words, as steps -----------------------------------------------------------

class TurnNote(Frozen):
    turn: int = Field(ge=1, le=MAX_TURN)
    text: str = Field(min_length=1, max_length=NOTE_MAX)


class ReportWords(Frozen):
    """Kept in every ruleset's state (its `report` field): the report's title and notes."""

    title: str | None = Field(default=None, max_length=TITLE_MAX)
    notes: list[TurnNote] = Field(default_factory=list, max_length=1000)

    def note(self, turn: int) -> str:
        return next((n.text for n in self.notes if n.turn == turn), "")


class ReportNote(Body):
    """The player's note for one turn or round; empty text takes it away."""

    turn: int = Field(ge=1, le=MAX_TURN)
    text: str = Field(default="", max_length=NOTE_MAX)


class ReportTitle(Body):
    """The report's title; empty: the game's name."""

    title: str = Field(default="", max_length=TITLE_MAX)


def register_notes(commands: Commands, turn_word: str, current: Callable[[Any], int]) -> None:
    """Add `report_note` and `report_title` to a ruleset's namespace (its state has `report`)."""

    @commands.command("report_note", ReportNote)
    def report_note(state: Any, body: ReportNote, rng: Random) -> tuple[Any, list[Entry]]:
        if body.turn > current(state):
            raise Refused(f"{turn_word} {body.turn} has not been played yet.")
        text = body.text.strip()
        kept = [n for n in state.report.notes if n.turn != body.turn]
        added = [TurnNote(turn=body.turn, text=text)] if text else []
        notes = sorted([*kept, *added], key=lambda n: n.turn)
        words = state.report.model_copy(update={"notes": notes})
        said = f"Report note for {turn_word} {body.turn}: {text}" if text else \
            f"Report note for {turn_word} {body.turn} removed."
        return state.model_copy(update={"report": words}), [Entry(said)]

    @commands.command("report_title", ReportTitle)
    def report_title(state: Any, body: ReportTitle, rng: Random) -> tuple[Any, list[Entry]]:
        title = body.title.strip() or None
        words = state.report.model_copy(update={"title": title})
        said = f"Report titled “{title}”." if title else "Report title cleared: the game's name is used."
        return state.model_copy(update={"report": words}), [Entry(said)]


NOTE_COMMANDS = frozenset({"report_note", "report_title"})


def words_of(state: State) -> ReportWords:
    raw = state.get("report")
    return ReportWords.model_validate(raw) if raw else ReportWords()


def binomial_tail(n: int, p: float, k: int, upper: bool) -> float:
    """P(X >= k) (upper) or P(X <= k) for X successes of n dice, each a success with chance p:
    how unlikely a roll at least that far from its expectation was."""
    from math import comb

    ks = range(k, n + 1) if upper else range(0, min(k, n) + 1)
    return min(1.0, sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in ks))
