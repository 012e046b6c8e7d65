"""The web tests' client: Starlette's TestClient, with each plain request run in one hop to its
event loop instead of about eight.

Starlette's transport makes the request's events, its body stream and its cancel scope on the
test client's event loop one `portal.call` at a time, then fetches the body chunk by chunk, each a
round trip between the test's thread and the loop's (about 0.3 ms of CPU apiece on 2 busy cores,
more than a small page's handler). Here the whole exchange runs as one coroutine on that loop and
the answer comes back whole, as `client.get()` reads it anyway. The ASGI messages the app sees are
the same: its body, then `http.disconnect` only once the answer is complete. A streamed request
(`client.stream(...)`) and a websocket still go through Starlette's own transport, and an error
in the app is raised in the test as before (or, with raise_server_exceptions=False, answered 500
when no answer had started)."""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any
from urllib.parse import unquote

import anyio
import httpx
from fastapi.testclient import TestClient

_streaming = threading.local()


class _OneHop(httpx.BaseTransport):
    def __init__(self, inner) -> None:
        self.inner = inner  # Starlette's transport: its app, portal, state and options
        self.chunks_sent: Counter[str] = Counter()  # per path: a test sees a stream's first frame go out

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme in ("ws", "wss") or getattr(_streaming, "on", False):
            return self.inner.handle_request(request)
        body = request.read()
        answer: dict[str, Any] = {"started": False, "chunks": [], "headers": []}
        with self.inner.portal_factory() as portal:
            try:
                portal.call(self._exchange, self._scope(request), body, answer)
            except Exception:
                if self.inner.raise_server_exceptions:
                    raise
        if not answer["started"]:
            if self.inner.raise_server_exceptions:
                raise AssertionError("TestClient did not receive any response.")
            return httpx.Response(500, headers=[], stream=httpx.ByteStream(b""), request=request)
        content = b"" if request.method == "HEAD" else b"".join(answer["chunks"])
        return httpx.Response(answer["status"], headers=answer["headers"], stream=httpx.ByteStream(content),
                              request=request)

    def _scope(self, request: httpx.Request) -> dict[str, Any]:
        """The scope Starlette's transport makes for an http request."""
        url = request.url
        port = url.port or {"http": 80, "https": 443}[url.scheme]
        headers = [] if "host" in request.headers else [(b"host", url.netloc)]
        headers += [(key.lower().encode(), value.encode()) for key, value in request.headers.multi_items()]
        return {"type": "http", "http_version": "1.1", "method": request.method, "path": unquote(url.path),
                "raw_path": url.raw_path.split(b"?", 1)[0], "root_path": self.inner.root_path,
                "scheme": url.scheme, "query_string": url.query, "headers": headers,
                "client": self.inner.client, "server": [url.raw_host.decode("ascii"), port],
                "extensions": {"http.response.debug": {}, "http.response.trailers": {}},
                "state": self.inner.app_state.copy()}

    async def _exchange(self, scope: dict[str, Any], body: bytes, answer: dict[str, Any]) -> None:
        complete, sent = anyio.Event(), False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:  # as Starlette's: the client "disconnects" only once the answer is whole
                await complete.wait()
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                assert not answer["started"], 'Received multiple "http.response.start" messages.'
                answer.update(started=True, status=message["status"],
                              headers=[(k.decode(), v.decode()) for k, v in message.get("headers", [])])
            elif message["type"] == "http.response.body":
                assert answer["started"] and not complete.is_set()
                answer["chunks"].append(bytes(message.get("body", b"")))
                self.chunks_sent[scope["path"]] += 1
                if not message.get("more_body", False):
                    complete.set()

        try:
            await self.inner.app(scope, receive, send)
        finally:
            complete.set()

    def close(self) -> None:
        self.inner.close()


class OneHopClient(TestClient):
    __test__ = False

    def __init__(self, app, **options: Any) -> None:
        super().__init__(app, **options)
        self._transport = _OneHop(self._transport)

    def chunks_sent(self, path: str) -> int:
        """How many body chunks the app has sent so far to requests for `path` (from any thread)."""
        return self._transport.chunks_sent[path]

    def send(self, request: httpx.Request, *, stream: bool = False, **options: Any) -> httpx.Response:
        _streaming.on = stream
        try:
            return super().send(request, stream=stream, **options)
        finally:
            _streaming.on = False
