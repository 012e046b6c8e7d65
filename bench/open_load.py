"""Open-loop load (issue 21): tables playing at table pace, not writers in a tight loop.

`tables` games, each making one step (a Noise command) every `interval` seconds, with a random
jitter, on a fixed schedule that never waits for the previous answer (a closed loop hides a slow
server: its writers just slow down). `pages` open game pages follow the games' live streams
as static/live.js does (bench/open_pages.py): page n opens game n % tables, the first page of
each game on its play link (the table's own tablet), the others on its watch link. The tables
play from this process; the pages are spread over `page_procs` worker processes (default one per
100 pages), since one process could not follow 400 streams.

Printed per configuration: steps, command latency p50/p99 (from the step's scheduled time, so a
late send counts as waiting), "a step on every page" p50/p95 (from the step's answer until every
open page of its game shows it), how many steps came pushed or fetched, and errors.

Run: `make bench-load ARGS=open` or `python -m bench load open [options]`; the issue's size is the
default (200 tables, a step every 2 s, 400 pages, 60 s). Options: --tables N --pages N
--seconds S --interval S --jitter S --page-procs N --configs sqlite-1,pg-2.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench import load_bench
from bench.load_bench import Run, percentile, post_command
from bench.open_pages import Followers, Pages

PAGES_PER_PROCESS = 100
DEFAULT = {"tables": 200, "pages": 400, "seconds": 60.0, "interval": 2.0, "jitter": 0.5}


async def table(client: httpx.AsyncClient, run: Run, index: int, game: dict, size: dict,
                began: float, pending: list) -> None:
    """One table: a step at each scheduled time, sent whether or not the last one answered."""
    body = {"type": "noise", "character_id": game["character"], "kind": "noise", "bot_ids": []}
    rng = random.Random(index)
    at = began + rng.uniform(0, size["interval"])  # tables do not start in step
    while at < began + size["seconds"]:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        pending.append(asyncio.create_task(command(client, run, index, game, body, at)))
        at += size["interval"] + rng.uniform(-size["jitter"], size["jitter"])


async def command(client, run: Run, index: int, game: dict, body: dict, scheduled: float) -> None:
    run.steps_sent += 1
    await post_command(client, run, index, game, body, scheduled)  # late sends count as waiting


async def make_games(client: httpx.AsyncClient, count: int, at_once: int = 10) -> list[dict]:
    """The tables' games, each with one Character, `at_once` at a time: the run measures the
    tables at play, not 200 games opened in the same instant."""
    gate = asyncio.Semaphore(at_once)

    async def one(n: int) -> dict:
        async with gate:
            r = await client.post("/api/games", json={"name": f"Table {n}"})
            if r.status_code != 201:
                raise RuntimeError(f"new game: {r.status_code} {r.text[:200]}")
            game = r.json()
            r = await client.post(f"/api/games/{game['edit_token']}/commands",
                                  json={"type": "add_character", "character": {"name": "Ada"}})
            if r.status_code != 200:
                raise RuntimeError(f"add a Character: {r.status_code} {r.text[:200]}")
            game["character"] = r.json()["state"]["characters"][0]["id"]
            return game

    return list(await asyncio.gather(*(one(n) for n in range(count))))


async def drive(url: str, size: dict) -> tuple[Run, float]:
    run = Run()
    connections = 3 * size["tables"] + 50  # a slow server has several steps of a table in flight
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    timeout = httpx.Timeout(120, connect=60)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as writers:
        games = await make_games(writers, size["tables"])
        run.page_game = [n % size["tables"] for n in range(size["pages"])]
        links = [f"/g/{games[g]['edit_token']}" if n < size["tables"] else f"/v/{games[g]['view_token']}"
                 for n, g in enumerate(run.page_game)]
        procs = size.get("page_procs") or math.ceil(size["pages"] / PAGES_PER_PROCESS)
        with Followers(url, links, run.page_game, procs) as followers:
            await followers.ready()  # every page opened and shows its game
            began, pending = time.perf_counter(), []
            await asyncio.gather(*(table(writers, run, n, games[n], size, began, pending)
                                   for n in range(size["tables"])))
            await asyncio.gather(*pending)
            elapsed = time.perf_counter() - began
            final = {g: 0 for g in range(size["tables"])}  # each game's last acknowledged step
            for game, seq in run.acked:
                final[game] = max(final[game], seq)
            merge(run, size["pages"], await followers.results(final))  # after their pages settle
    return run, elapsed


def merge(run: Run, pages: int, parts: list[Pages]) -> None:
    """The workers' pages into one run, as if one process had followed them all."""
    run.seen = [[] for _ in range(pages)]
    for part in parts:
        for index, seen in part.seen.items():
            run.seen[index] = seen
        run.pushed += part.pushed
        run.fetched += part.fetched
        for kind, count in part.error_kinds.items():
            run.errors += count
            run.error_kinds[kind] = run.error_kinds.get(kind, 0) + count


