"""What a panel reads of a game at one step, read once per step and process.

Every render of a step's panels read the same rows again: the latest step (its record and state),
the log's newest page, 2038's ends of turn. A step's pushes alone render them twice (the play and
the watch link), a tap's answer once more, a page opened at that step again.

They never change for a given game and step: steps are only ever appended (an undo and "Go back
here" are new steps) and never rewritten, and every game (created, duplicated, imported,
restored) draws new tokens, so a game id SQLite hands out again after a deletion never meets an
old entry. So each read is kept by game id, play token, the step it was read at and the game's
last change (as the shared panels are, app/web/panels.py), and asked
only with the game's row as this request just read it from the database (games.find_game, on
every request): another process's step or an undo moves the row's step on, a replaced link
changes its token, a deleted game opens nothing, and each reaches no old entry
(tests/web/test_step_reads.py). A read that may have seen a later step than the row said (the
latest step read on past a newer commit) is kept under the step it read, never the row's.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from app.store.kept import keep
from app.store.tables import Game

KEPT = 1024  # reads kept (a few per game and step: the latest step, a log page or two, the ends of turn)
T = TypeVar("T")


class StepReads:
    """The last KEPT reads, by (game id, play token, step, what was read); shared by threads.
    Entries are read-only by contract, like the latest-state cache's."""

    def __init__(self, size: int = KEPT):
        self.size, self._lock, self._items = size, threading.Lock(), OrderedDict[tuple, Any]()
        self.read = 0  # reads that went to the database: what the tests count

    def get(self, game: Game, what: tuple, read: Callable[[], T], seq: Callable[[T], int] | None = None) -> T:
        """`read()`'s answer for the game at its row's step (and last change), read once. `seq`:
        the step the answer shows, when `read` may have read on past a newer step and refreshed
        the row: kept under the row as it then is, only if both tell the same step."""
        key = (game.id, game.edit_token, game.seq, game.updated_at, what)
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        found = read()
        self.read += 1
        if seq is not None:  # the read moved the game's row on to the step it read (latest_step)
            key = (game.id, game.edit_token, game.seq, game.updated_at, what)
            if seq(found) != game.seq:
                return found
        with self._lock:
            keep(self._items, key, found, self.size)
        return found

    def kept(self) -> list[tuple]:
        """What each entry read (its key's last part): what the tests look at."""
        with self._lock:
            return [key[-1] for key in self._items]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


READS = StepReads()
