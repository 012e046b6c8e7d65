"""Storage per step (issue 11 § 3): a ten-turn game and a 2,000-step game, each played through the
games API into its own migrated SQLite file; then the bytes per step, the file's size, the export's
size, and the median time of what reads old steps: the latest state, undo to a far step,
"Go back here" (the page's form, with the log opened down to that step), export, import and the
game page.

Run: `python -m bench storage` (or `python -m bench` for every benchmark). Figures only.
"""

from __future__ import annotations

import json
import os
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

LONG_STEPS = int(os.environ.get("BENCH_LONG_STEPS", 2000))
TURNS = 10
RUNS = 15
HX = {"HX-Request": "true"}
ROSTER = [("character", {"name": "Ada"}), ("character", {"name": "Bo"}),
          ("bot", {"name": "Hunter-1", "role": "hunter"}),
          ("bot", {"name": "Sentry-1", "role": "sentry", "subject": "Vault"}),
          ("bot", {"name": "Worker-1", "role": "worker", "object": "Console"}),
          ("bot", {"name": "Patrol-1", "role": "patrol", "waypoints": ["A", "B"]})]


class Game:
    """One game played through the JSON API."""

    def __init__(self, client, name: str):
        self.client = client
        self.token = client.post("/api/games", json={"name": name, "seed": 2038}).json()["edit_token"]
        for noun, body in ROSTER:
            self.send({"type": f"add_{noun}", noun: body})
        state = self.state()
        self.characters = [c["id"] for c in state["characters"]]
        self.bots = [(b["id"], b["role"]) for b in state["bots"]]

    def send(self, command: dict, ok: bool = True) -> dict:
        r = self.client.post(f"/api/games/{self.token}/commands", json=command)
        if ok:
            r.raise_for_status()
        return r.json()

    def state(self) -> dict:
        return self.client.get(f"/api/games/{self.token}").json()

    def play_turn(self, undo: bool) -> None:
        """Phase 1: a move and a Noise (taken back when `undo`); Phase 2: every bot activates with
        the Characters out of sight; Phases 3 and 4; position checks; end of turn."""
        ada, bo = self.characters
        self.send({"type": "character_move", "character_id": bo, "entries": []})
        self.send({"type": "noise", "character_id": ada, "kind": "noise", "bot_ids": []})
        if undo:
            self.client.post(f"/api/games/{self.token}/undo", json={}).raise_for_status()
        self.send({"type": "next_phase"})
        for bot_id, role in self.bots:
            far = [{"character_id": c, "distance": 30, "line_of_sight": False} for c in self.characters]
            extra = {"sentry": {"subject_distance": 2}, "worker": {"object_distance": 2},
                     "patrol": {"waypoint_distance": 3}}.get(role, {})
            self.send({"type": "activate_bot", "bot_id": bot_id, "characters": far, **extra}, ok=False)
        self.send({"type": "next_phase"})
        self.send({"type": "next_phase"})
        for bot_id, _ in self.bots:
            self.send({"type": "position_check", "bot_id": bot_id, "passed": True}, ok=False)
        self.send({"type": "end_turn"})


def timed(fn, runs: int = RUNS) -> tuple[float, float]:
    """Median ms by the wall clock and by this process's CPU time (the app runs in this process:
    its CPU time is steadier than the wall clock when other work shares the cores)."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def ms(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.0f}"


def step_bytes(path: Path) -> tuple[int, float]:
    """Steps stored, and the mean bytes of a step row's JSON columns (whichever exist)."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        columns = [row[1] for row in db.execute("PRAGMA table_info(step)")
                   if row[1] in ("command", "entries", "state", "delta")]
        total = " + ".join(f"coalesce(length(CAST({c} AS BLOB)), 0)" for c in columns)
        count, size = db.execute(f"SELECT count(*), sum({total}) FROM step").fetchone()
    return count, size / count


def sizes(label: str, path: Path, client, game: Game) -> dict[str, str]:
    steps, row_bytes = step_bytes(path)
    size = path.stat().st_size
    export = client.get(f"/api/games/{game.token}/export").content
    return {"game": label, "steps": f"{steps:,}", "bytes/step (row)": f"{row_bytes:,.0f}",
            "DB file": f"{size / 1024:,.0f} KiB", "bytes/step (file)": f"{size / steps:,.0f}",
            "export": f"{len(export) / 1024:,.0f} KiB"}


def times(client, game: Game) -> dict[str, tuple[float, float]]:
    """Median ms (wall, CPU) of each reading; the writes (undo, go back) last, as they add steps."""
    from sqlmodel import Session, select

    from app.store import db, games
    from app.store.tables import Game as GameRow

    def latest() -> None:
        with Session(db.get_engine()) as session:
            row = session.exec(select(GameRow).where(GameRow.edit_token == game.token)).one()
            games.current_state(session, row)

    api, far = f"/api/games/{game.token}", 10  # a command step near the start: the farthest way back
    export = client.get(f"{api}/export").content
    json_body = {"Content-Type": "application/json"}
    return {
        "latest state": timed(latest),
        "API read": timed(lambda: client.get(api).raise_for_status()),
        "game page": timed(lambda: client.get(f"/g/{game.token}").raise_for_status()),
        "export time": timed(lambda: client.get(f"{api}/export").raise_for_status()),
        "import time": timed(lambda: client.post("/api/games/import", content=export,
                                                 headers=json_body).raise_for_status(), 5),
        "undo last step": timed(lambda: client.post(f"{api}/undo", json={}).raise_for_status()),
        "undo to far step": timed(lambda: client.post(f"{api}/undo", json={"to_seq": far})
                                  .raise_for_status()),
        "go back here": timed(lambda: client.post(f"/g/{game.token}/undo", data={"to_seq": far},
                                                  headers=HX).raise_for_status(), 5),
    }


def measure(label: str, build) -> dict[str, str]:
    """Play the game into a fresh SQLite file, then measure it."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
        from fastapi.testclient import TestClient

        from app.bootstrap import create_app
        from app.settings import get_settings
        from app.store import db

        get_settings.cache_clear()  # this game's file, not the previous one's
        db._engine = None
        with TestClient(create_app()) as client:
            game = build(client)
            figures = sizes(label, path, client, game)
            figures |= {f"{k} ms (wall / CPU)": f"{ms(wall)} / {ms(cpu)}"
                        for k, (wall, cpu) in times(client, game).items()}
    return figures


def ten_turns(client) -> Game:
    game = Game(client, "Ten turns")
    for turn in range(TURNS):
        game.play_turn(undo=turn % 3 == 0)
    return game


def long_game(client) -> Game:
    game = Game(client, "Long night")
    turn = 0
    while game.state()["seq"] < LONG_STEPS - 20:
        game.play_turn(undo=turn % 3 == 0)
        turn += 1
    ada = game.characters[0]
    while game.state()["seq"] < LONG_STEPS - 1:
        game.send({"type": "character_move", "character_id": ada, "entries": []})
    return game


def main() -> None:
    rows = [measure("ten turns", ten_turns), measure(f"{LONG_STEPS:,} steps", long_game)]
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for row in rows:
        print("| " + " | ".join(row[k] for k in keys) + " |")
    print(json.dumps(rows))


if __name__ == "__main__":
    main()
