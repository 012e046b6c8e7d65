"""A real server process for end-to-end tests: uvicorn serving app.main:app on a free port with
its own SQLite file (or the PostgreSQL database `database_url` names), migrated on start exactly
as `make run` does. No mocks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

from app.__main__ import KEEP_ALIVE_SECONDS

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, db_path: Path, port: int | None = None, database_url: str | None = None,
                 host: str = "127.0.0.1", env: dict[str, str] | None = None):
        """`host`: where it listens (HOST, as `make run`); it is always reached at 127.0.0.1."""
        self.db_path, self.host = db_path, host
        self.env = env or {}  # settings for this server (e.g. BODY_READ_SECONDS)
        self.database_url = database_url or f"sqlite:///{db_path}"
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.log_path = db_path.with_suffix(".server.log")

    def start(self, timeout: float = 120) -> LiveServer:  # a loaded 2-core machine starts slowly
        env = {**os.environ, "DATABASE_URL": self.database_url, "HOST": self.host,
               "PORT": str(self.port), "PYTHONUNBUFFERED": "1", **self.env}
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "app.main:app", "--host", self.host,
             "--port", str(self.port), "--log-level", "warning",
             # as `python -m app` serves: uvicorn's 5 s default closes idle connections just as
             # httpx (which keeps them 5 s) reuses one, a ReadError the load tests met under load
             "--timeout-keep-alive", str(KEEP_ALIVE_SECONDS)],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        self.stop()  # never leave a half-started server behind
        raise RuntimeError(f"server did not start in {timeout}s: {self.log_path.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None
