"""The initiative tracker: the order of turns and whose turn it is.

The d20 combat reference does not say how the order of turns is found; the house default
(D20-INITIATIVE, docs/rules-d20.md § 3) is d20 + Agility, highest first, ties to the higher
Agility, then roster order; a value may be entered instead. `next_turn` moves to the next
creature: a Character's turn begins by itself (Bleeding, the Dying save, a Glitch's lost Minor,
a Temporal return: play_round.character_turn), an NPC's card is then the one to decide (its
`npc_turn` does its own start); after the last creature the round ends (play_round.end_round).
"""

from __future__ import annotations

from random import Random

from app.rulesets.d20.commands import EndRound, Entry, NextTurn, Refused, SetInitiative, StartTurn, command
from app.rulesets.d20.game import Character, D20State, Initiative
from app.rulesets.d20.play_round import character_turn, end_round


@command("set_initiative", SetInitiative)
def set_initiative(state: D20State, body: SetInitiative, rng: Random) -> tuple[D20State, list[Entry]]:
    members = [*state.characters, *state.npcs]
    given = {r.member_id: r.value for r in body.rolls}
    unknown = [m for m in given if state.member(m) is None]
    if unknown:
        raise Refused(f"No one on the roster has the id {unknown[0]!r}.", "D20-INITIATIVE")
    rows, said = [], []
    for place, m in enumerate(members):
        agility = m.attributes.get("agility", 0)
        value = given.get(m.id)
        if value is None:
            natural = rng.randint(1, 20)
            value = natural + agility
            said.append(f"{m.name} {value} (d20 {natural} {agility:+d})")
        else:
            said.append(f"{m.name} {value}")
        rows.append((-value, -agility, place, Initiative(member_id=m.id, value=value)))
    order = [row[-1] for row in sorted(rows, key=lambda r: r[:3])]
    names = ", ".join(state.member(i.member_id).name for i in order)  # type: ignore[union-attr]
    entries = [Entry(f"Initiative: {'; '.join(said)}. Order: {names}.", "D20-INITIATIVE")]
    return state.model_copy(update={"initiative": order, "acting": None}), entries


def upcoming(state: D20State) -> list[str]:
    """The creatures still to act this round, in order, the Dead left out."""
    ids = [i.member_id for i in state.initiative if (m := state.member(i.member_id)) and not m.dead]
    if state.acting in ids:
        return ids[ids.index(state.acting) + 1:]
    return ids if state.acting is None else []


@command("next_turn", NextTurn)
def next_turn(state: D20State, body: NextTurn, rng: Random) -> tuple[D20State, list[Entry]]:
    if not state.initiative:
        raise Refused("Roll or enter initiative first.", "D20-INITIATIVE")
    entries: list[Entry] = []
    left = upcoming(state)
    if not left:  # past the last creature: the round ends and the order starts again
        state, entries = end_round(state, EndRound(), rng)  # acting is None again: from the top
        left = upcoming(state)
        if not left:
            return state, entries
    who = state.member(left[0])
    assert who is not None  # upcoming() lists roster members only
    value = next(i.value for i in state.initiative if i.member_id == who.id)
    state = state.model_copy(update={"acting": who.id})
    entries.append(Entry(f"{who.name}'s turn (initiative {value}).", "D20-INITIATIVE"))
    if isinstance(who, Character):
        state, begun = character_turn(state, StartTurn(member_id=who.id, natural=body.natural,
                                                       bleed=body.bleed), rng)
        entries += begun
    return state, entries


def likely_target(state: D20State) -> str | None:
    """The foe the attack form offers the acting Character (fewer inputs, nothing
    decided for the player, who changes it with one select): the one it attacked last while that
    one still stands, else the NPC that attacked a Character most recently this round, else the
    first NPC still up. None when no Character is acting."""
    who = state.member(state.acting) if state.acting else None
    if not isinstance(who, Character):
        return None
    standing = [n.id for n in state.npcs if not n.dead and not n.dying]
    last = who.last_target
    if last and (m := state.member(last)) is not None and not m.dead:
        return last
    attackers = [t.npc_id for t in state.turns
                 if any(s.target_id and state.character(s.target_id) for s in t.steps)]
    return next((i for i in reversed(attackers) if i in standing), standing[0] if standing else None)
