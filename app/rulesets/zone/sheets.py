"""Starting sheets: a Year Zero table's usual opponents, and the sample game built
from them. House sheets, not the seed's (it gives no stat blocks): a starting point the player
changes. Pure data, in the commands' own JSON (`add_npc`'s `npc`, `add_character`'s `character`)."""

from __future__ import annotations

from typing import Any

# The NPC form's "Starting sheet" pick (app/rulesets/zone/web/__init__.py flattens these into its fields).
NPC_SHEETS: dict[str, tuple[str, dict[str, Any]]] = {
    "brawler": ("Brawler: Fight 4, scrap spear (damage 2, Near)", {
        "fight": 4, "melee": {"name": "Scrap spear", "damage": 2, "reach": "near"}}),
    "rifle": ("Guard: Shoot 3, rifle (damage 2, Long, 6 bullets)", {
        "shoot": 3, "gun": {"name": "Rifle", "damage": 2, "reach": "long", "bullets": 6}}),
    "smg": ("Raider: Shoot 3, submachine gun (damage 1, Short, full auto, 10 bullets)", {
        "shoot": 3, "gun": {"name": "Submachine gun", "damage": 1, "reach": "short", "bullets": 10,
                            "full_auto": True}}),
    "scavenger": ("Scavenger: Fight 2, club (damage 1)", {"fight": 2, "melee": {"name": "Club"}}),
}

# The sample game: two Characters with sheets and weapons, and one NPC of each role
# (Z-ROLE-HUNTER and the others) with its assignment, each on a starting sheet above.
MACHETE = {"name": "Machete", "bonus": 1, "damage": 2}
REVOLVER = {"name": "Revolver", "damage": 2, "reach": "short", "ranged": True, "bullets": 6}
RIFLE = {"name": "Hunting rifle", "bonus": 1, "damage": 2, "reach": "long", "ranged": True, "bullets": 5}
CHARACTERS: list[dict[str, Any]] = [
    {"name": "Ash", "attributes": {"strength": 4, "agility": 3, "wits": 2, "empathy": 3}, "fight": 6,
     "shoot": 4, "weapons": [MACHETE, REVOLVER]},
    {"name": "Juno", "attributes": {"strength": 2, "agility": 4, "wits": 4, "empathy": 2}, "fight": 3,
     "shoot": 6, "weapons": [RIFLE, {"name": "Knife", "damage": 1}]},
]
NPCS: list[tuple[str, dict[str, Any]]] = [  # (starting sheet, name, role and assignment)
    ("brawler", {"name": "Brawler", "role": "hunter"}),
    ("rifle", {"name": "Guard", "role": "sentry", "subject": "Gate"}),
    ("scavenger", {"name": "Scavenger", "role": "worker", "object": "Scrap pile"}),
    ("smg", {"name": "Raider", "role": "patrol", "waypoints": ["Ruins", "Well", "Bridge"]}),
]
SAMPLE = tuple([{"type": "add_character", "character": c} for c in CHARACTERS]
               + [{"type": "add_npc", "npc": {**NPC_SHEETS[sheet][1], **npc}} for sheet, npc in NPCS])
