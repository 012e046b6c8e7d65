"""Roster forms: what the player typed -> a CharacterSheet / BotSheet body, or a message per field.

The same `values` shape serves a fresh form (built from the saved model) and a form sent back
with errors (built from the raw post), so the player never loses what they typed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from app.rulesets.potham2038.dice import parse_pool, pool_text
from app.rulesets.potham2038.models import Bot, Character
from app.rulesets.potham2038.roster import BotSheet, CharacterSheet

MAX_TEXT = 2000  # longer than any sane field; refuse before doing any work on it
MAX_POOL_TEXT = 200
MAX_LINES = 40  # equipment, special rules, waypoints, mission stats
NAME_MESSAGE = "Give a name of 1 to 80 characters."

EQUIPMENT_FLAGS = ("DIAGNOSTICS", "TECH SUPPORT")  # R-HACK
RULE_FLAGS = ("Marked Target", "OUT OF WARRANTY")  # R-MARKED-TARGET, R-HACK
ROLES = ("hunter", "sentry", "worker", "patrol")
COVERS = ("none", "light", "heavy")
MISSION_BLANK_ROWS = 2


def _key(text: str) -> str:
    return text.replace("_", " ").strip().lower()


def _number(value: float | int | None) -> str:
    if value is None:
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


# --- a model -> the form's values ----------------------------------------------------------


def character_values(c: Character | None = None) -> dict[str, Any]:
    if c is None:
        return {"name": "", "points": "0", "health": "", "max_health": "3", "melee": "", "shoot": "",
                "defense": "", "missions": [], "equipment_flags": [], "equipment": "", "cover": "none"}
    flags = [f for f in EQUIPMENT_FLAGS if any(_key(e) == _key(f) for e in c.equipment)]
    other = [e for e in c.equipment if _key(e) not in {_key(f) for f in EQUIPMENT_FLAGS}]
    return {"name": c.name, "points": str(c.points), "health": str(c.health), "max_health": str(c.max_health),
            "melee": pool_text(c.melee), "shoot": pool_text(c.shoot), "defense": pool_text(c.defense),
            "missions": [(n, pool_text(p)) for n, p in c.mission_stats.items()],
            "equipment_flags": flags, "equipment": "\n".join(other), "cover": c.cover}


def bot_values(b: Bot | None = None, control_zone: float = 3) -> dict[str, Any]:
    if b is None:
        return {"name": "", "role": "hunter", "points": "0", "health": "", "max_health": "3", "walk": "4",
                "run": "8", "control_zone": _number(control_zone), "melee": "", "defense": "", "shoot": "",
                "shoot_range": "", "out_of_ammo": False, "rule_flags": [], "special_rules": "",
                "subject": "", "object": "", "waypoints": "", "patrol_mode": "circuit", "exempt": False}
    flags = [f for f in RULE_FLAGS if b.has_rule(f)]
    other = [r for r in b.special_rules if _key(r) not in {_key(f) for f in RULE_FLAGS}]
    return {"name": b.name, "role": b.role, "points": str(b.points), "health": str(b.health),
            "max_health": str(b.max_health), "walk": _number(b.walk), "run": _number(b.run),
            "control_zone": _number(b.control_zone), "melee": pool_text(b.melee),
            "defense": pool_text(b.defense), "shoot": pool_text(b.shoot),
            "shoot_range": _number(b.shoot_range),
            "out_of_ammo": b.out_of_ammo, "rule_flags": flags, "special_rules": "\n".join(other),
            "subject": b.subject or "", "object": b.object or "", "waypoints": "\n".join(b.waypoints),
            "patrol_mode": b.patrol_mode, "exempt": b.exempt}


# --- the raw post -> a body, with errors by field --------------------------------------------


@dataclass
class Reader:
    """Reads one posted form; every problem lands in `errors` under the form field's name."""

    form: Any  # starlette FormData (or any mapping with get/getlist)
    faces: dict[str, list[str]]
    errors: dict[str, str] = field(default_factory=dict)

    def text(self, key: str) -> str:
        value = self.form.get(key)
        return value if isinstance(value, str) else ""

    def texts(self, key: str) -> list[str]:
        return [v if isinstance(v, str) else "" for v in self.form.getlist(key)]

    def checked(self, key: str) -> bool:
        return self.text(key) not in ("", "0", "false", "off")

    def fail(self, key: str, message: str) -> None:
        self.errors.setdefault(key, message)

    def name(self, key: str, message: str = NAME_MESSAGE) -> str | None:
        value = self.text(key).strip()
        if not 1 <= len(value) <= 80:
            self.fail(key, message)
            return None
        return value

    def health(self) -> int | None:
        """Health now; left out (a new model) it starts at its Max Health."""
        high = self.integer("max_health", 1, 100)
        if not self.text("health").strip() and high is not None:
            return high
        return self.integer("health", 0, 100)

    def integer(self, key: str, low: int, high: int) -> int | None:
        value = self.text(key).strip()
        if not re.fullmatch(r"[+-]?\d{1,9}", value):
            self.fail(key, f"Write a whole number from {low} to {high}.")
            return None
        number = int(value)
        if not low <= number <= high:
            self.fail(key, f"Write a whole number from {low} to {high}.")
            return None
        return number

    def distance(self, key: str, high: float, blank_ok: bool = False) -> float | None:
        """Inches ≥ 0: '3', '3.5', '3"' or '3 in'."""
        value = re.sub(r'\s*(?:"|in|inch|inches|″)\s*$', "", self.text(key).strip(), flags=re.I)
        if not value and blank_ok:
            return None
        message = f"Write a distance in inches from 0 to {_number(high)}."
        if not re.fullmatch(r"[+-]?\d{1,6}(?:[.,]\d{1,4})?", value):
            self.fail(key, message)
            return None
        number = float(value.replace(",", "."))
        if not (math.isfinite(number) and 0 <= number <= high):
            self.fail(key, message)
            return None
        return number

    def pool(self, key: str, text: str | None = None) -> dict[str, int]:
        text = self.text(key) if text is None else text
        if len(text) > MAX_POOL_TEXT:
            self.fail(key, "Too long for a dice pool: write it like “3 red + 1 white”.")
            return {}
        try:
            return parse_pool(text, self.faces)
        except ValueError as error:
            self.fail(key, f"{str(error)[:1].upper()}{str(error)[1:]}.")
            return {}

    def lines(self, key: str) -> list[str]:
        """One name per line; blank lines ignored."""
        items = [line.strip() for line in self.text(key).splitlines() if line.strip()]
        if len(items) > MAX_LINES:
            self.fail(key, f"At most {MAX_LINES} lines.")
        elif any(len(item) > 80 for item in items):
            self.fail(key, "Each line is a name of at most 80 characters.")
        return items[:MAX_LINES]

    def flags(self, key: str, allowed: tuple[str, ...]) -> list[str]:
        chosen = set(self.texts(key))
        return [f for f in allowed if f in chosen]

    def choice(self, key: str, allowed: tuple[str, ...], default: str, required: bool = False) -> str:
        """One of `allowed`; nothing chosen is the default unless a choice is required."""
        value = self.text(key)
        if not value and not required:
            return default
        if value not in allowed:
            self.fail(key, f"Choose one of: {', '.join(allowed)}.")
            return default
        return value


