"""Load: many games, concurrent writers and live pages, against real server processes (issue 11).

Configurations: SQLite with one app process, and PostgreSQL (a throwaway cluster) with 1, 2 and
4 app processes (`python -m app` with WORKERS=N). Each game gets one Character; each writer sends
commands (a Noise step) to its game one after the other; each page behaves like the real game
page: it holds the watch link's event stream and, on every `step` event, takes the panels the
event carries (the live push, issue 21) or else fetches them in one request
(`panels?names=…&after=N`), never two at once. A step "reaches" a page when a fetch
of that page returns it (X-Game-Seq at least that step). Printed per configuration: commands/s,
command latency p50/p99, time from a command's answer until its step reached every page of the
game p50/p95, and errors (any status >= 400, broken stream or failed request).

Run: `make bench-load` or `python -m bench load` (scaled down by default: see DEFAULT; the issue's
full size is `python -m bench load --full`: 100 games, 64 writers, 400 pages). Options:
--games N --writers N --pages N --commands N --configs sqlite-1,pg-1,pg-2,pg-4.
`python -m bench load open [options]` (`make bench-load ARGS=open`) is the open-loop run instead:
tables at table pace (bench/open_load.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = {"games": 25, "writers": 16, "pages": 100, "commands": 25}
FULL = {"games": 100, "writers": 64, "pages": 400, "commands": 25}
PANELS = "status,turn,roster,log"


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)  # seconds per command
    acked: dict[tuple[int, int], float] = field(default_factory=dict)  # (game, seq) -> answer time
    seen: list[list[tuple[float, int]]] = field(default_factory=list)  # per page: (time, seq shown)
    page_game: list[int] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    steps_sent: int = 0  # the open-loop run's commands sent
    pushed: int = 0  # steps a page took from the stream (the live push, issue 21)
    fetched: int = 0  # panel refreshes a page asked for

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(database_url: str, workers: int, log: Path,
                 root: Path = ROOT) -> tuple[subprocess.Popen, str]:
    """`python -m app` of the source tree `root` (this one unless told), on a free port."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": database_url, "HOST": "127.0.0.1", "PORT": str(port),
           "WORKERS": str(workers), "PYTHONUNBUFFERED": "1",
           "DB_POOL_SIZE": "30" if workers > 1 else ""}
    if not env["DB_POOL_SIZE"]:
        env.pop("DB_POOL_SIZE")
    process = subprocess.Popen([sys.executable, "-m", "app"], cwd=root, env=env,
                               stdout=open(log, "wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/api/health", timeout=2).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"server did not start: {log.read_text()[-2000:]}")


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()


async def make_games(client: httpx.AsyncClient, count: int) -> list[dict]:
    async def one(n: int) -> dict:
        game = (await client.post("/api/games", json={"name": f"Load {n}"})).json()
        send = f"/api/games/{game['edit_token']}/commands"
        r = await client.post(send, json={"type": "add_character", "character": {"name": "Ada"}})
        game["character"] = r.json()["state"]["characters"][0]["id"] if "state" in r.json() else \
            (await client.get(f"/api/games/{game['edit_token']}")).json()["characters"][0]["id"]
        return game

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def post_command(client, run: Run, game_index: int, game: dict, body: dict, since: float) -> None:
    """One command: its latency counted from `since` (when it was sent, or in the open loop when
    it was due) and its acknowledged step; a failure is counted as an error."""
    try:
        r = await client.post(f"/api/games/{game['edit_token']}/commands", json=body)
    except httpx.HTTPError as error:
        run.error(f"command {type(error).__name__}")
        return
    now = time.perf_counter()
    if r.status_code >= 400:
        run.error(f"command {r.status_code}")
        return
    run.latencies.append(now - since)
    run.acked[(game_index, r.json()["seq"])] = now


async def writer(client, run: Run, game_index: int, game: dict, commands: int) -> None:
    body = {"type": "noise", "character_id": game["character"], "kind": "noise", "bot_ids": []}
    for _ in range(commands):
        await post_command(client, run, game_index, game, body, time.perf_counter())


async def page(streams, fetches, run: Run, index: int, game: dict, stop: asyncio.Event) -> None:
    """One open watch page: the stream, the panels it pushes, or one combined refresh at a time,
    like static/live.js (the same page as the open-loop run's)."""
    from bench.open_load import page as open_page

    await open_page(streams, fetches, run, index, f"/v/{game['view_token']}", stop)


def reach_times(run: Run) -> list[float]:
    """For each acknowledged step: seconds until the last page of its game showed it."""
    pages_of: dict[int, list[int]] = {}
    for index, game in enumerate(run.page_game):
        pages_of.setdefault(game, []).append(index)
    out = []
    for (game, seq), acked in run.acked.items():
        latest = 0.0
        for index in pages_of.get(game, []):
            arrival = next((t for t, s in run.seen[index] if s >= seq), None)
            if arrival is None:
                run.error("step never reached a page")
                latest = None
                break
            latest = max(latest, arrival - acked)
        if latest is not None and pages_of.get(game):
            out.append(max(0.0, latest))
    return out


