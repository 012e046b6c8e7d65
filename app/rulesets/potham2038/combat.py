"""Melee between an AI-Bot and a Character (seed 001, rules.md § Combat).

Pure functions over entered or app-rolled `Roll`s: who attacks, the Core roll comparison, the
counter-attack and Push Back. Shooting lives in `shooting.py`; both share `compare`, which lives in
`core_roll.py` so that neither imports the other.
Every result carries `reason` (one plain sentence for the player) and `rule` (a rules.md id).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Literal

from app.rulesets.potham2038.core_roll import Comparison, Outcome, compare, damage_words, marked_target_bonus
from app.rulesets.potham2038.dice import Pool, Roll, add_dice

Side = Literal["npc", "character"]

DISTRACTED_COLOUR = "white"  # R-DISTRACTED: "one White die per stack" (house: `distracted_colour`)
CounterRule = Literal["higher_wins", "melee_as_defense"]  # R-CMB-COUNTER (house)


def who_attacks(npc_points: int, character_points: int, decided_by: Side | None = None) -> tuple[Side, str]:
    """R-CMB-WHO: a Special Rule first; else the higher current total points; a tie: the NPC."""
    side = _attacking_side(npc_points, character_points, decided_by)
    who = "The AI-Bot" if side == "npc" else "The Character"
    return side, f"{who} attacks ({_why(npc_points, character_points, decided_by)})."


def _attacking_side(npc_points: int, character_points: int, decided_by: Side | None) -> Side:
    if decided_by is not None:
        if decided_by not in ("npc", "character"):
            raise ValueError(f"decided_by must be 'npc' or 'character', not {decided_by!r}")
        return decided_by
    return "character" if character_points > npc_points else "npc"


def points_clause(npc_points: int, character_points: int) -> str:
    """R-CMB-WHO by points alone, as a clause: "more points, 60 to 45"."""
    return _why(npc_points, character_points, None)


def _why(npc_points: int, character_points: int, decided_by: Side | None) -> str:
    """The R-CMB-WHO clause of a reason: why this side attacks."""
    if decided_by is not None:
        return "a Special Rule decides"
    if npc_points == character_points:
        return f"equal points, {npc_points}: on an NPC–Character tie the NPC attacks"
    high, low = max(npc_points, character_points), min(npc_points, character_points)
    return f"more points, {high} to {low}"


def attack_pool_against(pool: Pool, distracted_stacks: int, colour: str = DISTRACTED_COLOUR) -> Pool:
    """R-DISTRACTED: each incoming attack on a Distracted Character adds one White die per stack
    (`colour`: the game's house `distracted_colour`)."""
    return add_dice(pool, colour, distracted_stacks)


@dataclass(frozen=True)
class MeleeResult:
    attacker: Side
    attack_total: int
    defense_total: int
    outcome: Outcome
    damage: int
    damage_to: str | None
    push_back: str | None
    danger_trigger: bool  # R-CMB-DANGER: any melee raises Danger once per phase (turn engine counts)
    reason: str
    rule: str
    counter_attack: bool = False
    attack_bonus: int = 0
    damage_push_back: str | None = None  # R-CMB-PUSH: the loser of a winning attack, pushed back too

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Fighter:
    """One side of an engagement as the rules see it: name, current total points and (when
    known) current Health, so a model the damage takes out of action is not pushed back."""

    name: str
    points: int
    health: int | None = None


def resolve_melee(
    npc: Fighter,
    character: Fighter,
    npc_roll: Roll,
    character_roll: Roll,
    *,
    attacker: Side | None = None,
    counter_attack: bool = False,
    marked: int = 0,
    marked_target: bool = False,
    push_on_damage: bool = True,
    counter_rule: CounterRule = "higher_wins",
    why: str | None = None,
) -> MeleeResult:
    """One engagement, seed 001 § Phase 3.

    `attacker`: a Special Rule's decision, else None (R-CMB-WHO). Normal route: the attacker's
    roll is its Melee, the defender's its Defense. `counter_attack`: the AI-Bot attacks and the
    Character answers with a permitted counter-attack, so both rolls are Melee (R-CMB-TIE).
    `marked`/`marked_target`: Marked stacks on the Character and whether the AI-Bot has
    Marked Target (R-MARKED-TARGET). Distracted dice belong in the pool before rolling
    (`attack_pool_against`). `push_on_damage` (house, R-CMB-PUSH): the loser of a winning attack
    is pushed back as well as damaged. `counter_rule` (house, R-CMB-COUNTER): how a counter-attack
    compares the two Melee totals. `why`: the R-CMB-WHO clause when the turn engine knows better
    (a rebooted bot, no Attack action left, the player's choice).
    """
    side = _attacking_side(npc.points, character.points, attacker)
    why = why or _why(npc.points, character.points, attacker)
    bonus = marked_target_bonus(marked, marked_target) if side == "npc" else 0
    if counter_attack and side != "npc":
        raise ValueError("only a Character attacked by the AI-Bot can counter-attack")
    if counter_attack and counter_rule == "higher_wins":
        result = _counter_attack(npc, character, npc_roll, character_roll, bonus, why)
    else:
        result = _attack_against_defense(side, npc, character, npc_roll, character_roll, bonus, why,
                                         counter_attack)
    if push_on_damage and result.outcome == "damage":
        result = _push_the_damaged(result, npc, character)
    return result


def _attack_against_defense(side: Side, npc: Fighter, character: Fighter, npc_roll: Roll,
                            character_roll: Roll, bonus: int, why: str, counter_attack: bool) -> MeleeResult:
    """The normal route: the attacker's Melee against the defender's Defense (R-CMB-DAMAGE,
    R-CMB-TIE); with `counter_attack` under "melee_as_defense" (R-CMB-COUNTER) the Character's
    Melee roll stands in for its Defense."""
    rolls = (npc_roll, character_roll) if side == "npc" else (character_roll, npc_roll)
    attacking, defending = (npc, character) if side == "npc" else (character, npc)
    result = _melee_result(side, compare(*rolls, attack_bonus=bonus), attacking, defending, why, bonus)
    if counter_attack:  # R-CMB-COUNTER "melee_as_defense": its Melee only stands in for Defense
        result = replace(result, counter_attack=True, reason=result.reason.replace(
            "'s defense", "'s counter-attack Melee (standing in for its Defense)"))
        if result.outcome == "tie":  # both sides attacked: seed 001 pushes the lower-point model
            result = _counter_tie(result, npc, character)
    return result


def _push_the_damaged(result: MeleeResult, npc: Fighter, character: Fighter) -> MeleeResult:
    """R-CMB-PUSH (house): the damaged model is pushed back too, unless the damage takes it out
    of action (Health 0): a model out of action leaves the table, so there is nothing to push."""
    hurt = npc if result.damage_to == npc.name else character
    if hurt.health is not None and result.damage >= hurt.health:
        out = f", and {hurt.name} is out of action (not pushed back)."
        return replace(result, reason=result.reason[:-1] + out)
    return replace(result, damage_push_back=result.damage_to,
                   reason=result.reason[:-1] + f", and {result.damage_to} is pushed back.")


def _counter_tie(result: MeleeResult, npc: Fighter, character: Fighter) -> MeleeResult:
    """R-CMB-TIE: "if both sides attacked, push the lower-point model, or the player Character
    when points tie" (seed 001), whatever the counter-attack rule compares."""
    pushed = npc if npc.points < character.points else character
    whom = "the lower-point model" if npc.points != character.points else "the Character, as points tie"
    head = result.reason.split(": a tie")[0]
    return replace(result, push_back=pushed.name,
                   reason=f"{head}: a tie, so {pushed.name} ({whom}) is pushed back and takes no damage.")


def _melee_result(
    side: Side, result: Comparison, attacking: Fighter, defending: Fighter, why: str, bonus: int
) -> MeleeResult:
    marked_note = f" (+{bonus} Marked Target)" if bonus else ""
    attack, defense = result.attack_total, result.defense_total
    critical = result.damage > attack - defense  # compare() added the Critical's +1
    ending = {
        "damage": f"{defending.name} takes {damage_words(attack - defense, critical)}",
        "tie": f"a tie, so {defending.name} is pushed back and takes no damage",
        "defended": f"{defending.name} defends and takes no damage",
    }[result.outcome]
    text = (
        f"{attacking.name} attacks ({why}) with {attack}{marked_note} against "
        f"{defending.name}'s defense {defense}: {ending}."
    )
    rule = "R-CMB-TIE" if result.outcome == "tie" else "R-CMB-DAMAGE"
    return MeleeResult(
        attacker=side,
        attack_total=result.attack_total,
        defense_total=result.defense_total,
        outcome=result.outcome,
        damage=result.damage,
        damage_to=defending.name if result.outcome == "damage" else None,
        push_back=defending.name if result.outcome == "tie" else None,
        danger_trigger=True,
        reason=text,
        rule=rule,
        attack_bonus=bonus,
    )


def _counter_attack(
    npc: Fighter, character: Fighter, npc_roll: Roll, character_roll: Roll, bonus: int, why: str
) -> MeleeResult:
    """Both rolled Melee: the higher total deals the difference (+1 for any Critical on the
    winning side); a tie pushes back the lower-point model, or the Character on equal points."""
    npc_total, character_total = npc_roll.hits + bonus, character_roll.hits
    opening = f"{npc.name} attacks ({why}) and {character.name} counter-attacks"
    common = dict(attacker="npc", attack_total=npc_total, defense_total=character_total,
                  danger_trigger=True, counter_attack=True, attack_bonus=bonus)
    if npc_total == character_total:
        pushed = npc if npc.points < character.points else character
        whom = "the lower-point model" if npc.points != character.points else "the Character, as points tie"
        return MeleeResult(
            **common,
            outcome="tie",
            damage=0,
            damage_to=None,
            push_back=pushed.name,
            reason=f"{opening}: both Melee totals are {npc_total}, a tie, "
            f"so {pushed.name} ({whom}) is pushed back.",
            rule="R-CMB-TIE",
        )
    if npc_total > character_total:
        winner, loser, roll = npc, character, npc_roll
    else:
        winner, loser, roll = character, npc, character_roll
    margin = abs(npc_total - character_total)
    damage = margin + (1 if roll.criticals else 0)  # R-CMB-DAMAGE
    return MeleeResult(
        **common,
        outcome="damage",
        damage=damage,
        damage_to=loser.name,
        push_back=None,
        reason=f"{opening}: Melee {npc_total} against {character_total}, "
        f"so {winner.name} wins and {loser.name} takes {damage_words(margin, bool(roll.criticals))}.",
        rule="R-CMB-DAMAGE",
    )


_SHOOTING = {"shoot_target", "defense_pool_with_cover", "resolve_shoot", "ShootResult", "out_of_ammo"}


def __getattr__(name: str):
    """Shooting lives in shooting.py; `combat.resolve_shoot` still works."""
    if name in _SHOOTING:
        from app.rulesets.potham2038 import shooting

        return getattr(shooting, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
