"""The connection's own limits, before a request reaches the app: uvicorn's HTTP protocol with
a size limit on a request's head, deadlines on its arrival, and a cap on connections per client.

uvicorn has none of them for its httptools protocol (its h11 one has only a size limit, answered
400): a 64 MB header line was assembled (in time that grows with the square of its size, on the
event loop) and answered 200, a connection that sent nothing or half its headers stayed open for
good, and one host could open sockets until the process ran out of files. `--http
app.web.middleware.connections:GuardedHttp` (app/__main__.py) serves with these instead, each a setting
(app/settings.py) and listed in docs/limits.md:

- max_head_bytes (16 KB): the request line and headers, counted as they arrive; the parser is
  never fed more than that for one head. Beyond: 431, or 414 when the URL is what passed
  max_url_bytes (8 KB).
- idle_seconds (10 s): a new connection that sends no byte is closed; head_seconds (10 s): a
  request's head must be in that long after its first byte, or 408 and the connection is closed.
  Between two requests of a keep-alive connection, uvicorn's own keep-alive timeout applies.
- connections_per_client (64): one more from the same address is answered 429 with Retry-After
  at once and closed (it holds no file). A trusted proxy's connections (uvicorn's
  forwarded_allow_ips) are not counted: it carries many clients, and counts them itself
  (docs/deployment.md)."""

from __future__ import annotations

import ipaddress
import json
import logging
import time
from collections import Counter
from http import HTTPStatus

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.settings import get_settings

logger = logging.getLogger("uvicorn.error")
RETRY_AFTER_S = 10
TOO_MANY = "Too many connections from your address at once; close some and try again."
HEAD_TOO_LARGE = "The request's headers are larger than {} bytes."
URL_TOO_LONG = "The request's URL is longer than {} bytes."
HEAD_TIMED_OUT = "The request's headers did not arrive in time."

open_per_client: Counter[str] = Counter()  # this process's connections by client address


class Notices:
    """One log line per kind of refusal and client address a minute: a stranger's 20,000
    sockets say so in the log without writing 20,000 lines."""

    def __init__(self, every: float = 60.0):
        self.every, self.last = every, {}

    def say(self, kind: str, client: str, text: str) -> None:
        now = time.monotonic()
        if now - self.last.get((kind, client), -self.every) >= self.every:
            if len(self.last) > 10_000:
                self.last.clear()
            self.last[(kind, client)] = now
            logger.warning("%s - %s (said once a minute per address)", client, text)


notices = Notices()


def trusted(address: str, allowed: list[str] | str | None) -> bool:
    """Whether `address` is one of uvicorn's forwarded_allow_ips (an address, a network, `*`)."""
    entries = allowed.split(",") if isinstance(allowed, str) else list(allowed or [])
    for entry in (e.strip() for e in entries):
        if entry == "*" or entry == address:
            return True
        try:
            if "/" in entry and ipaddress.ip_address(address) in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


def answer(status: int, detail: str, extra: list[tuple[bytes, bytes]] = ()) -> bytes:
    body = json.dumps({"detail": detail}).encode()
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}".encode(),
             b"content-type: application/json", b"content-length: " + str(len(body)).encode(),
             b"connection: close", *(name + b": " + value for name, value in extra)]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


class GuardedHttp(HttpToolsProtocol):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        settings = get_settings()
        self.max_head, self.max_url = settings.max_head_bytes, settings.max_url_bytes
        self.idle_s, self.head_s = settings.idle_seconds, settings.head_seconds
        self.per_client = settings.connections_per_client
        self.address: str | None = None  # counted in open_per_client while set
        self.in_head, self.head_bytes, self.refusal = True, 0, None
        self.deadline = None

    # --- the connection ---------------------------------------------------------------------

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host and not trusted(host, self.config.forwarded_allow_ips):
            self.address = host
            open_per_client[host] += 1
            if open_per_client[host] > self.per_client:  # answered at once: it holds no file
                self.refuse(429, TOO_MANY, [(b"retry-after", str(RETRY_AFTER_S).encode())])
                return
        self.deadline = self.loop.call_later(self.idle_s, self.timed_out)

    def connection_lost(self, exc) -> None:
        self.stop_deadline()
        if self.address is not None:
            open_per_client[self.address] -= 1
            if open_per_client[self.address] <= 0:
                del open_per_client[self.address]
            self.address = None
        super().connection_lost(exc)

    def stop_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def timed_out(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        if self.head_bytes:  # half a head: say why; a connection that never spoke is just closed
            self.refuse(408, HEAD_TIMED_OUT)
        else:
            self.transport.close()

    def refuse(self, status: int, detail: str, extra: list[tuple[bytes, bytes]] = ()) -> None:
        self.stop_deadline()
        self.transport.write(answer(status, detail, extra))
        self.transport.close()
        if status != 408:
            notices.say(str(status), self.address or "-", detail)

    # --- the bytes --------------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        while data and not self.transport.is_closing():
            if not self.in_head:
                super().data_received(data)
                return
            if self.head_bytes == 0:  # a request's first byte: its head has head_seconds to come
                self.stop_deadline()
                self.deadline = self.loop.call_later(self.head_s, self.timed_out)
            room = self.max_head - self.head_bytes + 1  # one byte more than allowed tells
            piece, data = data[:room], data[room:]
            self.head_bytes += len(piece)
            super().data_received(piece)
            if self.refusal is None and self.in_head and self.head_bytes > self.max_head:
                self.refusal = (431, HEAD_TOO_LARGE.format(self.max_head))
            if self.refusal is not None and not self.transport.is_closing():
                self.refuse(*self.refusal)

    # --- the parser's callbacks -------------------------------------------------------------

    def on_url(self, url: bytes) -> None:
        if len(self.url) + len(url) > self.max_url:
            self.refusal = self.refusal or (414, URL_TOO_LONG.format(self.max_url))
            return
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        if self.refusal is None:
            super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self.in_head = False
        self.stop_deadline()
        if self.refusal is None:
            super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if self.refusal is None:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self.refusal is None:
            super().on_message_complete()
        self.in_head, self.head_bytes = True, 0  # what comes next is the next request's head
