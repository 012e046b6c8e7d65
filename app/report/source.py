"""A game's report read from the database: its whole log in one query, every state rebuilt
from the snapshots and deltas (app/store/steplog.py), then built (build.py). Kept per game and step:
a report, its Markdown and its card are made once per step, whoever asks and by which link.

Also the report link's token: made on demand, revoked (the column `game.report_token`).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from sqlmodel import Session, col, select

from app import rulesets
from app.report.build import Logged, Report, build
from app.store import steplog
from app.store.kept import keep
from app.store.tables import Game, Step

CACHED = 16  # reports (and their Markdown and cards) kept in memory, the most recent first
_cache: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_lock = threading.Lock()


def read_log(session: Session, game: Game) -> list[Logged]:
    rows = session.exec(select(Step.seq, Step.kind, Step.command, Step.entries, Step.state, Step.delta,
                               Step.created_at).where(Step.game_id == game.id).order_by(col(Step.seq))).all()
    states = steplog.rebuild([(r[0], r[4], r[5]) for r in rows])
    return [Logged(r[0], r[1], r[2] or {}, r[3] or [], states[r[0]], r[6]) for r in rows]


def cached(game: Game, what: str, make: Callable[[], Any]) -> Any:
    """`make()` once per game, step and `what` ("report", "markdown", "png"); by the play token
    too (ids start again in an emptied database) and the name (a rename is not a step)."""
    key = (game.id, game.edit_token, game.seq, game.name, what)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    value = make()
    with _lock:
        keep(_cache, key, value, CACHED * 3)
    return value


class NoReport(LookupError):
    """The game's ruleset reads no report out of its log (a ruleset without `report`)."""


def report_of(session: Session, game: Game) -> Report:
    ruleset = rulesets.get(game.ruleset)
    if ruleset.report is None:
        raise NoReport(f"{ruleset.name} games have no battle report.")

    def make() -> Report:
        return build(read_log(session, game), ruleset.report, game.name, ruleset.id, ruleset.name)

    return cached(game, "report", make)


def new_report_token() -> str:
    return secrets.token_urlsafe(24)  # 192 bits, as the play and watch links


def find_by_report_token(session: Session, token: str) -> Game | None:
    if not token or len(token) > 64:
        return None
    game = session.exec(select(Game).where(Game.report_token == token)).first()
    if game is None or game.report_token is None:
        return None
    return game if secrets.compare_digest(game.report_token.encode(), token.encode()) else None


def set_report_link(session: Session, game: Game, on: bool) -> Game:
    """Make a new report link (any old one stops working) or revoke it."""
    game.report_token = new_report_token() if on else None
    session.add(game)
    session.commit()
    session.refresh(game)
    return game


def clear() -> None:
    """Forget every kept report (the benchmark makes them afresh)."""
    with _lock:
        _cache.clear()
