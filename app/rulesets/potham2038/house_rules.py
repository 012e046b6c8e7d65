"""House rules: everything rules.md marks *house*, editable per game (the dice faces, the Glitch
table, zones, the Danger limit, cover, who rolls, and the choices the rule books leave open)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from app.kernel.frozen import Frozen

Cover = Literal["none", "light", "heavy"]


def default_faces() -> dict[str, list[str]]:
    """rules.md § Dice: six-sided White, Red and Black dice."""
    return {
        "white": ["blank", "blank", "blank", "hit", "hit", "critical"],
        "red": ["blank", "blank", "hit", "hit", "hit", "critical"],
        "black": ["success", "success", "success", "blank", "blank", "blank"],
    }


GlitchResult = Literal["reboot", "overcharged", "full_throttle", "free_action", "no_effect"]
# R-GLITCH-ANY: what a free Glitch action may be (seed 000 "Free Glitch actions can duplicate a
# normal action"): any normal action the app knows, so it may duplicate one already taken.
FreeAction = Literal["walk", "run", "stand_up", "scan", "open_close", "activate", "search", "reload",
                     "melee", "shoot", "smash", "start_fire"]


class GlitchRow(Frozen):
    """One line of the Glitch table: die results low..high give `result` (R-GLITCH).

    `duration` counts the bot's turns for a Reboot (R-GLITCH-REBOOT) and its activations for
    Full Throttle; `action` is the free action of a `free_action` row (R-GLITCH-ANY)."""

    low: int = Field(ge=1, le=100)
    high: int = Field(ge=1, le=100)
    result: GlitchResult
    amount: int = Field(default=0, ge=0, le=20)  # Overcharged: Health added
    duration: int = Field(default=1, ge=0, le=20)
    action: FreeAction | None = None  # free_action rows only


def default_glitch_table() -> list[GlitchRow]:
    """R-GLITCH default: d6, 1-2 Reboot, 3-4 Overcharged (+1 Health), 5-6 Full Throttle."""
    return [
        GlitchRow(low=1, high=2, result="reboot", duration=1),
        GlitchRow(low=3, high=4, result="overcharged", amount=1, duration=0),
        GlitchRow(low=5, high=6, result="full_throttle", duration=1),
    ]


# A die needs at least one face to roll (rng.choice of nothing fails); the bounds keep a
# table the size of a real one, since every step stores it again.
Colour = Annotated[str, StringConstraints(min_length=1, max_length=20)]
Faces = Annotated[list[Annotated[str, StringConstraints(max_length=20)]], Field(min_length=1, max_length=100)]


class HouseRules(Frozen):
    dice_faces: dict[Colour, Faces] = Field(default_factory=default_faces, max_length=12)
    glitch_die: int = Field(default=6, ge=2, le=100)
    glitch_table: list[GlitchRow] = Field(default_factory=default_glitch_table, max_length=100)
    character_zone: float = Field(default=2.0, ge=0, le=24)  # R-ZONE
    bot_zone: float = Field(default=3.0, ge=0, le=24)  # R-ZONE, default for new bots
    danger_limit: int = Field(default=24, ge=1, le=100)  # R-DANGER
    cover_dice: dict[Cover, Annotated[int, Field(ge=0, le=40)]] = Field(  # R-CMB-SHOOT
        default_factory=lambda: {"light": 1, "heavy": 2})
    cover_colour: Colour = "white"
    dice_mode: Literal["app", "entered"] = "app"  # who rolls by default
    # R-HACK-HELP: what DIAGNOSTICS / TECH SUPPORT add to a hacking pool (the seeds do not say)
    hack_help_dice: int = Field(default=1, ge=0, le=10)
    hack_help_colour: Colour = "white"
    # R-DISTRACTED: "one White die per stack"; the colour follows the house dice (a table without
    # White names another colour here)
    distracted_colour: Colour = "white"
    push_on_damage: bool = True  # R-CMB-PUSH: a winning melee attack also pushes the loser back
    # R-CMB-COUNTER: how a permitted counter-attack compares both Melee totals ("under its rule")
    counter_attack_rule: Literal["higher_wins", "melee_as_defense"] = "higher_wins"
