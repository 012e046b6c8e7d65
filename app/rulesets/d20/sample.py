"""The sample d20 game: two Characters and three NPCs on the ready stat blocks of
starters.py, each added by `add_character` / `add_npc` (so each is a step in the log and Undo
takes it back). The NPCs show three roles' brains: a Hunter with a machete (D20-ROLE-HUNTER), a
Sentry with a pistol guarding its subject (D20-ROLE-SENTRY), a Worker with the arc projector at
its object (D20-ROLE-WORKER). Pure data."""

from __future__ import annotations

from typing import Any

CHARACTERS: list[dict[str, Any]] = [
    {"name": "Kara", "starter": "fighter"},
    {"name": "Osei", "starter": "medic"},
]
NPCS: list[dict[str, Any]] = [
    {"name": "Brute", "starter": "brute", "role": "hunter"},
    {"name": "Gunner", "starter": "gunner", "role": "sentry", "subject": "Gate"},
    {"name": "Techie", "starter": "techie", "role": "worker", "object": "Generator"},
]
SAMPLE = tuple([{"type": "add_character", "character": c} for c in CHARACTERS]
               + [{"type": "add_npc", "npc": n} for n in NPCS])
