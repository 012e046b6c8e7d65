"""Checks a house-rules table must pass for the game it is for: faces the dice code can read,
a face table for every colour the roster rolls, Glitch rows that fit the die and do not overlap,
and a Danger limit not already passed."""

from __future__ import annotations

from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.models import GameState

FACES = ("blank", "hit", "critical", "success")  # what dice.py reads (R-CMB-ROLL, R-CMB-TARGET)


def colours_in_use(state: GameState, house: HouseRules | None = None) -> set[str]:
    """The colours the game rolls: the roster's pools and the colours `house` (the table being
    checked, else the game's own) adds for Cover, DIAGNOSTICS / TECH SUPPORT and Distracted."""
    house = house or state.house
    # the Black Die: actual target, Out of Ammo, Luck Roll
    used = {"black", house.cover_colour, house.hack_help_colour, house.distracted_colour}
    for model in [*state.characters, *state.bots]:
        for pool in (model.melee, model.shoot, model.defense, *getattr(model, "mission_stats", {}).values()):
            used |= {colour for colour, n in pool.items() if n}
    return used



def game_checks(house: HouseRules, state: GameState) -> dict[str, str]:
    """Field -> message for what pydantic cannot know: the game this table is for (R-DICE, R-GLITCH).

    The set_house_rules command refuses a table with any of these, whoever sends it; the house
    page shows each message next to its field."""
    errors: dict[str, str] = {}
    for colour, faces in house.dice_faces.items():
        odd = sorted(set(faces) - set(FACES))
        if odd:
            errors[f"dice_faces.{colour}"] = f"Faces are {', '.join(FACES)}; not {', '.join(odd)}."
    for colour in sorted(colours_in_use(state, house) - set(house.dice_faces)):
        errors.setdefault(f"dice_faces.{colour}", f"The game uses {colour} dice: they need faces.")

    seen: set[int] = set()
    for i, row in enumerate(house.glitch_table):
        results = set(range(row.low, row.high + 1))
        if row.low > row.high or row.high > house.glitch_die:
            errors[f"glitch_table.{i}.low"] = f"From ≤ to ≤ {house.glitch_die} (the Glitch die)."
        elif results & seen:
            errors[f"glitch_table.{i}.low"] = "This row overlaps an earlier one."
        seen |= results
        if row.result == "free_action" and row.action is None:
            errors[f"glitch_table.{i}.action"] = "Name the free action this row gives (R-GLITCH-ANY)."
    if house.danger_limit < state.danger:
        errors["danger_limit"] = f"Danger is already {state.danger}; the limit cannot be below it."
    return errors