def _too_long(form: Any) -> bool:
    return any(isinstance(v, str) and len(v) > MAX_TEXT for _, v in form.multi_items())


def _missions(r: Reader) -> tuple[dict[str, dict[str, int]], list[tuple[str, str]]]:
    names, pools = r.texts("mission_name"), r.texts("mission_pool")
    rows = list(zip(names, pools + [""] * (len(names) - len(pools)), strict=False))
    stats: dict[str, dict[str, int]] = {}
    for i, (name, pool) in enumerate(rows[:MAX_LINES]):
        name = name.strip()
        if not name and not pool.strip():
            continue
        if not name or len(name) > 80:
            r.fail(f"mission-{i}", "Give the Mission stat a name of 1 to 80 characters.")
        elif _key(name) in {_key(n) for n in stats}:
            r.fail(f"mission-{i}", f"There is already a Mission stat called {name}.")
        stats[name] = r.pool(f"mission-{i}", pool)
    kept = [(n, p) for n, p in rows if n.strip() or p.strip()]
    return {n: p for n, p in stats.items() if n and len(n) <= 80}, kept


def read_character(form: Any, faces: dict[str, list[str]]) -> tuple[dict[str, Any], dict[str, str], dict]:
    """-> (the CharacterSheet as JSON, errors by field, the values to show again)."""
    r = Reader(form, faces)
    missions, mission_rows = _missions(r)
    equipment = r.flags("equipment_flags", EQUIPMENT_FLAGS) + [
        e for e in r.lines("equipment") if _key(e) not in {_key(f) for f in EQUIPMENT_FLAGS}]
    data = {"name": r.name("name"), "points": r.integer("points", 0, 10000),
            "health": r.health(), "max_health": r.integer("max_health", 1, 100),
            "melee": r.pool("melee"), "shoot": r.pool("shoot"), "defense": r.pool("defense"),
            "mission_stats": missions, "equipment": equipment,
            "cover": r.choice("cover", COVERS, "none")}
    values = {k: r.text(k) for k in ("name", "points", "health", "max_health", "melee", "shoot",
                                     "defense", "equipment", "cover", "sheet")}
    values |= {"missions": mission_rows, "equipment_flags": r.flags("equipment_flags", EQUIPMENT_FLAGS)}
    return _finish(r, form, data, CharacterSheet, values)


