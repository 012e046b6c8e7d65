"""Long random d20 games keep the books (docs/rules-d20.md § 7): whatever the player taps, in
whatever order, the accepted commands never let a creature spend more than its turn allows
(D20-TURN-BUDGET: one Action, one Move, one Minor a turn, one Reaction a round), never let a
Dead, Dying, Unconscious or Displaced creature act or a Dead, Unconscious or Displaced one be
attacked (D20-OUT), and the tracker gives every living creature exactly one turn a round
(D20-TRACKER). The auditor counts from what each accepted command did, not from the engine's own
`spent` list."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from app.kernel.commands import Refused
from app.rulesets.d20.commands import HANDLERS
from app.rulesets.d20.game import D20State

BODIES = {name: (body, fn) for name, body, fn in HANDLERS}
SPENDS = ("move", "dash", "disengage", "aim", "use_item", "draw_sling_weapon", "open_door", "stand")
MINORS = ("draw_sling_weapon", "open_door", "stand")
CONDITIONS = ("stunned", "prone", "grappled", "bleeding", "unconscious", "temporal_displacement", "glitched")


def run(state, name, rng, **fields):
    body_type, handler = BODIES[name]
    return handler(state, body_type.model_validate(fields), Random(rng.random()))


def sheet(rng: Random, name: str) -> dict:
    weapons = [{"name": "Blade", "kind": "melee", "damage": "1d6"}]
    if rng.random() < 0.6:
        weapons.append({"name": "Gun", "kind": "ranged", "damage": "1d8", "short": 6, "long": 20})
    return {"name": name, "attributes": {"agility": rng.randint(-1, 3), "vigor": rng.randint(-1, 3)},
            "skills": {"blade_waltz": rng.randint(0, 2), "arrow_time": rng.randint(0, 2)},
            "defense": rng.randint(10, 15), "hp": rng.randint(3, 12), "weapons": weapons}


def roster(rng: Random) -> D20State:
    state = D20State()
    for k in range(rng.randint(1, 3)):
        state, _ = run(state, "add_character", rng, character=sheet(rng, f"C{k}"))
    for k in range(rng.randint(1, 3)):
        npc = {**sheet(rng, f"N{k}"), "role": rng.choice(["hunter", "sentry", "worker", "patrol"]),
               "subject": "the vault", "object": "the door", "waypoints": ["A", "B", "C"],
               "patrol_mode": rng.choice(["route", "circuit"])}
        state, _ = run(state, "add_npc", rng, npc=npc)
    state, _ = run(state, "set_initiative", rng, rolls=[])
    return state


def members(state: D20State) -> list[str]:
    return [m.id for m in [*state.characters, *state.npcs]]


def npc_facts(state: D20State, rng: Random, npc_id: str) -> dict:
    seen = [{"character_id": c.id, "distance": rng.randint(1, 12), "line_of_sight": rng.random() < 0.7}
            for c in state.characters]
    return {"npc_id": npc_id, "seen": seen, "subject_distance": rng.randint(0, 8),
            "object_distance": rng.randint(0, 8), "waypoint_distance": rng.randint(0, 8),
            "next_waypoint_distance": rng.randint(1, 8), "direction": rng.randint(1, 8)}


def advance(state: D20State, rng: Random) -> tuple[str, dict]:
    """The tracker's way on: the acting NPC's turn first, then Next turn (a die when asked)."""
    acting = state.bot(state.acting or "")
    if acting is not None and acting.id not in state.began and not acting.dead:
        return "npc_turn", npc_facts(state, rng, acting.id)
    if rng.random() < 0.5:
        return "next_turn", {"natural": rng.randint(1, 20)}
    return "next_turn", {"app_rolls": True}


def random_command(state: D20State, rng: Random) -> tuple[str, dict]:
    if rng.random() < 0.35:
        return advance(state, rng)
    ids = members(state)
    who, other = rng.choice(ids), rng.choice(ids)
    kind = rng.choice(["attack", "attack", "attack", "spend", "condition", "damage", "heal", "stabilize",
                       "npc_turn", "delay", "end_round", "start_turn", "adjust", "add", "remove", "rest"])
    if kind == "attack":
        return "attack", {"attacker_id": who, "target_id": other, "reaction": rng.random() < 0.3,
                          "natural": rng.randint(1, 20), "lethal": rng.random() < 0.8,
                          "weapon": rng.choice([None, "Blade", "Gun"])}
    if kind == "spend":
        return "spend", {"member_id": who, "what": rng.choice(SPENDS)}
    if kind == "condition":
        return "set_condition", {"member_id": who, "condition": rng.choice(CONDITIONS),
                                 "present": rng.random() < 0.7, "rounds": rng.choice([None, 1, 2])}
    if kind in ("damage", "heal"):
        return kind, {"member_id": who, "amount": rng.randint(1, 8), "lethal": rng.random() < 0.8}
    if kind == "stabilize":
        return "stabilize", {"member_id": other, "medicine_total": rng.randint(5, 20), "by_id": who}
    if kind == "npc_turn" and state.npcs:
        return "npc_turn", npc_facts(state, rng, rng.choice(state.npcs).id)
    if kind == "delay":
        return "delay", {"member_id": state.acting or who}
    if kind == "start_turn":
        return "start_turn", {"member_id": who, "natural": rng.randint(1, 20)}
    if kind == "adjust":
        return "adjust", {"member_id": who, "dying": rng.randint(0, 4)}
    if kind == "add" and rng.random() < 0.3:
        return "add_npc", {"npc": {**sheet(rng, f"L{rng.randint(0, 10**6)}"), "role": "hunter"}}
    if kind == "remove" and rng.random() < 0.2 and len(ids) > 2:
        return "remove", {"member_id": who}
    if kind == "rest":
        return "rest", {"member_id": who, "kind": rng.choice(["short", "long"]), "rolled": rng.randint(1, 8)}
    return "end_round", {}


class Books:
    """What the accepted commands spent, per round and creature, counted from outside."""

    def __init__(self) -> None:
        self.spent: Counter = Counter()  # (round, id, part)
        self.turns: Counter = Counter()  # (round, id)
        self.joined: set = set()  # (round, id): came mid-round, not held to a turn that round
        self.present: dict[int, set[str]] = {}

    def before(self, state: D20State, name: str, body: dict) -> None:
        """D20-OUT: what the command asks must be allowed for it to be accepted (checked after)."""
        self.state, self.name, self.body = state, name, body

    def after(self, new: D20State, entries) -> None:
        old, name, body = self.state, self.name, self.body
        r = old.round
        self.present.setdefault(r, set(members(old)))
        if name == "attack":
            a, t = old.member(body["attacker_id"]), old.member(body["target_id"])
            assert not a.combatant().down, f"{a.name} acted while down"
            assert t.combatant().attackable, f"{t.name} was attacked while Dead, Unconscious or Displaced"
            if body["reaction"]:
                self.spent[(r, a.id, "reaction")] += 1
            elif not resolved_pending(old, new, a.id):
                self.spent[(r, a.id, "action")] += 1
        if name == "spend":
            m = old.member(body["member_id"])
            assert not m.combatant().down, f"{m.name} acted while down"
            what = body["what"]
            part = "move" if what == "move" else "minor" if what in MINORS else "action"
            self.spent[(r, m.id, part)] += 1
        if name == "stabilize":
            assert not old.member(body["by_id"]).combatant().down
            self.spent[(r, body["by_id"], "action")] += 1
        if name == "npc_turn":
            turn = new.turn_of(body["npc_id"])
            for s in turn.steps:
                if s.slot in ("action", "move", "minor"):
                    self.spent[(r, body["npc_id"], s.slot)] += 1
        if name in ("add_npc", "add_character"):
            for m in set(members(new)) - set(members(old)):
                self.joined.add((r, m))
        self.count_turns(old, new)
        for turn in new.turns:  # D20-OUT: nothing pending by or on a creature that is down
            for s in turn.steps:
                if s.status == "pending":
                    assert not new.bot(turn.npc_id).combatant().down
                    assert s.target_id is None or not new.member(s.target_id).combatant().down
        for m in [*new.characters, *new.npcs]:
            assert not (m.dying and m.hp > 0), f"{m.name} is Dying with {m.hp} HP"
            assert m.dead == (m.dying >= 4), f"{m.name}: Dying {m.dying}, dead {m.dead}"

    def count_turns(self, old: D20State, new: D20State) -> None:
        if new.round == old.round:
            for m in set(new.began) - set(old.began):
                if (new.round, m) not in self.joined:
                    self.turns[(new.round, m)] += 1
            return
        acting = old.bot(old.acting or "")
        if acting is not None and acting.id not in old.began and not acting.dead:
            self.turns[(old.round, acting.id)] += 1  # its empty turn (Unconscious, Displaced) taken on the way
        self.close_round(old)
        self.present[new.round] = set(members(new))
        for m in new.began:
            self.turns[(new.round, m)] += 1

    def close_round(self, old: D20State) -> None:
        """D20-TRACKER: a round that ended: every living creature on the roster all round had
        exactly one turn; nobody had two."""
        r = old.round
        for (rr, m), n in self.turns.items():
            assert rr != r or n <= 1, f"{m} had {n} turns in round {r}"
        for m in self.present.get(r, set()) & set(members(old)):
            who = old.member(m)
            if not who.dead and (r, m) not in self.joined:
                assert self.turns[(r, m)] == 1, f"{who.name} had {self.turns[(r, m)]} turns in round {r}"

    def check_budgets(self) -> None:
        for (r, m, part), n in self.spent.items():
            assert n <= 1, f"{m} spent {n} {part}s in round {r}"


def resolved_pending(old: D20State, new: D20State, attacker_id: str) -> bool:
    """The attack rolled an NPC's decided attack (its turn's Action, counted at its npc_turn)."""
    before, after = old.turn_of(attacker_id), new.turn_of(attacker_id)
    if before is None or after is None:
        return False
    return sum(s.status == "pending" for s in before.steps) > sum(s.status == "pending" for s in after.steps)


@pytest.mark.parametrize("seed", range(40))
def test_D20_TURN_BUDGET_D20_OUT_D20_TRACKER_long_random_games_keep_the_books(seed):
    rng = Random(seed)
    state, books = roster(rng), Books()
    rounds = state.round
    for _ in range(400):
        name, body = random_command(state, rng)
        books.before(state, name, body)
        try:
            new, entries = run(state, name, rng, **body)
        except Refused:
            continue
        books.after(new, entries)
        state = new
    books.check_budgets()
    assert state.round > rounds + 2, "the walk should play several rounds"
