"""Plain HTML forms to play-command JSON and back: dotted field names build nested bodies, and a
pydantic error comes back as one message per field, so a form shows it next to the field."""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

# Form fields that steer the page, never part of a command body.
UI_FIELDS = frozenset({"seen", "form", "dice", "expect"})
MAX_EXPECT = 256 * 1024  # a form's `expect` (every model's values at most): far below this


class FormValues:
    """What a form sent, for refilling it: `get` the last value of a field, `getlist` all."""

    def __init__(self, items: list[tuple[str, str]]):
        self.items = items

    def get(self, name: str, default: str = "") -> str:
        found = [v for k, v in self.items if k == name]
        return found[-1] if found else default

    def getlist(self, name: str) -> list[str]:
        return [v for k, v in self.items if k == name]

    def __contains__(self, name: str) -> bool:
        return any(k == name for k, _ in self.items)


MAX_DEPTH = 8  # deeper than any form of ours; also keeps _listify's recursion shallow


def _set(target: dict[str, Any], path: list[str], value: Any) -> bool:
    """Place `value` at `path`; False when the path cannot hold it (too deep, or it runs through
    a value already placed there: `type=x&type.y=1`, `a=1&a[]=2`)."""
    if len(path) > MAX_DEPTH:
        return False
    for key in path[:-1]:
        target = target.setdefault(key, {})
        if not isinstance(target, dict):
            return False
    last = path[-1]
    if last.endswith("[]"):
        found = target.setdefault(last[:-2], [])
        if not isinstance(found, list):
            return False
        found.append(value)
    else:
        target[last] = value
    return True


def _listify(node: Any) -> Any:
    """{"0": a, "1": b} -> [a, b] (ordered by index); everything else recursively as is."""
    if isinstance(node, dict):
        node = {k: _listify(v) for k, v in node.items()}
        if node and all(_index(k) for k in node):
            return [node[k] for k in sorted(node, key=int)]
    elif isinstance(node, list):
        return [_listify(v) for v in node]
    return node


def _index(key: str) -> bool:
    """A list index: ASCII digits only (`"²".isdigit()` is true, but int("²") fails)."""
    return key.isascii() and key.isdigit()


def form_to_body(items: list[tuple[str, str]]) -> dict[str, Any]:
    """`facts.0.distance=2.5` -> {"facts": [{"distance": "2.5"}]}; `order[]=a&order[]=b` -> a list.

    Empty text fields are left out (the command's default applies), so a blank optional
    field never fails validation. Pydantic turns "2.5" into 2.5 and "on" into True."""
    body: dict[str, Any] = {}
    for name, value in items:
        if name in UI_FIELDS or name.startswith("_"):
            continue
        value = value.strip() if isinstance(value, str) else value
        if value == "" and not name.endswith("[]"):
            continue
        if "*" in name:  # `entries*hunt=2`: the id `hunt` twice in the list `entries`
            field, item = name.split("*", 1)
            found = body.setdefault(field, [])
            if isinstance(found, list) and _index(value) and len(value) <= 2 and int(value) <= 20:
                found.extend([item] * int(value))
                continue
        if not _set(body, name.split("."), value):
            body[name] = value  # unknown to every command: refused with a message naming the field
    return {k: _listify(v) for k, v in body.items()}  # the body itself stays an object


def field_messages(error: ValidationError, skip: int = 0) -> dict[str, str]:
    """Dotted field name -> message (first message per field): the names the forms use."""
    messages: dict[str, str] = {}
    for e in error.errors():
        loc = [str(p) for p in e["loc"][skip:]]
        name = ".".join(loc) or "form"
        message = player_words(e)
        if "*" in name:  # a count that was not a whole number 0..20 (see form_to_body)
            message = "Enter a whole number from 0 to 20."
        messages.setdefault(name, message)
    return messages


# Pydantic's wording for the common slips, said the way a player would.
_PLAIN = {"int_parsing": "Enter a whole number, like 3.", "float_parsing": "Enter a number, like 2.5.",
          "int_from_float": "Enter a whole number, like 3.", "missing": "This is needed.",
          "string_too_short": "This is needed.", "bool_parsing": "Choose yes or no."}


def player_words(error: Any) -> str:
    """One validation error in a player's words; bounds keep pydantic's own ("at least 0")."""
    kind = error.get("type", "")
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        return error["msg"].replace("Input should be", "Enter a number") + "."
    return error["msg"].removeprefix("Value error, ")


def as_json(value: Any) -> str:
    """A value a form carries in a hidden field (autoescaped where it is rendered)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def expect_of(text: Any) -> Any:
    """A form's `expect`: the values its page showed of what the command sets (JSON it was
    rendered with, see preconditions.py). None when missing or unreadable: then `seen` decides."""
    if not isinstance(text, str) or not text or len(text) > MAX_EXPECT:
        return None
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def int_or_none(text: Any) -> int | None:
    """A step number from a form (`seen`, `to_seq`): at most 9 digits, so no integer the
    database cannot hold ever reaches it; anything else is None (not given)."""
    if not isinstance(text, str) or not re.fullmatch(r"[+-]?\d{1,9}", text.strip()):
        return None
    return int(text)
