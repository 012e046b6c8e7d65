"""Open-loop load (issue 21): tables playing at table pace, not writers in a tight loop.

`tables` games, each making one step (a Noise command) every `interval` seconds, with a random
jitter, on a fixed schedule that never waits for the previous answer (a closed loop hides a slow
server: its writers just slow down). `pages` open game pages follow the games' live streams
as static/live.js does: page n opens game n % tables, the first page of each game on its play
link (the table's own tablet), the others on its watch link. On every `step` event newer than
what the page shows, a page takes the panels the event carries when it can use them (the live
push: the log in them starts at most one step after the page's newest), and otherwise fetches
them (`panels?names=…&after=N`, one request at a time), exactly like the page.

Printed per configuration: steps, command latency p50/p99 (from the step's scheduled time, so a
late send counts as waiting), "a step on every page" p50/p95 (from the step's answer until every
open page of its game shows it), how many steps came pushed or fetched, and errors.

Run: `make bench-load ARGS=open` or `python -m bench load open [options]`; the issue's size is the
default (200 tables, a step every 2 s, 400 pages, 60 s). Options: --tables N --pages N
--seconds S --interval S --jitter S --configs sqlite-1,pg-2.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench import load_bench
from bench.load_bench import Run, percentile

PANELS = "status,turn,roster,log"
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
    try:
        r = await client.post(f"/api/games/{game['edit_token']}/commands", json=body)
    except httpx.HTTPError as error:
        run.error(f"command {type(error).__name__}")
        return
    now = time.perf_counter()
    if r.status_code >= 400:
        run.error(f"command {r.status_code}")
        return
    run.latencies.append(now - scheduled)
    run.acked[(index, r.json()["seq"])] = now


async def events(response: httpx.Response):
    """(event, data) pairs of a server-sent event stream. Bytes split by hand: a pushed step is
    tens of kB on one line, and 400 streams of them through a line decoder starved the client."""
    buffer, start = b"", 0
    async for chunk in response.aiter_raw():
        buffer += chunk
        while (end := buffer.find(b"\n\n", start)) >= 0:
            name, data = "message", []
            for line in buffer[start:end].split(b"\n"):
                if line.startswith(b"event:"):
                    name = line[6:].strip().decode()
                elif line.startswith(b"data:"):
                    data.append(line[5:].removeprefix(b" "))
            if data:
                yield name, b"\n".join(data)
            start = end + 2
        buffer, start = buffer[start:], 0


STEP = re.compile(rb'^\{"seq": (\d+)')
LOG_FROM = re.compile(rb'"log_from": (\d+|null)\}\}$')


def step_of(data: bytes) -> tuple[int, dict | None]:
    """A step event's step and, when it carries panels, what a page checks before taking them
    (without decoding their tens of kB of HTML)."""
    seq = int(STEP.match(data).group(1))
    if b'"panels"' not in data[:40]:
        return seq, None
    found = LOG_FROM.search(data[-40:])
    log_from = found.group(1) if found else b"null"
    return seq, {"log_from": None if log_from == b"null" else int(log_from)}


async def page(streams, fetches, run: Run, index: int, link: str, stop: asyncio.Event) -> None:
    """One open game page: the stream, pushed panels taken, or one refresh at a time."""
    state = {"shown": -1, "known": 0, "top": -1}  # step shown, newest announced, log's newest
    wake = asyncio.Event()

    def show(seq: int) -> None:
        state["shown"] = state["top"] = max(state["shown"], seq)
        run.seen[index].append((time.perf_counter(), state["shown"]))

    async def refresh_loop():
        while not stop.is_set():
            await wake.wait()
            wake.clear()
            while state["known"] > state["shown"] and not stop.is_set():
                params = {"names": PANELS} | ({"after": state["top"]} if state["top"] >= 0 else {})
                try:
                    r = await fetches.get(f"{link}/panels", params=params)
                except httpx.HTTPError as error:
                    run.error(f"panels {type(error).__name__}")
                    await asyncio.sleep(0.5)
                    continue
                if r.status_code >= 400:
                    run.error(f"panels {r.status_code}")
                    await asyncio.sleep(0.5)
                    continue
                run.fetched += 1
                show(int(r.headers["X-Game-Seq"]))

    refresher = asyncio.create_task(refresh_loop())
    try:
        async with streams.stream("GET", f"{link}/events") as response:
            if response.status_code >= 400:
                run.error(f"stream {response.status_code}")
                return
            async for name, data in events(response):
                if name != "step":
                    continue
                seq, pushed = step_of(data)
                state["known"] = max(state["known"], seq)
                if pushed and seq > state["shown"] and usable(pushed, state["top"]):
                    run.pushed += 1
                    show(seq)
                elif state["known"] > state["shown"]:
                    wake.set()
    except httpx.HTTPError as error:
        if not stop.is_set():
            run.error(f"stream {type(error).__name__}")
    finally:
        refresher.cancel()


def usable(pushed: dict, top: int) -> bool:
    """live.js's test: the pushed log starts at most one step after the page's newest (or is the
    whole newest page), so merging it loses no step; a page not yet shown fetches."""
    return top >= 0 and (pushed.get("log_from") is None or pushed["log_from"] <= top + 1)


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
    limits = httpx.Limits(max_connections=size["pages"] + size["tables"] + 50, max_keepalive_connections=400)
    timeout = httpx.Timeout(120, connect=60)
    async with httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as writers, \
            httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as streams, \
            httpx.AsyncClient(base_url=url, timeout=timeout, limits=limits) as fetches:
        games = await make_games(writers, size["tables"])
        stop = asyncio.Event()
        run.seen = [[] for _ in range(size["pages"])]
        run.page_game = [n % size["tables"] for n in range(size["pages"])]
        links = [f"/g/{games[g]['edit_token']}" if n < size["tables"] else f"/v/{games[g]['view_token']}"
                 for n, g in enumerate(run.page_game)]
        pages = [asyncio.create_task(page(streams, fetches, run, n, links[n], stop))
                 for n in range(size["pages"])]
        await asyncio.sleep(2 + size["pages"] / 100)  # every page opened and showed its game
        began, pending = time.perf_counter(), []
        await asyncio.gather(*(table(writers, run, n, games[n], size, began, pending)
                               for n in range(size["tables"])))
        await asyncio.gather(*pending)
        elapsed = time.perf_counter() - began
        await settle(run, size)
        stop.set()
        for task in pages:
            task.cancel()
        await asyncio.gather(*pages, return_exceptions=True)
    return run, elapsed


async def settle(run: Run, size: dict, seconds: float = 30) -> None:
    """Wait until every page shows its game's last acknowledged step (or `seconds` passed)."""
    final = {g: max((s for (gg, s) in run.acked if gg == g), default=0) for g in range(size["tables"])}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not all(
            run.seen[i] and run.seen[i][-1][1] >= final[g] for i, g in enumerate(run.page_game)):
        await asyncio.sleep(0.1)


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
    parser.add_argument("--configs", default="sqlite-1,pg-2")
    args = parser.parse_args(argv)
    size = {k: getattr(args, k) for k in DEFAULT}
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
