"""Games played by the rules engines alone (no database), for the battle report's tests: a log
of `Logged` steps as the store would give them, undos included, made from a list of choices (a
hypothesis strategy draws them). Each choice picks a command template of its ruleset and the
models it names; a command the rules refuse is skipped, as a player's refused tap leaves no step."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from app import rulesets
from app.kernel.commands import Refused
from app.report.build import Logged, live_steps
from app.store.game_commands import step_rng

START = datetime(2026, 11, 20, 19, 0, tzinfo=UTC)


def _2038(state: Any, pick: int) -> dict:
    chars, bots = [c.id for c in state.characters], [b.id for b in state.bots]
    c, b = chars[pick % len(chars)], bots[pick % len(bots)]
    seen = [{"character_id": x, "distance": 1 + 2 * i, "line_of_sight": True, "base_contact": i == pick % 2}
            for i, x in enumerate(chars)]
    options = [
        {"type": "noise", "character_id": c, "kind": "noise" if pick % 3 else "alarm", "bot_ids": [b]},
        {"type": "character_shoot", "character_id": c, "target_id": b},
        {"type": "next_phase"},
        {"type": "record_event", "title": f"Event {pick}", "danger": pick % 3},
        {"type": "activate_bot", "bot_id": b, "characters": seen, "subject_distance": 2, "object_distance": 2,
         "waypoint_distance": 3},
        {"type": "resolve_melee", "bot_id": b, "character_id": c},
        {"type": "bot_shoot", "bot_id": b, "character_id": c, "line_of_sight": True, "in_range": True},
        {"type": "position_check", "bot_id": b, "passed": pick % 2 == 0},
        {"type": "end_turn"},
        {"type": "report_note", "turn": state.turn, "text": f"note {pick}"},
    ]
    return options[pick % len(options)]


def _zone(state: Any, pick: int) -> dict:
    chars, npcs = [c.id for c in state.characters], [n.id for n in state.npcs]
    c, n = chars[pick % len(chars)], npcs[pick % len(npcs)]
    bands = ["arms_length", "near", "short"]
    facts = {"seen": [{"character_id": x, "band": bands[(pick + i) % 3]} for i, x in enumerate(chars)],
             "subject_band": "near", "object_band": "near", "waypoint_band": "short"}
    options = [
        {"type": "activate_npc", "npc_id": n, "facts": facts},
        {"type": "npc_attack", "npc_id": n},
        {"type": "character_attack", "character_id": c, "npc_id": n, "weapon": pick % 2},
        {"type": "push_roll", "character_id": c},
        {"type": "end_round"},
        {"type": "report_note", "turn": state.round, "text": f"note {pick}"},
    ]
    return options[pick % len(options)]


def _d20(state: Any, pick: int) -> dict:
    chars, npcs = [c.id for c in state.characters], [n.id for n in state.npcs]
    c, n = chars[pick % len(chars)], npcs[pick % len(npcs)]
    seen = [{"character_id": x, "distance": 1 + 4 * i, "line_of_sight": True} for i, x in enumerate(chars)]
    options = [
        {"type": "npc_turn", "npc_id": n, "seen": seen, "subject_distance": 1, "object_distance": 1,
         "waypoint_distance": 2},
        {"type": "attack", "attacker_id": n, "target_id": c},
        {"type": "attack", "attacker_id": c, "target_id": n},
        {"type": "end_round"},
        {"type": "report_note", "turn": state.round, "text": f"note {pick}"},
    ]
    return options[pick % len(options)]


TEMPLATES = {"potham-2038": _2038, "zone": _zone, "d20": _d20}


def play(ruleset_id: str, choices: list[tuple[int, int]], seed: int = 5) -> list[Logged]:
    """The sample roster, then one step per choice (kind, pick): kind 0 an undo of the latest
    step (or back to the step `pick` names), else the template `pick` chooses."""
    ruleset = rulesets.get(ruleset_id)
    state = ruleset.new_state()
    log = [Logged(0, "create", {"type": "create"}, [], state.model_dump(mode="json"), START)]
    kept: dict[int, Any] = {0: state}
    for command in ruleset.sample:
        state = _apply(ruleset, log, kept, state, command, seed)
    for kind, pick in choices:
        if kind == 0:
            state = _undo(log, kept, state, pick)
        else:
            state = _apply(ruleset, log, kept, state, _command(ruleset, state, pick), seed)
    return log


def _command(ruleset, state: Any, pick: int) -> dict:
    """A template's command, or (when an undo took a whole side away) a model of the sample again."""
    others = getattr(state, "bots", None) if ruleset.id == "potham-2038" else state.npcs
    if not state.characters or not others:
        return ruleset.sample[pick % len(ruleset.sample)]
    return TEMPLATES[ruleset.id](state, pick)


