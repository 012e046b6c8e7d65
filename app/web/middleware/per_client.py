"""What one client address may hold or make (docs/limits.md), beyond it 429 with Retry-After:

- live streams open at once (`streams_per_client`, 16): one client opened 2,000 streams of one
  game, every one answered and kept; a page holds one, a table of a few devices a handful;
- new games and imports in the last hour (`games_per_hour`; 0, no quota, on `make run`; set by
  `make share` and the container): one stranger could grow the database without bound. A
  request that fails (4xx, 5xx) does not count.

Behind a trusted proxy the address is the one it forwarded (uvicorn's proxy headers)."""

from __future__ import annotations

import math
import re
import time
from collections import Counter, deque

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.settings import get_settings
from app.web.middleware.refusals import client_address, refuse

HOUR = 3600.0
STREAM_RETRY_S = 30
MAKES_A_GAME = re.compile(r"^/(api/games|games|games/sample|api/games/import|games/import"
                          r"|api/games/[^/]+/duplicate|g/[^/]+/duplicate)$")
TOO_MANY_STREAMS = ("Too many live pages open from your address at once ({}); close some. "
                    "This page stops following the game live meanwhile.")
QUOTA = ("Your address made {} new games or imports in the last hour, this server's limit; "
         "try again in {} minutes. Nothing was made.")


def is_stream(scope: Scope) -> bool:
    return scope["method"] == "GET" and scope["path"].endswith("/events")


def makes_a_game(scope: Scope) -> bool:
    return scope["method"] == "POST" and MAKES_A_GAME.match(scope["path"]) is not None


# this process's counts: live streams open per client address, and when each made its games
streams: Counter[str] = Counter()
made_by: dict[str, deque[float]] = {}


class PerClient:
    def __init__(self, app: ASGIApp):
        self.app = app
        self.streams, self.made = streams, made_by

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
        elif is_stream(scope):
            await self.stream(scope, receive, send)
        elif makes_a_game(scope) and get_settings().games_per_hour > 0:
            await self.make(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        client, limit = client_address(scope), get_settings().streams_per_client
        if self.streams[client] >= limit:
            await refuse(scope, receive, send, 429, TOO_MANY_STREAMS.format(limit),
                         {"Retry-After": str(STREAM_RETRY_S)})
            return
        self.streams[client] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.streams[client] -= 1
            if self.streams[client] <= 0:
                del self.streams[client]

    def window(self, client: str, now: float) -> deque[float]:
        made = self.made.setdefault(client, deque())
        while made and made[0] <= now - HOUR:
            made.popleft()
        if len(self.made) > 10_000:  # forget addresses with nothing in their hour
            for other in [c for c, times in self.made.items() if not times or times[-1] <= now - HOUR]:
                if other != client:
                    del self.made[other]
        return made

    async def make(self, scope: Scope, receive: Receive, send: Send) -> None:
        client, quota, now = client_address(scope), get_settings().games_per_hour, time.monotonic()
        made = self.window(client, now)
        if len(made) >= quota:
            wait = max(1, math.ceil(made[0] + HOUR - now))
            await refuse(scope, receive, send, 429, QUOTA.format(quota, math.ceil(wait / 60)),
                         {"Retry-After": str(wait)})
            return
        made.append(now)  # counted now, so that requests at once cannot pass the quota together
        failed = True

        async def watched(message: Message) -> None:
            nonlocal failed
            if message["type"] == "http.response.start":
                failed = message["status"] >= 400
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            if failed and now in made:
                made.remove(now)
