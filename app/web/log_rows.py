"""The log's steps as rendered rows, each rendered once per process (the full page's log
of 40 steps cost about 15 ms, most of it rendering the same rows and rebuilding the same states
again on every render).

A log row (`templates/_log_step.html`: the step's label, who it concerns, its entries, rule ids
and dice) shows nothing but its step's stored command and entries, the names in the state after
that step, and whether a later undo took it back. The rest of an item, the play link's "Go back
here" form (which carries the game's latest step as `seen`), is rendered on every request.

Why a cached row can never be stale: a step is written once and never rewritten (the unique
(game_id, seq); only its full state is dropped when it stops being the latest, steplog.py) and
deleted only with its whole game; every game is created (new, duplicated, imported, restored)
with new random tokens, so a game id that SQLite hands out again after a deletion comes with
another edit token. The key is (game id, edit token, step number, step id, undone) and the
rulesets' rule pages the badges link to; a replaced link only misses. So the cache saves the
rendering and the state rebuild, never the read of the steps (tests/web/test_log_rows.py).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from markupsafe import Markup
from sqlalchemy import Text, bindparam, cast, select
from sqlmodel import Session

from app import rulesets
from app.store import latest_state, steplog
from app.store.kept import keep
from app.store.tables import Game, Step
from app.web import templating
from app.web.templating import templates
from app.web.view import step_dice_by, step_who, undone_steps

ROWS_KEPT = 4096  # rendered rows (about 1 KB each): a hundred games' full logs

_STEPS = Step.__table__
NEWEST = 2**31 - 1  # "before" when none is given: after every step (an INTEGER column's largest)
# A page of the log, newest first, as plain records (the ORM's loading of 40 steps cost
# more than the query): no states, and the command and entries as their stored text, parsed only
# when a row is rendered afresh (or, for an undo, to find what it took back).
_PAGE = select(_STEPS.c.id, _STEPS.c.seq, _STEPS.c.kind, _STEPS.c.actor, cast(_STEPS.c.command, Text),
               cast(_STEPS.c.entries, Text)).where(
    _STEPS.c.game_id == bindparam("game_id"), _STEPS.c.seq < bindparam("before"),
    _STEPS.c.seq >= bindparam("oldest")).order_by(_STEPS.c.seq.desc()).limit(bindparam("limit"))


class LogStep:
    """A step of a log page: what its row shows; `command` and `entries` parsed when first read."""

    __slots__ = ("id", "seq", "kind", "actor", "_command", "_entries")

    def __init__(self, id: int, seq: int, kind: str, actor: str, command: str, entries: str):
        self.id, self.seq, self.kind, self.actor = id, seq, kind, actor
        self._command, self._entries = command, entries

    @property
    def command(self) -> dict[str, Any]:
        if isinstance(self._command, str):
            self._command = json.loads(self._command)
        return self._command

    @property
    def entries(self) -> list[dict[str, Any]]:
        if isinstance(self._entries, str):
            self._entries = json.loads(self._entries)
        return self._entries


def log_page(session: Session, game: Game, before: int | None = None, oldest: int | None = None,
             limit: int = 40) -> list[LogStep]:
    """Steps newest first: those before step `before` (all when None), down to step `oldest`
    when given (at most `limit` either way), as LogStep records."""
    params = {"game_id": game.id, "before": NEWEST if before is None else before,
              "oldest": 0 if oldest is None else oldest, "limit": limit}
    return [LogStep(*row) for row in session.connection().execute(_PAGE, params).all()]


class LogRows:
    """The last ROWS_KEPT rows rendered, by key (see the module's docstring); shared by threads."""

    def __init__(self, size: int = ROWS_KEPT):
        self.size, self._lock, self._items = size, threading.Lock(), OrderedDict[tuple, Markup]()
        self.rendered = 0  # rows rendered afresh: what the tests count

    def rows(self, session: Session, game: Game, log: list[Any],
             latest: Any = None) -> list[tuple[Any, Markup]]:
        """Each step of a log page with its row. Only the rows not cached rebuild the states
        after their steps (the few newest from the latest-state cache, given `latest` as
        games.latest_step read it) and are rendered."""
        undone = undone_steps(log)
        pages = (len(rulesets.RULESETS), len(templating.RULE_PAGES))
        keys = [(game.id, game.edit_token, s.seq, s.id, s.seq in undone, pages) for s in log]
        with self._lock:
            found = [self._items.get(key) for key in keys]
            for key, html in zip(keys, found, strict=True):
                if html is not None:
                    self._items.move_to_end(key)
        missed = [s for s, html in zip(log, found, strict=True) if html is None]
        if missed:
            known = {} if latest is None else latest_state.LATEST.recent(game.id, latest.seq, latest.state)
            states = steplog.states_json(session, game.id, [s.seq for s in missed], known=known)
            template = templates.get_template("_log_step.html")
            fresh = {s.seq: Markup(template.render(step=s, who=step_who(s, states[s.seq]),
                                                   by=step_dice_by(s), undone=s.seq in undone))
                     for s in missed}
            found = [html if html is not None else fresh[s.seq] for s, html in zip(log, found, strict=True)]
            self._put({key: fresh[key[2]] for key in keys if key[2] in fresh})
        return list(zip(log, found, strict=True))

    def _put(self, rows: dict[tuple, Markup]) -> None:
        with self._lock:
            self.rendered += len(rows)
            for key, html in rows.items():
                keep(self._items, key, html, self.size)


ROWS = LogRows()
