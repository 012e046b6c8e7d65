"""Game page speed with a long log: a real migrated SQLite file, a roster of six models and
STEPS logged commands; median and worst time of the full page, each panel and one command, and
the whole cost of one step seen by four open pages (issue 21).

Each line gives the wall clock's median and worst and the median CPU time of this process (the
app runs in-process through the test client, whose own work is counted too; CPU time is steadier
than the wall clock on a shared machine). The first line is the floor: a bare FastAPI endpoint
through the same client.

- `panel NAME`: the same panel asked again and again (no step in between);
- `NAME after a step`: the panel's first render after a new step (the step itself not timed):
  what a page asks for when the step arrives;
- `size, KB`: what each page and panel sends on the play link (the watch page on the watch link);
- `one step, 4 pages`: one command, then what four open pages (two on the play link, two on the
  watch link) ask for when it arrives, as static/live.js does: their step panels in one request
  each (`panels?names=…&after=…`).

Run: `python -m bench pages` (or `python -m bench` for every benchmark).
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

STEPS = 1000
RUNS = 30


ROLES = ("hunter", "sentry", "worker", "patrol")
# each role's own assignment (a field of another role's is refused)
ASSIGNMENT = {"hunter": {}, "sentry": {"subject": "Vault"}, "worker": {"object": "Console"},
              "patrol": {"waypoints": ["A", "B"]}}
LIVE_PANELS = "status,turn,roster,log"  # what a page refreshes on a step (the share panel waits for `links`)


def noise(character_id: str) -> dict:
    return {"type": "noise", "character_id": character_id, "kind": "noise", "bot_ids": []}


def build(client) -> tuple[str, str, str]:
    created = client.post("/api/games", json={"name": "Bench night"}).json()
    token = created["edit_token"]
    send = f"/api/games/{token}/commands"
    for name in ("Ada", "Bo"):
        client.post(send, json={"type": "add_character", "character": {"name": name}}).raise_for_status()
    for role in ROLES:
        bot = {"name": f"{role}-1", "role": role, **ASSIGNMENT[role]}
        client.post(send, json={"type": "add_bot", "bot": bot}).raise_for_status()
    ada = client.get(f"/api/games/{token}").json()["characters"][0]["id"]
    for _ in range(STEPS):  # Noise may be recorded in any phase: a cheap way to grow the log
        client.post(send, json=noise(ada)).raise_for_status()
    return token, created["view_token"], ada


def timed(fn: Callable[[], None], runs: int = RUNS, before: Callable[[], None] | None = None
          ) -> tuple[float, float, float, float]:
    """Median and worst wall clock, median CPU time and median server CPU time (ms) of `fn`;
    `before` runs untimed first. The server's: the process's CPU time but this thread's, the
    test client's (the app runs on the client's event loop thread and its worker threads)."""
    walls, cpus, servers = [], [], []
    for _ in range(runs):
        if before is not None:
            before()
        start, cpu, mine = time.perf_counter(), time.process_time(), time.thread_time()
        fn()
        mine = time.thread_time() - mine
        cpus.append((time.process_time() - cpu) * 1000)
        servers.append(cpus[-1] - mine * 1000)
        walls.append((time.perf_counter() - start) * 1000)
    return statistics.median(walls), max(walls), statistics.median(cpus), statistics.median(servers)


def show(label: str, figures: tuple[float, float, float, float]) -> None:
    median, worst, cpu, server = figures
    print(f"{label:>26}: median {median:6.1f} ms, worst {worst:6.1f} ms, CPU {cpu:6.1f} ms, "
          f"server CPU {server:5.2f} ms", flush=True)


def floor(client) -> tuple[float, float, float]:
    """A bare endpoint on the same stack and client: what no route can go below here."""
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    bare = FastAPI()
    bare.get("/bare")(lambda: {"ok": True})
    with TestClient(bare) as bare_client:
        return timed(lambda: bare_client.get("/bare").raise_for_status())


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'bench.db'}"
        from fastapi.testclient import TestClient

        from app.bootstrap import create_app
        from app.web.panels import PANELS

        with TestClient(create_app()) as client:
            token, view, ada = build(client)
            send = f"/api/games/{token}/commands"

            def step() -> None:
                client.post(send, json=noise(ada)).raise_for_status()

            print(f"game with {STEPS + 6} steps, 2 Characters and 4 AI-Bots (in-process, SQLite file)")
            show("bare endpoint (floor)", floor(client))
            pages = {"full page": f"/g/{token}", "watch page": f"/v/{token}"}
            pages |= {f"panel {name}": f"/g/{token}/panels/{name}" for name in PANELS}
            for label, url in pages.items():
                show(label, timed(lambda url=url: client.get(url).raise_for_status()))
            sizes = {label: len(client.get(url).content) / 1024 for label, url in pages.items()}
            print("size, KB: " + ", ".join(f"{label} {kb:.1f}" for label, kb in sizes.items()), flush=True)
            for name in LIVE_PANELS.split(","):
                url = f"/g/{token}/panels/{name}"
                fetch = lambda url=url: client.get(url).raise_for_status()  # noqa: E731
                show(f"{name} after a step", timed(fetch, before=step))
            show("one command", timed(step))

            def four_pages() -> None:
                seq = client.post(send, json=noise(ada)).json()["seq"]
                for link in (f"/g/{token}", f"/g/{token}", f"/v/{view}", f"/v/{view}"):
                    client.get(f"{link}/panels", params={"names": LIVE_PANELS, "after": seq - 1}
                               ).raise_for_status()

            show("one step, 4 pages", timed(four_pages))


if __name__ == "__main__":
    main()