def measure(name: str, database_url: str, workers: int, size: dict, logs: Path) -> dict:
    process, url = load_bench.start_server(database_url, workers, logs / f"{name}.log")
    try:
        run, elapsed = asyncio.run(drive(url, size))
    finally:
        load_bench.stop_server(process)
    reach = load_bench.reach_times(run)
    return {"config": name, "steps": len(run.latencies), "steps_per_s": len(run.latencies) / elapsed,
            "p50_ms": statistics.median(run.latencies) * 1000 if run.latencies else float("nan"),
            "p99_ms": percentile(run.latencies, 0.99) * 1000,
            "reach_p50_ms": percentile(reach, 0.5) * 1000, "reach_p95_ms": percentile(reach, 0.95) * 1000,
            "pushed": run.pushed, "fetched": run.fetched, "sent": run.steps_sent,
            "errors": run.errors, "error_kinds": run.error_kinds}


def main(argv: list[str]) -> list[dict]:
    parser = argparse.ArgumentParser(prog="python -m bench load open")
    parser.add_argument("--tables", type=int, default=DEFAULT["tables"])
    parser.add_argument("--pages", type=int, default=DEFAULT["pages"])
    for key in ("seconds", "interval", "jitter"):
        parser.add_argument(f"--{key}", type=float, default=DEFAULT[key])
    parser.add_argument("--page-procs", type=int, default=0,
                        help=f"processes following the pages (default: one per {PAGES_PER_PROCESS} pages)")
    parser.add_argument("--configs", default="sqlite-1,pg-2")
    args = parser.parse_args(argv)
    size = {k: getattr(args, k) for k in DEFAULT} | {"page_procs": args.page_procs}
    print(f"open loop: {size}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="potham-open-") as tmp:
        logs = Path(tmp)
        configs = args.configs.split(",")
        for name in (c for c in configs if c.startswith("sqlite")):
            rows.append(measure(name, f"sqlite:///{logs / 'open.db'}", 1, size, logs))
            print(row_text(rows[-1]), flush=True)
        if any(c.startswith("pg") for c in configs):
            sys.path.insert(0, str(load_bench.ROOT))
            from tests.support import postgres

            with postgres.throwaway() as cluster:
                for name in (c for c in configs if c.startswith("pg")):
                    database = postgres.fresh_database(cluster, "open")
                    rows.append(measure(name, database, int(name.split("-")[1]), size, logs))
                    print(row_text(rows[-1]), flush=True)
    print()
    print("| configuration | steps/s | command p50 / p99 | a step on every page p50 / p95 "
          "| pushed / fetched | errors |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(f"| {row['config']} | {row['steps_per_s']:.0f} | {row['p50_ms']:.0f} / {row['p99_ms']:.0f} ms "
              f"| {row['reach_p50_ms']:.0f} / {row['reach_p95_ms']:.0f} ms "
              f"| {row['pushed']} / {row['fetched']} | {row['errors']} |")
    return rows


def row_text(row: dict) -> str:
    return (f"{row['config']}: {row['steps']} of {row['sent']} steps answered, {row['steps_per_s']:.1f}/s, "
            f"p50 {row['p50_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms, "
            f"every page p50 {row['reach_p50_ms']:.1f} ms, p95 {row['reach_p95_ms']:.1f} ms, "
            f"pushed {row['pushed']}, fetched {row['fetched']}, "
            f"errors {row['errors']} {row['error_kinds'] or ''}")
