"""Stat blocks of the d20 combat reference: attributes, skills, PB, DEF, HP, weapons, conditions.

One `Combatant` type serves NPCs and Characters (the reference gives both the same attack
lines); an NPC adds its role and assignment in brain_types.py. Frozen dataclasses: the web edge
validates with pydantic before building them. `HouseRules` holds the editable defaults for the
Core rules the reference leans on but does not state (docs/rules-d20.md § Core rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from app.rulesets.d20.dice import Dice, parse_dice

ATTRIBUTES = ("agility", "vigor", "insight", "charm")  # the four the reference names
SKILLS = ("blade_waltz", "arrow_time", "timebender", "medicine")
KINDS = ("melee", "ranged", "tech")
RANGES = ("short", "long", "beyond")
COVERS = {"none": 0, "light": 1, "medium": 2, "heavy": 4}  # D20-COVER: +DEF

# D20-ACTIONS: the reference's Actions and Minors (the brain uses the ones it can decide).
ACTIONS = ("attack", "cast_use_tech", "dash", "disengage", "aim", "overwatch", "grapple_shove", "use_item",
           "interact")
MINORS = ("draw_sling_weapon", "open_door", "quick_comms", "toggle_device", "stand")

# The common conditions (D20-COND-*): the names a Combatant's `conditions` may hold.
CONDITIONS = ("bleeding", "blinded", "deafened", "charmed", "frightened", "grappled", "restrained",
              "poisoned", "prone", "stunned", "temporal_displacement", "temporal_immune",
              "unconscious", "exhausted", "glitched")


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon or tech effect. Melee: strength-based (Vigor) unless `finesse` (Agility);
    ranged: Short and Long in squares (D20-RANGE); `bonus` is the item's attack bonus."""

    name: str
    kind: str = "melee"
    damage: str = "1d6"
    finesse: bool = False
    bonus: int = 0
    short: int = 1
    long: int = 1

    @property
    def dice(self) -> Dice:
        return parse_dice(self.damage)


UNARMED = Weapon("unarmed strike", "melee", "1d4")  # house default: an NPC without a melee weapon


@dataclass(frozen=True, slots=True)
class Combatant:
    name: str
    attributes: dict[str, int] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    pb: int = 2
    defense: int = 10
    hp: int = 10
    max_hp: int = 10
    speed: int = 6  # squares per Move
    weapons: tuple[Weapon, ...] = ()
    conditions: tuple[str, ...] = ()
    dying: int = 0
    wounded: int = 0
    dead: bool = False
    reaction_used: bool = False
    hit_dice: int = 1  # Hit Dice left for Short Rests (D20-SHORT-REST)
    temp_hp: int = 0  # lost before HP, never healed, the higher grant stays (D20-TEMP-HP)
    # D20-TURN-BUDGET: the parts of this round's turn already spent ("action", "move", "minor")
    spent: tuple[str, ...] = ()
    # D20-DURATION: condition -> turns of its holder still to end (set with a duration)
    timers: tuple[tuple[str, int], ...] = ()

    def attribute(self, name: str | None) -> int:
        return self.attributes.get(name, 0) if name else 0

    def skill(self, name: str) -> int:
        return self.skills.get(name, 0)

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    def with_conditions(self, *added: str, removed: tuple[str, ...] = ()) -> Combatant:
        kept = tuple(c for c in self.conditions if c not in removed)
        timers = tuple(t for t in self.timers if t[0] not in removed)  # a cleared condition's clock stops
        return replace(self, conditions=kept + tuple(c for c in added if c not in kept), timers=timers)

    def spending(self, *parts: str) -> Combatant:
        """D20-TURN-BUDGET: these parts of the turn are now spent."""
        return replace(self, spent=self.spent + tuple(p for p in parts if p not in self.spent))

    @property
    def out_of_action(self) -> bool:
        """Dead, Dying or Unconscious: no turn (D20-DYING, D20-KO)."""
        return self.dead or self.dying > 0 or self.has("unconscious")

    @property
    def attackable(self) -> bool:
        """D20-OUT: the Dead, the Unconscious and the Temporally Displaced cannot be attacked (a
        Dying creature can: a hit adds Dying, D20-DYING)."""
        return not (self.dead or self.has("unconscious") or self.has("temporal_displacement"))

    @property
    def down(self) -> bool:
        """Out of the fight for now (D20-OUT): Dead, Dying, Unconscious or Temporally Displaced."""
        return self.out_of_action or self.has("temporal_displacement")


@dataclass(frozen=True, slots=True)
class HouseRules:
    """Editable defaults for what the d20 combat reference leaves to its Core rules."""

    nat20_always_hits: bool = True  # docs/api.md: "a natural 20 always hits"
    nat1_always_misses: bool = True
    edge_mode: str = "2d20"  # Edge/Hindrance: roll two d20, keep the higher/lower (D20-EDGE)
    poisoned_attacks: bool = True  # "-2 to checks" read as attack rolls too (D20-COND-POISONED)
    ranged_damage_attribute: str | None = "agility"  # the reference names none for ranged damage
    min_damage: int = 1  # a hit always does at least 1
    bleeding_timing: str = "start"  # Bleeding's 1d4 at the start of the bleeder's turn
    wounded_on_drop: str = "add"  # each drop to 0 adds Wounded +1 (first drop: Wounded 1)
    damage_while_dying: int = 1  # a hit on a Dying creature: Dying +1 (a critical +2)
    dying_save_uses_pb: bool = False  # Vigor Save = d20 + Vigor
    reach: int = 1  # squares a melee weapon threatens (adjacent)
    parry_defense: int = 2  # D20-PARRY: +2 DEF against the melee attack that triggered it
    glitch: str = "lose_minor"  # D20-GLITCH: the attacker loses its next Minor
    rounds_per_minute: int = 10  # D20-DURATION: a round is 6 seconds (Core), "1d4 minutes" in rounds
