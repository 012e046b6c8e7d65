"""`bench pages` on one thread, for steady CPU medians and profiles (issue 21).

The test client runs the app on a thread of its own (cProfile sees nothing of it) and adds its
own cost. Here the app runs on this thread: FastAPI's sync routes and dependencies are called
inline (not in its thread pool), through httpx's ASGI transport. Build the game once, then run
each version of the code on a copy of it, alternating, on the same load:

    python -m bench.one_thread build /tmp/game.db        # the 1,006-step game of bench pages
    python -m bench.one_thread run /tmp/game.db 60       # medians of CPU ms over 60 of each
    python -m bench.one_thread run /tmp/game.db 40 "one step, 4 pages"   # that one, profiled
    SORT=tottime TOP=40 python -m bench.one_thread run …                # the profile's order and length

`run` prints one JSON line (and the load average), each case's CPU median twice: in all (this
bench's HTTP client and stream harness included) and the app's alone ("(app)": the server's
side, inside its ASGI calls and its live pushes, see bench.ab.AppCpu). The cases: one command;
one step seen by four open pages (two play, two watch), each refreshing its step panels in one
request (as live.js does when it cannot take the push), or "pushed": each page's live stream
making its step event (the panels rendered once per link and step, as the pages take them);
a tap (the play page's form post, answered with its panels) and its step's four pushes; a
command then the turn panel (its first render after a step); the full page; the turn panel
asked again (cached: a request's own cost); the turn panel's size.
"""

from __future__ import annotations

import asyncio
import cProfile
import json
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time

import httpx

from bench.pages_bench import ASSIGNMENT, LIVE_PANELS, ROLES, STEPS, noise


def inline_threads() -> None:
    async def inline(func, *args, **kwargs):
        return func(*args, **kwargs)

    import fastapi.dependencies.utils
    import fastapi.routing
    fastapi.routing.run_in_threadpool = inline
    fastapi.dependencies.utils.run_in_threadpool = inline
    import app.web.routes.live  # the live push renders in a worker thread: here inline, so cProfile sees it
    app.web.routes.live.run_in_threadpool = inline


def app_for(db: str):
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    inline_threads()
    from app.bootstrap import create_app
    return create_app()


def client(app) -> httpx.AsyncClient:
    from bench.ab import AppCpu, without_trio_lookup

    without_trio_lookup()  # the bench's own cost, not the app's
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=AppCpu.timed_app(app)), base_url="http://bench")


async def build(db: str) -> None:
    app = app_for(db)
    async with app.router.lifespan_context(app), client(app) as c:
        created = (await c.post("/api/games", json={"name": "Bench night"})).json()
        send = f"/api/games/{created['edit_token']}/commands"
        for name in ("Ada", "Bo"):
            character = {"type": "add_character", "character": {"name": name}}
            (await c.post(send, json=character)).raise_for_status()
        for role in ROLES:
            bot = {"name": f"{role}-1", "role": role, **ASSIGNMENT[role]}
            (await c.post(send, json={"type": "add_bot", "bot": bot})).raise_for_status()
        ada = (await c.get(f"/api/games/{created['edit_token']}")).json()["characters"][0]["id"]
        for _ in range(STEPS):
            (await c.post(send, json=noise(ada))).raise_for_status()
    with open(db + ".json", "w") as ids:
        json.dump({"token": created["edit_token"], "view": created["view_token"], "ada": ada}, ids)


