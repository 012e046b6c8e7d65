"""The open-loop run's open pages (bench/open_load.py), spread over processes of their own.

One client process could not follow 400 live streams: it kept a core busy while the server sat
idle. So the pages are dealt round-robin to `count` worker processes (spawned: no fork of a
process with threads), each with its own event loop and HTTP clients; the tables stay in the
parent. A worker opens its pages, says "ready" once each shows its game, waits for the last
acknowledged step of every game, lets its pages catch up (`settle`), and sends back what each
page showed and when. Times are `time.perf_counter()`, CLOCK_MONOTONIC on Linux: one clock for
every process of the machine, so the parent compares them with its own answer times.

A page follows its game's live stream as static/live.js does: on every `step` event newer than
what it shows, it takes the panels the event carries when it can use them (the live push: the
log in them starts at most one step after the page's newest), and otherwise fetches them
(`panels?names=…&after=N`, one request at a time), exactly like the page.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import re
import time
from dataclasses import dataclass, field

import httpx

PANELS = "status,turn,roster,log"
TIMEOUT = httpx.Timeout(120, connect=60)


@dataclass
class Pages:
    """What one worker's pages saw: per page index, (time, step shown) in order."""
    seen: dict[int, list[tuple[float, int]]] = field(default_factory=dict)
    pushed: int = 0  # steps a page took from the stream (the live push)
    fetched: int = 0  # panel refreshes a page asked for
    error_kinds: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


class Followers:
    """`links[i]` (page i, of game `games[i]`) followed by `count` worker processes."""

    def __init__(self, url: str, links: list[str], games: list[int], count: int):
        context = multiprocessing.get_context("spawn")
        self.parts = []
        for k in range(max(1, count)):
            mine = [(i, games[i], links[i]) for i in range(k, len(links), max(1, count))]
            if not mine:
                continue
            here, there = context.Pipe()
            process = context.Process(target=follow, args=(url, mine, there), daemon=True)
            process.start()
            there.close()  # a worker that dies is then an EOFError here, not a hang
            self.parts.append((process, here))

    def __enter__(self) -> Followers:
        return self

    def __exit__(self, *exc) -> None:
        for process, conn in self.parts:
            conn.close()
            process.join(15)
            if process.is_alive():
                process.kill()

    async def ready(self) -> None:
        """Every worker's pages are open and show their game."""
        for _, conn in self.parts:
            await self._receive(conn)

    async def results(self, final: dict[int, int]) -> list[Pages]:
        """Each game's last acknowledged step to every worker; what their pages saw back."""
        for _, conn in self.parts:
            conn.send(final)
        return [await self._receive(conn) for _, conn in self.parts]

    @staticmethod
    async def _receive(conn):
        try:
            return await asyncio.to_thread(conn.recv)
        except EOFError:
            raise RuntimeError("a page worker process died (its error is above)") from None


def follow(url: str, mine: list[tuple[int, int, str]], conn) -> None:
    """A worker process: its pages, on an event loop of its own."""
    conn.send(asyncio.run(_follow(url, mine, conn)))
    conn.close()


async def _follow(url: str, mine: list[tuple[int, int, str]], conn) -> Pages:
    pages = Pages(seen={i: [] for i, _, _ in mine})
    limits = httpx.Limits(max_connections=2 * len(mine) + 20, max_keepalive_connections=2 * len(mine) + 20)
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT, limits=limits) as streams, \
            httpx.AsyncClient(base_url=url, timeout=TIMEOUT, limits=limits) as fetches:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(page(streams, fetches, pages, i, link, stop)) for i, _, link in mine]
        await until(lambda: all(pages.seen.values()), 10 + len(mine) / 20)  # each shows its game
        conn.send("ready")
        final = await asyncio.to_thread(conn.recv)
        await until(lambda: all(pages.seen[i] and pages.seen[i][-1][1] >= final.get(g, 0)
                                for i, g, _ in mine), 30)
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return pages


async def until(done, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not done():
        await asyncio.sleep(0.1)


async def events(response: httpx.Response):
    """(event, data) pairs of a server-sent event stream. Bytes split by hand: a pushed step is
    tens of kB on one line, and 400 streams of them through a line decoder starved the client.
    The end of an event is looked for only in the bytes that just came (not the whole event
    again on every chunk)."""
    buffer, start = bytearray(), 0  # grows in place: a long event is not copied on every chunk
    async for chunk in response.aiter_raw():
        searched = max(start, len(buffer) - 1)  # an "\n\n" may straddle the last chunk's end
        buffer += chunk
        while (end := buffer.find(b"\n\n", searched)) >= 0:
            name, data = "message", []
            for line in buffer[start:end].split(b"\n"):
                if line.startswith(b"event:"):
                    name = line[6:].strip().decode()
                elif line.startswith(b"data:"):
                    data.append(line[5:].removeprefix(b" "))
            if data:
                yield name, b"\n".join(data)
            start = searched = end + 2
        del buffer[:start]
        start = 0


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


async def page(streams, fetches, pages: Pages, index: int, link: str, stop: asyncio.Event) -> None:
    """One open game page: the stream, pushed panels taken, or one refresh at a time."""
    state = {"shown": -1, "known": 0, "top": -1}  # step shown, newest announced, log's newest
    wake = asyncio.Event()

    def show(seq: int) -> None:
        state["shown"] = state["top"] = max(state["shown"], seq)
        pages.seen[index].append((time.perf_counter(), state["shown"]))

    refresher = asyncio.create_task(refresh_loop(fetches, pages, link, state, wake, stop, show))
    try:
        async with streams.stream("GET", f"{link}/events") as response:
            if response.status_code >= 400:
                pages.error(f"stream {response.status_code}")
                return
            async for name, data in events(response):
                if name != "step":
                    continue
                seq, pushed = step_of(data)
                state["known"] = max(state["known"], seq)
                if pushed and seq > state["shown"] and usable(pushed, state["top"]):
                    pages.pushed += 1
                    show(seq)
                elif state["known"] > state["shown"]:
                    wake.set()
    except httpx.HTTPError as error:
        if not stop.is_set():
            pages.error(f"stream {type(error).__name__}")
    finally:
        refresher.cancel()


async def refresh_loop(fetches, pages: Pages, link: str, state: dict, wake: asyncio.Event,
                       stop: asyncio.Event, show) -> None:
    """The page's refresh: one panels request at a time while it shows less than announced."""
    while not stop.is_set():
        await wake.wait()
        wake.clear()
        while state["known"] > state["shown"] and not stop.is_set():
            params = {"names": PANELS} | ({"after": state["top"]} if state["top"] >= 0 else {})
            try:
                r = await fetches.get(f"{link}/panels", params=params)
            except httpx.HTTPError as error:
                pages.error(f"panels {type(error).__name__}")
                await asyncio.sleep(0.5)
                continue
            if r.status_code >= 400:
                pages.error(f"panels {r.status_code}")
                await asyncio.sleep(0.5)
                continue
            pages.fetched += 1
            show(int(r.headers["X-Game-Seq"]))


def usable(pushed: dict, top: int) -> bool:
    """live.js's test: the pushed log starts at most one step after the page's newest (or is the
    whole newest page), so merging it loses no step; a page not yet shown fetches."""
    return top >= 0 and (pushed.get("log_from") is None or pushed["log_from"] <= top + 1)
