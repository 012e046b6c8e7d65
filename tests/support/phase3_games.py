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

The fourth reading (docs/rules.md § 5.6) adds Phase 1 (a Character walks into a bot, another
shoots at that bot, a Black Die entered or not, no melee ticked), bots knocked down or out of
ammo, and free Reload, Stand Up, Scan and Melee Glitches, and counts:

- `free_action_without_effect`: a free Reload that leaves the bot out of ammo, a free Stand Up
  that leaves it knocked down, a free Scan of a named Character in line of sight and zone that
  adds no Marked (the bot not rebooted) (R-GLITCH-FREE-ACTS);
- `stuck_free_melee`: a second `resolve_melee` refused while the bot's free Melee waits and the
  pair is still in contact (R-GLITCH-FREE-ACTS);
- `blank_hits_intended`: a shot whose Black Die shows Blank at a model in a known melee that
  damages the intended target though another eligible model there has more Health (R-CMB-BLACK-KNOWN).

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
        a.counts["second bouts"] += key in before.engaged
        a.settled.add(key)
        pushed = any("push" in e.text.lower() for e in entries)
        if not command.get("in_contact", True) or pushed:
            a.apart.add(key)
        bot = before.bot(command["bot_id"])
        if any(e.text.startswith(f"{bot.name} attacks") for e in entries):
            a.attacks[bot.id] += 1
    if before.phase == 3 and kind == "resolve_fallback" and command.get("done", True):
        decision = before.decision(command["bot_id"])
        action = next((x for x in (decision.actions if decision else []) if x.slot == command["slot"]), None)
        if action is not None and action.action == "melee" and action.target_id:  # fought on the table
            a.settled.add(f"{command['bot_id']}:{action.target_id}")
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


def known_melee(state: GameState, model_id: str, apart: set[str]) -> list[str]:
    """The other models linked to `model_id` by known base contacts (the audit's own reading)."""
    def moved(bot_id: str) -> bool:  # after a move its earlier contacts are unknown (R-ACT-FACTS)
        d = state.decision(bot_id)
        return d is not None and any(x.family == "maneuver" and (x.move or 0) > 0 for x in d.actions)
    reported = [tuple(k.split(":")) for k in state.contacts_reported]
    pairs = [(b, c) for b, c in reported if not moved(b)] + contacts(state)
    pairs = [(b, c) for b, c in pairs if f"{b}:{c}" not in apart and f"{b}:{c}" not in state.separated]
    found, todo = {model_id}, [model_id]
    while todo:
        here = todo.pop()
        for b, c in pairs:
            for this, other in ((b, c), (c, b)):
                if this == here and other not in found:
                    found.add(other)
                    todo.append(other)
    return [i for i in found if i != model_id]


def _health(state: GameState, model_id: str) -> int:
    model = state.bot(model_id) or state.character(model_id)
    return model.health if model is not None else 0


def audit_blank(before: GameState, after: GameState, command: dict, entries: list, a: Audit) -> None:
    """R-CMB-BLACK-KNOWN: a Blank never damages the intended target unless it has the highest Health."""
    kind = command["type"]
    target = command.get("target_id") if kind == "character_shoot" else command.get("character_id")
    shooter = command.get("character_id") if kind == "character_shoot" else command.get("bot_id")
    if kind not in ("character_shoot", "bot_shoot") or target is None:
        return
    blank = any(e.rule == "R-CMB-TARGET" and "shows Blank" in e.text for e in entries)
    others = [i for i in known_melee(before, target, a.apart) if i != shooter and _health(before, i) > 0]
    a.counts["known melee shots"] += bool(others)
    if blank and others and max(_health(before, i) for i in others) > _health(before, target) \
            and _health(after, target) < _health(before, target):
        a.counts["blank_hits_intended"] += 1
    if others and not any(e.rule == "R-CMB-TARGET" for e in entries) and command.get("line_of_sight", True) \
            and command.get("in_range", True):
        a.counts["unchecked_black_die"] += 1


def audit_free(before: GameState, after: GameState, command: dict, a: Audit) -> None:
    """R-GLITCH-FREE-ACTS: the free action leaves the state it names."""
    if command["type"] != "record_glitch" or command.get("result") != "free_action":
        return
    bot = after.bot(command["bot_id"])
    decision = before.decision(command["bot_id"])
    if bot is None or bot.rebooted or (decision is not None and decision.rebooted):
        return
    action = command.get("action")
    was = before.bot(bot.id)
    a.counts["free effects"] += bool(was and ((action == "reload" and was.out_of_ammo and not bot.out_of_ammo)
                                              or (action == "stand_up" and was.knocked_down)))
    character = after.character(command.get("character_id") or "")
    scanned = (action == "scan" and character is not None and character.health > 0
               and command.get("line_of_sight") and command.get("in_zone")
               and character.marked <= (before.character(character.id) or character).marked)
    armed = bot.shoot_range is not None and sum(bot.shoot.values()) > 0
    if (action == "reload" and armed and bot.out_of_ammo) or (action == "stand_up" and bot.knocked_down) or scanned:
        a.counts["free_action_without_effect"] += 1


