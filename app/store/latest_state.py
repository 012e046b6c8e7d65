"""A process-local cache of each game's latest state: parsing and validating the whole
stored state took most of a command's and a panel's time, and every command, panel and page of
a game reads the same latest state until its next step.

It can never serve a stale state, whatever another process, an undo, "Go back here", an import
or a restore wrote: the reader (games.latest_step) always reads the latest step's number and its
state's stored text from the database, and an entry is used only when both are exactly those
it was made from. So the cache saves the JSON parsing and the validation, never the read; an
entry that no longer matches is replaced. Entries are shared by threads: the JSON (dicts and
lists) and the frozen state models are read-only by contract (deltas.patch copies, the engine
makes new states).

An entry a writer stored on top of the entry it read also keeps the few states before it
(RECENT_KEPT): the log panel and the live push name each of their newest steps' models from the
state after that step, which for any step but the latest meant rebuilding it from the last
snapshot and up to 49 deltas, on every render. They are the states this process read,
checked and wrote under the game's lock, step after step, so they are exactly what those steps
stored; a reader gets them only through the entry it just checked against the database.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from app.store.kept import keep

GAMES_KEPT = 512  # games whose latest state stays parsed (a few tens of KB each)
# states before the latest kept with it: the pushed log's (app/web/routes/live.py PUSH_LOG_BACK + 1)
RECENT_KEPT = 4


class Entry:
    """One game's latest state: its step number, stored text, JSON and (once asked) its model."""

    __slots__ = ("seq", "text", "json", "models", "recent")

    def __init__(self, seq: int, text: str, as_json: dict[str, Any]):
        self.seq, self.text, self.json = seq, text, as_json
        self.models: dict[str, Any] = {}  # by ruleset id: the state validated as its model
        self.recent: dict[int, dict[str, Any]] = {}  # by seq: the states just before this one


class LatestStates:
    def __init__(self, size: int = GAMES_KEPT):
        self.size, self._lock, self._items = size, threading.Lock(), OrderedDict[int, Entry]()

    def json(self, game_id: int, seq: int, text: str) -> dict[str, Any]:
        """The state stored as `text` at step `seq`: the cached JSON when it is exactly that
        text, else parsed now (and kept)."""
        with self._lock:
            entry = self._items.get(game_id)
            if entry is not None and entry.seq == seq and entry.text == text:
                self._items.move_to_end(game_id)
                return entry.json
        as_json = json.loads(text)
        self._put(game_id, Entry(seq, text, as_json))
        return as_json

    def model(self, game_id: int, seq: int, as_json: dict[str, Any], ruleset: str,
              load: Callable[[dict[str, Any]], Any]) -> Any:
        """The state as its ruleset's model: validated once per step, when `as_json` is the
        cached JSON of that step (the same object); anything else is validated afresh."""
        with self._lock:
            entry = self._items.get(game_id)
            found = entry is not None and entry.seq == seq and entry.json is as_json
            if found and ruleset in entry.models:
                return entry.models[ruleset]
        model = load(as_json)
        if found:
            with self._lock:
                entry.models[ruleset] = model
        return model

    def stored(self, game_id: int, seq: int, as_json: dict[str, Any], model: Any, ruleset: str,
               before: dict[str, Any] | None = None, text: str | None = None) -> None:
        """A writer just stored this state as the game's latest: keep it, so the next reader
        parses nothing. The text is what the JSON column stores (json.dumps; `text` when the
        writer already has it); if the database hands back anything else, the reader's check
        misses and parses it. `before`: the state the writer read as step `seq - 1`; when it is
        this cache's entry for that step (the same object), its states stay known too."""
        entry = Entry(seq, json.dumps(as_json) if text is None else text, as_json)
        entry.models[ruleset] = model
        with self._lock:  # a slower writer of an older step never replaces a newer entry
            previous = self._items.get(game_id)
            if previous is not None and previous.seq > seq:
                return
            follows = previous is not None and previous.seq == seq - 1 and previous.json is before
            if before is not None and follows:
                recent = {**previous.recent, previous.seq: previous.json}
                entry.recent = {n: recent[n] for n in sorted(recent)[-RECENT_KEPT:]}
        self._put(game_id, entry)

    def recent(self, game_id: int, seq: int, as_json: dict[str, Any]) -> dict[int, dict[str, Any]]:
        """The states known at and just before step `seq`, by seq, when `as_json` is the cached
        entry's JSON of that step (the one a reader just checked against the database); else
        none."""
        with self._lock:
            entry = self._items.get(game_id)
            if entry is None or entry.seq != seq or entry.json is not as_json:
                return {}
            return {**entry.recent, seq: entry.json}

    def forget(self, game_id: int) -> None:
        with self._lock:
            self._items.pop(game_id, None)

    def _put(self, game_id: int, entry: Entry) -> None:
        with self._lock:
            keep(self._items, game_id, entry, self.size)

    def __len__(self) -> int:
        return len(self._items)


LATEST = LatestStates()