async def drive(url: str, size: dict) -> tuple[Run, float]:
    run = Run()
    limits = httpx.Limits(max_connections=size["pages"] + size["writers"] + 20, max_keepalive_connections=200)
    timeout = httpx.Timeout(120, connect=60)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as writers_client, \
            httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as streams, \
            httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as fetches:
        games = await make_games(writers_client, size["games"])
        stop = asyncio.Event()
        run.seen = [[] for _ in range(size["pages"])]
        run.page_game = [n % size["games"] for n in range(size["pages"])]
        pages = [asyncio.create_task(page(streams, fetches, run, n, games[g], stop))
                 for n, g in enumerate(run.page_game)]
        await asyncio.sleep(2 + size["pages"] / 100)  # every page opened and showed the game
        began = time.perf_counter()
        await asyncio.gather(*(writer(writers_client, run, n % size["games"], games[n % size["games"]],
                                      size["commands"]) for n in range(size["writers"])))
        elapsed = time.perf_counter() - began
        final = {g: max((s for (gg, s) in run.acked if gg == g), default=0) for g in range(size["games"])}
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(
                run.seen[i] and run.seen[i][-1][1] >= final[g] for i, g in enumerate(run.page_game)):
            await asyncio.sleep(0.1)
        stop.set()
        for task in pages:
            task.cancel()
        await asyncio.gather(*pages, return_exceptions=True)
    return run, elapsed


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(name: str, database_url: str, workers: int, size: dict, logs: Path) -> dict:
    process, url = start_server(database_url, workers, logs / f"{name}.log")
    try:
        run, elapsed = asyncio.run(drive(url, size))
    finally:
        stop_server(process)
    reach = reach_times(run)
    return {"config": name, "commands": len(run.latencies), "commands_per_s": len(run.latencies) / elapsed,
            "p50_ms": statistics.median(run.latencies) * 1000 if run.latencies else float("nan"),
            "p99_ms": percentile(run.latencies, 0.99) * 1000,
            "reach_p50_ms": percentile(reach, 0.5) * 1000, "reach_p95_ms": percentile(reach, 0.95) * 1000,
            "errors": run.errors, "error_kinds": run.error_kinds}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench load")
    parser.add_argument("--full", action="store_true",
                        help="the issue's size: 100 games, 64 writers, 400 pages")
    for key in DEFAULT:
        parser.add_argument(f"--{key}", type=int)
    parser.add_argument("--configs", default="sqlite-1,pg-1,pg-2,pg-4")
    argv = sys.argv[1:] if argv is None else argv
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop the servers and the cluster too
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)  # 400 streams need file descriptors
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 65536), hard))
    if argv[:1] == ["open"]:  # the open-loop run (issue 21): tables at table pace
        from bench import open_load

        open_load.main(argv[1:])
        return
    args = parser.parse_args(argv)
    size = {k: getattr(args, k) or (FULL if args.full else DEFAULT)[k] for k in DEFAULT}
    print(f"size: {size}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="potham-load-") as tmp:
        logs = Path(tmp)
        configs = args.configs.split(",")
        for name in (c for c in configs if c.startswith("sqlite")):
            rows.append(measure(name, f"sqlite:///{logs / 'load.db'}", 1, size, logs))
            print(row_text(rows[-1]), flush=True)
        if any(c.startswith("pg") for c in configs):
            sys.path.insert(0, str(ROOT))
            from tests.support import postgres

            with postgres.throwaway() as cluster:
                for name in (c for c in configs if c.startswith("pg")):
                    database = postgres.fresh_database(cluster, "load")
                    rows.append(measure(name, database, int(name.split("-")[1]), size, logs))
                    print(row_text(rows[-1]), flush=True)
    print()
    print("| configuration | commands/s | command p50 / p99 | step reaches every page p50 / p95 | errors |")
    print("|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['config']} | {row['commands_per_s']:.0f} "
              f"| {row['p50_ms']:.0f} / {row['p99_ms']:.0f} ms "
              f"| {row['reach_p50_ms']:.0f} / {row['reach_p95_ms']:.0f} ms | {row['errors']} |")


def row_text(row: dict) -> str:
    return (f"{row['config']}: {row['commands']} commands, {row['commands_per_s']:.1f}/s, "
            f"p50 {row['p50_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms, "
            f"reach p50 {row['reach_p50_ms']:.1f} ms, p95 {row['reach_p95_ms']:.1f} ms, "
            f"errors {row['errors']} {row['error_kinds'] or ''}")


if __name__ == "__main__":
    main()
