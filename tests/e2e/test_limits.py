"""The limits a stranger cannot exceed, against a real server process on raw sockets (docs/limits.md):
a request's head and URL, the deadlines before and during a head, the connections one address
may hold, the live streams it may open, and an import's body that announces 20 MB and sends nothing.

Before: a 64 MB header line was assembled and answered 200, a silent or half-sent head kept its
connection open for good, 20,000 sockets from one host used up the server's files, and a silent
import's deadline grew with the size it announced (325 s for 20 MB), holding the import gate.

The server here has small limits (so the tests send kilobytes, not megabytes) and short
deadlines; a test never asserts a duration: it waits generously for an answer that must come,
and checks that what must not be answered yet is still waiting. The stranger speaks from
127.0.0.2 (all of 127/8 is this machine): 127.0.0.1 is the trusted proxy address of uvicorn's
default, whose connections are not counted per client."""

from __future__ import annotations

import select
import socket

import httpx
import pytest

from tests.support.server import LiveServer

pytestmark = [pytest.mark.server]

HEAD = 4096
URL = 2048
IDLE = 1.5
CONNECTIONS = 8
READ_SECONDS = 8  # long enough for another client's import on a loaded machine; waited out once
STREAMS = 3
STRANGER = "127.0.0.2"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = LiveServer(tmp_path_factory.mktemp("limits") / "limits.db", env={
        "MAX_HEAD_BYTES": str(HEAD), "MAX_URL_BYTES": str(URL), "IDLE_SECONDS": str(IDLE),
        "HEAD_SECONDS": str(IDLE), "CONNECTIONS_PER_CLIENT": str(CONNECTIONS),
        "BODY_READ_SECONDS": str(READ_SECONDS), "IMPORT_GATE": "2", "IMPORTS_PER_CLIENT": "1",
        "STREAMS_PER_CLIENT": str(STREAMS)}).start()
    yield server
    server.stop()


def connect(server, source: str = STRANGER) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(30)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", server.port))
    return sock


def status_of(sock: socket.socket) -> tuple[int, bytes]:
    """The status and the whole answer, read until the server closes the connection."""
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return (int(data.split(b" ", 2)[1]) if data else 0), data


def closed(sock: socket.socket) -> bool:
    readable, _, _ = select.select([sock], [], [], 0)
    return bool(readable)


def test_a_head_larger_than_its_limit_is_431_and_never_reaches_the_app(server):
    sock = connect(server)
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (HEAD * 4) + b"\r\n\r\n")
    status, answer = status_of(sock)
    assert status == 431 and b"larger than 4096 bytes" in answer
    ok = httpx.get(server.url + "/api/health", headers={"X-Fine": "a" * (HEAD // 2)}, timeout=30)
    assert ok.status_code == 200  # a head within the limit is served


def test_a_head_sent_in_small_pieces_is_counted_as_it_arrives(server):
    sock = connect(server)
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    for _ in range(HEAD // 512 + 2):
        try:
            sock.sendall(b"X-Piece: " + b"b" * 500 + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            break
    assert status_of(sock)[0] == 431


def test_a_url_longer_than_its_limit_is_414(server):
    sock = connect(server)
    sock.sendall(b"GET /g/" + b"x" * (URL + 10) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    status, answer = status_of(sock)
    assert status == 414 and b"longer than 2048 bytes" in answer


def test_a_connection_that_sends_nothing_is_closed_after_the_idle_deadline(server):
    sock = connect(server)
    assert status_of(sock) == (0, b"")  # closed by the server, without a word (recv gives b"")


def test_a_head_that_stops_halfway_is_408_after_the_head_deadline(server):
    sock = connect(server)
    sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Half: ")
    status, answer = status_of(sock)
    assert status == 408 and b"headers did not arrive in time" in answer


def test_one_address_past_its_connections_gets_429_with_retry_after_and_others_are_served(server):
    held = [connect(server) for _ in range(CONNECTIONS)]
    try:
        one_more = connect(server)
        status, answer = status_of(one_more)
        assert status == 429 and b"retry-after: 10" in answer.lower()
        assert not any(closed(s) for s in held)  # the first ones are still open
        other = connect(server, "127.0.0.3")  # another address is served
        other.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert status_of(other)[0] == 200
    finally:
        for sock in held:
            sock.close()


def test_an_import_that_announces_20_mb_and_sends_nothing_is_let_go_on_the_plain_deadline(server):
    """Its deadline was body_read_seconds + 20 MB at 64 KB/s (325 s): now the body's deadline grows
    only with bytes that arrived (body_min_rate)."""
    sock = connect(server)
    sock.sendall(b"POST /api/games/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 b"Content-Length: 20000000\r\n\r\n")
    status, answer = status_of(sock)
    assert status == 408


def test_silent_imports_of_one_address_leave_the_import_gate_to_others(server):
    game = httpx.post(server.url + "/api/games", json={"name": "Mine"}, timeout=30).json()
    export = httpx.get(f"{server.url}/api/games/{game['edit_token']}/export", timeout=30)
    silent = []
    for _ in range(2):  # the gate's size here: before, these two held all of it
        sock = connect(server)
        sock.sendall(b"POST /api/games/import HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 5000\r\n\r\n{")
        silent.append(sock)
    try:
        imported = httpx.post(server.url + "/api/games/import", content=export.content,
                              headers={"Content-Type": "application/json"}, timeout=30)
        assert imported.status_code == 201
        assert not any(closed(s) for s in silent)  # they still hang: the import did not wait for them
    finally:
        for sock in silent:
            sock.close()
