"""Answers nobody reads hold bounded memory (app/transfer/exchange.py export_chunks): a game's export
is streamed a few steps at a time, and the next piece is written only once the client took the
last (uvicorn's back-pressure), against a real server process.

Before: the whole export was rendered into one answer and handed to the socket whole: 40 unread
7.2 MB exports (a game anyone may import) added 864 MB to the server. Here 12 clients ask for an
export of about 6 MB and read nothing; the server's resident memory must grow by less than half
an export each (measured once on a loaded machine: 82 MB before, 9 to 22 MB after, much of it the
allocator's per-thread arenas). The game is the 2038 fixture with 2,000 undo steps after it (each
back to its last step, so each replays as "no change"), every one with 3 KB of log text."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import httpx
import pytest

from tests.support.server import LiveServer

pytestmark = [pytest.mark.server]

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "exports" / "v3.json"
UNREAD = 12
UNDOS = 2000


def big_document() -> bytes:
    doc = json.loads(FIXTURE.read_text(encoding="utf-8"))
    last = doc["steps"][-1]["seq"]
    text = [{"text": "x" * 3000, "rule": None, "dice": None}]
    doc["steps"] += [{"seq": last + n, "kind": "undo", "actor": "player", "command": {"type": "undo", "to_seq": last},
                      "entries": text, "created_at": doc["steps"][-1]["created_at"], "delta": []}
                     for n in range(1, UNDOS + 1)]
    return json.dumps(doc).encode()


def resident_mb(pid: int) -> float:
    line = next(line for line in open(f"/proc/{pid}/status") if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def test_exports_nobody_reads_hold_a_little_memory_each(tmp_path):
    server = LiveServer(tmp_path / "unread.db").start()
    sockets = []
    try:
        body = big_document()
        made = httpx.post(server.url + "/api/games/import", content=body,
                          headers={"Content-Type": "application/json"}, timeout=120)
        assert made.status_code == 201, made.text[:500]
        export = f"{server.url}/api/games/{made.json()['edit_token']}/export"
        size_mb = len(httpx.get(export, timeout=120).content) / 2**20  # read whole once: warm
        assert size_mb > 5
        before = resident_mb(server.process.pid)
        request = f"GET /api/games/{made.json()['edit_token']}/export HTTP/1.1\r\nHost: x\r\n\r\n".encode()
        for _ in range(UNREAD):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the kernel holds little
            sock.connect(("127.0.0.1", server.port))
            sock.sendall(request)
            assert sock.recv(12) == b"HTTP/1.1 200"  # the answer has begun; nothing more is read
            sockets.append(sock)
        time.sleep(2)  # what the server writes meanwhile, it writes into its buffers
        grown = resident_mb(server.process.pid) - before
        assert grown < UNREAD * size_mb / 2, f"{grown:.0f} MB for {UNREAD} unread exports of {size_mb:.1f} MB"
    finally:
        for sock in sockets:
            sock.close()
        server.stop()
