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

from app.rulesets.d20.books import hand_over, upcoming
from app.rulesets.d20.commands import (
    Delay,
    EndRound,
    Entry,
    NextTurn,
    Refused,
    SetInitiative,
    StartTurn,
    command,
)
from app.rulesets.d20.game import Character, D20State, Initiative
from app.rulesets.d20.play_round import character_turn, end_round, save_die_asked, undecided


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
    state, handed = hand_over(state, None)
    return state.model_copy(update={"initiative": order}), handed + entries


def next_up(state: D20State) -> str | None:
    """Who the next tap of Next turn reaches: the next still to act, else (the round ending) the
    first of the order."""
    left = upcoming(state)
    if left:
        return left[0]
    alive = [i.member_id for i in state.initiative if (m := state.member(i.member_id)) and not m.dead]
    return alive[0] if alive else None


@command("next_turn", NextTurn)
def next_turn(state: D20State, body: NextTurn, rng: Random) -> tuple[D20State, list[Entry]]:
    """D20-TRACKER: the turn passes to the next creature still to act; past the last, the round
    ends and the first acts. A Character's turn begins by itself (its Dying save asked for,
    D20-DYING-SAVE); a Delayed one resumes without beginning again (D20-DELAY)."""
    if not state.initiative:
        raise Refused("Roll or enter initiative first.", "D20-INITIATIVE")
    state, entries = undecided(state, rng)
    left = upcoming(state)
    if not left:  # past the last creature: the round ends and the order starts again
        state, ended = end_round(state, EndRound(), rng)
        entries += ended
        left = upcoming(state)
        if not left:
            return state, entries
    who = state.member(left[0])
    assert who is not None  # upcoming() lists roster members only
    if isinstance(who, Character) and who.id not in state.delayed:
        save_die_asked(who, body.natural, body.app_rolls)
    value = next(i.value for i in state.initiative if i.member_id == who.id)
    state, handed = hand_over(state, who.id)
    entries += handed
    if who.id in state.delayed:
        entries.append(Entry(f"{who.name}'s Delayed turn comes (initiative {value}).", "D20-DELAY"))
        return state.model_copy(update={"delayed": [d for d in state.delayed if d != who.id]}), entries
    entries.append(Entry(f"{who.name}'s turn (initiative {value}).", "D20-INITIATIVE"))
    if isinstance(who, Character):
        start = StartTurn(member_id=who.id, natural=body.natural, bleed=body.bleed, app_rolls=body.app_rolls)
        state, begun_entries = character_turn(state, start, rng)
        entries += begun_entries
    return state, entries


@command("start_turn", StartTurn)
def start_turn(state: D20State, body: StartTurn, rng: Random) -> tuple[D20State, list[Entry]]:
    """"A Character's turn begins": with the tracker it is the same step as Next turn for the one
    due next (never a second turn or a second Dying save); without it, once a round each."""
    member = state.member(body.member_id)
    if state.initiative and member is not None and member.id != state.acting:
        if next_up(state) != member.id:
            due = state.member(next_up(state) or "")
            raise Refused(f"It is not {member.name}'s turn: Next turn goes to "
                          f"{due.name if due else 'nobody'}.", "D20-TRACKER")
        same = NextTurn(natural=body.natural, bleed=body.bleed, app_rolls=body.app_rolls)
        return next_turn(state, same, rng)
    return character_turn(state, body, rng)


@command("delay", Delay)
def delay(state: D20State, body: Delay, rng: Random) -> tuple[D20State, list[Entry]]:
    """D20-DELAY: the creature whose turn it is, before it has spent anything, waits and acts later
    this round, after `after_id` (blank: the next one due). Its turn's start is not repeated."""
    member = state.member(body.member_id)
    if member is None or member.id != state.acting:
        raise Refused("Only the creature whose turn it is can Delay.", "D20-DELAY")
    if member.combatant().down:
        raise Refused(f"{member.name} is out of the fight: it does nothing, Delay included.", "D20-OUT")
    if member.spent or state.turn_of(member.id) is not None:
        raise Refused(f"{member.name} has already acted this turn: too late to Delay.", "D20-DELAY")
    left = upcoming(state)
    after = body.after_id or (left[0] if left else None)
    if after is None or after not in left:
        raise Refused(f"Nobody still to act this round for {member.name} to wait for.", "D20-DELAY")
    mine = next(i for i in state.initiative if i.member_id == member.id)
    order = [i for i in state.initiative if i.member_id != member.id]
    place = next(k for k, i in enumerate(order) if i.member_id == after) + 1
    order.insert(place, mine.model_copy(update={"value": order[place - 1].value}))
    delayed = [*state.delayed, member.id] if member.id in state.began else state.delayed
    other = state.member(after)
    text = f"{member.name} Delays: it acts after {other.name if other else after} this round."
    return state.model_copy(update={"initiative": order, "delayed": delayed, "acting": None}), [
        Entry(text, "D20-DELAY")]


def likely_target(state: D20State) -> str | None:
    """The foe the attack form offers the acting Character (fewer inputs, nothing
    decided for the player, who changes it with one select): the one it attacked last while that
    one still stands, else the NPC that attacked a Character most recently this round, else the
    first NPC still up. None when no Character is acting."""
    who = state.member(state.acting) if state.acting else None
    if not isinstance(who, Character):
        return None
    # D20-OUT: a downed foe (Dying, Unconscious, Dead, Displaced) is never preset
    standing = [n.id for n in state.npcs if not n.combatant().down]
    last = who.last_target
    if last and (m := state.member(last)) is not None and not m.combatant().down:
        return last
    attackers = [t.npc_id for t in state.turns
                 if any(s.target_id and state.character(s.target_id) for s in t.steps)]
    return next((i for i in reversed(attackers) if i in standing), standing[0] if standing else None)
