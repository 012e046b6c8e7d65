"""Ready stat blocks for a quick roster (five stat blocks cost 56 inputs). These are
house sheets, not the d20 combat reference's (it gives no stat blocks): a starting point the
player can replace by filling the whole sheet instead. Each fills only what the player did not
give (`add_npc` / `add_character` with `starter`); weapons follow the reference's attack lines
(D20-ATTACK-MELEE, D20-ATTACK-RANGED, D20-ATTACK-TECH). Pure data."""

from __future__ import annotations

from typing import Any

MACHETE = {"name": "Machete", "kind": "melee", "damage": "1d8"}
KNIFE = {"name": "Knife", "kind": "melee", "damage": "1d4", "finesse": True}
PISTOL = {"name": "Pistol", "kind": "ranged", "damage": "1d8", "short": 8, "long": 24}
RIFLE = {"name": "Rifle", "kind": "ranged", "damage": "1d10", "short": 16, "long": 48}
ARC = {"name": "Arc Projector", "kind": "tech", "damage": "2d6", "short": 6, "long": 18}

STARTERS: dict[str, tuple[str, dict[str, Any]]] = {
    "brute": ("Brute: Machete 1d8, DEF 12, 14 HP", {
        "defense": 12, "hp": 14, "attributes": {"vigor": 2, "agility": 0}, "skills": {"blade_waltz": 2},
        "weapons": [MACHETE]}),
    "gunner": ("Gunner: Pistol 1d8 (8/24) and Knife, DEF 13, 10 HP", {
        "defense": 13, "hp": 10, "attributes": {"agility": 2}, "skills": {"arrow_time": 2, "blade_waltz": 1},
        "weapons": [PISTOL, KNIFE]}),
    "sniper": ("Sniper: Rifle 1d10 (16/48), DEF 12, 9 HP", {
        "defense": 12, "hp": 9, "attributes": {"agility": 3}, "skills": {"arrow_time": 2},
        "weapons": [RIFLE]}),
    "techie": ("Techie: Arc Projector 2d6 (6/18), DEF 11, 8 HP", {
        "defense": 11, "hp": 8, "attributes": {"insight": 3}, "skills": {"timebender": 2},
        "weapons": [ARC, KNIFE]}),
    "fighter": ("Fighter (a Character): Machete and Pistol, DEF 15, 16 HP", {
        "defense": 15, "hp": 16, "attributes": {"vigor": 3, "agility": 2},
        "skills": {"blade_waltz": 2, "arrow_time": 1, "medicine": 1}, "weapons": [MACHETE, PISTOL],
        "hit_dice": 2}),
    "medic": ("Medic (a Character): Pistol and Knife, Medicine +4, DEF 13, 12 HP", {
        "defense": 13, "hp": 12, "attributes": {"agility": 2, "insight": 2},
        "skills": {"arrow_time": 2, "medicine": 4}, "weapons": [PISTOL, KNIFE], "hit_dice": 2}),
}


def filled(starter: str | None, given: dict[str, Any]) -> dict[str, Any]:
    """The starter's sheet under what the player gave (`given`: only the fields set)."""
    if starter is None:
        return given
    return {**STARTERS[starter][1], **given}
