"""What the turn panel needs beyond the state, registered as a panels context hook: the step
just made (its effect, shown at once) and Phase 3's one list in resolution order
(phase3_list.py). Board facts are never carried over: they belong to one activation."""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam
from sqlmodel import Session, col, select

from app.rulesets.potham2038.models import Bot, Character, DecidedAction, GameState
from app.rulesets.potham2038.web.phase3_list import phase3_list, phase_results, still_in_melee
from app.store.driver_sql import Prepared
from app.store.tables import Game, Step
from app.web import step_reads
from app.web.deps import Opened

# Steps that only set up the game: their effect is not a turn's news.
SETUP_KINDS = {"create", "add_character", "edit_character", "remove_character", "add_bot", "edit_bot",
               "remove_bot"}


def facts_stand(state: GameState, bot: Bot, target: Character | None, action: DecidedAction | None) -> bool:
    """R-ACT-FACTS: the plan's line of sight and range still stand for a decided shot that is not
    `conditional` (the bot did not move, or moved toward this very target); otherwise the form
    asks afresh, unticked. Whatever the default, the player confirms both when the shot resolves."""
    return target is not None and action is not None and not action.conditional


# Two numbers of each end of turn's state, read in SQL (not every whole state parsed), on
# SQLite and PostgreSQL alike; built once, run on the driver's cursor (app/store/driver_sql.py).
# Up to the game's step (a step committed meanwhile is the next step's): read once per step and
# process (app/web/step_reads.py).
_TURN_ENDS = Prepared(select(Step.state["turn"].as_integer().label("turn"),
                             Step.state["danger"].as_integer().label("danger")).where(
    Step.game_id == bindparam("game_id"), Step.kind == "end_turn", Step.seq <= bindparam("seq")
).order_by(col(Step.seq)))


def turn_ends(session: Session, game_id: int, seq: int) -> dict[int, int]:
    """Danger at the end of each turn played up to step `seq`, by turn (the latest end_turn step
    of each turn wins, so a turn replayed after an undo counts once). In the session's
    transaction, as a query of the session would run."""
    ended: dict[int, int] = {}
    rows = _TURN_ENDS.rows(session.connection(), {"game_id": game_id, "seq": seq})
    for turn, danger in ((row["turn"], row["danger"]) for row in rows):
        # the state after ending turn N is turn N + 1's start
        ended[(1 if turn is None else int(turn)) - 1] = 0 if danger is None else int(danger)
    return ended


def danger_history(session: Session, game: Game, state: GameState) -> list[dict[str, Any]]:
    """Danger at the end of each turn played, then now: the track over the turns (R-DANGER)."""
    ended = step_reads.READS.get(game, ("turn ends",), lambda: turn_ends(session, game.id, game.seq))
    points = [{"turn": t, "danger": d, "now": False} for t, d in sorted(ended.items()) if t < state.turn]
    return points + [{"turn": state.turn, "danger": state.danger, "now": True}]


def turn_context(opened: Opened, session: Session, context: dict[str, Any]) -> dict[str, Any]:
    state: GameState = context["state"]
    step = context["step"]
    news = step if step.kind not in SETUP_KINDS and step.seq > 0 else None
    extra: dict[str, Any] = {"dice_mode": state.house.dice_mode, "news": news,
                             "alive_characters": [c for c in state.characters if c.health > 0],
                             "alive_bots": [b for b in state.bots if b.health > 0],
                             "danger_history": danger_history(session, opened.game, state)}
    if state.phase == 2:
        extra["order"] = [b for b in state.in_order() if b.health > 0]
    if state.phase == 3:
        extra |= phase3_context(state, phase_results(session, opened.game.id))
    return extra


def phase3_context(state: GameState, results: dict) -> dict[str, Any]:
    """Phase 3's one list (phase3_list), and the helpers its cards call."""
    p3 = phase3_list(state, results)
    return {"p3": p3, "facts_stand": facts_stand,
            "in_melee_with": lambda target_id: still_in_melee(state, target_id)}
