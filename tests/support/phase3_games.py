"""Whole turns played through the rules engine by a careless player, and an audit of Phase 3.

`play_turns(count, seed)` plays `count` turns (games of ten turns, restarted when one ends) the
way a player taps: every bot activated on random board facts (base contact with one or two
Characters, line of sight, distances, sometimes a tie choice), a Glitch now and then (a Reboot,
a free Shoot or Walk), then Phase 3's commands in any order (melees, shots at the planned target
or another, re-decisions, skips), then Phase 4. It counts what the engine ACCEPTED that the
readings of Phase 3 forbid (docs/rules.md § Phase 3, third reading):

- `early_shots`: an AI-Bot shot while a known engagement, decided or not, was neither fought nor
  separated (R-CMB-GANGUP);
- `double_attacks`: a bot that attacked more often in a turn than its one Attack action and its
  free Glitch attacks allow (R-CMB-GANGUP, R-CMB-NOACTION);
- `phase3_moves`: a movement made in Phase 3 (a re-decided Walk, a free Glitch move "taken now")
  (R-PHASE-MOVE); `phase3_fallback_walks` counts the re-decided Walks among them;
- `unchecked_shots`: a shot at a Character the engine knew to be in a melee, resolved without
  the Black Die target check, or at a Character out of action (R-CMB-TARGET-FACTS).

The checks read only the commands, the states and the log, so the same audit runs on an older
engine (for the before/after figures: `python -m tests.support.phase3_games 20000`).
"""

from __future__ import annotations

import sys
from collections import Counter
from random import Random

from pydantic import ValidationError

from app.kernel.commands import Refused
from app.rulesets.potham2038 import engine
from app.rulesets.potham2038.house_rules import HouseRules
from app.rulesets.potham2038.models import Bot, Character, GameState

CHARACTERS = [
    Character(id="ada", name="Ada", points=45, health=4, max_health=4, melee={"red": 2}, shoot={"red": 2},
              defense={"white": 2}),
    Character(id="ben", name="Ben", points=30, health=4, max_health=4, melee={"red": 1}, defense={"white": 1}),
]
BOTS = [
    Bot(id="hunter", name="Warden", role="hunter", points=60, health=4, max_health=4, melee={"red": 3},
        defense={"white": 2}, shoot={"red": 2}, shoot_range=18),
    Bot(id="gun", name="Gunner", role="sentry", points=40, subject="Vault", melee={"red": 1},
        defense={"white": 1}, shoot={"red": 2}, shoot_range=18),
    Bot(id="mole", name="Mole", role="worker", points=30, object="Console", melee={"red": 1},
        defense={"white": 1}),
    Bot(id="pat", name="Pat", role="patrol", points=40, waypoints=["A", "B", "C"], melee={"red": 2},
        defense={"white": 2}, shoot={"red": 1}, shoot_range=12),
]
HAS_TIE_CHOICE = "tie_choice" in type(engine.parse({"type": "activate_bot", "bot_id": "x"})[1]).model_fields


def start() -> GameState:
    return GameState(characters=CHARACTERS, bots=BOTS, house=HouseRules(danger_limit=20))


class Audit:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.settled: set[str] = set()  # pairs fought or reported apart this Phase 3
        self.apart: set[str] = set()  # pairs no longer in base contact
        self.attacks: Counter[str] = Counter()  # bot id -> attacks this turn

    def new_turn(self) -> None:
        self.settled, self.apart, self.attacks = set(), set(), Counter()


def contacts(state: GameState) -> list[tuple[str, str]]:
    """Known base contacts this turn: decided Melees, and contacts reported to a bot that did not move."""
    pairs = []
    for d in state.decisions:
        bot = state.bot(d.bot_id)
        if bot is None or bot.health <= 0:
            continue
        moved = any(a.family == "maneuver" and (a.move or 0) > 0 for a in d.actions)
        ids = [a.target_id for a in d.actions if a.action == "melee" and a.target_id and not a.free]
        ids += [] if moved else [s.character_id for s in d.seen if s.base_contact]
        for cid in dict.fromkeys(ids):
            c = state.character(cid)
            if c is not None and c.health > 0:
                pairs.append((bot.id, cid))
    return pairs


