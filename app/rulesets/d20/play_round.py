"""The d20 round as commands: a turn's start and end (an NPC's turn itself is play_npc.py), a
Character's turn starting, an attack either way (D20-ATTACK-*), the end of the round.

Every roll may be entered (`natural`, `damage`, `bleed`) or is rolled from the step's seeded
rng; a log entry with dice records them: `{"by": "app"|"entered", "faces": [{"roll", "die",
"face"}], "natural", "damage"}`.
"""

from __future__ import annotations

from dataclasses import replace
from random import Random
from typing import Any

from app.rulesets.d20.attack import AttackResult, Situation, damage_attribute, resolve_attack, situation
from app.rulesets.d20.books import begun, hand_over, may_spend, upcoming
from app.rulesets.d20.commands import Attack, EndRound, Entry, Refused, StartTurn, command
from app.rulesets.d20.conditions import budget, end_turn, spend_glitch, start_turn, timed
from app.rulesets.d20.dying import dying_save, fall, take_damage
from app.rulesets.d20.game import Character, D20State, Npc, Planned
from app.rulesets.d20.models import UNARMED, Combatant, HouseRules, Weapon
from app.rulesets.d20.odds import damage_odds, expected
from app.rulesets.d20.play_roster import member_or_refuse
from app.rulesets.d20.reactions import Trigger, react


def d20_record(natural: int, entered: bool, damage: AttackResult | None = None,
               sides: int = 6) -> dict[str, Any]:
    faces: list[dict[str, Any]] = [{"roll": "d20", "die": 20, "face": natural}]
    record: dict[str, Any] = {"by": "entered" if entered else "app", "faces": faces, "natural": natural}
    if damage is not None and damage.hit:
        faces += [{"roll": "damage", "die": sides, "face": f} for f in damage.damage_faces]
        record["damage"] = damage.damage
    return record


def begin(c: Combatant, rng: Random, natural: int | None, bleed: int | None,
          house: HouseRules) -> tuple[Combatant, list[Entry]]:
    """The start of a turn, once a turn (D20-TRACKER): Bleeding (a drop to 0 is Dying), then the
    Dying save; a turn spent on the save has nothing else, even when it stabilises (D20-DYING-SAVE:
    the Action, Move and Minor are spent; the Reaction is the round's)."""
    c, events = start_turn(c, rng, bleed, house)
    entries = [Entry(text, rule) for text, rule in events]
    if c.hp == 0 and not (c.dying or c.dead or c.has("unconscious")):
        c = fall(c, house)
        entries.append(Entry(f"{c.name} drops to 0 HP: Dying 1 and Wounded {c.wounded}.", "D20-DYING"))
    elif c.dying and not c.dead:
        rolled = natural if natural is not None else rng.randint(1, 20)
        change = dying_save(c, rolled, house)
        c = change.combatant.spending("action", "move", "minor")
        entries.append(Entry(change.text, change.rule, d20_record(rolled, natural is not None)))
        if not c.dying and not c.dead:
            entries.append(Entry(f"{c.name} spent this turn on its Dying save: nothing else this turn.",
                                 "D20-DYING-SAVE"))
    return c, entries


def save_die_asked(member: Character | Npc, natural: int | None, app_rolls: bool) -> None:
    """D20-DYING-SAVE: a Dying Character's save is entered by the player or rolled by the app, at
    the player's choice: a turn that would roll it unasked is refused, naming the field."""
    asked = natural is None and not app_rolls
    if isinstance(member, Character) and member.dying and not member.dead and asked:
        raise Refused(f"{member.name} is Dying: enter its Vigor Save d20 (natural), or let the app roll it.",
                      "D20-DYING-SAVE")


def finish(c: Combatant) -> tuple[Combatant, list[Entry]]:
    """The end of a creature's own turn: a Temporally Displaced one skipped it (nothing of it is
    left to spend after its return, D20-TURN-BUDGET) and returns, immune until the start of its
    next turn, one round later (D20-COND-TEMPORAL)."""
    if c.has("temporal_displacement"):
        c = c.spending("action", "move", "minor")
    c, events = end_turn(c)
    return c, [Entry(text, rule) for text, rule in events]


def character_turn(state: D20State, body: StartTurn, rng: Random) -> tuple[D20State, list[Entry]]:
    """A creature's own turn begins (the tracker's step, play_tracker.py): once a round."""
    member = member_or_refuse(state, body.member_id)
    if member.dead:
        raise Refused(f"{member.name} is Dead: it has no turn.", "D20-OUT")
    if member.id in state.began and member.id not in state.delayed:
        raise Refused(f"{member.name}'s turn has already begun this round: one turn, one Dying save, one "
                      "Bleeding a round.", "D20-TRACKER")
    save_die_asked(member, body.natural, body.app_rolls)
    state, handed = hand_over(state, member.id)
    state = begun(state, member.id)
    c, entries = begin(member.combatant(), rng, body.natural, body.bleed, state.house.rules())
    entries = handed + entries
    c, glitch = spend_glitch(c)
    if glitch:
        c = c.spending("minor")
    entries += [Entry(text, rule) for text, rule in glitch]
    c, returned = finish(c)  # a displaced Character skips this turn and returns
    entries += returned
    entries = entries or [Entry(f"{member.name}'s turn begins.", "D20-TURN")]
    return state.replace_member(member.with_combatant(c)), entries


