"""Two versions of the app measured side by side, taking turns (issue 21).

On the shared machine a run of `bench.one_thread` moves by ±30 % from one minute to the next, so
before and after are measured together: one long-lived process per source tree (each the app of
that tree, on its own copy of the game `bench.one_thread build` made), the two taking turns one
request at a time, so both see the same load. Within a pair of requests the first place alternates
(before, after, then after, before), so neither tree always runs on caches the other just left.
Batches of 30 taking turns (this bench until then) let one tree's median differ from the other's
by up to 18 % when both ran the same code: a batch lasted long enough for the load to change
between the two trees' batches. Prints the median and the 10th percentile of each case's CPU time
per request, in all and the app's alone (bench.one_thread.AppCpu: without the bench's client),
and the load average.

    git worktree add /tmp/before <commit>            # or: git archive <commit> | tar -x -C /tmp/before
    python -m bench.ab /tmp/before . /tmp/game.db 20 30   # 20 rounds of 30 requests of each tree
    python -m bench.ab . . /tmp/game.db 20 30             # A/A: the same tree twice, to see the noise

The cases are bench.one_thread's (and `health`: GET /api/health); a case list may follow,
separated by ";". A tree older than bench.one_thread cannot be measured this way.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

CASES = ["one command", "turn asked again", "health", "full page", "one step, 4 pages", "command + turn"]
SLOW = ("one step, 4 pages", "full page")  # a sixth of the batch: they cost ten times more


def without_trio_lookup() -> None:
    """The bench's client, not the app: httpx's ASGI transport asks on every request whether it
    runs under trio, by importing `sniffio`, which is not installed: a failed import (a scan of
    sys.path) of about 0.1 ms per request. Under asyncio the answer is always no."""
    from httpx._transports import asgi

    asgi.is_running_trio = lambda: False


class AppCpu:
    """CPU time spent in the app (the server's side) since the last `take`: inside its ASGI calls
    and its live pushes' rendering (app.web.routes.live.PUSHED.data), not in the bench's HTTP client nor
    its stream harness. On one thread nothing else runs meanwhile, so the process time inside those
    calls is the app's. Here, not in bench.one_thread, so that a tree's bench from before it is
    measured the same way."""

    spent = 0.0

    @classmethod
    def take(cls) -> float:
        spent, cls.spent = cls.spent, 0.0
        return spent * 1000

    @classmethod
    async def timed(cls, call):
        start = time.process_time()
        try:
            return await call
        finally:
            cls.spent += time.process_time() - start

    @classmethod
    def timed_app(cls, app):
        async def timed_app(scope, receive, send):
            await cls.timed(app(scope, receive, send))

        return timed_app

    @classmethod
    def time_pushes(cls) -> None:
        try:
            from app.web.routes import live
        except ImportError:  # a tree from before the shell's packages (app/web/live.py)
            from app.web import live  # type: ignore[no-redef]

        data = live.PUSHED.data

        async def timed_data(*args, **kwargs):
            return await cls.timed(data(*args, **kwargs))

        live.PUSHED.data = timed_data  # on the instance: the streams' calls find it first


async def worker(db: str) -> None:
    """The app of the tree this process started in (its working directory): answers each line
    `case n` with the CPU ms of n runs of that case, as one JSON list."""
    sys.path.insert(0, os.getcwd())
    from bench.one_thread import app_for, cases, client

    without_trio_lookup()
    with open(db + ".json") as f:
        ids = json.load(f)
    tmp = tempfile.mkdtemp()
    try:
        for suffix in ("", "-wal"):  # the game's WAL too, if its builder left one
            if os.path.exists(db + suffix):
                shutil.copy(db + suffix, os.path.join(tmp, "game.db" + suffix))
        app = app_for(os.path.join(tmp, "game.db"))
        AppCpu.time_pushes()
        loop = asyncio.get_running_loop()
        async with app.router.lifespan_context(app), client(AppCpu.timed_app(app)) as c:
            timed = cases(c, ids["token"], ids["view"], ids["ada"])

            async def health() -> None:
                (await c.get("/api/health")).raise_for_status()

            timed["health"] = health
            for _ in range(10):  # warm: templates compiled, caches filled
                await timed["one step, 4 pages"]()
            print("ready", flush=True)
            while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
                label, n = line.rsplit(" ", 1)
                cpu = []
                for _ in range(int(n)):
                    AppCpu.take()
                    start = time.process_time()
                    await timed[label]()
                    cpu.append([(time.process_time() - start) * 1000, AppCpu.take()])
                print(json.dumps(cpu), flush=True)
    finally:
        shutil.rmtree(tmp)


def start(tree: str, db: str) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", os.path.abspath(db)],
                               cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    while process.stdout.readline().strip() != "ready":
        if process.poll() is not None:
            raise SystemExit(f"the app of {tree} did not start")
    return process


def turns(workers: dict, label: str, size: int, first: int, cpu: dict) -> None:
    """`size` requests of each tree, one at a time, the first place alternating pair by pair."""
    tags = list(workers)
    for i in range(size):
        for tag in (tags if (i + first) % 2 == 0 else tags[::-1]):
            workers[tag].stdin.write(f"{label} 1\n")
            workers[tag].stdin.flush()
            cpu[tag][label] += json.loads(workers[tag].stdout.readline())


def compare(before: str, after: str, db: str, rounds: int, batch: int, labels: list[str]) -> None:
    workers = {"before": start(before, db), "after": start(after, db)}
    cpu: dict[str, dict[str, list[float]]] = {tag: {label: [] for label in labels} for tag in workers}
    loads = [os.getloadavg()[0]]
    for n in range(rounds):
        for label in labels:
            turns(workers, label, max(1, batch // 6) if label in SLOW else batch, n, cpu)
        loads.append(os.getloadavg()[0])
    for process in workers.values():
        process.stdin.write("\n")
        process.stdin.flush()
        process.wait()
    print(f"CPU ms per request, before -> after, {rounds} rounds taking turns request by request, "
          f"load {min(loads):.1f}-{max(loads):.1f}; in all (the bench's client included), then the app's")
    for label in labels:
        for part, name in ((0, label), (1, "  (app)")):
            b, a = (statistics.median(x[part] for x in cpu[tag][label]) for tag in ("before", "after"))
            pb, pa = (statistics.quantiles([x[part] for x in cpu[tag][label]], n=10)[0]
                      for tag in ("before", "after"))
            print(f"  {name:24s} median {b:6.2f} -> {a:6.2f} ({(a - b) / b:+.0%})   "
                  f"10th percentile {pb:6.2f} -> {pa:6.2f}   n={len(cpu['after'][label])}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        asyncio.run(worker(sys.argv[2]))
    else:
        compare(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]),
                sys.argv[6].split(";") if len(sys.argv) > 6 else CASES)
