"""The zone commands (its own namespace, docs/rulesets.md): roster, house rules, an NPC's round,
attacks each way, the end of a round, days and recovery. Handlers are pure."""

from __future__ import annotations

from random import Random
from typing import Annotated, Literal

from pydantic import Field, field_validator

from app.kernel import turn_order
from app.kernel.commands import Body, Commands, Entry, Refused
from app.kernel.names import Name
from app.rulesets.zone.books import keep_books
from app.rulesets.zone.brain import Facts
from app.rulesets.zone.models import (
    Arm,
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
Face = Annotated[int, Field(ge=1, le=6)]
CARDS = range(1, 11)  # Z-INITIATIVE: initiative cards 1 to 10


def command(name: str, body: type[Body], sets=None):
    """Register a zone command; after it, the books are kept (books.keep_books: Z-OUT, Z-PUSH-AFTER,
    Z-GRAPPLE, Z-DIE-LATER), whatever the command was."""
    register = COMMANDS.command(name, body, sets)

    def wrap(fn):
        def handler(state, given, rng):
            new, entries = fn(state, given, rng)
            return keep_books(new, entries, name, given)

        handler.__doc__, handler.__name__ = fn.__doc__, fn.__name__
        register(handler)
        return fn

    return wrap


class CharacterArm(Arm):
    """Z-FULL-AUTO: a full automatic weapon's bullets are counted ("every re-roll costs you one
    bullet"), so the sheet must say them."""

    @field_validator("bullets")
    @classmethod
    def counted(cls, bullets, info):
        if bullets is None and info.data.get("full_auto"):
            raise ValueError("a full automatic weapon needs its bullets")
        return bullets


class CharacterSheet(Body):
    name: Name
    attributes: Attributes = Field(default_factory=Attributes)
    fight: int = Field(default=0, ge=0, le=30)  # Fight and Shoot pools, as on the sheet
    shoot: int = Field(default=0, ge=0, le=30)
    weapons: list[CharacterArm] = Field(default_factory=list, max_length=5)

    def as_character(self, cid: str) -> Character:
        arms = [Arm(**w.model_dump(exclude={"load"}), load=w.bullets) for w in self.weapons]
        return Character(id=cid, **self.model_dump(exclude={"weapons"}), weapons=arms)


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
    patrol_mode: Literal["route", "circuit"] = "circuit"

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


class EditCharacter(Body):
    id: str = Field(max_length=40)
    character: CharacterSheet


class EditNpc(Body):
    id: str = Field(max_length=40)
    npc: NpcSheet


class Draw(Body):
    member_id: str = Field(max_length=40)
    card: int = Field(ge=1, le=10)


class StartFight(Body):
    """Z-INITIATIVE: the Characters' cards as the player drew them (the app draws the rest)."""

    draws: list[Draw] = Field(default_factory=list, max_length=100)


class Maneuver(Body):
    """Z-TURN: a Character's maneuver (the quick reference's list)."""

    character_id: str = Field(max_length=40)
    maneuver: Literal["move", "seek_cover", "get_item", "pick_up", "draw_weapon", "aim", "reload",
                      "use_item"]
    weapon: int | None = Field(default=None, ge=0, le=4)  # the weapon reloaded


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


class Pool(Body):
    """Z-POOL: base dice (the attribute), skill dice and gear dice, kept apart."""

    base: int = Field(default=0, ge=0, le=30)
    skill: int = Field(default=0, ge=0, le=30)
    gear: int = Field(default=0, ge=0, le=30)


class CharacterAttack(Body):
    character_id: str = Field(max_length=40)
    npc_id: str = Field(max_length=40)
    kind: Literal["fight", "shoot"] = "fight"
    pool: Annotated[int, Field(ge=0, le=30)] | Pool | None = None  # a total (skill dice), or its parts …
    weapon: int | None = Field(default=None, ge=0, le=4)  # … or a weapon of the sheet: its pool, damage
    weapon_damage: int = Field(default=1, ge=0, le=20)
    push: bool = False  # Z-PUSH-AFTER: push if the roll shows no success (else push_roll, after a look)
    stunt: Stunt = "damage"  # what extra successes buy when `stunts` does not say
    stunts: list[Stunt] = Field(default_factory=list, max_length=30)  # Z-STUNTS: one per extra success
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
    stunt: Stunt = "damage"  # Z-STUNTS: what the success(es) the push bought buy
    stunts: list[Stunt] = Field(default_factory=list, max_length=30)


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


def join_fight(state: ZoneState, person: Person, rng: Random, entries: list[Entry]) -> ZoneState:
    """Z-INITIATIVE: a model added mid-fight draws a card and joins the order (its turn this
    round still to come)."""
    order = state.turn_order
    if not order.running:
        return state
    card = turn_order.draw(CARDS, [p.value for p in order.places], rng)
    entries.append(Entry(f"{person.name} joins the fight with initiative card {card}.", "Z-INITIATIVE"))
    return state.model_copy(update={"turn_order": turn_order.joined(order, person.id, card)})


def leave_fight(state: ZoneState, model_id: str) -> ZoneState:
    return state.model_copy(update={"turn_order": turn_order.left(state.turn_order, model_id)})


@command("add_character", AddCharacter)
def add_character(state: ZoneState, body: AddCharacter, rng: Random):
    cid, state = new_id(state, "c")
    new = body.character.as_character(cid)
    entries = [Entry(f"{new.name} joins.")]
    state = state.model_copy(update={"characters": [*state.characters, new]})
    return join_fight(state, new, rng, entries), entries


@command("add_npc", AddNpc)
def add_npc(state: ZoneState, body: AddNpc, rng: Random):
    nid, state = new_id(state, "n")
    new = body.npc.as_npc(nid)
    entries = [Entry(f"{new.name} ({new.role.capitalize()}) joins the NPCs.", f"Z-ROLE-{new.role.upper()}")]
    state = state.model_copy(update={"npcs": [*state.npcs, new]})
    return join_fight(state, new, rng, entries), entries


SHEET_KEEPS = ("id", "damage", "fatigue", "confusion", "doubt", "spent", "starving", "dehydrated",
               "sleepless",
               "hypothermic", "dead", "last_roll", "aimed", "broken_on", "prone", "disarmed", "last_facts",
               "grappled_by", "next_waypoint", "waypoint_step")


def sheet_of(person: Person) -> dict:
    """The sheet fields of a model, as an edit sets them (for the stale-edit check)."""
    return person.model_dump(mode="json", exclude=set(SHEET_KEEPS))


@command("edit_character", EditCharacter, sets=lambda state, body: {
    body.id: sheet_of(state.character(body.id))} if state.character(body.id) else {})
def edit_character(state: ZoneState, body: EditCharacter, rng: Random):
    """The roster: a Character's sheet changed; its trauma, conditions and round stay."""
    was = character(state, body.id)
    new = body.character.as_character(was.id)
    new = new.model_copy(update={k: getattr(was, k) for k in SHEET_KEEPS if k in Character.model_fields})
    return put(state, new), [Entry(f"{new.name}'s sheet is changed.")]


@command("edit_npc", EditNpc, sets=lambda state, body: {
    body.id: sheet_of(state.bot(body.id))} if state.bot(body.id) else {})
def edit_npc(state: ZoneState, body: EditNpc, rng: Random):
    """The roster: an NPC's sheet and assignment changed; its trauma and round stay."""
    was = npc(state, body.id)
    new = body.npc.as_npc(was.id)
    new = new.model_copy(update={k: getattr(was, k) for k in SHEET_KEEPS if k in Npc.model_fields})
    if len(new.waypoints) and new.next_waypoint >= len(new.waypoints):
        new = new.model_copy(update={"next_waypoint": 0, "waypoint_step": 1})
    return put(state, new), [Entry(f"{new.name}'s sheet is changed.")]


@command("remove_character", Remove)
def remove_character(state: ZoneState, body: Remove, rng: Random):
    gone = character(state, body.id)
    state = leave_fight(state, body.id)
    return state.model_copy(update={"characters": [c for c in state.characters if c.id != body.id]}), [
        Entry(f"{gone.name} leaves the game.")
    ]


@command("remove_npc", Remove)
def remove_npc(state: ZoneState, body: Remove, rng: Random):
    gone = npc(state, body.id)
    state = leave_fight(state, body.id)
    return state.model_copy(
        update={
            "npcs": [n for n in state.npcs if n.id != body.id],
            "decisions": [d for d in state.decisions if d.npc_id != body.id],
        }
    ), [Entry(f"{gone.name} leaves the game.")]


@command("set_house_rules", SetHouse, sets=lambda state, body: {"house": state.house.model_dump(mode="json")})
def set_house_rules(state: ZoneState, body: SetHouse, rng: Random):
    return state.model_copy(update={"house": body.house}), [Entry("House rules changed.", "Z-DICE")]