def _apply(ruleset, log: list[Logged], kept: dict[int, Any], state: Any, command: dict, seed: int) -> Any:
    seq = log[-1].seq + 1
    name, body = ruleset.parse(command)
    try:
        state, entries = ruleset.apply(state, name, body, step_rng(seed, seq))
    except Refused:
        return state
    log.append(Logged(seq, name, command, [e.as_dict() for e in entries], state.model_dump(mode="json"),
                      START + timedelta(minutes=seq)))
    kept[seq] = state
    return state


def _undo(log: list[Logged], kept: dict[int, Any], state: Any, pick: int) -> Any:
    """Back one step (pick even) or to an earlier step that is not an undo (pick odd)."""
    targets = [s.seq for s in log if s.kind != "undo" and s.seq < log[-1].seq]
    live = live_steps(log)
    if not targets or len(live) < 2:
        return state
    to = live[-2].seq if pick % 2 == 0 else targets[pick % len(targets)]
    seq = log[-1].seq + 1
    log.append(Logged(seq, "undo", {"type": "undo", "to_seq": to}, [{"text": "Undo.", "rule": None, "dice": None}],
                      log[[s.seq for s in log].index(to)].state, START + timedelta(minutes=seq)))
    return kept[to]


def six_turns(client, name: str = "Night shift at the depot") -> dict:
    """A Potham 2038 game of six turns played through the JSON API on the sample roster (the
    closing note's example): Noise, an Event, every AI-Bot's activation, the melees and shots it
    decided, the position checks and the end of the turn; a note on turns 1 and 4, a title, and
    one command taken back by Undo. A command the rules refuse (a fallen model) is skipped."""
    game = client.post("/api/games", json={"name": name, "seed": 2038}).json()
    token = game["edit_token"]
    send = f"/api/games/{token}/commands"
    for command in rulesets.get("potham-2038").sample:
        if command["type"] == "add_character":  # tougher than the sample's, so they last six turns
            command = {**command, "character": {**command["character"], "health": 8, "max_health": 8}}
        client.post(send, json=command).raise_for_status()
    state = client.get(f"/api/games/{token}").json()
    chars, bots = [c["id"] for c in state["characters"]], [b["id"] for b in state["bots"]]
    for turn in range(1, 7):
        near = chars[turn % 2]
        seen = [{"character_id": c, "distance": 1 if c == near else 7, "line_of_sight": True,
                 "base_contact": c == near} for c in chars]
        plan = [{"type": "noise", "character_id": near, "kind": "noise", "bot_ids": bots[:1]},
                {"type": "character_shoot", "character_id": chars[(turn + 1) % 2], "target_id": bots[turn % 4]},
                {"type": "next_phase"},
                {"type": "record_event", "title": ["Sirens", "Blackout", "Patrol change", "Rain", "Alarm test",
                                                   "Dawn"][turn - 1], "danger": 1 if turn % 2 else 0},
                *[{"type": "activate_bot", "bot_id": b, "characters": seen, "subject_distance": 2,
                   "object_distance": 2, "waypoint_distance": 3} for b in bots],
                {"type": "next_phase"}]
        for command in plan:
            if turn == 2 and command["type"] == "next_phase":  # a shot taken back: never in the report
                shot = client.post(send, json={"type": "character_shoot", "character_id": chars[0],
                                               "target_id": bots[1]})
                if shot.status_code == 200:
                    client.post(f"/api/games/{token}/undo", json={})
            client.post(send, json=command)
        for bot_id in dict.fromkeys((bots[0], bots[turn % 4])):  # two melees a turn; the other decided ones stay unresolved
            client.post(send, json={"type": "resolve_melee", "bot_id": bot_id, "character_id": near})
        for bot_id in bots:
            client.post(send, json={"type": "bot_shoot", "bot_id": bot_id, "character_id": chars[turn % 2],
                                    "line_of_sight": True, "in_range": True})
        client.post(send, json={"type": "next_phase"})
        for bot_id in bots:
            client.post(send, json={"type": "position_check", "bot_id": bot_id, "passed": turn != 3})
        if turn in (1, 4):
            client.post(send, json={"type": "report_note", "turn": turn,
                                    "text": "Vex drew them all in." if turn == 1 else "Rook's luck ran out."})
        client.post(send, json={"type": "end_turn"})
    client.post(send, json={"type": "report_title", "title": "Six turns at the depot"})
    return game