def free_attacks(state: GameState, bot_id: str) -> int:
    d = state.decision(bot_id)
    return sum(1 for a in (d.actions if d else []) if a.free and a.action in ("melee", "shoot"))


def audit(before: GameState, after: GameState, command: dict, entries: list, a: Audit) -> None:
    kind = command["type"]
    if before.phase == 3 and kind == "resolve_melee":
        key = f"{command['bot_id']}:{command['character_id']}"
        a.settled.add(key)
        pushed = any("push" in e.text.lower() for e in entries)
        if not command.get("in_contact", True) or pushed:
            a.apart.add(key)
        bot = before.bot(command["bot_id"])
        if any(e.text.startswith(f"{bot.name} attacks") for e in entries):
            a.attacks[bot.id] += 1
    if before.phase == 3 and kind == "bot_shoot":
        shooter, target = command["bot_id"], command["character_id"]
        known = contacts(before)
        if any(f"{b}:{c}" not in a.settled for b, c in known):
            a.counts["early_shots"] += 1
        in_melee = [b for b, c in known if c == target and b != shooter and f"{b}:{c}" not in a.apart]
        target_out = (before.character(target) or CHARACTERS[0]).health <= 0
        if target_out or (in_melee and not any(e.rule == "R-CMB-TARGET" for e in entries)):
            a.counts["unchecked_shots"] += 1
        a.attacks[shooter] += 1
    for bot_id, n in a.attacks.items():
        allowed = 1 + max(free_attacks(before, bot_id), free_attacks(after, bot_id))
        if n > allowed:
            a.counts["double_attacks"] += 1
            a.attacks[bot_id] = allowed  # count each extra attack once
    if before.phase == 3 and _moved_now(before, after, entries):
        a.counts["phase3_moves"] += 1
        if kind == "redecide":
            a.counts["phase3_fallback_walks"] += 1


def _moved_now(before: GameState, after: GameState, entries: list) -> bool:
    old = {(d.bot_id, x.slot, x.action, x.status) for d in before.decisions for x in d.actions}
    new = [x for d in after.decisions for x in d.actions if (d.bot_id, x.slot, x.action, x.status) not in old]
    moved = any(x.family == "maneuver" and (x.move or 0) > 0 for x in new)
    return moved or any("takes it now" in e.text and any(w in e.text for w in (" walk", " run")) for e in entries)