def read_bot(form: Any, faces: dict[str, list[str]]) -> tuple[dict[str, Any], dict[str, str], dict]:
    """-> (the BotSheet as JSON, errors by field, the values to show again)."""
    r = Reader(form, faces)
    role = r.choice("role", ROLES, "hunter", required=True)
    rules = r.flags("rule_flags", RULE_FLAGS) + [
        x for x in r.lines("special_rules") if _key(x) not in {_key(f) for f in RULE_FLAGS}]
    data = {"name": r.name("name"), "role": role, "points": r.integer("points", 0, 10000),
            "health": r.health(), "max_health": r.integer("max_health", 1, 100),
            "walk": r.distance("walk", 48), "run": r.distance("run", 96),
            "control_zone": r.distance("control_zone", 24),
            "melee": r.pool("melee"), "defense": r.pool("defense"), "shoot": r.pool("shoot"),
            "shoot_range": r.distance("shoot_range", 200, blank_ok=True),
            "out_of_ammo": r.checked("out_of_ammo"), "special_rules": rules, **_assignment(r, role)}
    values = {k: r.text(k) for k in ("name", "role", "points", "health", "max_health", "walk", "run",
                                     "control_zone", "melee", "defense", "shoot", "shoot_range",
                                     "special_rules", "subject", "object", "waypoints", "patrol_mode")}
    values |= {"out_of_ammo": r.checked("out_of_ammo"), "exempt": r.checked("exempt"),
               "rule_flags": r.flags("rule_flags", RULE_FLAGS)}
    return _finish(r, form, data, BotSheet, values)


def _assignment(r: Reader, role: str) -> dict[str, Any]:
    """Only the bot's own role's assignment is kept (R-ROSTER-ASSIGN): each role needs its own."""
    found: dict[str, Any] = {"subject": None, "object": None, "waypoints": [], "patrol_mode": "circuit",
                             "exempt": False}
    if role == "sentry":
        found |= {"subject": r.name("subject", "A Sentry needs a subject to guard (1 to 80 characters)."),
                  "exempt": r.checked("exempt")}
    elif role == "worker":
        found["object"] = r.name("object", "A Worker needs an object to work on (1 to 80 characters).")
    elif role == "patrol":
        found |= {"waypoints": r.lines("waypoints"),
                  "patrol_mode": r.choice("patrol_mode", ("route", "circuit"), "circuit")}
        if not found["waypoints"] and "waypoints" not in r.errors:
            r.fail("waypoints", "A Patrol needs at least one waypoint.")
    return found


def _finish(r: Reader, form: Any, data: dict[str, Any], sheet: type, values: dict):
    if _too_long(form):
        r.fail("form", f"A field is longer than {MAX_TEXT} characters; nothing was saved.")
    if not r.errors:  # the rules' own model is the last word on every field
        try:
            data = sheet.model_validate(data).model_dump(mode="json")
        except ValidationError as error:
            for e in error.errors():
                r.fail(_field_of(e["loc"]), _message(e))
    return data, r.errors, values


def _message(error: Any) -> str:
    """Pydantic's words; our own checks' (a ValueError, e.g. models.printable) as a sentence."""
    if error["type"] != "value_error":
        return error["msg"]
    said = error["msg"].removeprefix("Value error, ")
    return f"{said[:1].upper()}{said[1:]}."


def _field_of(loc: tuple) -> str:
    names: dict[str, str] = {"mission_stats": "mission-0", "rule_flags": "special_rules"}
    first = str(loc[0]) if loc else "form"
    return names.get(first, first)


Reads = Callable[[Any, dict[str, list[str]]], tuple[dict[str, Any], dict[str, str], dict]]


def pool_counts(text: str) -> dict[str, int]:
    """A pool's text as counts per colour, for the chips; unreadable text shows no chip chosen."""
    try:
        return parse_pool(text or "")
    except ValueError:
        return {}


def role_name(role: str, taken: list[str]) -> str:
    """A new AI-Bot left unnamed is named after its role: Hunter-1, then Hunter-2, ... (the
    sample roster's numbering); the lowest number no model of that kind has, whatever its case."""
    names = {name.strip().casefold() for name in taken}
    n = 1
    while f"{role.title()}-{n}".casefold() in names:
        n += 1
    return f"{role.title()}-{n}"
