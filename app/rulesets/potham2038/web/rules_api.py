"""The rules engine as stateless JSON (docs/api.md § POST /api/rules/melee, shoot, noise, odds).

Same request, same answer: when a request carries no `rolls`, the app rolls the given pools
with a `random.Random` seeded from the request's `seed` (or, absent, from the request itself)
and answers the faces it rolled. The rules themselves live in app/rulesets/potham2038 (pure).
"""

from __future__ import annotations

from random import Random
from typing import Annotated, Any

from fastapi import APIRouter, Body
from fastapi.exceptions import RequestValidationError

from app.kernel.dice import seed_of
from app.rulesets.potham2038.combat import (
    Fighter,
    attack_pool_against,
    points_clause,
    resolve_melee,
    who_attacks,
)
from app.rulesets.potham2038.dice import Roll, attack_odds, entered_roll, roll_black_die, roll_pool
from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.marked import noise
from app.rulesets.potham2038.play import NO_DEFENSE
from app.rulesets.potham2038.shooting import defense_pool_with_cover, out_of_ammo, resolve_shoot, shoot_target
from app.rulesets.potham2038.web.rules_examples import (
    MELEE_EXAMPLES,
    NOISE_EXAMPLES,
    ODDS_EXAMPLES,
    SHOOT_EXAMPLES,
)
from app.rulesets.potham2038.web.rules_schemas import (
    MeleeRequest,
    NoiseRequest,
    OddsRequest,
    RollIn,
    ShootRequest,
    TargetIn,
)

router = APIRouter(prefix="/api/rules", tags=["rules"])


def bad(loc: tuple, msg: str) -> RequestValidationError:
    """A 422 naming the field, in FastAPI's own `{"detail": [...]}` shape."""
    return RequestValidationError([{"type": "value_error", "loc": ("body", *loc), "msg": msg}])


def roll_or_entered(
    entered: RollIn | None, pool: dict[str, int] | None, rng: Random, faces: dict, loc: tuple
) -> Roll:
    if entered is not None:
        return entered_roll(entered.hits, entered.criticals)
    if pool is None:
        raise bad(loc, "give this pool, or enter the roll under `rolls`")
    try:
        return roll_pool(pool, rng, faces)
    except ValueError as error:  # e.g. Distracted or Cover dice push a pool past 40
        raise bad(loc, str(error)) from None


def black_die(entered: str | None, rng: Random, faces: dict, loc: tuple) -> tuple[str, str]:
    if entered is not None:
        return entered, "entered"
    try:
        return roll_black_die(rng, faces), "app"
    except ValueError as error:
        raise bad(loc, str(error)) from None


@router.post("/melee", summary="Resolve one engagement between an AI-Bot and a Character")
def melee(body: Annotated[MeleeRequest, Body(openapi_examples=MELEE_EXAMPLES)]) -> dict[str, Any]:
    """R-CMB-WHO, R-CMB-ROLL, R-CMB-DAMAGE, R-CMB-TIE, R-CMB-DANGER, R-MARKED-TARGET, R-DISTRACTED."""
    npc, character, rolls = body.npc, body.character, body.rolls
    if npc.rebooted and body.attacker == "npc":  # R-CMB-WHO: a rebooted bot never attacks
        raise bad(("attacker",), "a rebooted AI-Bot takes no actions, so it cannot attack: the Character "
                  "does")
    side, _ = who_attacks(npc.points, character.points, "character" if npc.rebooted else body.attacker)
    if body.counter_attack and side != "npc":
        raise bad(("counter_attack",), "only a Character attacked by the AI-Bot can counter-attack")
    npc_role = "melee" if side == "npc" else "defense"
    character_role = "melee" if side == "character" or body.counter_attack else "defense"
    npc_pool = npc.pool_for(npc_role)
    if side == "npc" and npc_pool is not None:  # R-DISTRACTED: White dice on each incoming attack
        npc_pool = attack_pool_against(npc_pool, character.distracted, body.distracted_colour)
    seed, faces = seed_of(body), body.face_table()
    rng = Random(seed)
    npc_roll = (NO_DEFENSE if npc.rebooted  # R-GLITCH-REBOOT: no Defense roll
                else roll_or_entered(rolls and rolls.npc, npc_pool, rng, faces, ("npc", npc_role)))
    character_roll = roll_or_entered(
        rolls and rolls.character,
        character.pool_for(character_role),
        rng,
        faces,
        ("character", character_role),
    )
    result = resolve_melee(
        Fighter(npc.name, npc.points),
        Fighter(character.name, character.points),
        npc_roll,
        character_roll,
        attacker=side,
        counter_attack=body.counter_attack,
        marked=character.marked,
        marked_target=npc.has_rule("Marked Target"),
        push_on_damage=body.push_on_damage,
        counter_rule=body.counter_attack_rule,
        why=_why(body, side),
    )
    rolled = {"npc": npc_roll.as_dict(), "character": character_roll.as_dict()}
    return {**result.as_dict(), "rolls": rolled, "seed": seed}


