"""How deep a document may nest: a backup nested thousands deep took the server to
23.7 GB while the streaming parser (ijson) built a path per level, and an import nested a few
hundred deep could reach Python's recursion limit further on. Our deepest document, a backup of
a game whose delta sets a nested part of a state, nests about a dozen levels; MAX_DEPTH leaves
room for states growing deeper and refuses anything no version of the app ever wrote.

Pure: stdlib only."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

MAX_DEPTH = 32
TOO_DEEP = f"Not a document of this app: nested more than {MAX_DEPTH} levels deep."
OPENS = frozenset({"start_map", "start_array"})
CLOSES = frozenset({"end_map", "end_array"})


class TooDeep(ValueError):
    pass


def check_depth(value: Any, limit: int = MAX_DEPTH) -> None:
    """Raise TooDeep when a parsed JSON value nests deeper than `limit` (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: Iterable[Any] = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        if depth > limit:
            raise TooDeep(TOO_DEEP)
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))


def check_events(events: Iterable[tuple[str, Any]], limit: int = MAX_DEPTH) -> Iterable[tuple[str, Any]]:
    """Pass a streaming parser's (event, value) pairs on, raising TooDeep as soon as one opens a
    level past `limit`: the parser never holds more than `limit` levels."""
    depth = 0
    for event, value in events:
        if event in OPENS:
            depth += 1
            if depth > limit:
                raise TooDeep(TOO_DEEP)
        elif event in CLOSES:
            depth -= 1
        yield event, value