def audit_refusal(before: GameState, command: dict, a: Audit) -> None:
    """R-GLITCH-FREE-ACTS: a free Melee waiting on a pair still in contact is never refused."""
    if before.phase != 3 or command["type"] != "resolve_melee" or command.get("attacker") == "character":
        return
    key = f"{command['bot_id']}:{command['character_id']}"
    bot, character = before.bot(command["bot_id"]), before.character(command["character_id"])
    free = [x for b, x in before.pending_actions() if b == command["bot_id"] and x.free and x.action == "melee"]
    waiting = key in before.engaged and key not in before.separated and free and not bot.rebooted
    decision = before.decision(bot.id)
    if waiting and character.health > 0 and bot.health > 0 and not (decision and decision.rebooted):
        a.counts["stuck_free_melee"] += 1


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
            audit_refusal(self.state, command, self.audit)
            return False
        audit(self.state, after, command, entries, self.audit)
        audit_blank(self.state, after, command, entries, self.audit)
        audit_free(self.state, after, command, self.audit)
        if self.state.phase == 3:
            self.audit.counts[f"accepted {command['type']}"] += 1
        self.state = after
        return True

    def turn(self) -> None:
        self.audit.new_turn()
        r = self.rng
        self.phase1()
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

    def phase1(self) -> None:
        """Ben walks into a bot; Ada shoots at it (no melee ticked, a Black Die entered or not);
        a bot is knocked down or emptied, then a free Glitch action acts on it."""
        r = self.rng
        bot = r.choice(BOTS).id
        if r.random() < 0.5:
            self.send({"type": "character_contact", "character_id": "ben", "bot_id": bot})
        if r.random() < 0.6:
            shot = {"type": "character_shoot", "character_id": "ada", "target_id": r.choice([bot, bot, "gun"])}
            if r.random() < 0.7:
                shot["black_die"] = r.choice(["blank", "success"])
            self.send(shot)
        if r.random() < 0.3:
            self.send({"type": "adjust", "target_id": bot, r.choice(["knocked_down", "out_of_ammo"]): True})
        if r.random() < 0.3:
            self.send({"type": "record_glitch", "bot_id": bot, "result": "free_action",
                       "action": r.choice(["reload", "stand_up", "scan"]), "character_id": r.choice(CHARACTERS).id,
                       "line_of_sight": r.random() < 0.8, "in_zone": r.random() < 0.8})

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
        if r.random() < 0.25:  # a free attack from a Glitch in Phase 3
            self.send({"type": "record_glitch", "bot_id": r.choice(BOTS).id, "result": "free_action",
                       "action": r.choice(["shoot", "melee", "melee", "walk"])})
        for _ in range(r.randint(2, 9)):
            self.send(self.phase3_command())

    def phase3_command(self) -> dict:
        r, state = self.rng, self.state
        pairs = contacts(state) or [(b.id, c.id) for b in BOTS for c in CHARACTERS]
        free = {b for b, x in state.pending_actions() if x.free and x.action == "melee"}
        again = [(b, c) for b, c in pairs if b in free and f"{b}:{c}" in state.engaged
                 and f"{b}:{c}" not in state.separated]
        if again and r.random() < 0.8:  # a free Melee: the pair that already fought, again
            bot_id, character_id = r.choice(again)
            return {"type": "resolve_melee", "bot_id": bot_id, "character_id": character_id}
        roll = r.random()
        if roll < 0.45:
            bot_id, character_id = r.choice(pairs)
            command = {"type": "resolve_melee", "bot_id": bot_id, "character_id": character_id,
                       "in_contact": r.random() < 0.85, "counter_attack": r.random() < 0.1}
            if r.random() < 0.15:
                command["attacker"] = r.choice(["npc", "character"])
            if r.random() < 0.3:  # dice by hand: the AI-Bot's attack defended, both still in contact
                command["rolls"] = {"npc": {"hits": 0}, "character": {"hits": 1}}
            return command
        if roll < 0.8:
            shooters = [b for b, a in state.pending_actions() if a.action == "shoot"] or ["hunter", "gun", "pat"]
            bot_id = r.choice(shooters)
            planned = next((a.target_id for b, a in state.pending_actions() if b == bot_id and a.target_id), None)
            target = planned if planned and r.random() < 0.6 else r.choice(CHARACTERS).id
            melee_with = [b for b, c in contacts(state) if c == target and b != bot_id]
            command = {"type": "bot_shoot", "bot_id": bot_id, "character_id": target,
                       "line_of_sight": r.random() < 0.9, "in_range": r.random() < 0.9,
                       "melee_with": melee_with if r.random() < 0.5 else []}
            if r.random() < 0.4:
                command["black_die"] = "blank"
            return command
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