def cases(c: httpx.AsyncClient, token: str, view: str, ada: str) -> dict:
    send = f"/api/games/{token}/commands"

    async def command() -> int:
        r = await c.post(send, json=noise(ada))
        r.raise_for_status()
        return r.json()["seq"]

    async def four_pages() -> None:
        seq = await command()
        for link in (f"/g/{token}", f"/g/{token}", f"/v/{view}", f"/v/{view}"):
            params = {"names": LIVE_PANELS, "after": seq - 1}
            (await c.get(f"{link}/panels", params=params)).raise_for_status()

    async def get(url: str) -> None:
        (await c.get(url)).raise_for_status()

    pages = pushed_pages(token, view)

    async def four_pages_pushed() -> None:
        await command()
        for subscription, step_data in pages:  # as each page's stream makes its step event
            frames = await subscription.next_frames(5, step_data)
            assert frames and '"panels"' in frames[0], frames

    async def tap_pushed() -> None:  # a tap at the table: its answer, then its step's pushes
        tap = {"type": "noise", "form": f"quick-noise-{ada}", "character_id": ada, "kind": "noise"}
        (await c.post(f"/g/{token}/turn", data=tap, headers={"HX-Request": "true"})).raise_for_status()
        for subscription, step_data in pages:
            frames = await subscription.next_frames(5, step_data)
            assert frames and '"panels"' in frames[0], frames

    async def turn_after_a_step() -> None:
        await command()
        await get(f"/g/{token}/panels/turn")

    return {"one command": command, "one step, 4 pages": four_pages,
            "one step, 4 pages pushed": four_pages_pushed, "one tap, 4 pages pushed": tap_pushed,
            "command + turn": turn_after_a_step,
            "full page": lambda: get(f"/g/{token}"),
            "turn asked again": lambda: get(f"/g/{token}/panels/turn")}


def pushed_pages(token: str, view: str) -> list:
    """Four open pages' live streams (two play, two watch) as app/web/routes/live.py's `events` opens
    them: a subscription to the game's steps and the push that turns a step into its event data
    (the step panels, rendered once per link and step however many pages follow it)."""
    from sqlmodel import Session

    from app.live import hub as live
    from app.store import games
    from app.store.db import get_engine
    from app.web.routes.live import PUSHED

    with Session(get_engine()) as session:
        game_id = games.find_game(session, token)[0].id
    pages = []
    for link, is_view in ((token, False), (token, False), (view, True), (view, True)):
        async def step_data(seq: int, link=link, is_view=is_view) -> tuple[int, str]:
            return await PUSHED.data(Session(get_engine()), game_id, link, is_view, seq)

        pages.append((live.hub.subscribe(game_id, link), step_data))
    return pages


async def run(db: str, runs: int, profiled: str | None) -> None:
    from bench.ab import AppCpu

    with open(db + ".json") as f:
        ids = json.load(f)
    tmp = tempfile.mkdtemp()
    try:
        for suffix in ("", "-wal"):  # every run starts from the same game (its WAL too, if left)
            if os.path.exists(db + suffix):
                shutil.copy(db + suffix, os.path.join(tmp, "game.db" + suffix))
        app = app_for(os.path.join(tmp, "game.db"))
        AppCpu.time_pushes()
        async with app.router.lifespan_context(app), client(app) as c:
            timed = cases(c, ids["token"], ids["view"], ids["ada"])
            for _ in range(10):  # warm: templates compiled, caches filled
                await timed["one step, 4 pages"]()
            out = {"turn KB": round(len((await c.get(f"/g/{ids['token']}/panels/turn")).content) / 1024, 1)}
            profiler = cProfile.Profile() if profiled else None
            for label, fn in timed.items():
                if profiled and label != profiled:
                    continue
                cpus, apps = [], []
                for _ in range(runs):
                    AppCpu.take()
                    start = time.process_time()
                    if profiler:
                        profiler.enable()
                    await fn()
                    if profiler:
                        profiler.disable()
                    cpus.append((time.process_time() - start) * 1000)
                    apps.append(AppCpu.take())
                out[label] = round(statistics.median(cpus), 2)
                out[f"{label} (app)"] = round(statistics.median(apps), 2)
            if profiler:
                order, top = os.environ.get("SORT", "cumulative"), int(os.environ.get("TOP", "60"))
                pstats.Stats(profiler).sort_stats(order).print_stats(top)
        print(json.dumps(out), "load", os.getloadavg(), flush=True)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    if sys.argv[1:2] == ["build"]:
        asyncio.run(build(sys.argv[2]))
    else:
        asyncio.run(run(sys.argv[2], int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else None))
