"""A step's delta: what its command changed in the game state, as a short list of edits
(storing the whole state at every step made a 2,000-step game 17 MiB).

States are JSON values (dicts, lists, text, numbers, true/false/null). A delta is a list of
operations, each `[op, path, value]` where path is the list of keys and list indexes from the
top of the state:

- `["set", path, value]`: put value there (a new key, or a changed value);
- `["del", path]`: remove the key;
- `["add", path, items]`: append items to the list there;
- `["cut", path, n]`: keep only the first n items of the list there.

`patch` never changes its input: it copies only the dicts and lists on each edited path and
shares the rest, so the states of a run of steps rebuilt one from the other cost little memory.
Pure: stdlib only, no database.
"""

from __future__ import annotations

import marshal
from typing import Any

Delta = list[list[Any]]
Path = list[str | int]


class BadDelta(ValueError):
    """A delta that does not fit the state it is applied to."""


def diff(before: Any, after: Any) -> Delta:
    """The edits that turn `before` into `after` (empty when they are the same JSON)."""
    delta: Delta = []
    _diff(before, after, [], delta)
    return delta


def _same_leaf(a: Any, b: Any) -> bool:
    # type first: in Python True == 1 and 1 == 1.0, in JSON they are different values
    return type(a) is type(b) and a == b


def _keeps_order(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Does patching `a` (kept keys stay in place, new ones are appended) give `b`'s key order?"""
    if len(a) == len(b) and list(a) == list(b):  # the usual case, at C speed
        return True
    return list(b) == [k for k in a if k in b] + [k for k in b if k not in a]


def _same_json(a: dict | list, b: dict | list) -> bool:
    """Are these two containers the same JSON, at C speed? Python's == alone is not enough (True
    == 1, 1 == 1.0, and dicts in another key order are equal), so equal ones are also compared as
    marshal bytes (format 2: no back-references), which keep each value's type and each dict's key
    order: equal bytes are the same JSON, to the bit."""
    try:
        return a == b and marshal.dumps(a, 2) == marshal.dumps(b, 2)
    except ValueError:  # holds something that is not a JSON value: walked instead
        return False


def _diff(a: Any, b: Any, path: Path, out: Delta) -> None:
    """`path` is shared and restored on return (copying it at every node of the state
    was most of a command's diff): an edit takes its own copy. An unchanged dict or list (most
    of a state: a command changes a few values) is recognised whole, not walked."""
    if a is b:  # the same object is the same JSON
        return
    if type(a) in (dict, list) and type(a) is type(b) and _same_json(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict) and _keeps_order(a, b):
        # in the order of `a`, never a set's: a set's order follows the hash seed, and an export
        # must come out byte for byte the same in every process
        out.extend(["del", [*path, key]] for key in a if key not in b)
        for key, value in b.items():
            if key not in a:
                out.append(["set", [*path, key], value])
                continue
            old = a[key]
            if type(old) is type(value) and not isinstance(value, (dict, list)) and old == value:
                continue  # an unchanged leaf: most of a state
            path.append(key)
            _diff(old, value, path, out)
            path.pop()
    elif isinstance(a, list) and isinstance(b, list):
        for index in range(min(len(a), len(b))):
            path.append(index)
            _diff(a[index], b[index], path, out)
            path.pop()
        if len(b) > len(a):
            out.append(["add", list(path), b[len(a):]])
        elif len(b) < len(a):
            out.append(["cut", list(path), len(b)])
    elif isinstance(a, (dict, list)) or isinstance(b, (dict, list)) or not _same_leaf(a, b):
        out.append(["set", list(path), b])


def patch(state: Any, delta: Delta) -> Any:
    """`state` with the delta's edits applied, as a new value (the input is left as it was)."""
    for operation in delta:
        if not isinstance(operation, list) or len(operation) < 2 or not isinstance(operation[1], list):
            raise BadDelta(f"not an edit: {operation!r:.80}")
        state = _edit(state, operation[1], operation)
    return state


def _edit(node: Any, path: Path, operation: list[Any]) -> Any:
    """A copy of `node` with the edit made at `path` under it."""
    kind, value = operation[0], operation[2] if len(operation) == 3 else _MISSING
    if not path:
        if kind == "set" and value is not _MISSING:
            return value
        if kind == "add" and isinstance(node, list) and isinstance(value, list):
            return node + value
        if kind == "cut" and isinstance(node, list) and _is_index(value, node, len(node) + 1):
            return node[:value]
        raise BadDelta(f"cannot {kind} here: {operation!r:.80}")
    key, rest = path[0], path[1:]
    if isinstance(node, dict) and isinstance(key, str):
        copy: Any = dict(node)
    elif isinstance(node, list) and _is_index(key, node, len(node)):
        copy = list(node)
    else:
        raise BadDelta(f"no {key!r} to edit: {operation!r:.80}")
    if not rest and kind == "set" and value is not _MISSING:
        copy[key] = value
    elif not rest and kind == "del" and isinstance(copy, dict) and key in copy:
        del copy[key]
    elif key in copy if isinstance(copy, dict) else True:
        copy[key] = _edit(copy[key], rest, operation)
    else:
        raise BadDelta(f"no key {key!r}: {operation!r:.80}")
    return copy


def _is_index(key: Any, items: list[Any], bound: int) -> bool:
    return type(key) is int and 0 <= key < bound


_MISSING = object()
