"""A rendered answer made once per key and shared: every page on one link asks for the
same panels after a step, so the first request renders them and the pages asking meanwhile wait
for that render instead of making their own (app/web/panels.py shared_panels)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from app.store.kept import keep


class RenderedPanels:
    """The last few hundred answers of shared_panels, by URL (link, panels, query, host), the
    access it was opened with, the game's step and last change, both its links and the share
    address: a panel shows nothing else, so an entry never goes stale (a rename, a new step or a
    replaced link changes the key)."""

    WAIT_SECONDS = 5.0  # a page waiting for another's render of the same answer renders itself after this

    def __init__(self, size: int = 256):
        self.size, self._lock, self._items = size, threading.Lock(), OrderedDict()
        self._rendering: dict[tuple, threading.Event] = {}

    def get(self, key: tuple) -> str | None:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key: tuple, html: str) -> None:
        with self._lock:
            keep(self._items, key, html, self.size)

    def render_once(self, key: tuple, render: Callable[[], str]) -> str:
        """The cached answer, else `render()`'s, rendered by one thread at a time per key: the
        pages that ask while it renders wait for it (they hold no database connection)."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
            done = self._rendering.get(key)
            mine = done is None
            if mine:
                done = self._rendering[key] = threading.Event()
        if not mine:
            done.wait(self.WAIT_SECONDS)
            html = self.get(key)
            return html if html is not None else render()
        try:
            html = render()
            self.put(key, html)
            return html
        finally:
            with self._lock:
                self._rendering.pop(key, None)
            done.set()