def _why(body: MeleeRequest, side: str) -> str:
    """R-CMB-WHO's clause: a rebooted bot never attacks; a named side is a Special Rule's call."""
    if body.npc.rebooted:
        return "the AI-Bot is rebooted: it never attacks and rolls no Defense"
    return points_clause(body.npc.points, body.character.points) if body.attacker is None else (
        "a Special Rule decides")


@router.post("/shoot", summary="Resolve one Shoot action by an AI-Bot or a Character")
def shoot(body: Annotated[ShootRequest, Body(openapi_examples=SHOOT_EXAMPLES)]) -> dict[str, Any]:
    """R-CMB-TARGET, R-CMB-SHOOT, R-CMB-ROLL, R-CMB-DAMAGE, R-CMB-AMMO, R-MARKED-TARGET."""
    seed, faces = seed_of(body), body.face_table()
    rng = Random(seed)
    target = body.target
    die, die_by = (None, None)
    if body.melee_with:
        die, die_by = black_die(body.black_die, rng, faces, ("black_die",))
    in_melee = [(m.name, m.health) for m in body.melee_with]
    try:
        actual, _ = shoot_target(target.name, target.health, in_melee, die, body.chosen_target)
    except ValueError as error:
        raise bad(("chosen_target",), str(error)) from None
    attack, defense = _shoot_rolls(body, body.model_named(actual), rng, faces)
    result = resolve_shoot(
        body.shooter.name,
        target.name,
        target.health,
        attack,
        defense,
        melee_with=in_melee,
        black_die=die,
        marked={m.name: m.marked for m in (target, *body.melee_with)},
        marked_target=body.shooter.side == "npc" and body.shooter.has_rule("Marked Target"),
        chosen=body.chosen_target,
    )
    ammo_die, ammo_by = (None, None)
    if result.out_of_ammo_check:  # R-CMB-AMMO: after any attacking Critical, even on a miss
        ammo_die, ammo_by = black_die(body.ammo_die, rng, faces, ("ammo_die",))
    return {
        **result.as_dict(),
        "black_die": die,
        "black_die_by": die_by,
        "out_of_ammo": None if ammo_die is None else out_of_ammo(ammo_die),
        "ammo_die": ammo_die,
        "ammo_die_by": ammo_by,
        "rolls": {"attack": attack.as_dict(), "defense": defense.as_dict()},
        "seed": seed,
    }


def _shoot_rolls(body: ShootRequest, hit: TargetIn, rng: Random, faces: dict) -> tuple[Roll, Roll]:
    """R-CMB-TARGET-POOLS: the actual target's Distracted dice, Defense pool and Cover count."""
    rolls = body.rolls
    hit_loc = ("target",) if hit is body.target else ("melee_with", body.melee_with.index(hit))
    attack_pool = body.shooter.pool and attack_pool_against(body.shooter.pool, hit.distracted,
                                                            body.distracted_colour)
    attack = roll_or_entered(rolls and rolls.attack, attack_pool, rng, faces, ("shooter", "pool"))
    defense_pool = hit.pool
    if defense_pool is not None:  # R-CMB-SHOOT: Cover adds dice to the Defense pool
        defense_pool = defense_pool_with_cover(defense_pool, hit.cover, HouseRules(dice_faces=faces))
    if hit.rebooted:  # R-GLITCH-REBOOT: it cannot Defend, a free action
        return attack, NO_DEFENSE
    defense = roll_or_entered(rolls and rolls.defense, defense_pool, rng, faces, (*hit_loc, "pool"))
    return attack, defense


@router.post("/noise", summary="Marked and Danger caused by Noise or an Alarm")
def noise_or_alarm(body: Annotated[NoiseRequest, Body(openapi_examples=NOISE_EXAMPLES)]) -> dict[str, Any]:
    """R-NOISE, R-ALARM."""
    return noise(body.kind, body.zones_containing).as_dict()


@router.post("/odds", summary="Exact outcome distribution of an attack before it is rolled")
def odds(body: Annotated[OddsRequest, Body(openapi_examples=ODDS_EXAMPLES)]) -> dict[str, Any]:
    """Exact (generating functions, no sampling). R-CMB-ROLL, R-CMB-DAMAGE, R-CMB-TIE."""
    result = attack_odds(
        body.attack.pool,
        {} if body.defense.rebooted else body.defense.pool,  # R-GLITCH-REBOOT
        body.face_table(),
        attack_bonus=body.attack.bonus,
        defense_bonus=body.defense.bonus,
        melee=body.melee,
    )
    return result.as_dict()
