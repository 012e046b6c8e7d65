"""Helpers for the zone ruleset's unit tests: a state built through its own commands."""

from __future__ import annotations

from random import Random

from app import rulesets

ZONE = rulesets.get("zone")


def run(state, data: dict, seed: int = 1):
    name, body = ZONE.parse(data)
    return ZONE.apply(state, name, body, Random(seed))


def game(characters=("Ada", "Bo"), npcs=()):
    """A zone state with Characters c1, c2… and then the NPCs (dicts of their sheet)."""
    state = ZONE.new_state()
    for name in characters:
        state, _ = run(state, {"type": "add_character", "character": {"name": name}})
    for sheet in npcs:
        state, _ = run(state, {"type": "add_npc", "npc": sheet})
    return state


def seen(*facts):
    """(character_id, band, line_of_sight) triples as reported facts."""
    return [{"character_id": c, "band": b, "line_of_sight": los} for c, b, los in facts]


def activate(state, npc_id: str, facts: list, seed: int = 1, **directive):
    return run(state, {"type": "activate_npc", "npc_id": npc_id, "facts": {"seen": facts, **directive}}, seed)


def card(state, npc_id: str) -> list[tuple[str, str, str | None]]:
    """The decision card as (kind, name, target) lines."""
    return [(a.kind, a.name, a.target) for a in state.decision(npc_id).actions]


RIFLE = {"name": "Rifle", "ranged": True, "damage": 2, "reach": "long", "bullets": 5}
SPEAR = {"name": "Scrap spear", "damage": 2, "reach": "near"}
