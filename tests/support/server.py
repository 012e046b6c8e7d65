"""A real server process for end-to-end tests: uvicorn serving app.main:app on a free port with
its own SQLite file (or the PostgreSQL database `database_url` names), migrated on start as
`make run` does. A new SQLite file starts as a copy of one migrated once per test process, so
that migration finds nothing to do, as at every start after a server's first. No mocks."""

from __future__ import annotations

import atexit
import http.client
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

from app.__main__ import HTTP_PROTOCOL, KEEP_ALIVE_SECONDS
from tests.support import forked

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def share_tls_context() -> None:
    """Spare every httpx client of this test process its CA bundle. `httpx.get` and the like build
    a client per call, and each client a TLS context with certifi's bundle loaded: 60 ms of CPU,
    more than most requests to a local server cost, though every test speaks plain HTTP to
    127.0.0.1. httpx's documented SSL_CERT_DIR (read when SSL_CERT_FILE is unset) makes that
    context read its CAs from a folder, lazily, when a certificate is first verified (never, here):
    an empty folder costs nothing to load. The tests and the servers they start verify no
    certificate, so nothing else changes."""
    import os
    import tempfile

    os.environ.pop("SSL_CERT_FILE", None)
    os.environ["SSL_CERT_DIR"] = tempfile.mkdtemp(prefix="no-cas-")


def answers(port: int) -> bool:
    """Whether the home page on `port` answers 200 yet. The standard library's client, not httpx:
    it polls many times while the server starts beside it, and costs nothing to make."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
    try:
        connection.request("GET", "/")
        return connection.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


_template: Path | None = None


def migrated_template() -> Path:
    """A SQLite file at the latest migration, made once per test process by app.store.migrate (what a
    server's start does to an empty file; tests/test_migrations.py checks that it builds the
    models' schema). A server then starts on a copy and finds nothing to migrate, as every start
    after the first does."""
    global _template
    if _template is None:
        from app.store.migrate import migrate

        folder = Path(tempfile.mkdtemp(prefix="potham-template-"))
        atexit.register(shutil.rmtree, folder, True)
        migrate(f"sqlite:///{folder / 'template.db'}")
        with closing(sqlite3.connect(folder / "template.db")) as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file itself
        _template = folder / "template.db"
    return _template


class LiveServer:
    def __init__(self, db_path: Path, port: int | None = None, database_url: str | None = None,
                 host: str = "127.0.0.1", env: dict[str, str] | None = None, fork: bool | None = None,
                 log_level: str = "warning", wrap: list[str] | None = None):
        """`host`: where it listens (HOST, as `make run`); it is always reached at 127.0.0.1.
        `fork`: forked from a process that has imported the app (tests/support/forked.py), or
        False: started as `python -m uvicorn …`; None: forked unless TEST_SERVER_FORK=0."""
        self.db_path, self.host, self.fork, self.log_level = db_path, host, fork, log_level
        self.wrap = wrap or []  # a command the server runs under (e.g. unshare): never forked then
        self.env = env or {}  # settings for this server (e.g. BODY_READ_SECONDS)
        self.database_url = database_url or f"sqlite:///{db_path}"
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | forked.ForkedProcess | None = None
        self.log_path = db_path.with_suffix(".server.log")

    def start(self, timeout: float = 120) -> LiveServer:  # a loaded 2-core machine starts slowly
        return self.launch().ready(timeout)

    def launch(self) -> LiveServer:
        """Start the process without waiting for it (`ready` waits): two servers start side by side."""
        if self.database_url == f"sqlite:///{self.db_path}" and not self.db_path.exists():
            self.db_path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(migrated_template(), self.db_path)
        env = {**os.environ, "DATABASE_URL": self.database_url, "HOST": self.host,
               "PORT": str(self.port), "PYTHONUNBUFFERED": "1", **self.env}
        args = ["app.main:app", "--host", self.host, "--port", str(self.port), "--log-level", self.log_level,
                # as `python -m app` serves: uvicorn's 5 s default closes idle connections just as
                # httpx (which keeps them 5 s) reuses one, a ReadError the load tests met under load
                "--timeout-keep-alive", str(KEEP_ALIVE_SECONDS),
                "--http", HTTP_PROTOCOL]  # the limits of a request's head, as `python -m app` serves
        if not self.wrap and (forked.enabled() if self.fork is None else self.fork):  # the app imported once: forked.py
            self.process = forked.ForkedProcess(args, env, ROOT, self.log_path)
            return self
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([*self.wrap, sys.executable, "-m", "uvicorn", *args], cwd=ROOT, env=env,
                                            stdout=log, stderr=subprocess.STDOUT)
        return self

    def ready(self, timeout: float = 120) -> LiveServer:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            if self.answers():
                return self
            time.sleep(0.05)
        self.stop()  # never leave a half-started server behind
        raise RuntimeError(f"server did not start in {timeout}s: {self.log_path.read_text()[-2000:]}")

    def answers(self) -> bool:
        return answers(self.port)

    def stop(self) -> None:
        stop_all([self])


def stop_all(servers: list[LiveServer]) -> None:
    """Stop servers side by side: each is told to stop before any is waited for (one on
    PostgreSQL takes up to a second to end its listening thread: app/live/pg_relay.py)."""
    running = [s for s in servers if s.process and s.process.poll() is None]
    for server in running:
        server.process.terminate()
    for server in running:
        try:
            server.process.wait(10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(5)
    for server in servers:
        server.process = None
