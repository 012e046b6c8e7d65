"""Server CPU per request, on real servers, two source trees side by side (issue 21).

`bench.ab` calls the app inline on one thread, its own HTTP client in the same process: it
cannot see what a served request costs around the app (uvicorn's parsing, the hops to worker
threads, the live streams' event loop work), and it counts its client. Here each tree runs as
`python -m app` (one process, its own copy of the game `bench.one_thread build` made), this
bench is the client in another process, and the server's CPU is read from Linux's per-thread
counters (`/proc/<pid>/task/*/schedstat`, nanoseconds) around each batch of requests. The two
servers take turns batch by batch, the first place alternating, so both see the same load.

    python -m bench.served /tmp/before . /tmp/game.db 20 30   # 20 rounds of 30 requests per case

Cases: one command (the games API); one tap (the play page's form post, answered with its
panels); the turn panel asked again; health; one step seen by four
open pages taking the live push (a command, then the step event with its panels on two play and
two watch streams, as real pages take it).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import httpx

from bench.load_bench import start_server, stop_server
from bench.open_pages import STEP, events
from bench.pages_bench import noise

CASES = ["one command", "one tap", "turn asked again", "health", "one step, 4 pages pushed"]


SEEN: dict[tuple[int, str], int] = {}  # (process, thread) -> its CPU ns when last read


def server_cpu_ns(pid: int) -> int:
    """CPU time of every thread the process had so far. A thread that ended keeps the time read
    last: anyio ends a worker thread after 10 s idle, so it did nothing since the last batch."""
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                SEEN[pid, task] = int(f.read().split()[0])
        except FileNotFoundError:
            pass
    return sum(ns for (process, _), ns in SEEN.items() if process == pid)


class Served:
    """One tree's server, its client and its four open pages' streams."""

    def __init__(self, tag: str, tree: str, db: str, ids: dict, logs: Path):
        copy = tempfile.mkdtemp()
        for suffix in ("", "-wal"):
            if os.path.exists(db + suffix):
                shutil.copy(db + suffix, os.path.join(copy, "game.db" + suffix))
        self.copy, self.ids = copy, ids
        log = logs / f"{tag}.log"
        self.process, self.url = start_server(f"sqlite:///{copy}/game.db", 1, log, root=Path(tree).resolve())
        self.client = httpx.AsyncClient(base_url=self.url, timeout=30)
        self.streams: list = []
        self.queues: list[asyncio.Queue] = []

    async def open_pages(self) -> None:
        """Four pages (two play, two watch) open on the game, each stream past its first event."""
        token, view = self.ids["token"], self.ids["view"]
        for link in (f"/g/{token}", f"/g/{token}", f"/v/{view}", f"/v/{view}"):
            queue: asyncio.Queue = asyncio.Queue()
            self.queues.append(queue)
            self.streams.append(asyncio.create_task(self._follow(link, queue)))
        for queue in self.queues:
            await asyncio.wait_for(queue.get(), 10)

    async def close_pages(self) -> None:
        for task in self.streams:
            task.cancel()
        self.streams, self.queues = [], []
        await asyncio.sleep(0.1)  # the server ends them before the next batch is measured

    async def _follow(self, link: str, queue: asyncio.Queue) -> None:
        async with self.client.stream("GET", f"{link}/events") as response:
            async for name, data in events(response):
                if name == "step":  # the first one (no panels) says the stream is open
                    queue.put_nowait(int(STEP.match(data).group(1)))

    async def command(self) -> int:
        r = await self.client.post(f"/api/games/{self.ids['token']}/commands", json=noise(self.ids["ada"]))
        r.raise_for_status()
        return r.json()["seq"]

    async def case(self, label: str) -> None:
        token = self.ids["token"]
        if label == "one command":
            await self.command()
        elif label == "one tap":  # the play page's form post, answered with its panels
            ada = self.ids["ada"]
            tap = {"type": "noise", "form": f"quick-noise-{ada}", "character_id": ada, "kind": "noise"}
            r = await self.client.post(f"/g/{token}/turn", data=tap, headers={"HX-Request": "true"})
            r.raise_for_status()
        elif label == "turn asked again":
            (await self.client.get(f"/g/{token}/panels/turn")).raise_for_status()
        elif label == "health":
            (await self.client.get("/api/health")).raise_for_status()
        else:
            seq = await self.command()
            for queue in self.queues:  # every page took the step's push
                while await asyncio.wait_for(queue.get(), 10) < seq:
                    pass

    async def batch(self, label: str, size: int) -> float:
        """Server CPU ms per request, over `size` requests of one case (the four pages open only
        for the pushed step: open, every command would push its step to them)."""
        pushed = label == "one step, 4 pages pushed"
        if pushed:
            await self.open_pages()
        before = server_cpu_ns(self.process.pid)
        for _ in range(size):
            await self.case(label)
        await asyncio.sleep(0.02)  # what a request left on the server's loop (its log line) is done
        spent = server_cpu_ns(self.process.pid) - before
        if pushed:
            await self.close_pages()
        return spent / 1e6 / size

    async def close(self) -> None:
        await self.close_pages()
        await self.client.aclose()
        stop_server(self.process)
        shutil.rmtree(self.copy)


async def compare(before: str, after: str, db: str, rounds: int, size: int, labels: list[str]) -> None:
    with open(db + ".json") as f:
        ids = json.load(f)
    logs = Path(tempfile.mkdtemp())
    servers = {tag: Served(tag, tree, db, ids, logs) for tag, tree in (("before", before), ("after", after))}
    try:
        for served in servers.values():
            await served.batch("one step, 4 pages pushed", 10)  # warm: templates compiled, caches filled
        cpu = {tag: {label: [] for label in labels} for tag in servers}
        loads = [os.getloadavg()[0]]
        for n in range(rounds):
            for label in labels:
                order = list(servers) if n % 2 == 0 else list(servers)[::-1]
                for tag in order:
                    cpu[tag][label].append(await servers[tag].batch(label, size))
            loads.append(os.getloadavg()[0])
    finally:
        for served in servers.values():
            await served.close()
        shutil.rmtree(logs)
    print(f"server CPU ms per request, before -> after, {rounds} rounds of {size} requests per case, "
          f"load {min(loads):.1f}-{max(loads):.1f}")
    for label in labels:
        b, a = (statistics.median(cpu[tag][label]) for tag in ("before", "after"))
        print(f"  {label:26s} median of batches {b:6.2f} -> {a:6.2f} ({(a - b) / b:+.0%})   "
              f"best batch {min(cpu['before'][label]):6.2f} -> {min(cpu['after'][label]):6.2f}")


if __name__ == "__main__":
    asyncio.run(compare(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]),
                        sys.argv[6].split(";") if len(sys.argv) > 6 else CASES))
