"""The books of a round (docs/rules-d20.md § 7): what each creature has left of its turn, whose
turn it is, and who is out of the fight.

- D20-TURN-BUDGET: "Action", "Move", "Minor" and "Reaction (1/round)" are kept in the state; a
  command spending a spent part is refused naming the rule; with the tracker, only the creature
  whose turn it is spends its Action, Move or Minor (out of turn, only a Reaction).
- D20-OUT: the Dead, Dying, Unconscious and Temporally Displaced do nothing; the Dead, the
  Unconscious and the Displaced cannot be attacked; an NPC's pending attack whose attacker is
  out, or whose target is down, is cancelled with a log line (`cancel_pending`, run after every
  command).
- D20-TRACKER: every living creature has exactly one turn a round (`upcoming`, `hand_over`,
  `join_order`).
Pure: no web, no SQL.
"""

from __future__ import annotations

from app.kernel.commands import Entry, Refused
from app.rulesets.d20.conditions import budget, tick
from app.rulesets.d20.game import Character, D20State, Initiative, Npc

PARTS = ("action", "move", "minor")


def upcoming(state: D20State) -> list[str]:
    """D20-TRACKER: the creatures still to act this round, in order: alive, on the roster, not
    acting now, and either not yet begun or Delayed (D20-DELAY)."""
    return [i.member_id for i in state.initiative
            if (m := state.member(i.member_id)) is not None and not m.dead and i.member_id != state.acting
            and (i.member_id not in state.began or i.member_id in state.delayed)]


def finish_turn(state: D20State) -> tuple[D20State, list[Entry]]:
    """The end of the acting creature's turn: its timed conditions tick (D20-DURATION)."""
    who = state.member(state.acting) if state.acting else None
    if who is None or who.id not in state.began or who.id in state.delayed:
        return state, []
    c, events = tick(who.combatant())
    return state.replace_member(who.with_combatant(c)), [Entry(text, rule) for text, rule in events]


def hand_over(state: D20State, to: str | None) -> tuple[D20State, list[Entry]]:
    """The turn passes from the acting creature (its turn ends) to `to`."""
    if state.acting == to:
        return state, []
    state, entries = finish_turn(state)
    return state.model_copy(update={"acting": to}), entries


def begun(state: D20State, member_id: str) -> D20State:
    return state.model_copy(update={"began": [*[b for b in state.began if b != member_id], member_id],
                                    "delayed": [d for d in state.delayed if d != member_id]})


def may_spend(state: D20State, member: Character | Npc, part: str, what: str) -> None:
    """D20-TURN-BUDGET: refuse spending `part` ("action", "move", "minor") it does not have."""
    c = member.combatant()
    if c.down:
        state_word = "Dead" if c.dead else "Dying" if c.dying else "Unconscious" if c.has(
            "unconscious") else "Temporally Displaced"
        raise Refused(f"{member.name} is {state_word}: it does nothing ({what} refused).", "D20-OUT")
    if state.initiative and state.acting is not None and state.acting != member.id:
        acting = state.member(state.acting)
        raise Refused(f"It is {acting.name if acting else 'another creature'}'s turn: {member.name}'s "
                      f"{part.title()} waits for its own turn (out of turn, only a Reaction).",
                      "D20-TURN-BUDGET")
    if part in c.spent:
        raise Refused(f"{member.name} has already spent its {part.title()} this turn: {what} refused.",
                      "D20-TURN-BUDGET")
    left = budget(c)
    lost = {"action": not left.action, "move": left.move <= 0, "minor": not left.minor}[part]
    if lost:
        none = (f"{member.name} has no {part.title()}", "D20-TURN")
        text, rule = next(((t, r) for t, r in left.why if part.title() in t or
                           (part == "move" and "Speed 0" in t)), none)
        raise Refused(f"{text}: {what} refused.", rule)


def cancel_pending(state: D20State) -> tuple[D20State, list[Entry]]:
    """D20-OUT: an NPC's attack still waiting for its dice is cancelled once its attacker is out of
    the fight or Stunned (its Action lost), or its target is down (Dying, Unconscious, Dead,
    Displaced) or gone."""
    entries: list[Entry] = []
    turns = []
    for turn in state.turns:
        npc = state.bot(turn.npc_id)
        steps = []
        for s in turn.steps:
            if s.status == "pending":
                target = state.member(s.target_id) if s.target_id else None
                why = cancelled_because(npc, target, s.target or "its target")
                if why:
                    s = s.model_copy(update={"status": "skipped"})
                    entries.append(Entry(f"{npc.name if npc else turn.npc_id}'s attack on {s.target} is "
                                         f"cancelled: {why}.", "D20-OUT"))
            steps.append(s)
        turns.append(turn.model_copy(update={"steps": steps}))
    return (state.model_copy(update={"turns": turns}), entries) if entries else (state, [])


def cancelled_because(npc: Npc | None, target: Character | Npc | None, name: str) -> str | None:
    if npc is None:
        return "it left the roster"
    if npc.combatant().down:
        return f"{npc.name} is out of the fight"
    if npc.combatant().has("stunned"):  # D20-COND-STUNNED: "Stunned: lose Action."
        return f"{npc.name} is Stunned and loses its Action"
    if target is None:
        return f"{name} left the roster"
    if target.combatant().down:
        return f"{target.name} is down"
    return None


def join_order(state: D20State, member: Character | Npc, value: int) -> tuple[D20State, list[Entry]]:
    """D20-TRACKER: a creature added mid-fight takes its place in the order by its initiative
    (after those tied with it); when that count has already passed this round it first acts next
    round, and nobody else's turn moves."""
    order = list(state.initiative)
    place = next((k for k, i in enumerate(order) if i.value < value), len(order))
    order.insert(place, Initiative(member_id=member.id, value=value))
    later = {i.member_id for i in order[place + 1:]}
    passed = bool(later & ({*state.began, state.acting} - {None}))
    update: dict = {"initiative": order}
    said = f"{member.name} joins the initiative order at {value}"
    if passed:
        update["began"] = [*state.began, member.id]
        said += f": that count has passed this round, so its first turn is in round {state.round + 1}"
    return state.model_copy(update=update), [Entry(said + ".", "D20-TRACKER")]
