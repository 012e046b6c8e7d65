"""What a screen reader says after a step or a refusal: one concise sentence, put in the page's
polite live region (#turn-announcer, templates/_announce.html), never the whole panel.

A step's log entries each start with what happened ("Hunter-1, action 1: melee Ada.") and go on
with the reason and the odds; the sentence keeps each entry's first part only, and says Danger
where the step changed it. The panel itself, with every reason, stays one Tab away."""

from __future__ import annotations

import re
from typing import Any

from app.store.tables import Step
from app.web.templating import templates
from app.web.view import step_label

# a rule id cited in brackets, "(R-SENTRY-HOLD)" or "(Z-PUSH, Z-BROKEN)": the panel shows it as a link
RULE_IDS = re.compile(r"\s*\((?:[A-Z][A-Z0-9]*-[A-Z0-9-]+)(?:[,;] ?[A-Z][A-Z0-9]*-[A-Z0-9-]+)*\)")
HEADLINE_MAX = 140  # characters: what one entry may add to the sentence


def headline(text: str) -> str:
    """What an entry says happened: its first sentence ('4.5"' keeps its point: no space after it),
    up to its second colon (what follows is the reason: "Slot 1 stays empty: Nothing legal is left
    …: Maneuver: …"), without rule ids, at most HEADLINE_MAX characters (cut at a word)."""
    first = RULE_IDS.sub("", text.strip()).split(". ", 1)[0].rstrip(".").strip()
    parts = first.split(": ")
    first = ": ".join(parts[:2])
    if len(first) > HEADLINE_MAX:
        first = first[:HEADLINE_MAX].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    return first


def danger_after(step: Step) -> Any:
    """The Danger the step set, if it changed it (its delta sets the state's top-level `danger`)."""
    for op in step.delta or []:
        if len(op) >= 3 and op[0] == "set" and list(op[1]) == ["danger"]:
            return op[2]
    return None


def announcement(step: Step | None) -> str:
    """'Activation: Hunter-1, action 1: melee Ada; Hunter-1, action 2: scan. Danger 5.'"""
    if step is None:
        return ""
    parts = [headline(e.get("text", "")) for e in step.entries or []]
    said = "; ".join(p for p in parts if p)
    label = step_label(step)
    if said.startswith(f"{label}:"):  # the entry names the step itself ("Event: Event card")
        label, said = said.split(":", 1)[0], said.split(":", 1)[1].strip()
    sentence = f"{label}: {said}." if said else f"{label}."
    danger = danger_after(step)
    if danger is not None and "Danger" not in said:
        sentence += f" Danger {danger}."
    return sentence


def refusal(error: str | None) -> str:
    """A refused tap in one sentence: the reason the form shows next to it."""
    return f"Not recorded: {error.strip()}" if error else ""


templates.env.globals.update(announcement=announcement, refusal=refusal)
