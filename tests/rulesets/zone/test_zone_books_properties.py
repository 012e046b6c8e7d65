"""Long random zone games keep the books (the Year Zero-style reference: "Take one action and one
maneuver, or two maneuvers"; "When an attribute score hits zero, you are broken"):

- Z-TURN: no model ever spends more than its turn allows (one action and one maneuver, or two
  maneuvers, in a round);
- Z-OUT: no broken or dead model acts or is attacked, and none keeps a pending attack;
- Z-INITIATIVE: the turn order gives every model in the fight exactly one turn per round.

Every command is drawn at random (many of them illegal); a refused command changes nothing."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.kernel.commands import Refused
from tests.rulesets.zone.zone_kit import game, run

SHEETS = [
    {"name": "Brute", "role": "hunter", "fight": 4, "attributes": {"strength": 2}},
    {"name": "Guard", "role": "sentry", "subject": "Gate", "shoot": 3,
     "gun": {"name": "Rifle", "damage": 2, "reach": "long", "bullets": 4}},
    {"name": "Raider", "role": "patrol", "waypoints": ["A", "B", "C"], "patrol_mode": "route", "shoot": 2,
     "attributes": {"agility": 2}, "gun": {"name": "SMG", "damage": 1, "reach": "short", "bullets": 6,
                                           "full_auto": True, "bonus": 1}},
    {"name": "Scav", "role": "worker", "object": "Pile", "fight": 2, "attributes": {"strength": 1}},
]
BANDS = ["arms_length", "near", "short", "long"]
ACTORS = {"activate_npc": "npc_id", "npc_attack": "npc_id", "character_attack": "character_id",
          "push_roll": "character_id", "character_maneuver": "character_id"}


def faces(rng: Random, n: int) -> list[int]:
    return [rng.randint(1, 6) for _ in range(n)]


def command(state, rng: Random) -> dict:
    """A random command, legal or not."""
    chars = [c.id for c in state.characters] or ["c1"]
    npcs = [n.id for n in state.npcs] or ["n1"]
    acting = state.turn_order.acting
    pick = rng.random()
    who_c = acting if acting in chars and rng.random() < 0.7 else rng.choice(chars)
    who_n = acting if acting in npcs and rng.random() < 0.7 else rng.choice(npcs)
    if pick < 0.18:
        seen = [{"character_id": c, "band": rng.choice(BANDS), "line_of_sight": rng.random() < 0.8} for c in chars]
        return {"type": "activate_npc", "npc_id": who_n, "facts": {
            "seen": seen, "subject_band": rng.choice(BANDS), "object_band": rng.choice(BANDS),
            "waypoint_band": rng.choice(BANDS), "next_waypoint_band": rng.choice(BANDS)}}
    if pick < 0.32:
        return {"type": "npc_attack", "npc_id": who_n}
    if pick < 0.5:
        body = {"type": "character_attack", "character_id": who_c, "npc_id": rng.choice(npcs),
                "kind": rng.choice(["fight", "shoot"]), "stunts": rng.sample(["damage", "fatigue", "disarm",
                                                                            "knock_down", "grapple"], 2)}
        return {**body, "pool": {"base": rng.randint(0, 3), "skill": rng.randint(0, 2), "gear": rng.randint(0, 1)},
                "push": rng.random() < 0.3}
    if pick < 0.6:
        return {"type": "push_roll", "character_id": who_c}
    if pick < 0.67:
        return {"type": "character_maneuver", "character_id": who_c,
                "maneuver": rng.choice(["move", "aim", "seek_cover", "reload"])}
    if pick < 0.82:
        return {"type": "next_turn"}
    if pick < 0.85:
        return {"type": "end_round"}
    if pick < 0.86:
        return {"type": "start_fight"}
    if pick < 0.9:
        return {"type": "add_npc", "npc": rng.choice(SHEETS)}
    if pick < 0.92 and len(state.npcs) > 1:
        return {"type": "remove_npc", "id": rng.choice(npcs)}
    if pick < 0.95:
        return {"type": "recover", "character_id": who_c, "track": rng.choice(["damage", "fatigue"])}
    return {"type": "pass_day", "reports": [{"character_id": c, "ate": rng.random() < 0.5} for c in chars]}


def target_of(state, body: dict):
    if body["type"] == "character_attack":
        return state.bot(body["npc_id"])
    if body["type"] == "npc_attack":
        decision = state.decision(body["npc_id"])
        pending = [a for a in decision.actions if a.status == "pending"] if decision else []
        return state.character(pending[0].target_id) if pending and pending[0].target_id else None
    return None


def check_books(before, body: dict, after) -> None:
    for p in [*after.characters, *after.npcs]:
        assert p.spent.count("action") <= 1 and len(p.spent) <= 2, (p.name, p.spent)  # Z-TURN
    actor = before.member(body.get(ACTORS.get(body["type"], ""), "")) if body["type"] in ACTORS else None
    assert actor is None or not actor.out_of_fight, (body, "an out model acted")  # Z-OUT
    aim = target_of(before, body)
    assert aim is None or not aim.out_of_fight, (body, "an out model was attacked")
    for d in after.decisions:
        npc = after.bot(d.npc_id)
        if npc is not None and npc.out_of_fight:
            assert all(a.status != "pending" for a in d.actions), (npc.name, "keeps a pending attack")


class Turns:
    """Z-INITIATIVE: whose turns each round of the fight gave."""

    def __init__(self) -> None:
        self.rounds: dict[int, list[str]] = {}
        self.able: dict[int, set[str]] = {}

    def saw(self, state) -> None:
        order = state.turn_order
        if not order.running:
            self.rounds.clear()
            self.able.clear()
            return
        able = {p.member_id for p in order.places if (m := state.member(p.member_id)) and not m.out_of_fight}
        self.able[state.round] = self.able.get(state.round, able) & able
        got = self.rounds.setdefault(state.round, [])
        if order.acting and (not got or got[-1] != order.acting):
            got.append(order.acting)

    def check(self, finished_round: int) -> None:
        got = self.rounds.get(finished_round)
        if got is None:
            return
        assert len(got) == len(set(got)), ("a repeated turn", got)
        missing = self.able.get(finished_round, set()) - set(got)
        assert not missing, ("a lost turn", missing, got)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_long_random_zone_games_keep_the_books(seed):
    rng = Random(seed)
    state = game(npcs=SHEETS[:3])
    turns, fight_rounds = Turns(), 0
    for step in range(160):
        body = command(state, rng) if step != 20 else {"type": "start_fight"}
        try:
            after, _ = run(state, body, seed=rng.randint(0, 10**6))
        except Refused:
            continue
        check_books(state, body, after)
        in_fight = after.turn_order.running and state.turn_order.running and body["type"] == "next_turn"
        if in_fight and after.round > state.round:
            turns.check(state.round)
            fight_rounds += 1
        if body["type"] in ("start_fight", "end_fight", "end_round"):
            turns = Turns()
        state = after
        turns.saw(state)
    assert state.round >= 1
