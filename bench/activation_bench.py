"""Activation benchmarks (`python -m bench.activation_bench`, or all benches: `python -m bench`).

1. In-process: AI-Bot activations decided per second over a mix of the four roles
   (target ≥ 100,000/s).
2. HTTP: two real uvicorn processes with the same settings, one serving our app, one a bare
   FastAPI app (bench/bare_app.py) that validates the same body with the same pydantic model and
   answers a constant. Both get the same load (`wrk` when installed, else an httpx client);
   the report gives both requests/s and ours as a share of bare (target ≥ 80%).

Figures only: nothing here asserts timing.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from app.rules.activation import Activator, Directive, Seen, activate

ROOT = Path(__file__).resolve().parent.parent
PATH = "/api/rules/activation"
BODY = {  # the api.md example
    "bot": {"name": "Warden-2", "role": "hunter", "walk": 4, "run": 8, "control_zone": 3, "points": 60,
            "health": 4, "shoot": {"range": 18, "ammo": True}, "knocked_down": False, "rebooted": False,
            "full_throttle": False, "special_rules": ["marked_target"]},
    "characters": [{"name": "Ada", "distance": 2.5, "line_of_sight": True, "base_contact": False}],
    "directive": {},
}
SECONDS, ROUNDS, CONNECTIONS = 4, 3, 16


def scenarios() -> list[tuple[Activator, list[Seen], Directive]]:
    crowd = [Seen("Ada", 2.5, True, False), Seen("Bo", 6.0, True, False), Seen("Cy", 11.0, False, False)]
    return [
        (Activator("Warden-2", "hunter", 4, 8, shoot_range=18.0), crowd, Directive()),
        (Activator("Seeker", "hunter", 4, 8), [Seen("Bo", 20.0, True, False)], Directive()),
        (Activator("Drifter", "hunter", 4, 8), [], Directive(direction=3)),
        (Activator("Gate-1", "sentry", 4, 8, shoot_range=12.0), crowd, Directive("Vault", 3.0)),
        (Activator("Gate-2", "sentry", 4, 8), crowd[1:], Directive("Vault", 9.0)),
        (Activator("Loader", "worker", 3, 6), crowd, Directive(object="Console", object_distance=3.0)),
        (Activator("Welder", "worker", 3, 6, knocked_down=True), [],
         Directive(object="Crate", object_contact=True)),
        (Activator("Beat-4", "patrol", 4, 8, shoot_range=12.0), crowd,
         Directive(waypoint="B", waypoint_distance=7)),
    ]


def in_process(seconds: float = 2.0) -> dict[str, float]:
    """Activations per second, deciding only and deciding plus building the JSON dict, by the
    wall clock and by this process's CPU time (steadier when other work shares the cores)."""
    cases, rng = scenarios(), random.Random(2038)
    rates = {}
    for as_json in (False, True):
        done, start, cpu = 0, time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            for bot, seen, directive in cases:
                result = activate(bot, seen, directive, rng)
                if as_json:
                    result.as_dict()
            done += len(cases)
        key = "json" if as_json else "decide"
        rates[key] = done / (time.perf_counter() - start)
        rates[key + "_cpu"] = done / (time.process_time() - cpu)
    return rates


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(target: str, port: int, env: dict[str, str]) -> subprocess.Popen:
    """The same uvicorn settings for both apps: one worker, default loop/http, no access log."""
    cmd = [sys.executable, "-m", "uvicorn", target, "--host", "127.0.0.1", "--port", str(port),
           "--workers", "1", "--log-level", "warning", "--no-access-log"]
    return subprocess.Popen(cmd, cwd=ROOT, env=env)


def wait_until_up(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"no server on port {port} after {timeout}s")


def load_with_wrk(port: int, seconds: int, script: Path) -> float:
    cmd = ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{seconds}s", "-s", str(script), f"http://127.0.0.1:{port}{PATH}"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in out:
        raise RuntimeError(f"errors under load on port {port}:\n{out}")
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


def load_with_httpx(port: int, seconds: int) -> float:
    import httpx

    async def run() -> int:
        done = 0
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            stop = time.monotonic() + seconds

            async def worker() -> None:
                nonlocal done
                while time.monotonic() < stop:
                    (await client.post(PATH, json=BODY)).raise_for_status()
                    done += 1

            await asyncio.gather(*(worker() for _ in range(CONNECTIONS)))
        return done

    start = time.monotonic()
    count = asyncio.run(run())
    return count / (time.monotonic() - start)


def over_http() -> tuple[float, float, str]:
    """Median requests/s of (ours, bare) over alternating rounds, and the load tool used."""
    tmp = Path(tempfile.mkdtemp(prefix="activation-bench-"))
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp / 'bench.db'}", "PYTHONPATH": str(ROOT)}
    script = tmp / "post.lua"
    script.write_text(f'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                      f"wrk.body = [[{json.dumps(BODY)}]]\n")
    ports = {"ours": free_port(), "bare": free_port()}
    servers = [serve("app.main:app", ports["ours"], env), serve("bench.bare_app:app", ports["bare"], env)]
    tool = "wrk" if shutil.which("wrk") else "httpx"
    try:
        for port in ports.values():
            wait_until_up(port)
        rates: dict[str, list[float]] = {"ours": [], "bare": []}
        for _ in range(ROUNDS):  # alternate so a noisy neighbour hurts both alike
            for name in ("bare", "ours"):
                port = ports[name]
                if tool == "wrk":
                    rates[name].append(load_with_wrk(port, SECONDS, script))
                else:
                    rates[name].append(load_with_httpx(port, SECONDS))
        return statistics.median(rates["ours"]), statistics.median(rates["bare"]), tool
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    r = in_process()
    print(f"in-process: {r['decide']:,.0f} activations/s decided ({r['decide_cpu']:,.0f}/s of CPU time); "
          f"with the JSON dict {r['json']:,.0f}/s ({r['json_cpu']:,.0f}/s of CPU time); target ≥ 100,000/s",
          flush=True)
    ours, bare, tool = over_http()
    print(f"HTTP ({tool}, {CONNECTIONS} connections, median of {ROUNDS}×{SECONDS}s): "
          f"ours {ours:,.0f} req/s, bare FastAPI {bare:,.0f} req/s, "
          f"ours = {ours / bare:.0%} of bare (target ≥ 80%)", flush=True)


if __name__ == "__main__":
    main()
