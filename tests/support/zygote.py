"""The zygote (`python -m tests.support.zygote`): a process that imports the app once, then forks
each real server the tests ask for (tests/support/forked.py speaks to it).

It imports what every server imports (the app with its routes, models and templates'
environment, its migrations' module, the PostgreSQL relay, uvicorn's command line) and does once
what each server did first with them (`warm`), checks that none of it read the settings, made an
engine or started a thread, then reads requests, one JSON
line each on stdin: `{"args": [...], "env": {...}, "cwd": "...", "log": "..."}`. For each it
forks and answers `pid N`; when a server ends it answers `exit N CODE` (CODE as
subprocess.Popen's returncode: -9 for kill -9). The forked child takes the request's whole
environment, folder and log file, then runs uvicorn's command line with the request's arguments,
as `python -m uvicorn ARGS` does. At the end of stdin (the test process is gone) it stops the
servers still running and exits."""

from __future__ import annotations

import gc
import io
import json
import os
import selectors
import signal
import sys
import threading


def preload() -> None:
    import uvicorn.main  # noqa: F401

    import app.main  # noqa: F401
    import app.store.migrate  # noqa: F401

    try:  # the optional `postgres` extra; without it the servers run on SQLite only
        import app.live.pg_relay  # noqa: F401
    except ImportError:
        pass
    warm(app.main.app)
    from app.settings import get_settings
    from app.store import db

    if get_settings.cache_info().currsize or db._engine is not None:
        raise RuntimeError("importing the app read its settings or made its engine: a forked server "
                           "would serve the zygote's settings, not its own")
    if threading.active_count() != 1:  # a forked child gets copies of the threads' locks, held or not
        raise RuntimeError(f"importing the app started threads: {threading.enumerate()}")


def warm(asgi_app) -> None:
    """What every server did first with what it imported, done once here: compile the templates
    (1.6 s; Jinja keeps them in its environment, and still compiles again one whose file has
    changed since) and match a GET / against the routes, as each server's first request does
    (FastAPI builds its included routers' routes then: 0.15 s). Both depend on the code only."""
    from app.web.templating import templates

    for name in templates.env.list_templates(filter_func=lambda name: name.endswith(".html")):
        templates.env.get_template(name)
    scope = {"type": "http", "method": "GET", "path": "/", "root_path": "", "query_string": b"", "headers": []}
    for route in asgi_app.router.routes:
        route.matches(scope)


def say(line: str) -> None:
    os.write(1, f"{line}\n".encode())


def reap(children: set[int]) -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)
        say(f"exit {pid} {os.waitstatus_to_exitcode(status)}")


def serve_requests() -> dict | None:
    """Fork a server per request; return the request in the forked child, None at the end."""
    children: set[int] = set()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a handler, so the wakeup fd hears of exits
    signal.set_wakeup_fd(wake_w)
    pending = b""
    with selectors.DefaultSelector() as selector:
        selector.register(0, selectors.EVENT_READ)
        selector.register(wake_r, selectors.EVENT_READ)
        while True:
            for key, _ in selector.select():
                if key.fd == wake_r:
                    os.read(wake_r, 4096)
                    reap(children)
                    continue
                data = os.read(0, 65536)
                if not data:
                    for pid in children:
                        os.kill(pid, signal.SIGTERM)
                    return None
                pending += data
                while b"\n" in pending:
                    line, pending = pending.split(b"\n", 1)
                    pid = os.fork()
                    if pid == 0:
                        signal.set_wakeup_fd(-1)
                        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                        os.close(wake_r)
                        os.close(wake_w)
                        return json.loads(line)
                    children.add(pid)
                    say(f"pid {pid}")


def become_server(request: dict) -> None:
    """In the forked child: this server's environment, folder and log; then uvicorn's command line."""
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    null = os.open(os.devnull, os.O_RDONLY)
    log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(null)
    os.close(log)
    # unbuffered, as PYTHONUNBUFFERED=1 made a started server: the tests read the log as it grows
    sys.stdout = sys.__stdout__ = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True)
    sys.stderr = sys.__stderr__ = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True,
                                                   errors="backslashreplace")
    from uvicorn.main import main

    sys.argv = ["uvicorn", *request["args"]]
    main.main(args=request["args"], prog_name="uvicorn")  # raises SystemExit with uvicorn's status


if __name__ == "__main__":
    preload()
    gc.freeze()  # the imported objects stay out of the servers' collections: fewer pages copied
    request = serve_requests()
    if request is not None:  # a forked child; its exit is the interpreter's, as a started server's
        become_server(request)
