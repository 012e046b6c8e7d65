"""Game page speed with a long log: a real migrated SQLite file, a roster of six models and
STEPS logged commands; median and worst time of the full page, each panel and one command.

Run: `python -m bench pages` (or `python -m bench` for every benchmark).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

STEPS = 1000
RUNS = 30


ROLES = ("hunter", "sentry", "worker", "patrol")
ASSIGNMENT = {"subject": "Vault", "object": "Console", "waypoints": ["A", "B"]}


def noise(character_id: str) -> dict:
    return {"type": "noise", "character_id": character_id, "kind": "noise", "bot_ids": []}


def build(client) -> tuple[str, str]:
    token = client.post("/api/games", json={"name": "Bench night"}).json()["edit_token"]
    send = f"/api/games/{token}/commands"
    for name in ("Ada", "Bo"):
        client.post(send, json={"type": "add_character", "character": {"name": name}}).raise_for_status()
    for role in ROLES:
        bot = {"name": f"{role}-1", "role": role, **ASSIGNMENT}
        client.post(send, json={"type": "add_bot", "bot": bot}).raise_for_status()
    ada = client.get(f"/api/games/{token}").json()["characters"][0]["id"]
    for _ in range(STEPS):  # Noise may be recorded in any phase: a cheap way to grow the log
        client.post(send, json=noise(ada)).raise_for_status()
    return token, ada


def timed(fn, runs: int = RUNS) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'bench.db'}"
        from fastapi.testclient import TestClient

        from app.main import create_app
        from app.web.panels import PANELS

        with TestClient(create_app()) as client:
            token, ada = build(client)
            print(f"game with {STEPS + 6} steps, 2 Characters and 4 AI-Bots (in-process, SQLite file)")
            pages = {"full page": f"/g/{token}", "watch page": f"/v/{token}"}
            pages |= {f"panel {name}": f"/g/{token}/panels/{name}" for name in PANELS}
            for label, url in pages.items():
                median, worst = timed(lambda url=url: client.get(url).raise_for_status())
                print(f"{label:>16}: median {median:6.1f} ms, worst {worst:6.1f} ms")
            send = f"/api/games/{token}/commands"
            median, worst = timed(lambda: client.post(send, json=noise(ada)).raise_for_status())
            print(f"{'one command':>16}: median {median:6.1f} ms, worst {worst:6.1f} ms")


if __name__ == "__main__":
    main()