def weapon_of(attacker: Character | Npc, name: str | None, planned: Planned | None,
              reaction: bool = False) -> Weapon:
    """The weapon named, else the one its turn chose, else its first; an Attack of Opportunity's
    default is its first melee weapon, else an unarmed strike (D20-AOO)."""
    wanted = name or (planned.weapon if planned is not None else None)
    choices = [w for w in attacker.weapons if w.kind == "melee"] if reaction else attacker.weapons
    sheet = attacker.weapon(wanted) if wanted else (choices[0] if choices else None)
    if wanted and sheet is None and wanted != UNARMED.name:
        raise Refused(f"{attacker.name} has no weapon called {wanted!r}.", "D20-ATTACK-ROLL")
    weapon = sheet.weapon() if sheet is not None else UNARMED
    if reaction and weapon.kind != "melee":
        raise Refused(f"An Attack of Opportunity is made with a melee weapon or unarmed, not {weapon.name} "
                      f"({weapon.kind}).", "D20-AOO")
    return weapon


def pending_attack(state: D20State, attacker_id: str, target_id: str) -> Planned | None:
    """The NPC's attack waiting for its dice: the one on this target, else its one pending attack
    (an ally Intercepts it, or the player points it elsewhere): it is the turn's Action either way."""
    turn = state.turn_of(attacker_id)
    steps = [s for s in (turn.steps if turn is not None else []) if s.status == "pending"]
    return next((s for s in steps if s.target_id == target_id), steps[0] if steps else None)


def out_word(c: Combatant) -> str:
    return ("Dead" if c.dead else "Dying" if c.dying else "Unconscious" if c.has("unconscious")
            else "Temporally Displaced")


def struck(t: Combatant, amount: int, critical: bool, lethal: bool, rng: Random,
           house: HouseRules) -> tuple[Combatant, list[Entry]]:
    """Damage taken (D20-DAMAGE, D20-DYING, D20-KO); a knock-out's 1d4 minutes start on the clock,
    in rounds (D20-DURATION)."""
    change = take_damage(t, amount, critical, lethal, house)
    t, entries = change.combatant, [Entry(change.text, change.rule)]
    if change.rule == "D20-KO":
        minutes = rng.randint(1, 4)
        rounds = minutes * house.rounds_per_minute
        t = timed(t, "unconscious", rounds)
        entries.append(Entry(f"{t.name} is Unconscious for {minutes} minute{'s' * (minutes > 1)} ({rounds} "
                             "rounds).", "D20-DURATION",
                             {"by": "app", "faces": [{"roll": "minutes", "die": 4, "face": minutes}]}))
    return t, entries


@command("attack", Attack)
def attack(state: D20State, body: Attack, rng: Random) -> tuple[D20State, list[Entry]]:
    attacker, target = member_or_refuse(state, body.attacker_id), member_or_refuse(state, body.target_id)
    if attacker.id == target.id:
        raise Refused(f"{attacker.name} does not attack itself: choose its target.", "D20-ATTACK-ROLL")
    a, t = attacker.combatant(), target.combatant()
    if a.down:
        raise Refused(f"{a.name} is {out_word(a)}: it does nothing.", "D20-OUT")
    if not t.attackable:
        raise Refused(f"{t.name} is {out_word(t)}: it cannot be attacked.", "D20-OUT")
    if body.reaction and a.reaction_used:
        raise Refused(f"{a.name}'s Reaction is spent this round.", "D20-REACTION")
    house = state.house.rules()
    planned = None if body.reaction else pending_attack(state, attacker.id, target.id)
    if not body.reaction and planned is None:  # the attack is its Action (D20-TURN-BUDGET)
        may_spend(state, attacker, "action", "an attack")
        a = a.spending("action")
    weapon = weapon_of(attacker, body.weapon, planned, body.reaction)
    where = situation(a, weapon, t, body.range, body.cover, house)
    entries: list[Entry] = []
    parried = body.parried
    if body.intercept:  # its Reaction is spent: it cannot Parry this attack as well
        t = reacting(t, "Intercept")
        entries.append(Entry(f"{t.name} Intercepts (its Reaction) and becomes the target.", "D20-INTERCEPT"))
    elif parried is None and isinstance(target, Npc) and weapon.kind == "melee":
        answer = react(target.brain(), Trigger("melee_attacked", attacker.name))
        parried = answer is not None and answer.action == "parry"
        entries += [Entry(answer.reason, answer.rule)] if parried and answer else []
    if parried:
        t, where = parry(t, weapon, where, house)
    result = resolve_attack(a, weapon, t, where, rng, body.natural, body.damage, house)
    record = d20_record(result.natural, body.natural is not None, result, weapon.dice.sides)
    entries.append(Entry(result.reason, result.rule, record if result.natural else None))
    if result.glitch:
        a = a.with_conditions("glitched")
    if body.reaction:
        a = replace(a, reaction_used=True)
    if result.hit:
        t, hurt = struck(t, result.damage, result.critical, body.lethal, rng, house)
        entries += hurt
    attacker = attacker.with_combatant(a)
    if isinstance(attacker, Character):  # the foe the attack form offers it next time
        attacker = attacker.model_copy(update={"last_target": target.id})
    state = state.replace_member(attacker)
    state = state.replace_member(state.member(target.id).with_combatant(t))  # type: ignore[union-attr]
    return done(state, attacker.id, planned), entries


