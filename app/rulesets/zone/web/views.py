"""What the zone round panel offers: only what each model's turn still allows (Z-TURN), nobody
out of the fight (Z-OUT), only the model whose turn it is while a fight runs (Z-INITIATIVE), and
picks that fill the fields the player sees (what is on screen is what is rolled)."""

from __future__ import annotations

import json
from typing import Any

from app.rulesets.zone.books import able_ids
from app.rulesets.zone.models import Character, Npc, Person, ZoneState
from app.rulesets.zone.pools import sheet_parts

SLOTS_SAID = {("action", "maneuver"): "action + maneuver, or two maneuvers", ("maneuver",): "a maneuver",
              (): "turn spent"}


def turn_left(person: Person) -> str:
    """Z-TURN: what the model's turn still allows this round, as the status chip says it."""
    if person.out_of_fight:
        return "out of the fight"
    return SLOTS_SAID[tuple(person.slots_left())]


def on_turn(state: ZoneState, person: Person) -> bool:
    order = state.turn_order
    return not order.running or person.id not in order.ids() or order.acting == person.id


def attackers(state: ZoneState) -> list[Character]:
    """The Characters who may attack now: in the fight, an action left, on their turn."""
    return [c for c in state.characters
            if not c.out_of_fight and "action" in c.slots_left() and on_turn(state, c)]


def movers(state: ZoneState) -> list[Character]:
    """The Characters who may make a maneuver now."""
    return [c for c in state.characters if not c.out_of_fight and c.slots_left() and on_turn(state, c)]


def targets(state: ZoneState) -> list[Npc]:
    """The NPCs a Character may attack (Z-OUT: none out of the fight)."""
    return [n for n in state.npcs if not n.out_of_fight]


def waiting(state: ZoneState) -> list[Npc]:
    """The NPCs still to decide their round: in the fight, nothing spent, on their turn."""
    return [n for n in state.npcs if state.decision(n.id) is None and not n.spent and not n.out_of_fight
            and on_turn(state, n)]


def weapon_options(chars: list[Character]) -> list[dict[str, Any]]:
    """Each weapon of each Character's sheet, with the fields its pick fills (Z-POOL)."""
    out = []
    for c in chars:
        for i, w in enumerate(c.weapons):
            kind = "shoot" if w.ranged else "fight"
            parts = sheet_parts(c, kind, c.shoot if w.ranged else c.fight, 0 if w.broken else w.bonus)
            fills = {"ca-who": c.id, "ca-kind": kind, "ca-base": str(parts.base),
                     "ca-skill": str(parts.skill), "ca-gear": str(parts.gear), "ca-damage": str(w.damage)}
            bullets = "" if w.bullets is None else f", {w.bullets} bullets"
            label = (f"{c.name}: {w.name} ({'Shoot' if w.ranged else 'Fight'} {parts.total} dice: "
                     f"{parts.said()}, damage {w.damage}{bullets}{', full auto' if w.full_auto else ''}"
                     f"{', broken' if w.broken else ''})")
            out.append({"value": f"{c.id}:{i}", "label": label, "fills": json.dumps(fills)})
    return out


def sheet_fills(sheets: dict[str, tuple[str, dict[str, str]]]) -> dict[str, str]:
    """The NPC form's starting sheets as the fields each pick fills (ids of the add form)."""
    ids = {"npc.fight": "zn-fight", "npc.shoot": "zn-shoot", "npc.melee.name": "zn-melee",
           "npc.melee.damage": "zn-melee-damage", "npc.melee.reach": "zn-melee-reach",
           "npc.gun.name": "zn-gun", "npc.gun.damage": "zn-gun-damage", "npc.gun.reach": "zn-gun-reach",
           "npc.gun.bullets": "zn-gun-bullets", "npc.gun.full_auto": "zn-gun-auto",
           "npc.melee.bonus": "zn-melee-bonus", "npc.gun.bonus": "zn-gun-bonus"}
    out = {}
    for key, (_, fields) in sheets.items():
        blank = {i: "" for n, i in ids.items() if n.startswith("npc.gun.")} | {"zn-gun-auto": "false"}
        defaults = {"zn-fight": "3", "zn-shoot": "0", "zn-melee": "Fists", "zn-melee-damage": "1",
                    "zn-melee-reach": "arms_length", "zn-melee-bonus": "0", **blank}
        out[key] = json.dumps(defaults | {ids[n]: v for n, v in fields.items() if n in ids})
    return out


def round_view(state: ZoneState) -> dict[str, Any]:
    chars = attackers(state)
    return {"attackers": chars, "movers": movers(state), "npc_targets": targets(state),
            "waiting_npcs": waiting(state), "weapon_options": weapon_options(chars),
            "in_fight": able_ids(state), "turn_left": turn_left}
