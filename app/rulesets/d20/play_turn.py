"""A Character's turn spent part by part (D20-TURN-BUDGET), and HP changed by a number (D20-HEAL).

"Action: Attack, Cast/Use Tech (Timebender), Dash, Disengage, Aim, Overwatch, Grapple/Shove, Use
Item, Interact." "Move: As per movement rules." "Minor: Draw/sling weapon, open door, quick comms,
toggle device." Each is spent once a turn; what it does beyond that (where the Character moves,
what the item does) is the player's, at the table. An attack is its own command (play_round).
"""

from __future__ import annotations

from dataclasses import replace
from random import Random

from app.rulesets.d20.books import may_spend
from app.rulesets.d20.commands import Entry, HealDamage, Refused, Spend, command
from app.rulesets.d20.conditions import stand_up
from app.rulesets.d20.game import D20State
from app.rulesets.d20.models import MINORS
from app.rulesets.d20.play_roster import member_or_refuse
from app.rulesets.d20.play_round import out_word, struck


def part_of(what: str) -> str:
    """Which part of the turn `what` spends: a Move, a Minor (D20-MINOR-DRAW, standing up:
    D20-COND-PRONE), else the Action."""
    if what == "move":
        return "move"
    return "minor" if what in MINORS else "action"


@command("spend", Spend)
def spend(state: D20State, body: Spend, rng: Random) -> tuple[D20State, list[Entry]]:
    member = member_or_refuse(state, body.member_id)
    part, said = part_of(body.what), body.what.replace("_", " ")
    if body.what == "stand" and "prone" not in member.conditions:
        raise Refused(f"{member.name} is not Prone: nothing to stand up from.", "D20-COND-PRONE")
    may_spend(state, member, part, said)
    c = member.combatant().spending(part)
    rule = "D20-TURN-BUDGET"
    if body.what == "stand":
        c, rule = stand_up(c), "D20-COND-PRONE"
    if body.what == "dash":  # a Dash is one more Move (house default, D20-MOVE)
        said = f"dash (one more Move: {c.speed} squares)"
    return state.replace_member(member.with_combatant(c)), [
        Entry(f"{member.name} spends its {part.title()}: {said}.", rule)]


@command("damage", HealDamage)
def damage(state: D20State, body: HealDamage, rng: Random) -> tuple[D20State, list[Entry]]:
    """D20-HEAL: -N HP as a hit's damage (temporary HP first, 0 HP is Dying or a knock-out)."""
    member = member_or_refuse(state, body.member_id)
    if member.dead:
        raise Refused(f"{member.name} is Dead.", "D20-OUT")
    c, entries = struck(member.combatant(), body.amount, body.critical, body.lethal, rng, state.house.rules())
    return state.replace_member(member.with_combatant(c)), entries


@command("heal", HealDamage)
def heal(state: D20State, body: HealDamage, rng: Random) -> tuple[D20State, list[Entry]]:
    """D20-HEAL: +N HP up to the maximum. A Dying creature healed has HP again and is no longer
    Dying (stabilised, as D20-DYING-SAVE's success); one knocked out at 0 HP wakes; the Dead stay
    dead."""
    member = member_or_refuse(state, body.member_id)
    c = member.combatant()
    if c.dead:
        raise Refused(f"{member.name} is Dead: healing does not bring back the dead.", "D20-HEAL")
    hp = min(c.hp + body.amount, c.max_hp)
    woke = c.hp == 0 and c.has("unconscious")
    was = out_word(c) if c.dying or woke else None
    c = replace(c, hp=hp, dying=0)
    if woke:
        c = c.with_conditions(removed=("unconscious",))
    text = f"{member.name} heals {hp - member.hp} ({hp} HP)"
    text += f": no longer {was}." if was else "."
    return state.replace_member(member.with_combatant(c)), [Entry(text, "D20-HEAL")]
