"""A client that drops its request midway is one INFO line in the log, never a traceback
(app/web/middleware/departures.py). Before: each dropped import wrote "Exception in ASGI application" and a
4.8 KB traceback (one client wrote 19 MB of log in 5 s)."""

from __future__ import annotations

import socket
import time

import pytest

from tests.support.server import LiveServer

pytestmark = [pytest.mark.server]

ADMIN = "departures-admin-token-0123456789"
LEFT = "left before its request was read"


def dropped(port: int, path: str, content_type: bytes, start: bytes) -> None:
    """Headers announcing 100 KB, the body's first bytes, then the client is gone."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(b"POST " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Type: " + content_type
                     + b"\r\nContent-Length: 100000\r\n\r\n" + start)
        time.sleep(0.2)  # the route is reading the body when the client leaves


def test_clients_that_leave_midway_are_one_info_line_each(tmp_path):
    server = LiveServer(tmp_path / "dep.db", log_level="info", env={"ADMIN_TOKEN": ADMIN}).start()
    try:
        part = (b'--xx\r\nContent-Disposition: form-data; name="file"; filename="g.json"\r\n'
                b"Content-Type: application/json\r\n\r\n{\"format\": ")
        drops = [("/api/games/import", b"application/json", b'{"format": '),
                 ("/games/import", b"multipart/form-data; boundary=xx", part),
                 (f"/admin/{ADMIN}/restore", b"multipart/form-data; boundary=xx", part)]
        for path, content_type, start in drops:
            dropped(server.port, path, content_type, start)
        deadline = time.monotonic() + 60
        while server.log_path.read_text().count(LEFT) < len(drops) and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        server.stop()
    log = server.log_path.read_text()
    assert "Traceback" not in log and "Exception in ASGI application" not in log
    lines = [line for line in log.splitlines() if LEFT in line]
    assert len(lines) == len(drops) and all(line.startswith("INFO:") for line in lines)
    said = [line.split('"')[1].split(" ")[1] for line in lines]
    assert said == ["/api/games/import", "/games/import", "/admin/…/restore"]  # the secret link redacted
    assert not any(ADMIN in line for line in lines)
