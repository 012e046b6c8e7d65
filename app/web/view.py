"""What the log and the turn panels show, computed from a step: its label, who it concerns and its
dice. Template helpers only; no rules are decided here (a ruleset's own helpers live in its web
part)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.store import games
from app.store.tables import Step
from app.web.templating import templates

# A log step's label by its command's kind: the ones every ruleset shares; each ruleset's web part
# adds its own commands' labels (setdefault: the first to name a kind keeps it).
STEP_LABELS = {
    "create": "Game created", "undo": "Undo",
    "add_character": "Character added", "edit_character": "Character edited",
    "remove_character": "Character removed", "set_house_rules": "House rules", "adjust": "Adjustment",
}
# A kind whose label depends on its command (2038's "noise": Noise or Alarm): kind -> its label,
# given the command; filled by the web parts.
COMMAND_LABELS: dict[str, Callable[[dict[str, Any]], str]] = {}

# Keys a command uses to name the models it is about, in the order they are worth mentioning.
_WHO_KEYS = ("character_id", "bot_id", "shooter_id", "attacker_id", "target_id", "defender_id",
             "npc_id")  # the last: the NPCs of other rulesets (app/rulesets)


def step_label(step: Step) -> str:
    return STEP_LABELS.get(step.kind, step.kind.replace("_", " ").capitalize())


def step_summary(step: Step, state: dict[str, Any]) -> str:
    """A step for a player, in a few words: "Noise (Vex)", "Activation (Hunter-1)"; `state`:
    the state after it (games.state_json), which names its models."""
    label = STEP_LABELS.get(step.kind, step.kind.replace("_", " ").capitalize())
    if step.kind in COMMAND_LABELS:
        label = COMMAND_LABELS[step.kind](step.command)
    who = step_who(step, state)
    return f"{label} ({', '.join(who)})" if who else label


def undone_steps(log: list[Step]) -> set[int]:
    """The steps on this log page that an undo took back. From the newest step the game follows
    a chain back: each command step rests on the state its predecessor shows (an undo shows the
    step it went back to); command steps off that chain were undone. Only steps newer than
    where the chain leaves the page are judged."""
    by_seq = {s.seq: s for s in log}
    if not by_seq:
        return set()
    live: set[int] = set()
    seq: int | None = games.shown_position(by_seq[max(by_seq)])
    while seq is not None and seq in by_seq:
        live.add(seq)
        before = by_seq.get(seq - 1)
        seq = games.shown_position(before) if before is not None else None
    floor = min(live) if live else max(by_seq)
    return {s for s, step in by_seq.items() if s > floor and s not in live and step.kind != "undo"}


def step_who(step: Step, state: dict[str, Any]) -> list[str]:
    """Names of the models a step's command is about, read from that step's own state (the log
    page reads them all at once: app/web/log_rows.py)."""
    names = {m["id"]: m["name"] for key in ("characters", "bots", "npcs") for m in state.get(key, [])}
    who = []
    for key in _WHO_KEYS:
        name = names.get(str(step.command.get(key)))
        if name and name not in who:
            who.append(name)
    return who


# A roll's name in the log (play.dice_record): whose dice these are, never two sides run together.
_SIDES = {"npc": "AI-Bot", "character": "Character", "attack": "Attack", "defense": "Defense",
          "attempt": "Attempt", "opposing": "Opposing"}


def dice_rolls(dice: Any) -> list[dict[str, Any]]:
    """A log entry's dice as a flat list of {label, by, faces, text}, whatever its nesting:
    one roll ({"by", "faces", ...}), named rolls ({"attack": {...}, "defense": {...}}) or
    single dice ({"black_die": "blank"})."""
    if not isinstance(dice, dict):
        return []
    named = [k for k, v in dice.items() if isinstance(v, dict) and "faces" in v]
    if named and ("by" in dice or "faces" in dice):  # dice_record: each side's roll, labelled apart
        return [_roll(_SIDES.get(k, k), dice[k]) for k in named]
    if "by" in dice or "faces" in dice:
        return [_roll("", dice)]
    rolls = []
    for label, value in dice.items():
        if isinstance(value, dict):
            rolls.append(_roll(label, value))
        elif value is not None and label != "by":
            rolls.append({"label": label, "by": dice.get("by"), "faces": [], "text": str(value)})
    return rolls


def _roll(label: str, roll: dict[str, Any]) -> dict[str, Any]:
    faces = []
    for face in roll.get("faces") or []:
        if isinstance(face, dict):
            faces.append(f"{face.get('colour', '')} {face.get('face', '')}".strip())
        else:
            faces.append(str(face))
    summary = ""
    if "hits" in roll:
        summary = f"{roll['hits']} hit{'s' if roll['hits'] != 1 else ''}"
        if roll.get("criticals"):
            summary += f" ({roll['criticals']} critical)"
    elif "result" in roll:
        summary = str(roll["result"])
    return {"label": label.replace("_", " "), "by": roll.get("by"), "faces": faces, "text": summary}


def step_dice_by(step: Step) -> str | None:
    """"app", "entered" or None: how this step's dice were rolled (mixed counts as entered)."""
    ways = {r["by"] for e in step.entries for r in dice_rolls(e.get("dice")) if r["by"]}
    if not ways:
        return None
    return "app" if ways == {"app"} else "entered"


def percent(p: float) -> str:
    """0.4123 -> '41%'; tiny but possible chances never read as impossible."""
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{round(p * 100)}%"


def number(value: Any) -> str:
    """2.0 -> '2', 2.5 -> '2.5'; anything else as typed (a refilled form keeps the player's text)."""
    return f"{value:g}" if isinstance(value, float | int) and not isinstance(value, bool) else str(value)


templates.env.globals.update(step_label=step_label, step_who=step_who,
                             undone_steps=undone_steps,
                             dice_rolls=dice_rolls, step_dice_by=step_dice_by)
templates.env.filters["percent"] = percent
templates.env.filters["num"] = number
