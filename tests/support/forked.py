"""Real server processes forked from one that has already imported the app.

Starting `python -m uvicorn app.main:app` cost about 2.6 s of CPU, 2 s of it importing the app
(FastAPI, pydantic models, SQLAlchemy, Jinja...), and the tests start 30 to 40 servers a run. A
zygote (tests/support/zygote.py: started clean once per test process, no threads, the app
imported) forks each server instead. The server is still a real, separate process with its own
environment (DATABASE_URL, PORT, its settings), folder and log, running uvicorn's command line
with the same arguments: it migrates, reads its settings and serves as a started one does, and
can be killed (-9 too), terminated and waited for. Importing shares nothing a server's settings
decide: the zygote checks it, and tests/e2e/test_forked_server.py proves that two forked servers
each honour their own settings. TEST_SERVER_FORK=0 starts every server as before."""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def enabled() -> bool:
    """Whether servers are forked by default (TEST_SERVER_FORK=0: started as before)."""
    return os.environ.get("TEST_SERVER_FORK", "1") != "0"


class Zygote:
    """This test process's zygote and what it has said: the pid of each fork, the exit codes."""

    def __init__(self):
        handle, name = tempfile.mkstemp(prefix="potham-zygote-", suffix=".log")
        self.log = Path(name)
        with os.fdopen(handle, "wb") as log:  # its imports' errors, if any
            self.process = subprocess.Popen([sys.executable, "-m", "tests.support.zygote"], cwd=ROOT,
                                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log)
        self.exits: dict[int, int] = {}
        self._pids: list[int] = []
        self._pending = b""
        self._ended = False
        self._lock = threading.Lock()
        atexit.register(self.close)

    def fork(self, request: dict, timeout: float = 120) -> int:
        """A new server's pid (the first waits for the zygote's imports)."""
        with self._lock:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            deadline = time.monotonic() + timeout
            while not self._pids:
                self._read(deadline - time.monotonic())
                if self._ended or time.monotonic() > deadline:
                    raise RuntimeError(f"the zygote did not fork: {self.log.read_text()[-2000:]}")
            pid = self._pids.pop(0)
            self.exits.pop(pid, None)  # an earlier process with the same pid
            return pid

    def exit_code(self, pid: int, timeout: float = 0) -> int | None:
        """`pid`'s exit code once the zygote has reaped it, waiting up to `timeout` seconds. The
        lock is taken a tenth of a second at a time: another thread may fork meanwhile."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                self._read(min(0.1, deadline - time.monotonic()))
                if pid in self.exits:
                    return self.exits[pid]
                if self._ended:
                    raise RuntimeError(f"the zygote ended before server {pid}: {self.log.read_text()[-2000:]}")
            if time.monotonic() >= deadline:
                return None

    def _read(self, timeout: float) -> None:
        """Take in what the zygote said, waiting up to `timeout` seconds for a first word."""
        out = self.process.stdout.fileno()
        if not select.select([out], [], [], max(0.0, timeout))[0]:
            return
        data = os.read(out, 65536)
        self._ended = not data
        self._pending += data
        while b"\n" in self._pending:
            line, self._pending = self._pending.split(b"\n", 1)
            word, *numbers = line.decode().split()
            if word == "pid":
                self._pids.append(int(numbers[0]))
            else:
                self.exits[int(numbers[0])] = int(numbers[1])

    def close(self) -> None:
        """End the zygote (it stops the servers still running)."""
        if self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait(10)
        self.process.stdout.close()
        self.log.unlink(missing_ok=True)


_zygote: Zygote | None = None


def zygote() -> Zygote:
    global _zygote
    if _zygote is None or _zygote.process.poll() is not None:
        _zygote = Zygote()
    return _zygote


class ForkedProcess:
    """A server forked by the zygote, with what the tests use of `subprocess.Popen`."""

    def __init__(self, args: list[str], env: dict[str, str], cwd: Path, log: Path):
        self.args = args
        self._zygote = zygote()
        self.pid = self._zygote.fork({"args": args, "env": env, "cwd": str(cwd), "log": str(log)})
        self.returncode: int | None = None

    def poll(self) -> int | None:
        return self.wait_for(0)

    def wait(self, timeout: float | None = None) -> int:
        code = self.wait_for(1e9 if timeout is None else timeout)
        if code is None:
            raise subprocess.TimeoutExpired(self.args, timeout)
        return code

    def wait_for(self, timeout: float) -> int | None:
        if self.returncode is None:
            self.returncode = self._zygote.exit_code(self.pid, timeout)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # not yet reaped by the zygote, so the pid is still this server's
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)
