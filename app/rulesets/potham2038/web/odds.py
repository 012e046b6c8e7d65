"""The exact odds the turn panel shows before a roll, built from the same pools the engine rolls
(R-CMB-WHO, R-DISTRACTED dice, R-CMB-SHOOT / R-SHOOT-COVER Cover, R-MARKED-TARGET, and no Defense
roll for a rebooted bot: R-GLITCH-REBOOT), via `dice.attack_odds`. Each takes the same choices
as the roll's form (who attacks, Cover), so the odds always describe the roll the button makes."""

from __future__ import annotations

from typing import Any

from app.rulesets.potham2038.combat import attack_pool_against, marked_target_bonus, who_attacks
from app.rulesets.potham2038.dice import attack_odds, pool_text
from app.rulesets.potham2038.models import Bot, Character, GameState
from app.rulesets.potham2038.play import offline
from app.rulesets.potham2038.shooting import defense_pool_with_cover, shoot_target
from app.web.view import percent


def _odds(state: GameState, attack: dict, defense: dict, bonus: int, melee: bool) -> dict[str, Any]:
    try:
        odds = attack_odds(attack, defense, state.house.dice_faces, attack_bonus=bonus, melee=melee)
    except ValueError as error:  # a colour the house rules no longer know: say so, never crash
        return {"error": str(error)}
    at_least = [(k, percent(p)) for k, p in odds.damage_at_least.items() if p >= 0.005][:4]
    return {"attack": pool_text(attack) or "no dice", "defense": pool_text(defense) or "no dice",
            "bonus": bonus, "damage": percent(odds.p_damage), "tie": percent(odds.p_tie),
            "defended": percent(odds.p_defended), "at_least": at_least,
            "expected": f"{odds.expected_damage:.1f}", "bars": damage_bars(odds),
            "damage_p": round(100 * odds.p_damage, 1), "tie_p": round(100 * odds.p_tie, 1)}  # bar widths


def damage_bars(odds) -> list[dict[str, Any]]:
    """The odds as bars, one per outcome: defended, tie, then each exact damage (P(damage = k) =
    P(≥ k) − P(≥ k+1)); outcomes under 0.5% are left out except the first two."""
    exact = odds.damage_at_least
    bars = [("0", "defended", odds.p_defended), ("tie", "tie", odds.p_tie)]
    bars += [(str(k), f"{k} damage", p - exact.get(k + 1, 0.0)) for k, p in exact.items()]
    top = max((p for _, _, p in bars), default=0) or 1
    return [{"label": label, "what": what, "p": percent(p), "height": round(60 * p / top, 1)}
            for i, (label, what, p) in enumerate(bars) if i < 2 or p >= 0.005]


def melee_odds(state: GameState, bot: Bot, character: Character,
               attacker: str | None = None) -> dict[str, Any]:
    """Who attacks and why (`attacker`: the form's Special Rule choice), and the odds of the
    normal exchange and of a counter-attack. A rebooted bot cannot attack, nor Defend."""
    attacker = attacker if attacker in ("npc", "character") else None
    side, why = who_attacks(bot.points, character.points, attacker)  # type: ignore[arg-type]
    rebooted = offline(state, bot)
    bonus = marked_target_bonus(character.marked, bot.has_rule("Marked Target")) if side == "npc" else 0
    if side == "npc" and rebooted:
        normal, counter = {"error": f"{bot.name} is rebooted and cannot attack"}, None
    elif side == "npc":
        npc_attack = attack_pool_against(bot.melee, character.distracted, state.house.distracted_colour)
        normal = _odds(state, npc_attack, character.defense, bonus, True)
        counter = _odds(state, npc_attack, character.melee, bonus, True)  # both roll Melee (R-CMB-COUNTER)
    else:
        defense = {} if rebooted else bot.defense  # R-GLITCH-REBOOT: no Defense roll
        normal, counter = _odds(state, character.melee, defense, 0, True), None
        if rebooted and "error" not in normal:
            normal["defense"] = f"no Defense roll ({bot.name} is rebooted)"
    attacker_name, defender_name = (bot.name, character.name) if side == "npc" else (character.name, bot.name)
    return {"side": side, "why": why, "attacker": attacker_name, "defender": defender_name,
            "normal": normal, "counter": counter, "rebooted": rebooted, "chosen": attacker or ""}


def shoot_odds(state: GameState, shooter: Bot | Character, target: Bot | Character,
               cover: str | None = None) -> dict[str, Any]:
    """A Shoot at the intended target: Distracted dice, Cover dice (`cover`: this shot's, None for
    a Character's roster Cover, R-SHOOT-COVER), Marked Target bonus; a rebooted bot rolls no Defense."""
    attack = dict(shooter.shoot)
    bonus = 0
    if isinstance(target, Character):
        attack = attack_pool_against(attack, target.distracted, state.house.distracted_colour)
        cover = target.cover if cover is None else cover
        has_rule = isinstance(shooter, Bot) and shooter.has_rule("Marked Target")
        bonus = marked_target_bonus(target.marked, has_rule)
    cover = cover if cover in ("none", "light", "heavy") else "none"
    rebooted = isinstance(target, Bot) and offline(state, target)
    defense = {} if rebooted else defense_pool_with_cover(target.defense, cover, state.house)
    odds = _odds(state, attack, defense, bonus, False)
    if rebooted and "error" not in odds:
        odds["defense"] = f"no Defense roll ({target.name} is rebooted)"
    return {**odds, "cover": cover, "rebooted": rebooted}


def character_shot_odds(state: GameState, shooter: Character | None, target: Bot | None,
                        cover: str = "none", melee_with: list[str] | tuple[str, ...] = (),
                        tie_choice: str = "") -> dict[str, Any] | None:
    """A Character's Shoot: the odds at the intended target and, when that target is in melee, at
    the model a Blank on the Black Die sends the shot to (R-CMB-TARGET: the highest current Health
    in that melee; each tied model when the player chooses). None until shooter and target are known."""
    if shooter is None or target is None:
        return None
    main = shoot_odds(state, shooter, target, cover)
    others = [m for i in dict.fromkeys(melee_with) if i not in (target.id, shooter.id)
              and (m := state.character(i) or state.bot(i)) is not None]
    if not others:
        return {"main": main, "in_melee": False, "blank": []}
    _, ties = shoot_target(target.id, target.health, [(m.id, m.health) for m in others], "blank")
    actual, _ = shoot_target(target.id, target.health, [(m.id, m.health) for m in others], "blank",
                             tie_choice if tie_choice in ties else None)
    models = {m.id: m for m in [target, *others]}
    sent_to = ties or [actual]
    covers = {i: None if isinstance(m, Character) else cover for i, m in models.items()}  # R-CMB-TARGET-COVER
    blank = [{"name": models[i].name, "intended": i == target.id, "chosen": i == actual and bool(ties),
              "odds": main if i == target.id else shoot_odds(state, shooter, models[i], covers[i])}
             for i in sent_to]
    return {"main": main, "in_melee": True, "blank": blank, "tied": bool(ties)}

