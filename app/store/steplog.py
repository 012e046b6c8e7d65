"""How the step log stores a game's states (a full state at every step made a
2,000-step game 17 MiB and every export and backup as large).

Every step after step 0 stores its delta: what its command changed (app/store/deltas.py), a few
hundred bytes. A step also keeps its full state when

- it is the latest step: reading the game as it is now (every page, panel, command) is one
  row, as before; the step loses it when the next one is stored (same transaction);
- it is a snapshot: step 0 and every SNAPSHOT_EVERY-th step, so rebuilding any step's state
  (undo, "Go back here", the log's names) reads one snapshot and fewer than SNAPSHOT_EVERY deltas;
- it ends a turn: the Danger track reads the state after each end of turn (R-DANGER), and a
  game has one per turn, so the track needs no rebuilding.

Writers (app/store/games.py, app/store/game_commands.py, app/transfer/exchange.py, the migration) use
`record` and `retire`; readers use `state_json` or `states_json`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import or_
from sqlmodel import Session, col, select

from app.store import deltas
from app.store.tables import Step

# A snapshot every 50 steps: rebuilding a state applies at most 49 deltas (well under a
# millisecond), while snapshots add only ~1/50 of a full state (~180 bytes) per step.
SNAPSHOT_EVERY = 50  # changing it needs a migration that re-lays existing logs (see 0004)
TURN_END = "end_turn"


def keeps_state(seq: int, kind: str) -> bool:
    """Does this step keep its full state once it is no longer the latest?"""
    return seq % SNAPSHOT_EVERY == 0 or kind == TURN_END


def _kept_in_sql():
    """`keeps_state` as a WHERE clause: the steps whose state no writer will ever retire."""
    return or_(col(Step.seq) % SNAPSHOT_EVERY == 0, col(Step.kind) == TURN_END)


def record(step: Step, before: dict[str, Any] | None, after: dict[str, Any]) -> Step:
    """Fill in a new latest step: its delta from the state before (none for step 0) and its state."""
    step.delta = delta(before, after)
    step.state = after
    return step


def delta(before: dict[str, Any] | None, after: dict[str, Any]) -> list[Any] | None:
    """A new latest step's delta from the state before it (none for step 0)."""
    return None if before is None else deltas.diff(before, after)


def retire(step: Step) -> None:
    """The step is no longer the latest: drop its full state unless it keeps one."""
    if step.state is not None and not keeps_state(step.seq, step.kind):
        step.state = None


def rebuild(rows: Iterable[tuple[int, dict | None, list | None]],
            wanted: set[int] | None = None) -> dict[int, dict[str, Any]]:
    """States from (seq, state, delta) rows in order of seq, the first holding a state: each
    row's own state where it has one, else the state before it patched with its delta.
    Only the `wanted` ones are kept (all when None); they share their unchanged parts."""
    found: dict[int, dict[str, Any]] = {}
    state: dict[str, Any] | None = None
    for seq, full, delta in rows:
        if full is not None:
            state = full
        elif state is None or delta is None:
            raise deltas.BadDelta(f"step {seq} has neither a state nor a delta on one")
        else:
            state = deltas.patch(state, delta)
        if wanted is None or seq in wanted:
            found[seq] = state
    return found


def states_json(session: Session, game_id: int, seqs: Iterable[int], loaded: Iterable[Step] = (),
                known: dict[int, dict[str, Any]] | None = None) -> dict[int, dict[str, Any]]:
    """The states at the given steps of one game (JSON, read-only: they share parts): the rows
    from the snapshot at or before the first to the last are read in one query, except for a
    run of `loaded` steps (already read, e.g. a log page) that ends at the last. `known`: states
    already at hand by seq (app/store/latest_state.py's recent ones): nothing is read for those."""
    wanted = set(seqs)
    if not wanted:
        return {}
    known = known or {}
    if wanted <= known.keys():
        return {seq: known[seq] for seq in wanted}
    low, high = min(wanted), max(wanted)
    run = sorted((s for s in loaded if low <= s.seq <= high), key=lambda s: s.seq)
    if not run or run[-1].seq != high or run[-1].seq - run[0].seq != len(run) - 1:
        run = []  # not one run up to the last: read them all
    rows = [(s.seq, s.state if s.state is not None else known.get(s.seq), s.delta) for s in run]
    if not rows or rows[0][0] > low or rows[0][1] is None:  # the rows up to the first loaded one
        start = session.exec(select(Step.seq).where(  # walks back from `low`: < SNAPSHOT_EVERY rows
            Step.game_id == game_id, Step.seq <= low, _kept_in_sql()).order_by(col(Step.seq).desc()).limit(1)
        ).first() or 0
        end = rows[0][0] - 1 if rows else high
        rows[:0] = session.exec(select(Step.seq, Step.state, Step.delta).where(
            Step.game_id == game_id, Step.seq >= start, Step.seq <= end).order_by(col(Step.seq))).all()
    return rebuild(rows, wanted)


def state_json(session: Session, step: Step) -> dict[str, Any]:
    """The state after this step: its own when it has one, else rebuilt."""
    if step.state is not None:
        return step.state
    return states_json(session, step.game_id, [step.seq])[step.seq]