def parry(t: Combatant, weapon: Weapon, where: Situation, house: HouseRules) -> tuple[Combatant, Situation]:
    """D20-PARRY: the target spends its Reaction; house default +2 DEF against this melee attack."""
    if weapon.kind != "melee":
        raise Refused("Parry answers a melee attack.", "D20-PARRY")
    return reacting(t, "Parry"), replace(where, defense=where.defense + house.parry_defense)


def reacting(t: Combatant, what: str) -> Combatant:
    """D20-REACTION: one a round; a second (Parry, Intercept) is refused."""
    if t.reaction_used or t.out_of_action:
        raise Refused(f"{t.name} has no Reaction left to {what} with this round.", "D20-REACTION")
    return replace(t, reaction_used=True)


def done(state: D20State, npc_id: str, planned: Planned | None) -> D20State:
    turn = state.turn_of(npc_id)
    if turn is None or planned is None:
        return state
    steps = [s.model_copy(update={"status": "done"}) if s == planned else s for s in turn.steps]
    turns = [t.model_copy(update={"steps": steps}) if t.npc_id == npc_id else t for t in state.turns]
    return state.model_copy(update={"turns": turns})


def undecided(state: D20State, rng: Random) -> tuple[D20State, list[Entry]]:
    """The acting NPC's turn must be taken before the tracker moves on (D20-TRACKER: a turn is not
    lost by a tap): one with nothing to decide (Unconscious, Displaced) is taken now."""
    npc = state.bot(state.acting) if state.acting else None
    if npc is None or npc.dead or npc.id in state.began:
        return state, []
    c = npc.combatant()
    if c.dying or not budget(c).skip:
        raise Refused(f"{npc.name}'s turn is not taken yet: decide its turn (its card is open), or Delay "
                      "it.", "D20-TRACKER")
    state = begun(state, npc.id)
    c, entries = begin(c, rng, None, None, state.house.rules())
    c, returned = finish(c)
    entries = [Entry(f"{npc.name} has no turn to take: {budget(npc.combatant()).why[0][0]}.", "D20-OUT"),
               *entries, *returned]
    return state.replace_member(npc.with_combatant(c)), entries


@command("end_round", EndRound)
def end_round(state: D20State, body: EndRound, rng: Random) -> tuple[D20State, list[Entry]]:
    """The round ends: the last turn ends (its timed conditions tick, D20-DURATION), Reactions
    come back (one a round) and every turn's parts with the next round (D20-TURN-BUDGET). With the
    tracker, not while a living creature is still to act (D20-TRACKER: no turn is lost)."""
    if state.initiative:
        state, taken = undecided(state, rng)
    left = upcoming(state) if state.initiative else []
    if left:
        names = ", ".join(m.name for i in left if (m := state.member(i)) is not None)
        raise Refused(f"Not everyone has had a turn this round ({names}): Next turn goes on.", "D20-TRACKER")
    state, entries = hand_over(state, None)
    entries = (taken if state.initiative else []) + entries
    for member in [*state.characters, *state.npcs]:
        state = state.replace_member(member.model_copy(update={"reaction_used": False, "spent": []}))
    entries.append(Entry(f"Round {state.round} ends; round {state.round + 1} begins.", "D20-TURN"))
    return state.model_copy(update={"round": state.round + 1, "turns": [], "acting": None, "began": [],
                                    "delayed": []}), entries


def attack_preview(state: D20State, attacker_id: str, target_id: str, weapon: str | None,
                   range_: str, cover: str) -> dict[str, Any] | None:
    """The exact odds of an attack before it is rolled, as the attack form has it (None: the
    attacker, target or weapon is not on the roster)."""
    attacker, target = state.member(attacker_id), state.member(target_id)
    if attacker is None or target is None:
        return None
    try:
        arm = weapon_of(attacker, weapon or None, pending_attack(state, attacker.id, target.id))
    except Refused:
        return None
    house = state.house.rules()
    a, t = attacker.combatant(), target.combatant()
    where = situation(a, arm, t, range_, cover, house)
    odds = where.odds(house)
    dist = damage_odds(odds, arm.dice, a.attribute(damage_attribute(arm, house)), house)
    return {"attacker": attacker.name, "target": target.name, "weapon": arm.name, "bonus": where.bonus,
            "defense": where.defense, "range": where.range, "cover": where.cover, "mode": where.mode,
            "no_shot": odds.no_shot, "p_hit": float(odds.p_hit), "p_crit": float(odds.p_crit),
            "p_glitch": float(odds.p_glitch), "expected_damage": round(float(expected(dist)), 2),
            "notes": [text for text, _ in where.notes]}
