"""A fight's turn order (Z-INITIATIVE) and a Character's maneuvers (Z-TURN). Registers into the
zone namespace (commands.py); the order itself is the kernel's (app/kernel/turn_order.py).

The quick reference does not say how the order of a round is found; most Year Zero games deal
initiative cards 1 to 10, lowest first: the app draws for the NPCs, the player enters each
Character's card or lets the app draw it; a model added mid-fight draws and joins.
"""

from __future__ import annotations

from random import Random

from pydantic import Field

from app.kernel import turn_order
from app.kernel.commands import Body, Entry, Refused
from app.rulesets.zone import books
from app.rulesets.zone.books import able_ids
from app.rulesets.zone.commands import CARDS, Maneuver, Nothing, StartFight, character, command, npc, put
from app.rulesets.zone.models import Arm, ZoneState
from app.rulesets.zone.play import new_round


@command("start_fight", StartFight)
def start_fight(state: ZoneState, body: StartFight, rng: Random):
    """Z-INITIATIVE: every model still standing gets a card (the player's draw, else the app's);
    the order is lowest card first; the first in order acts."""
    members = [*(c for c in state.characters if not c.dead), *state.npcs]
    given = {d.member_id: d.card for d in body.draws}
    for member_id in given:
        if state.member(member_id) is None:
            raise Refused(f"No one on the roster has the id {member_id!r}.", "Z-INITIATIVE")
    cards = list(given.values())
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice and len(members) <= len(CARDS):
        raise Refused(f"Card {twice[0]} is drawn twice: each initiative card is drawn once.", "Z-INITIATIVE")
    values, said = [], []
    for m in members:
        card = given.get(m.id)
        if card is None:
            card = turn_order.draw(CARDS, [v for _, v in values] + cards, rng)
            said.append(f"{m.name} {card} (the app draws)")
        else:
            said.append(f"{m.name} {card}")
        values.append((m.id, card))
    order = turn_order.started_round(turn_order.settled(values), able_ids(state))
    names = ", ".join(state.member(p.member_id).name for p in order.places)
    entries = [Entry(f"Initiative cards: {'; '.join(said)}. Order: {names}.", "Z-INITIATIVE")]
    state = state.model_copy(update={"turn_order": order})
    return state, entries + turn_begins(state)


class Roll(Body):
    member_id: str = Field(max_length=40)
    value: int = Field(ge=1, le=10)


class SetInitiative(Body):
    """The d20 tracker's words for the same step: each `value` is a card 1 to 10."""

    rolls: list[Roll] = Field(default_factory=list, max_length=100)


@command("set_initiative", SetInitiative)
def set_initiative(state: ZoneState, body: SetInitiative, rng: Random):
    """Z-INITIATIVE: as start_fight, the cards given as `rolls` (d20's tracker's shape)."""
    draws = [{"member_id": r.member_id, "card": r.value} for r in body.rolls]
    return start_fight(state, StartFight(draws=draws), rng)


def turn_begins(state: ZoneState) -> list[Entry]:
    order = state.turn_order
    who = state.member(order.acting) if order.acting else None
    if who is None:
        return [Entry("Nobody in the fight can act.", "Z-OUT")]
    return [Entry(f"{who.name}'s turn (initiative card {order.value_of(who.id)}).", "Z-INITIATIVE")]


@command("next_turn", Nothing)
def next_turn(state: ZoneState, body: Nothing, rng: Random):
    """Z-INITIATIVE: the acting model's turn ends and the next in order acts; after the last, the
    round ends (Z-ROUND) and the order starts again from the top. Nobody's turn is lost: a model
    put out of the fight, removed or added keeps everyone else's turn this round."""
    order = state.turn_order
    if not order.running:
        raise Refused("No fight is under way: start the fight (initiative cards) first.", "Z-INITIATIVE")
    acting = state.bot(order.acting) if order.acting else None
    decision = state.decision(acting.id) if acting else None
    waiting = [a for a in decision.actions if a.status == "pending"] if decision else []
    if waiting:
        raise Refused(f"{acting.name}'s {waiting[0].name} at {waiting[0].target} is still to roll: roll it "
                      "(or "
                      "enter its dice) before the next turn.", "Z-ROUND")
    order, over = turn_order.advanced(order, able_ids(state))
    state, entries = state.model_copy(update={"turn_order": order}), []
    if over:
        state, entries = new_round(state)
    return state, entries + turn_begins(state)


@command("end_fight", Nothing)
def end_fight(state: ZoneState, body: Nothing, rng: Random):
    """Z-INITIATIVE: the fight is over; rounds go on without a turn order."""
    return state.model_copy(update={"turn_order": turn_order.TurnOrder()}), [
        Entry("The fight ends: no more turn order.", "Z-INITIATIVE")]


MANEUVERS = {"move": "moves one range step (move the figure)", "seek_cover": "seeks cover",
             "get_item": "gets an item from its gear", "pick_up": "picks up an item from the ground",
             "draw_weapon": "draws a weapon", "aim": "aims with a gun", "reload": "reloads a gun",
             "use_item": "uses an item"}


@command("character_maneuver", Maneuver)
def character_maneuver(state: ZoneState, body: Maneuver, rng: Random):
    """Z-TURN: a Character's maneuver spends one of its round's slots; an aim is for its next
    shot this round (Z-AIM), a reload fills a gun to the bullets its sheet gave (Z-RELOAD)."""
    who = character(state, body.character_id)
    books.able(who, "make a maneuver")
    books.on_turn(state, who, "make a maneuver")
    who = books.spend(who, "maneuver", MANEUVERS[body.maneuver].split(" (")[0])
    rule = {"aim": "Z-AIM", "reload": "Z-RELOAD", "move": "Z-MOVE"}.get(body.maneuver, "Z-ROUND")
    entries = [Entry(f"{who.name} {MANEUVERS[body.maneuver]}.", rule)]
    if body.maneuver == "aim":
        who = who.model_copy(update={"aimed": True})
    if body.maneuver == "reload":
        who = reloaded(who, body.weapon, entries)
    return put(state, who), entries


def reloaded(who, index: int | None, entries: list[Entry]):
    guns = [i for i, w in enumerate(who.weapons) if w.ranged and w.load is not None]
    index = index if index is not None else (guns[0] if guns else None)
    if index is None or index not in guns:
        entries.append(Entry(f"{who.name}'s bullets are not counted on the sheet: the player keeps them.",
                             "Z-RELOAD"))
        return who
    arm = who.weapons[index]
    entries.append(Entry(f"{who.name}'s {arm.name} holds {arm.load} bullets again.", "Z-RELOAD"))
    weapons = [Arm(**w.model_dump(exclude={"bullets"}), bullets=w.load) if i == index else w
               for i, w in enumerate(who.weapons)]
    return who.model_copy(update={"weapons": weapons})


class Release(Body):
    npc_id: str = Field(max_length=40)


@command("end_grapple", Release)
def end_grapple(state: ZoneState, body: Release, rng: Random):
    """Z-GRAPPLE: the NPC is let go, or breaks free (the table's call: how is not in the quick
    reference)."""
    who = npc(state, body.npc_id)
    if who.grappled_by is None:
        raise Refused(f"{who.name} is not held in a grapple.", "Z-GRAPPLE")
    return put(state, who.model_copy(update={"grappled_by": None})), [
        Entry(f"{who.name} is no longer held in a grapple.", "Z-GRAPPLE")]
