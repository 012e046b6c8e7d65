"""The battle report of the 1,000-step benchmark game (pages_bench's: six models, 1,000 Noise
steps, on a migrated SQLite file), through the test client: the page, its JSON, its Markdown and
its PNG card, each made fresh (the per-step cache emptied before each run) and then as kept for
the step. Goals (issue "battle report"): the report in <= 200 ms and the card in <= 300 ms of
server CPU. Reported, never asserted (a test asserts no time).

Each line: wall clock median and worst, the process's CPU, and the server's CPU (the process's
but this thread's, the test client's: pages_bench.timed). Also a six-turn game with attacks
(tests/support/report_games.six_turns), whose narrative has more to say per step.

Run: `python -m bench report`."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from bench.pages_bench import build, show, timed

RUNS = 15


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["DATABASE_URL"] = f"sqlite:///{Path(tmp) / 'bench.db'}"
        from fastapi.testclient import TestClient

        from app.bootstrap import create_app
        from app.report import source
        from tests.support.report_games import six_turns

        fresh = source.clear  # the per-step cache emptied: each run makes everything again

        with TestClient(create_app()) as client:
            token, _, _ = build(client)
            six = six_turns(client)["edit_token"]
            for label, game in (("1,000-step game", token), ("six-turn game", six)):
                seq = client.get(f"/api/games/{game}").json()["seq"]
                print(f"{label}: {seq} steps", flush=True)
                urls = (("page", f"/g/{game}/report"), ("JSON", f"/api/games/{game}/report"),
                        ("Markdown", f"/g/{game}/report.md"), ("PNG card", f"/g/{game}/report.png"))
                for what, url in urls:
                    get = lambda url=url: client.get(url).raise_for_status()  # noqa: E731
                    show(f"{what}, fresh", timed(get, RUNS, before=fresh))
                    show(f"{what}, kept", timed(get, RUNS))


if __name__ == "__main__":
    main()