class Player:
    def __init__(self, seed: int) -> None:
        self.rng = Random(seed)
        self.state = start()
        self.audit = Audit()
        self.step = 0

    def send(self, command: dict) -> bool:
        self.step += 1
        try:
            name, body = engine.parse(command)
            after, entries = engine.apply(self.state, name, body, Random(self.step))
        except (Refused, ValidationError):
            return False
        audit(self.state, after, command, entries, self.audit)
        if self.state.phase == 3:
            self.audit.counts[f"accepted {command['type']}"] += 1
        self.state = after
        return True

    def turn(self) -> None:
        self.audit.new_turn()
        r = self.rng
        self.send({"type": "next_phase"})
        for bot in self.state.bots:
            if r.random() < 0.05:
                self.send({"type": "record_glitch", "bot_id": bot.id, "result": "reboot"})
            if bot.health > 0 and r.random() < 0.93:
                self.activate(bot)
        self.send({"type": "next_phase"})
        self.phase3()
        self.send({"type": "next_phase"})
        for bot in self.state.bots:
            self.send({"type": "position_check", "bot_id": bot.id, "passed": r.random() < 0.8, "glitch_roll": 1})
        if r.random() < 0.1:  # a Phase 4 Glitch granting a free Shoot or Walk
            bot = r.choice(self.state.bots)
            self.send({"type": "record_glitch", "bot_id": bot.id, "result": "free_action",
                       "action": r.choice(["shoot", "walk"])})
        self.send({"type": "end_turn"})

    def activate(self, bot: Bot) -> None:
        r, seen = self.rng, []
        alive = [c for c in self.state.characters if c.health > 0]
        touching = r.random() < 0.45
        for c in alive:
            contact = touching and r.random() < 0.7
            seen.append({"character_id": c.id, "distance": 0 if contact else round(r.uniform(0.5, 16), 1),
                         "line_of_sight": r.random() < 0.7, "base_contact": contact})
        command = {"type": "activate_bot", "bot_id": bot.id, "characters": seen,
                   "subject_distance": round(r.uniform(0, 8), 1), "object_distance": round(r.uniform(0, 8), 1),
                   "waypoint_distance": r.choice([0, 2.0, 3.5, 6.0]), "next_waypoint_distance": 5.0}
        if HAS_TIE_CHOICE and alive and r.random() < 0.3:
            command["tie_choice"] = r.choice(alive).id
        self.send(command)

    def phase3(self) -> None:
        r = self.rng
        if r.random() < 0.1:  # a free attack from a Glitch in Phase 3
            self.send({"type": "record_glitch", "bot_id": r.choice(BOTS).id, "result": "free_action",
                       "action": r.choice(["shoot", "melee", "walk"])})
        for _ in range(r.randint(2, 9)):
            self.send(self.phase3_command())

    def phase3_command(self) -> dict:
        r, state = self.rng, self.state
        pairs = contacts(state) or [(b.id, c.id) for b in BOTS for c in CHARACTERS]
        roll = r.random()
        if roll < 0.45:
            bot_id, character_id = r.choice(pairs)
            command = {"type": "resolve_melee", "bot_id": bot_id, "character_id": character_id,
                       "in_contact": r.random() < 0.85, "counter_attack": r.random() < 0.1}
            if r.random() < 0.15:
                command["attacker"] = r.choice(["npc", "character"])
            return command
        if roll < 0.8:
            shooters = [b for b, a in state.pending_actions() if a.action == "shoot"] or ["hunter", "gun", "pat"]
            bot_id = r.choice(shooters)
            planned = next((a.target_id for b, a in state.pending_actions() if b == bot_id and a.target_id), None)
            target = planned if planned and r.random() < 0.6 else r.choice(CHARACTERS).id
            melee_with = [b for b, c in contacts(state) if c == target and b != bot_id]
            return {"type": "bot_shoot", "bot_id": bot_id, "character_id": target,
                    "line_of_sight": r.random() < 0.9, "in_range": r.random() < 0.9,
                    "melee_with": melee_with if r.random() < 0.5 else []}
        if roll < 0.93:
            return {"type": "redecide", "bot_id": r.choice(BOTS).id, "slot": r.choice([1, 2]),
                    "action": r.choice(["scan", "reload", "fallback", "fallback"]),
                    "character_id": r.choice(CHARACTERS).id, "line_of_sight": True, "in_zone": True}
        return {"type": "resolve_fallback", "bot_id": r.choice(BOTS).id, "slot": r.choice([1, 2]),
                "done": r.random() < 0.5}


def play_turns(count: int, seed: int = 0, turns_per_game: int = 10) -> Counter[str]:
    """Audit `count` whole turns; games restart every `turns_per_game` turns or when one ends."""
    total: Counter[str] = Counter()
    player = Player(seed)
    for n in range(count):
        if n % turns_per_game == 0 or player.state.status != "playing":
            total.update(player.audit.counts)
            player = Player(seed * 1_000_003 + n)
        player.turn()
        total["turns"] += 1
    total.update(player.audit.counts)
    return total


if __name__ == "__main__":
    turns = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    print(dict(sorted(play_turns(turns).items())))
