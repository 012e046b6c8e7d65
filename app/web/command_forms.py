"""Plain HTML forms to play-command JSON and back: dotted field names build nested bodies, and a
pydantic error comes back as one message per field, so a form shows it next to the field."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

# Form fields that steer the page, never part of a command body.
UI_FIELDS = frozenset({"seen", "form", "dice"})


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


def _set(target: dict[str, Any], path: list[str], value: Any) -> None:
    for key in path[:-1]:
        target = target.setdefault(key, {})
    last = path[-1]
    if last.endswith("[]"):
        target.setdefault(last[:-2], []).append(value)
    else:
        target[last] = value


def _listify(node: Any) -> Any:
    """{"0": a, "1": b} -> [a, b] (ordered by index); everything else recursively as is."""
    if isinstance(node, dict):
        node = {k: _listify(v) for k, v in node.items()}
        if node and all(k.isdigit() for k in node):
            return [node[k] for k in sorted(node, key=int)]
    elif isinstance(node, list):
        return [_listify(v) for v in node]
    return node


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
            if value.isdigit() and int(value) <= 20:
                body.setdefault(field, []).extend([item] * int(value))
                continue
        _set(body, name.split("."), value)
    return _listify(body)


def field_messages(error: ValidationError, skip: int = 0) -> dict[str, str]:
    """Dotted field name -> message (first message per field): the names the forms use."""
    messages: dict[str, str] = {}
    for e in error.errors():
        loc = [str(p) for p in e["loc"][skip:]]
        name = ".".join(loc) or "form"
        message = e["msg"].removeprefix("Value error, ")
        if "*" in name:  # a count that was not a whole number 0..20 (see form_to_body)
            message = "Enter a whole number from 0 to 20."
        messages.setdefault(name, message)
    return messages


def int_or_none(text: str | None) -> int | None:
    try:
        return int(text) if text not in (None, "") else None
    except ValueError:
        return None
