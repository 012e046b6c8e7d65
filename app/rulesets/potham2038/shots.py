"""One Shoot on the game state, for a Character (Phase 1) or an AI-Bot (Phase 3) (seed 001).

Order as seed 001 gives it: the actual target first (Black Die into a melee, R-CMB-TARGET),
then the pools (Cover R-CMB-SHOOT, Distracted White dice R-DISTRACTED, Marked Target
R-MARKED-TARGET), the Core comparison, damage, and the Out of Ammo trigger (R-CMB-AMMO).
Models are named by roster id here, so two models with one name never get mixed up.
"""

from __future__ import annotations

from dataclasses import dataclass
from random import Random

from pydantic import Field

from app.kernel.commands import Body, Entry, Refused
from app.rulesets.potham2038.combat import (
    attack_pool_against,
    defense_pool_with_cover,
    resolve_shoot,
    shoot_target,
)
from app.rulesets.potham2038.house_rules import Cover
from app.rulesets.potham2038.models import Bot, Character, GameState
from app.rulesets.potham2038.play import (
    NO_DEFENSE,
    BlackFace,
    EnteredRoll,
    black_die,
    black_record,
    dice_record,
    model_of,
    offline,
    roll,
    wound,
)
from app.rulesets.potham2038.shooting import ShootResult


class ShootRolls(Body):
    """Entered Shoot rolls; `defense` is the actual target's (docs/api.md § shoot)."""

    attack: EnteredRoll | None = None
    defense: EnteredRoll | None = None


class Aim(Body):
    """The facts of one shot the player reports (R-LOS: the app never infers them)."""

    melee_with: list[str] = Field(default_factory=list, max_length=20)  # ids in melee with the target
    black_die: BlackFace | None = None  # R-CMB-TARGET, entered
    tie_choice: str | None = None  # the player's pick among models tied for highest Health


@dataclass(frozen=True)
class Shot:
    state: GameState
    entries: list[Entry]
    result: ShootResult
    actual_id: str


def actual_target(state: GameState, shooter_id: str, target_id: str, aim: Aim,
                  rng: Random) -> tuple[str, list[Entry]]:
    """R-CMB-TARGET: the intended target, or the Black Die's pick in its melee."""
    target = model_of(state, target_id)
    others = [m for m in (model_of(state, i) for i in dict.fromkeys(aim.melee_with) if i != target_id)
              if m.health > 0]  # a model out of action is not an eligible model in that melee
    if any(m.id == shooter_id for m in others):
        raise Refused("A model cannot shoot into a melee it is part of.", "R-CMB-SHOOT")
    if not others:
        return target.id, _unused_black_die(target, aim)
    face, by = black_die(state, rng, aim.black_die)
    actual, ties = shoot_target(target.id, target.health, [(m.id, m.health) for m in others], face)
    if ties and aim.tie_choice in ties:
        actual = aim.tie_choice
    names = {m.id: m.name for m in [target, *others]}
    text = (f"Shooting into a melee: the Black Die shows {face.title()}, so the shot goes to "
            f"{names[actual]}" + ("." if actual == target.id else ", highest current Health in that melee."))
    if ties:
        text += f" Tied for highest Health: {', '.join(names[t] for t in ties)}; the player chooses."
    return actual, [Entry(text, "R-CMB-TARGET", black_record(face, by, "target"))]


def _unused_black_die(target: Bot | Character, aim: Aim) -> list[Entry]:
    """R-CMB-BLACK-KNOWN: an entered Black Die is never silently ignored. With no melee named nor
    known around the target, a Blank (which would send the shot elsewhere) is refused so the
    player names the melee; a Success changes nothing and the log says the die was not needed."""
    if aim.black_die == "blank":
        raise Refused(f"A Blank on the Black Die sends the shot into {target.name}'s melee, but no model is "
                      f"named or known to be in base contact with {target.name}: tick the models in that "
                      "melee, or leave the Black Die out.", "R-CMB-BLACK-KNOWN")
    if aim.black_die == "success":
        return [Entry(f"The Black Die entered (Success) is not needed: {target.name} is in no known melee, "
                      "so the shot goes to the intended target.", "R-CMB-BLACK-KNOWN")]
    return []


def cover_of(target: Bot | Character, intended_id: str, cover: Cover | None) -> Cover:
    """R-SHOOT-COVER: the Cover given for this shot counts for the intended target (None: its
    roster Cover); a shot the Black Die sends to another Character meets that Character's own
    Cover (R-CMB-TARGET-COVER); a bot has no roster Cover."""
    roster = target.cover if isinstance(target, Character) else "none"
    if target.id != intended_id:
        return roster if isinstance(target, Character) else (cover or "none")
    return roster if cover is None else cover


def shoot(state: GameState, shooter: Bot | Character, target_id: str, aim: Aim, rolls: ShootRolls | None,
          cover: Cover | None, rng: Random) -> Shot:
    """Resolve one shot; `cover` is the intended target's Cover now, None for its roster Cover."""
    actual_id, entries = actual_target(state, shooter.id, target_id, aim, rng)
    target = model_of(state, actual_id)
    cover = cover_of(target, target_id, cover)
    attack_pool = dict(shooter.shoot)
    if isinstance(target, Character):
        attack_pool = attack_pool_against(attack_pool, target.distracted, state.house.distracted_colour)
    defense_pool = defense_pool_with_cover(target.defense, cover, state.house)
    rolls = rolls or ShootRolls()
    attack = roll(state, attack_pool, rng, rolls.attack)
    rebooted = isinstance(target, Bot) and offline(state, target)
    defense = NO_DEFENSE if rebooted else roll(state, defense_pool, rng, rolls.defense)  # R-GLITCH-REBOOT
    marked_target = isinstance(shooter, Bot) and shooter.has_rule("Marked Target")
    marked = target.marked if isinstance(target, Character) else 0
    result = resolve_shoot(shooter.name, target.name, target.health, attack, defense,
                           marked={target.name: marked}, marked_target=marked_target)
    cover_note = f" {target.name} is in {cover} cover." if cover != "none" else ""
    if rebooted:
        cover_note += f" {target.name} is rebooted: it cannot Defend (a free action), so no Defense roll."
    record = dice_record(attack=attack, defense=defense) | {
        "attack_total": result.attack_total, "defense_total": result.defense_total,
        "outcome": result.outcome, "damage": result.damage}
    rule = "R-CMB-SHOOT" if cover != "none" else result.rule
    entries.append(Entry(result.reason + cover_note, rule, record))
    state, hurt = wound(state, target.id, result.damage, "R-CMB-DAMAGE")
    return Shot(state, entries + hurt, result, target.id)
