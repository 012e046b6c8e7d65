"""The bounded caches' one eviction rule (the latest states, a step's reads, log rows,
shared panels, live pushes): the newest entries are kept, the least recently used dropped first."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any


def keep(items: OrderedDict, key: Any, value: Any, size: int) -> None:
    """Put `value` under `key` as the newest entry and drop the oldest beyond `size`. Not locked:
    each cache calls it under its own lock, with whatever else that lock guards."""
    items[key] = value
    items.move_to_end(key)
    while len(items) > size:
        items.popitem(last=False)
