"""Roster commands: add, edit and remove Characters and AI-Bots, and edit the house rules.

They are steps like any other, so a roster change can be undone and reaches every screen.
"""

from __future__ import annotations

from random import Random
from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator

from app.kernel.commands import Body, Entry, Refused
from app.kernel.names import Name
from app.rulesets.potham2038.commands import command
from app.rulesets.potham2038.house_checks import game_checks
from app.rulesets.potham2038.house_rules import Cover, HouseRules
from app.rulesets.potham2038.models import Bot, Character, GameState, Pool, Role


def new_id(rng: Random) -> str:
    """Ids come from the step's random stream so a replay rebuilds the same game."""
    return f"{rng.getrandbits(40):010x}"


class CharacterSheet(Body):
    """A Character as the player types it: no id, no play conditions."""

    name: Name
    points: int = Field(default=0, ge=0, le=10000)
    health: int = Field(default=3, ge=0, le=100)
    max_health: int = Field(default=3, ge=1, le=100)
    melee: Pool = Field(default_factory=dict)
    shoot: Pool = Field(default_factory=dict)
    defense: Pool = Field(default_factory=dict)
    mission_stats: dict[Name, Pool] = Field(default_factory=dict, max_length=40)
    equipment: list[Name] = Field(default_factory=list, max_length=40)
    cover: Cover = "none"


ASSIGNMENT_OF = {"subject": "sentry", "object": "worker", "waypoints": "patrol"}  # R-ROSTER-ASSIGN


class BotSheet(Body):
    """An AI-Bot as the player types it: profile and role assignment."""

    name: Name
    role: Role
    points: int = Field(default=0, ge=0, le=10000)
    health: int = Field(default=3, ge=0, le=100)
    max_health: int = Field(default=3, ge=1, le=100)
    walk: float = Field(default=4, ge=0, le=48)
    run: float = Field(default=8, ge=0, le=96)
    control_zone: float = Field(default=3, ge=0, le=24)
    melee: Pool = Field(default_factory=dict)
    defense: Pool = Field(default_factory=dict)
    shoot: Pool = Field(default_factory=dict)
    shoot_range: float | None = Field(default=None, ge=0, le=200)
    special_rules: list[Name] = Field(default_factory=list, max_length=40)
    subject: Name | None = None
    object: Name | None = None
    waypoints: list[Name] = Field(default_factory=list, max_length=40)
    patrol_mode: Literal["route", "circuit"] = "circuit"
    exempt: bool = False
    out_of_ammo: bool = False  # set by the player on the sheet too (R-CMB-AMMO), not only by play

    @field_validator("subject", "object", "waypoints")
    @classmethod
    def _own_role_only(cls, value: Any, info: ValidationInfo) -> Any:
        """R-ROSTER-ASSIGN: an assignment left over from another role is refused (the form drops it),
        so a hidden, stale assignment never steers a bot."""
        owner = ASSIGNMENT_OF[info.field_name or ""]
        role = info.data.get("role")
        if value and role is not None and role != owner:
            raise ValueError(f"{info.field_name} belongs to a {owner.title()}, not a {role.title()}; "
                             "leave it out")
        return value


def _check_pools(state: GameState, pools: dict[str, dict[str, int]]) -> None:
    known = set(state.house.dice_faces)
    for stat, pool in pools.items():
        unknown = sorted(set(pool) - known)
        if unknown:
            names = ", ".join(sorted(known))
            raise Refused(f"{stat}: unknown dice colour {', '.join(unknown)} (known: {names}).")
        if sum(pool.values()) > 40:
            raise Refused(f"{stat}: at most 40 dice in a pool.")


def _check_name(state: GameState, name: str, own: Character | Bot | None = None) -> None:
    """R-ROSTER-NAME: targets, Marked stacks and the log name models, so no two share a name
    (ignoring case). A model keeps its own name when edited, even one shared in an older game."""
    if own is not None and own.name.casefold() == name.casefold():
        return
    if any(m.name.casefold() == name.casefold() for m in [*state.characters, *state.bots] if m is not own):
        raise Refused(f"{name} is already on the roster: give this model a name of its own.", "R-ROSTER-NAME")


class AddCharacter(Body):
    character: CharacterSheet


class EditCharacter(Body):
    id: str
    character: CharacterSheet


class RemoveModel(Body):
    id: str


class AddBot(Body):
    bot: BotSheet


class EditBot(Body):
    id: str
    bot: BotSheet


class SetHouseRules(Body):
    house: HouseRules


# What an edit overwrites (preconditions.py): the whole sheet of that model, play values on it
# included (Health, Out of Ammo); the house rules whole, so every new house field is covered.


def sheet_of(model: Character | Bot | None, sheet: type[Body]) -> dict[str, Any]:
    """A model's values as its sheet (the form) shows them; {} for a model no longer there."""
    return {} if model is None else model.model_dump(mode="json", include=set(sheet.model_fields))


def _character_sheet(state: GameState, body: EditCharacter) -> dict[str, dict[str, Any]]:
    found = state.character(body.id)
    return {body.id: sheet_of(found, CharacterSheet)} if found else {}


