"""`make lighthouse`: Lighthouse's mobile performance audit of the pages a table uses, against
Debian's Chromium, scores into test-artifacts/lighthouse.json.

Lighthouse comes from npm, pinned in tools/lighthouse (package.json and its lock, installed by
`npm ci` in the make target). Its default settings are the mobile preset: a 412×823 screen,
4× CPU slowdown and slow 4G, simulated. A real server (uvicorn, its own SQLite file) serves the
pages: the home page, a 2038 game in each of its four phases (the sample roster, played through
the JSON API to that phase), and the sample zone and d20 games. Each page is audited RUNS times
and the median run (by score) is kept, with the machine's load average beside it: Lighthouse's
figures move with a busy machine.

`python -m bench.lighthouse [URL-name ...]` runs only the named pages (home, 2038-phase1, ...)."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "lighthouse"
OUT = ROOT / "test-artifacts" / "lighthouse.json"
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
RUNS = int(os.environ.get("LIGHTHOUSE_RUNS", "3"))
FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update "
    "--disable-sync --no-first-run"
)
AUDITS = (
    "first-contentful-paint",
    "largest-contentful-paint",
    "total-blocking-time",
    "cumulative-layout-shift",
    "speed-index",
    "interactive",
    "server-response-time",
    "render-blocking-resources",
    "dom-size",
    "bootup-time",
    "mainthread-work-breakdown",
    "total-byte-weight",
)


def command(url: str, token: str, body: dict) -> None:
    from tests.support import http

    http.post(f"{url}/api/games/{token}/commands", json=body).raise_for_status()


def new_game(url: str, name: str, ruleset: str | None = None) -> str:
    from tests.support import http

    body = {"name": name, "seed": 2038} | ({"ruleset": ruleset} if ruleset else {})
    return http.post(f"{url}/api/games", json=body).json()["edit_token"]


def sample(url: str, token: str, ruleset: str) -> None:
    from app import rulesets

    for body in rulesets.get(ruleset).sample:
        command(url, token, body)


def potham_phases(url: str) -> dict[str, str]:
    """A 2038 game per phase, each played from the sample roster to it as turn A of the six
    table turns has it (shared/design/table-turns.md): Phase 1 with two reports, Phase 2 with
    the Event and two activations made, Phase 3 with its engagements and shots listed, Phase 4."""
    from tests.support import http

    def state(token: str) -> dict:
        return http.get(f"{url}/api/games/{token}").json()

    def seen(ids: dict, **rows) -> list[dict]:
        return [
            {"character_id": ids[n], "distance": d, "line_of_sight": los, "base_contact": c}
            for n, (d, los, c) in rows.items()
        ]

    pages = {}
    token = new_game(url, "Lighthouse 2038")
    sample(url, token, "potham-2038")
    ids = {m["name"]: m["id"] for m in state(token)["characters"] + state(token)["bots"]}
    command(url, token, {"type": "character_move", "character_id": ids["Vex"], "entries": [ids["Sentry-1"]]})
    command(
        url,
        token,
        {"type": "noise", "character_id": ids["Rook"], "kind": "noise", "bot_ids": [ids["Worker-1"]]},
    )
    pages["2038-phase1"] = duplicate(url, token)
    command(url, token, {"type": "next_phase"})
    command(url, token, {"type": "record_event", "title": "Power surge", "danger": 1})
    command(
        url,
        token,
        {
            "type": "activate_bot",
            "bot_id": ids["Hunter-1"],
            "characters": seen(ids, Rook=(7, True, False), Vex=(16, False, False)),
        },
    )
    command(
        url,
        token,
        {
            "type": "activate_bot",
            "bot_id": ids["Sentry-1"],
            "subject_distance": 1,
            "characters": seen(ids, Vex=(2, True, False), Rook=(15, False, False)),
        },
    )
    pages["2038-phase2"] = duplicate(url, token)
    command(
        url,
        token,
        {
            "type": "activate_bot",
            "bot_id": ids["Worker-1"],
            "object_distance": 5,
            "characters": seen(ids, Vex=(14, False, False), Rook=(8, False, False)),
        },
    )
    command(
        url,
        token,
        {
            "type": "activate_bot",
            "bot_id": ids["Patrol-1"],
            "waypoint_distance": 9,
            "characters": seen(ids, Vex=(20, False, False), Rook=(18, False, False)),
        },
    )
    command(url, token, {"type": "next_phase"})
    pages["2038-phase3"] = duplicate(url, token)
    command(url, token, {"type": "next_phase"})
    pages["2038-phase4"] = token
    return pages


def duplicate(url: str, token: str) -> str:
    from tests.support import http

    return http.post(f"{url}/api/games/{token}/duplicate").json()["edit_token"]


def pages(url: str) -> dict[str, str]:
    found = {"home": url + "/"}
    found |= {name: f"{url}/g/{token}" for name, token in potham_phases(url).items()}
    for ruleset in ("zone", "d20"):
        token = new_game(url, f"Lighthouse {ruleset}", ruleset)
        sample(url, token, ruleset)
        found[ruleset] = f"{url}/g/{token}"
    return found


def audit(url: str, workdir: Path) -> dict:
    out = workdir / "report.json"
    cli = TOOL / "node_modules" / ".bin" / "lighthouse"
    subprocess.run(
        [
            str(cli),
            url,
            "--only-categories=performance",
            "--output=json",
            f"--output-path={out}",
            f"--chrome-flags={FLAGS}",
            "--quiet",
        ],
        check=True,
        env=os.environ | {"CHROME_PATH": CHROMIUM},
        timeout=240,
    )
    report = json.loads(out.read_text())
    audits = report["audits"]
    return {
        "score": report["categories"]["performance"]["score"],
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "load": os.getloadavg()[0],
        "audits": {k: audits[k].get("displayValue") or audits[k].get("score") for k in AUDITS if k in audits},
        "diagnostics": diagnostics(audits),
    }


def diagnostics(audits: dict) -> dict:
    """The few details that say where the time goes: the main thread's work by kind, the
    render-blocking files, the DOM's size."""
    out = {}
    work = audits.get("mainthread-work-breakdown", {}).get("details", {}).get("items", [])
    out["main_thread_ms"] = {i["groupLabel"]: round(i["duration"]) for i in work}
    blocking = audits.get("render-blocking-resources", {}).get("details", {}).get("items", [])
    out["render_blocking"] = [(i["url"].rsplit("/", 1)[-1], round(i.get("wastedMs", 0))) for i in blocking]
    out["dom_elements"] = audits.get("dom-size", {}).get("numericValue")
    return out


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))
    from tests.support.server import LiveServer

    with tempfile.TemporaryDirectory() as tmp:
        server = LiveServer(Path(tmp) / "lighthouse.db").start()
        try:
            found = pages(server.url)
            results = {}
            for name, url in found.items():
                if argv and name not in argv:
                    continue
                runs = [audit(url, Path(tmp)) for _ in range(RUNS)]
                runs.sort(key=lambda r: r["score"])
                kept = runs[len(runs) // 2] | {
                    "scores": [r["score"] for r in runs],
                    "tbt_all_ms": [r["tbt_ms"] for r in runs],
                }
                results[name] = kept
                print(
                    f"{name:12} score {kept['score']:.2f}  TBT {kept['tbt_ms']} ms  CLS {kept['cls']}"
                    f"  (runs {kept['scores']}, load {kept['load']:.2f})",
                    flush=True,
                )
        finally:
            server.stop()
    summary = {
        "pages": results,
        "runs_per_page": RUNS,
        "chromium": CHROMIUM,
        "worst_score": min(r["score"] for r in results.values()),
        "worst_tbt_ms": max(r["tbt_ms"] for r in results.values()),
        "worst_cls": max(r["cls"] for r in results.values()),
        "median_load": statistics.median(r["load"] for r in results.values()),
    }
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(summary, indent=2) + "\n")
    print(
        f"worst: score {summary['worst_score']:.2f}, TBT {summary['worst_tbt_ms']} ms,"
        f" CLS {summary['worst_cls']}"
        f" -> {OUT.relative_to(ROOT)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
