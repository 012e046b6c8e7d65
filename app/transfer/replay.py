"""The import's walk through a game's log (app/transfer/exchange.py validates a document with it): each
step's state rebuilt from its delta when it carries one, and the replay check. One state at a
time is kept (and those an undo goes back to), so a long compact document never sits in memory
as full states."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import ValidationError

from app import rulesets
from app.kernel.commands import Refused
from app.rulesets.base import Ruleset
from app.store import deltas, game_commands

StepDoc = Any  # exchange.StepDoc (which imports this module)


def raw_states(steps: list[StepDoc]) -> Iterator[tuple[StepDoc, dict[str, Any]]]:
    """Each step with the state after it as JSON: its own, or the one before patched with its
    delta (raises deltas.BadDelta when that does not fit). Only one state at a time is kept."""
    raw: Any = None
    for step in steps:
        if step.state is not None:
            raw = step.state.model_dump(mode="json")
        else:
            raw = deltas.patch(raw, step.delta or [])
        yield step, raw


def _state_after(step: StepDoc, raw: dict[str, Any], ruleset: Ruleset) -> Any:
    if step.state is not None:
        return step.state
    try:
        return ruleset.load(raw)
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()[:5])
        raise ValueError(f"step {step.seq}: its delta gives a state that is not valid: {problems}") from None


def replay_check(steps: list[StepDoc], seed: int, ruleset: Ruleset | None = None) -> Any:
    """Walk the log as the app would play it on: step 0 alone creates the game; each delta fits
    the state before it and gives a valid state; an undo goes back to an earlier step that is
    not itself an undo, and restores exactly its state; every command applies to the state
    before it without crashing the engine. A command the current rules refuse is kept (a rule
    fixed later must not make an old game unreadable), and the recorded state is kept, not
    recomputed (the history is restored as played). Answers the latest state."""
    ruleset = ruleset or rulesets.get(None)
    targets: dict[int, Any] = {s.command["to_seq"]: None for s in steps if s.kind == "undo"}  # kept for undos
    before: Any = None
    try:
        for step, raw in raw_states(steps):
            state = _state_after(step, raw, ruleset)
            if step.seq:
                _check_step(step, steps, targets, before, state, seed, ruleset)
            if step.seq in targets:
                targets[step.seq] = state
            before = state
    except deltas.BadDelta as error:
        raise ValueError(f"step {step.seq}: its delta does not fit the state before it ({error})") from None
    return before


def _check_step(step: StepDoc, steps: list[StepDoc], targets: dict[int, Any], before: Any, state: Any,
                seed: int, ruleset: Ruleset) -> None:
    where = f"step {step.seq}"
    if step.kind == "create":
        raise ValueError(f"{where}: only step 0 creates the game")
    if step.kind == "undo":
        to_seq = step.command["to_seq"]
        if to_seq >= step.seq or steps[to_seq].kind == "undo":
            raise ValueError(f"{where}: an undo goes back to an earlier step that is not an undo")
        if state != targets[to_seq]:
            raise ValueError(f"{where}: an undo restores exactly the state of step {to_seq}")
        return
    name, body = ruleset.parse(step.command)
    try:
        ruleset.apply(before, name, body, game_commands.step_rng(seed, step.seq))
    except Refused:
        pass
    except Exception as error:  # noqa: BLE001  (the engine cannot play on from this state)
        raise ValueError(f"{where}: the game cannot be played on from the step before it "
                         f"({type(error).__name__})") from None
