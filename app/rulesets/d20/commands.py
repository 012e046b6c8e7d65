"""The d20 commands' bodies and their registry (the ruleset's own namespace, docs/rulesets.md).

A handler is pure: `(state, body, rng) -> (new_state, [Entry, …])`, raising `Refused` when the
command is illegal. Handlers live in play_roster.py, play_round.py and play_npc.py.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any, Literal

from pydantic import Field

from app.kernel.commands import Body, Entry, Refused
from app.kernel.names import Name
from app.rulesets.d20.books import cancel_pending
from app.rulesets.d20.game import (
    Attribute,
    Condition,
    D20House,
    D20State,
    Modifier,
    Role,
    Skill,
    Squares,
    WeaponSheet,
)

Handler = Callable[[D20State, Any, Random], tuple[D20State, list[Entry]]]
Sets = Callable[[D20State, Any], dict[str, dict[str, Any]]]
HANDLERS: list[tuple[str, type[Body], Handler]] = []
SETS: dict[str, Sets] = {}  # commands that overwrite values: a stale edit is refused (preconditions)

__all__ = ["Body", "Entry", "Refused", "HANDLERS", "SETS", "command"]


def command(name: str, body: type[Body], sets: Sets | None = None) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        if any(n == name for n, _, _ in HANDLERS):
            raise ValueError(f"command {name!r} registered twice")
        HANDLERS.append((name, body, kept_books(fn)))
        if sets is not None:
            SETS[name] = sets
        return fn

    return register


def kept_books(fn: Handler) -> Handler:
    """Every command ends with the books checked: a pending attack whose attacker is out of the
    fight or whose target is down is cancelled with a log line (D20-OUT, books.cancel_pending)."""

    def handler(state: D20State, body: Any, rng: Random) -> tuple[D20State, list[Entry]]:
        state, entries = fn(state, body, rng)
        state, cancelled = cancel_pending(state)
        return state, entries + cancelled

    handler.__name__, handler.__doc__ = fn.__name__, fn.__doc__
    return handler


Starter = Literal["brute", "gunner", "sniper", "techie", "fighter", "medic"]  # starters.STARTERS


class SheetIn(Body):
    name: Name
    starter: Starter | None = None  # a ready sheet filling what is not given (starters.py)
    attributes: dict[Attribute, Modifier] = Field(default_factory=dict)
    skills: dict[Skill, Modifier] = Field(default_factory=dict)
    pb: int = Field(default=2, ge=0, le=10)
    defense: int = Field(default=10, ge=0, le=60)
    hp: int = Field(default=10, ge=1, le=1000)
    speed: int = Field(default=6, ge=0, le=60)
    weapons: list[WeaponSheet] = Field(default_factory=list, max_length=10)
    hit_dice: int = Field(default=1, ge=0, le=30)
    # D20-TRACKER: its initiative when it joins a fight under way (blank: d20 + Agility, rolled)
    initiative: int | None = Field(default=None, ge=-20, le=60)


class NpcIn(SheetIn):
    role: Role = "hunter"
    zone: int = Field(default=3, ge=0, le=60)
    wielding: Name | None = None
    features: list[Literal["parry", "intercept"]] = Field(default_factory=list, max_length=2)
    subject: Name | None = None
    object: Name | None = None
    object_minor: bool = False
    waypoints: list[Name] = Field(default_factory=list, max_length=20)
    patrol_mode: Literal["route", "circuit"] = "circuit"  # D20-PATROL-ROUTE
    exempt: bool = False


class AddCharacter(Body):
    character: SheetIn


class AddNpc(Body):
    npc: NpcIn


class MemberId(Body):
    member_id: str = Field(max_length=40)


class Duplicate(MemberId):
    """Another of the same stat block, fresh (full HP, no conditions); blank name: numbered."""

    name: Name | None = None


class SetCondition(MemberId):
    condition: Condition
    present: bool = True
    # D20-DURATION: the effect's duration in rounds (its holder's turns); blank: until cleared
    rounds: int | None = Field(default=None, ge=1, le=1000)


class Spend(MemberId):
    """D20-TURN-BUDGET: a Character's Move, an Action other than an attack, or a Minor."""

    what: Literal["move", "attack", "cast_use_tech", "dash", "disengage", "aim", "overwatch", "grapple_shove",
                  "use_item", "interact", "draw_sling_weapon", "open_door", "quick_comms", "toggle_device",
                  "stand"]


class Delay(MemberId):
    """D20-DELAY: the creature whose turn it is waits and acts after `after_id` this round."""

    after_id: str | None = Field(default=None, max_length=40)


