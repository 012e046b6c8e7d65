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

from app.rulesets.potham2038.activation import Activator, Directive, Seen, activate

ROOT = Path(__file__).resolve().parent.parent
PATH = "/api/rules/activation"
BODY = {  # the docs/api.md example
    "bot": {"name": "Warden-2", "role": "hunter", "walk": 4, "run": 8, "control_zone": 3, "points": 60,
            "health": 4, "shoot": {"range": 18, "ammo": True}, "knocked_down": False, "rebooted": False,
            "full_throttle": False, "special_rules": ["marked_target"]},
    "characters": [{"name": "Ada", "distance": 2.5, "line_of_sight": True, "base_contact": False}],
    "directive": {},
}
SECONDS, ROUNDS, CONNECTIONS = 3, 5, 16


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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc), or 0.0 where there is no /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_with_wrk(port: int, seconds: int, script: Path) -> tuple[int, float]:
    cmd = ["wrk", "-t1", f"-c{CONNECTIONS}", f"-d{seconds}s", "-s", str(script), f"http://127.0.0.1:{port}{PATH}"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    if "Non-2xx" in out:
        raise RuntimeError(f"errors under load on port {port}:\n{out}")
    found = re.search(r"(\d+) requests in ([\d.]+)(m?s)", out)
    elapsed = float(found.group(2)) / (1000 if found.group(3) == "ms" else 1)
    return int(found.group(1)), elapsed


def load_with_httpx(port: int, seconds: int) -> tuple[int, float]:
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
    return count, time.monotonic() - start


def over_http() -> dict[str, float | str]:
    """Median requests/s (wall clock) and requests per server CPU-second of ours and bare over
    alternating rounds. The CPU figure is steadier when other work shares the two cores."""
    tmp = Path(tempfile.mkdtemp(prefix="activation-bench-"))
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp / 'bench.db'}", "PYTHONPATH": str(ROOT)}
    script = tmp / "post.lua"
    script.write_text(f'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                      f"wrk.body = [[{json.dumps(BODY)}]]\n")
    ports = {"ours": free_port(), "bare": free_port()}
    servers = {"ours": serve("app.main:app", ports["ours"], env),
               "bare": serve("bench.bare_app:app", ports["bare"], env)}
    tool = "wrk" if shutil.which("wrk") else "httpx"
    try:
        for port in ports.values():
            wait_until_up(port)
        wall: dict[str, list[float]] = {"ours": [], "bare": []}
        cpu: dict[str, list[float]] = {"ours": [], "bare": []}
        for _ in range(ROUNDS):  # alternate so a noisy neighbour hurts both alike
            for name in ("bare", "ours"):
                pid, before = servers[name].pid, cpu_seconds(servers[name].pid)
                done, elapsed = (load_with_wrk(ports[name], SECONDS, script) if tool == "wrk"
                                 else load_with_httpx(ports[name], SECONDS))
                wall[name].append(done / elapsed)
                cpu[name].append(done / max(cpu_seconds(pid) - before, 1e-9))
        result: dict[str, float | str] = {"tool": tool}
        for name in ("ours", "bare"):
            result[name], result[name + "_cpu"] = statistics.median(wall[name]), statistics.median(cpu[name])
        return result
    finally:
        for server in servers.values():
            server.terminate()
        for server in servers.values():
            server.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    r = in_process()
    print(f"in-process: {r['decide']:,.0f} activations/s decided ({r['decide_cpu']:,.0f}/s of CPU time); "
          f"with the JSON dict {r['json']:,.0f}/s ({r['json_cpu']:,.0f}/s of CPU time); target ≥ 100,000/s",
          flush=True)
    h = over_http()
    print(f"HTTP ({h['tool']}, {CONNECTIONS} connections, median of {ROUNDS}×{SECONDS}s, alternating): "
          f"ours {h['ours']:,.0f} req/s, bare FastAPI {h['bare']:,.0f} req/s, "
          f"ours = {h['ours'] / h['bare']:.0%} of bare; "
          f"per server CPU-second ours {h['ours_cpu']:,.0f}, bare {h['bare_cpu']:,.0f}, "
          f"ours = {h['ours_cpu'] / h['bare_cpu']:.0%} of bare (target ≥ 80%)", flush=True)


if __name__ == "__main__":
    main()
