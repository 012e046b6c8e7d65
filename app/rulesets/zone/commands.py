"""The zone commands (its own namespace, docs/rulesets.md): roster, house rules, an NPC's round,
attacks each way, the end of a round, days and recovery. Handlers are pure."""

from __future__ import annotations

from random import Random
from typing import Annotated, Literal

from pydantic import Field, field_validator

from app.kernel.commands import Body, Commands, Entry, Refused
from app.kernel.names import Name
from app.rulesets.zone.brain import Facts
from app.rulesets.zone.models import (
    Attributes,
    Character,
    Npc,
    Person,
    Role,
    Stunt,
    Track,
    Weapon,
    ZoneHouse,
    ZoneState,
)

COMMANDS = Commands()
command = COMMANDS.command
Face = Annotated[int, Field(ge=1, le=6)]


class CharacterSheet(Body):
    name: Name
    attributes: Attributes = Field(default_factory=Attributes)
    fight: int = Field(default=0, ge=0, le=30)  # Fight and Shoot pools, as on the sheet
    shoot: int = Field(default=0, ge=0, le=30)
    weapons: list[Weapon] = Field(default_factory=list, max_length=5)


class GunSheet(Weapon):
    """Z-RELOAD: a gun on a sheet says how many bullets it holds (left blank, it would start empty
    and never fire without a word)."""

    bullets: Annotated[int, Field(ge=0, le=100)]


class NpcSheet(Body):
    name: Name
    role: Role = "hunter"
    attributes: Attributes = Field(default_factory=Attributes)
    fight: int = Field(default=3, ge=0, le=30)
    shoot: int = Field(default=0, ge=0, le=30)
    melee: Weapon = Field(default_factory=Weapon)
    gun: GunSheet | None = None
    subject: Name | None = None
    object: Name | None = None
    waypoints: list[Name] = Field(default_factory=list, max_length=20)

    @field_validator("gun")
    @classmethod
    def a_gun_is_ranged(cls, gun: GunSheet | None) -> GunSheet | None:
        """Z-SHOOT: the sheet's gun is its ranged weapon."""
        return gun.model_copy(update={"ranged": True}) if gun is not None else None

    def as_npc(self, npc_id: str) -> Npc:
        gun = Weapon(**self.gun.model_dump()) if self.gun is not None else None
        return Npc(id=npc_id, **self.model_dump(exclude={"melee", "gun"}), melee=self.melee, gun=gun)


class AddCharacter(Body):
    character: CharacterSheet


class AddNpc(Body):
    npc: NpcSheet


class Remove(Body):
    id: str = Field(max_length=40)


class SetHouse(Body):
    house: ZoneHouse


class Activate(Body):
    npc_id: str = Field(max_length=40)
    facts: Facts = Field(default_factory=Facts)
    same_as_last: bool = False  # Z-BANDS-KEPT: the bands kept from its last round, one tap


class NpcAttack(Body):
    npc_id: str = Field(max_length=40)
    character_id: str | None = Field(default=None, max_length=40)  # else the decision's target
    faces: list[Face] | None = Field(default=None, max_length=60)  # entered dice (Z-DICE)
    pushes: list[list[Face]] = Field(default_factory=list, max_length=30)


class CharacterAttack(Body):
    character_id: str = Field(max_length=40)
    npc_id: str = Field(max_length=40)
    kind: Literal["fight", "shoot"] = "fight"
    pool: int | None = Field(default=None, ge=0, le=30)  # the dice (attribute + skill + gear) …
    weapon: int | None = Field(default=None, ge=0, le=4)  # … or a weapon of the sheet: its pool, damage
    weapon_damage: int = Field(default=1, ge=0, le=20)
    push: bool = False  # pushed at once, before seeing the roll, only when asked (else push_roll)
    stunt: Stunt = "damage"
    faces: list[Face] | None = Field(default=None, max_length=60)
    successes: int | None = Field(default=None, ge=0, le=30)  # the player's dice as a count …
    ones: int = Field(default=0, ge=0, le=30)  # … and the 1s among them (Z-PUSH-AFTER)
    push_faces: list[Face] | None = Field(default=None, max_length=60)


class PushRoll(Body):
    """Z-PUSH-AFTER: push a Character's last roll once, after it was seen: the re-rolled dice's
    faces, or the pool's new totals, or nothing (the app rolls them)."""

    character_id: str = Field(max_length=40)
    faces: list[Face] | None = Field(default=None, max_length=60)
    successes: int | None = Field(default=None, ge=0, le=30)
    ones: int | None = Field(default=None, ge=0, le=30)


class DayReport(Body):
    character_id: str = Field(max_length=40)
    ate: bool = True
    drank: bool = True
    slept: bool = True


class PassDay(Body):
    reports: list[DayReport] = Field(default_factory=list, max_length=50)


class Cold(Body):
    character_id: str = Field(max_length=40)
    failed: bool = True


class Recover(Body):
    character_id: str = Field(max_length=40)
    track: Track
    points: int = Field(default=1, ge=1, le=100)


class Nothing(Body):
    pass


def new_id(state: ZoneState, prefix: str) -> tuple[str, ZoneState]:
    return f"{prefix}{state.next_id}", state.model_copy(update={"next_id": state.next_id + 1})


def put(state: ZoneState, person: Person) -> ZoneState:
    """The state with this Character or NPC replaced."""
    if isinstance(person, Npc):
        return state.model_copy(update={"npcs": [person if n.id == person.id else n for n in state.npcs]})
    return state.model_copy(
        update={"characters": [person if c.id == person.id else c for c in state.characters]}
    )


def character(state: ZoneState, character_id: str) -> Character:
    found = state.character(character_id)
    if found is None:
        raise Refused("No such Character in this game.")
    return found


def npc(state: ZoneState, npc_id: str) -> Npc:
    found = state.bot(npc_id)
    if found is None:
        raise Refused("No such NPC in this game.")
    return found


@command("add_character", AddCharacter)
def add_character(state: ZoneState, body: AddCharacter, rng: Random):
    cid, state = new_id(state, "c")
    new = Character(id=cid, **body.character.model_dump())
    return state.model_copy(update={"characters": [*state.characters, new]}), [Entry(f"{new.name} joins.")]


@command("add_npc", AddNpc)
def add_npc(state: ZoneState, body: AddNpc, rng: Random):
    nid, state = new_id(state, "n")
    new = body.npc.as_npc(nid)
    return state.model_copy(update={"npcs": [*state.npcs, new]}), [
        Entry(f"{new.name} ({new.role.capitalize()}) joins the NPCs.", f"Z-ROLE-{new.role.upper()}")
    ]


@command("remove_character", Remove)
def remove_character(state: ZoneState, body: Remove, rng: Random):
    gone = character(state, body.id)
    return state.model_copy(update={"characters": [c for c in state.characters if c.id != body.id]}), [
        Entry(f"{gone.name} leaves the game.")
    ]


@command("remove_npc", Remove)
def remove_npc(state: ZoneState, body: Remove, rng: Random):
    gone = npc(state, body.id)
    return state.model_copy(
        update={
            "npcs": [n for n in state.npcs if n.id != body.id],
            "decisions": [d for d in state.decisions if d.npc_id != body.id],
        }
    ), [Entry(f"{gone.name} leaves the game.")]


@command("set_house_rules", SetHouse, sets=lambda state, body: {"house": state.house.model_dump(mode="json")})
def set_house_rules(state: ZoneState, body: SetHouse, rng: Random):
    return state.model_copy(update={"house": body.house}), [Entry("House rules changed.", "Z-DICE")]