def _bot_sheet(state: GameState, body: EditBot) -> dict[str, dict[str, Any]]:
    found = state.bot(body.id)
    return {body.id: sheet_of(found, BotSheet)} if found else {}


def _house(state: GameState, body: Body) -> dict[str, dict[str, Any]]:
    return {"house": state.house.model_dump(mode="json")}


def _character_pools(sheet: CharacterSheet) -> dict[str, dict[str, int]]:
    return {"Melee": sheet.melee, "Shoot": sheet.shoot, "Defense": sheet.defense, **sheet.mission_stats}


def _bot_pools(sheet: BotSheet) -> dict[str, dict[str, int]]:
    return {"Melee": sheet.melee, "Shoot": sheet.shoot, "Defense": sheet.defense}


@command("add_character", AddCharacter)
def add_character(state: GameState, body: AddCharacter, rng: Random) -> tuple[GameState, list[Entry]]:
    _check_name(state, body.character.name)
    _check_pools(state, _character_pools(body.character))
    character = Character(id=new_id(rng), **body.character.model_dump())
    return state.model_copy(update={"characters": [*state.characters, character]}), [
        Entry(f"{character.name} joins the game ({character.points} pts, Health {character.health}).")
    ]


@command("edit_character", EditCharacter, sets=_character_sheet)
def edit_character(state: GameState, body: EditCharacter, rng: Random) -> tuple[GameState, list[Entry]]:
    old = state.character(body.id)
    if old is None:
        raise Refused("That Character is no longer in the game.")
    _check_name(state, body.character.name, old)
    _check_pools(state, _character_pools(body.character))
    new = Character.model_validate({**old.model_dump(), **body.character.model_dump()})
    characters = [new if c.id == old.id else c for c in state.characters]
    return state.model_copy(update={"characters": characters}), [Entry(f"{new.name}'s sheet is updated.")]


@command("remove_character", RemoveModel)
def remove_character(state: GameState, body: RemoveModel, rng: Random) -> tuple[GameState, list[Entry]]:
    old = state.character(body.id)
    if old is None:
        raise Refused("That Character is no longer in the game.")
    characters = [c for c in state.characters if c.id != old.id]
    return state.model_copy(update={"characters": characters}), [Entry(f"{old.name} leaves the game.")]


@command("add_bot", AddBot)
def add_bot(state: GameState, body: AddBot, rng: Random) -> tuple[GameState, list[Entry]]:
    _check_name(state, body.bot.name)
    _check_pools(state, _bot_pools(body.bot))
    bot = Bot.model_validate({"id": new_id(rng), **body.bot.model_dump()})
    return state.model_copy(update={"bots": [*state.bots, bot]}), [
        Entry(f"{bot.name} ({bot.role.title()}) joins the game ({bot.points} pts, Health {bot.health}).")
    ]


@command("edit_bot", EditBot, sets=_bot_sheet)
def edit_bot(state: GameState, body: EditBot, rng: Random) -> tuple[GameState, list[Entry]]:
    old = state.bot(body.id)
    if old is None:
        raise Refused("That AI-Bot is no longer in the game.")
    _check_name(state, body.bot.name, old)
    _check_pools(state, _bot_pools(body.bot))
    data: dict[str, Any] = {**old.model_dump(), **body.bot.model_dump()}
    if data["waypoint_index"] >= max(len(data["waypoints"]), 1):
        data["waypoint_index"] = 0  # the route changed under it: head for the first waypoint
    new = Bot.model_validate(data)
    bots = [new if b.id == old.id else b for b in state.bots]
    return state.model_copy(update={"bots": bots}), [Entry(f"{new.name}'s profile is updated.")]


@command("remove_bot", RemoveModel)
def remove_bot(state: GameState, body: RemoveModel, rng: Random) -> tuple[GameState, list[Entry]]:
    old = state.bot(body.id)
    if old is None:
        raise Refused("That AI-Bot is no longer in the game.")
    bots = [b for b in state.bots if b.id != old.id]
    return state.model_copy(update={"bots": bots}), [Entry(f"{old.name} is removed from the game.")]


@command("set_house_rules", SetHouseRules, sets=_house)
def set_house_rules(state: GameState, body: SetHouseRules, rng: Random) -> tuple[GameState, list[Entry]]:
    problems = game_checks(body.house, state)
    if problems:
        raise Refused("House rules not saved: " + " ".join(problems.values()), "R-DICE")
    entries = [Entry("House rules updated.", "R-DICE")]
    limit = body.house.danger_limit
    if limit != state.house.danger_limit and limit == state.danger and state.status == "playing":
        # R-DANGER-LIMIT-EDIT: Danger now stands at the limit, as if it had reached it
        entries.append(Entry(f"Danger {state.danger} stands at the new limit of {limit}: the game ends after "
                             "this turn.", "R-DANGER-LIMIT-EDIT"))
        return state.model_copy(update={"house": body.house, "status": "final_turn"}), entries
    return state.model_copy(update={"house": body.house}), entries
