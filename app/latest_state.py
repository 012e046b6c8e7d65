"""A process-local cache of each game's latest state (issue 21): parsing and validating the whole
stored state took most of a command's and a panel's time, and every command, panel and page of
a game reads the same latest state until its next step.

It can never serve a stale state, whatever another process, an undo, "Go back here", an import
or a restore wrote: the reader (games.latest_step) always reads the latest step's number and its
state's stored text from the database, and an entry is used only when both are exactly those
it was made from. So the cache saves the JSON parsing and the validation, never the read; an
entry that no longer matches is replaced. Entries are shared by threads: the JSON (dicts and
lists) and the frozen state models are read-only by contract (deltas.patch copies, the engine
makes new states).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

GAMES_KEPT = 512  # games whose latest state stays parsed (a few tens of KB each)


class Entry:
    """One game's latest state: its step number, stored text, JSON and (once asked) its model."""

    __slots__ = ("seq", "text", "json", "models")

    def __init__(self, seq: int, text: str, as_json: dict[str, Any]):
        self.seq, self.text, self.json = seq, text, as_json
        self.models: dict[str, Any] = {}  # by ruleset id: the state validated as its model


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

    def stored(self, game_id: int, seq: int, as_json: dict[str, Any], model: Any, ruleset: str) -> None:
        """A writer just stored this state as the game's latest: keep it, so the next reader
        parses nothing. The text is what the JSON column stores (json.dumps); if the database
        hands back anything else, the reader's check misses and parses it."""
        entry = Entry(seq, json.dumps(as_json), as_json)
        entry.models[ruleset] = model
        with self._lock:  # a slower writer of an older step never replaces a newer entry
            if game_id in self._items and self._items[game_id].seq > seq:
                return
        self._put(game_id, entry)

    def forget(self, game_id: int) -> None:
        with self._lock:
            self._items.pop(game_id, None)

    def _put(self, game_id: int, entry: Entry) -> None:
        with self._lock:
            self._items[game_id] = entry
            self._items.move_to_end(game_id)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


LATEST = LatestStates()