class HealDamage(MemberId):
    """D20-HEAL: HP up or down by `amount`, as a tracker's +N / -N."""

    amount: int = Field(ge=1, le=1000)
    lethal: bool = True
    critical: bool = False


class Adjust(MemberId):
    hp: int | None = Field(default=None, ge=0, le=1000)
    dying: int | None = Field(default=None, ge=0, le=4)
    wounded: int | None = Field(default=None, ge=0, le=20)
    note: str = Field(default="", max_length=200)


class TempHp(MemberId):
    amount: int = Field(ge=0, le=1000)
    exact: bool = False  # a correction: this value, not the higher of the two


class Rest(MemberId):
    kind: Literal["short", "long"]
    rolled: int | None = Field(default=None, ge=1, le=12)


class Check(MemberId):
    """A Medicine check's total (D20-STABILIZE, D20-COND-BLEEDING): entered, the player's roll;
    `by_id`: the creature making it, which spends its Action (D20-TURN-BUDGET)."""

    medicine_total: int = Field(ge=-20, le=60)
    by_id: str | None = Field(default=None, max_length=40)


class EffectSave(MemberId):
    """A Save against an effect (D20-EFFECT-SAVE): the attribute and DC the effect names, the d20
    (blank: rolled) and the Condition a failure takes."""

    attribute: Attribute
    dc: int = Field(ge=1, le=60)
    natural: int | None = Field(default=None, ge=1, le=20)
    condition: Condition | None = None
    proficient: bool = False


class SetHouse(Body):
    house: D20House


class SeenIn(Body):
    character_id: str = Field(max_length=40)
    distance: int = Field(ge=1, le=1000)
    line_of_sight: bool = False
    cover: Literal["none", "light", "medium", "heavy"] = "none"


class NpcTurn(Body):
    """D20-TURN: an NPC's turn from the facts the player reports (D20-FACTS)."""

    npc_id: str = Field(max_length=40)
    seen: list[SeenIn] = Field(default_factory=list, max_length=50)
    subject_distance: Squares | None = None
    object_distance: Squares | None = None
    waypoint_distance: Squares | None = None
    next_waypoint_distance: Squares | None = None
    direction: int | None = Field(default=None, ge=1, le=8)
    natural: int | None = Field(default=None, ge=1, le=20, description="A Dying NPC's Vigor Save d20.")
    bleed: int | None = Field(default=None, ge=1, le=4, description="Bleeding's 1d4, entered.")
    # D20-FACTS-KEPT: the squares and facts of its last turn, when nothing moved since
    same_as_last: bool = False


class StartTurn(MemberId):
    """A Character's turn begins: Bleeding, a Dying save (D20-DYING-SAVE): its d20 entered as
    `natural`, or `app_rolls` (the player's choice, never the app's)."""

    natural: int | None = Field(default=None, ge=1, le=20)
    bleed: int | None = Field(default=None, ge=1, le=4)
    app_rolls: bool = False


class Attack(Body):
    """One attack either way: an NPC's decided one or a Character's (D20-ATTACK-*)."""

    attacker_id: str = Field(max_length=40)
    target_id: str = Field(max_length=40)
    weapon: Name | None = None
    range: Literal["short", "long", "beyond"] = "short"
    cover: Literal["none", "light", "medium", "heavy"] = "none"
    natural: int | None = Field(default=None, ge=1, le=20)
    damage: int | None = Field(default=None, ge=0, le=1000)
    lethal: bool = True
    reaction: bool = False  # the attacker's Reaction: an Attack of Opportunity (D20-AOO)
    # the target spends its Reaction to Parry a melee attack (D20-PARRY); None: an NPC target
    # parries as its brain decides (D20-BRAIN-REACTION), a Character does not
    parried: bool | None = None
    # the target steps in for an ally with its Reaction (D20-INTERCEPT): the target is the interceptor
    intercept: bool = False


class EndRound(Body):
    pass


class InitiativeIn(Body):
    member_id: str = Field(max_length=40)
    value: int | None = Field(default=None, ge=-20, le=60)  # blank: d20 + Agility, rolled


class SetInitiative(Body):
    """D20-INITIATIVE: the order of turns; a creature whose value is not given rolls d20 + Agility."""

    rolls: list[InitiativeIn] = Field(default_factory=list, max_length=100)


class NextTurn(Body):
    """The tracker moves on to the next creature; a Character's turn begins by itself."""

    natural: int | None = Field(default=None, ge=1, le=20, description="A Dying Character's Vigor Save d20.")
    bleed: int | None = Field(default=None, ge=1, le=4)
    app_rolls: bool = False  # a Dying Character's save: the app rolls it (the player's choice)
