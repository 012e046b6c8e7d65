"""A throwaway PostgreSQL cluster from Debian's `postgresql` package, for the tests and CI.

`python -m tests.support.postgres run -- CMD…` runs initdb into a new folder under /tmp, starts
the server on a unix socket there and a free port (as the `postgres` user when we are root:
PostgreSQL refuses to run as root), creates the database `potham`, runs CMD with
TEST_DATABASE_URL set, then stops the server and removes the folder, whatever happened
(`make test-postgres`, .ci/run). `start DIR` / `stop DIR` do the halves. Tests make a database
of their own on it with `fresh_database`."""

from __future__ import annotations

import atexit
import glob
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.server import free_port

ADMIN_DB = "postgres"


def bin_dir() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: apt-get install -y postgresql")
    return Path(found[-1]).parent


def _as_owner(args: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return args
    return ["runuser", "-u", "postgres", "--", *args]


def url_for(directory: Path, database: str = "potham") -> str:
    port = (directory / "port").read_text().strip()
    return f"postgresql+psycopg://postgres@/{database}?host={directory}&port={port}"


def start(directory: Path) -> str:
    directory.mkdir(parents=True, exist_ok=True)
    data, port = directory / "data", free_port()
    if os.geteuid() == 0:
        shutil.chown(directory, "postgres")

    def run(*args) -> None:
        done = subprocess.run(_as_owner([str(a) for a in args]), capture_output=True, text=True)
        if done.returncode:
            raise RuntimeError(f"{args[0]} failed: {done.stderr or done.stdout}")

    run(bin_dir() / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
    # Throwaway: no fsync; room for several app processes with their pools (bench/load.py).
    options = (f"-k {directory} -p {port} -c listen_addresses='' -c max_connections=400 -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off -c shared_buffers=64MB")
    run(bin_dir() / "pg_ctl", "-D", data, "-l", directory / "server.log", "-o", options, "-w", "start")
    (directory / "port").write_text(str(port))
    run(bin_dir() / "createdb", "-h", directory, "-p", port, "-U", "postgres", "potham")
    return url_for(directory)


@contextmanager
def throwaway() -> Iterator[str]:
    """A cluster in a new folder under /tmp (readable by the `postgres` user, unlike pytest's
    tmp_path when we are root), stopped and removed after."""
    directory = Path(tempfile.mkdtemp(prefix="potham-pg-"))
    directory.chmod(0o755)
    try:
        yield start(directory)
    finally:
        stop(directory)
        shutil.rmtree(directory, ignore_errors=True)


def stop(directory: Path) -> None:
    if (directory / "data" / "postmaster.pid").exists():
        subprocess.run(_as_owner([str(bin_dir() / "pg_ctl"), "-D", str(directory / "data"), "-m", "fast",
                                  "-w", "stop"]), check=False, stdout=subprocess.DEVNULL)


def fresh_database(url: str, prefix: str = "t", migrated: bool = False) -> str:
    """A new database on the cluster `url` points at; its URL. Empty, or `migrated`: a copy of a
    database at the latest migration, made once per test process and cluster by app.store.migrate
    (what a server's start does to an empty database), so the servers started on it find
    nothing to migrate, as every start after the first does."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"{prefix}_{secrets.token_hex(6)}"
    template = f' TEMPLATE "{_migrated_template(url)}"' if migrated else ""
    admin = make_url(url).set(drivername="postgresql", database=ADMIN_DB)
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"{template}')
    return make_url(url).set(database=name).render_as_string(hide_password=False)


_templates: dict[str, str] = {}  # cluster URL -> the name of its migrated template database


def _migrated_template(url: str) -> str:
    if url not in _templates:
        from sqlalchemy.engine import make_url

        from app.store.migrate import migrate

        template = fresh_database(url, "template")
        migrate(template)  # its engine disposed after: a template is copied only with no one on it
        atexit.register(_drop_if_there, template)
        _templates[url] = make_url(template).database
    return _templates[url]


def drop_database(url: str) -> None:
    import psycopg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    admin = parsed.set(drivername="postgresql", database=ADMIN_DB)
    with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)')


def _drop_if_there(url: str) -> None:
    """Drop at exit; a throwaway cluster may be gone by then, and the template with it."""
    try:
        drop_database(url)
    except Exception:  # noqa: BLE001 - nothing left to clean up
        pass


def run_on_throwaway(command: list[str]) -> int:
    """Run `command` with TEST_DATABASE_URL pointing at a throwaway cluster, removed after even
    when the run is interrupted (SIGTERM ends it like Ctrl+C)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with throwaway() as url:
        return subprocess.call(command, env={**os.environ, "TEST_DATABASE_URL": url})


if __name__ == "__main__":
    # python -m tests.support.postgres run -- CMD…   |   start DIR   |   stop DIR
    if sys.argv[1] == "run":
        sys.exit(run_on_throwaway(sys.argv[3:] if sys.argv[2] == "--" else sys.argv[2:]))
    where = Path(sys.argv[2]).resolve()
    if sys.argv[1] == "start":
        print(f"export TEST_DATABASE_URL='{start(where)}'")
    else:
        stop(where)
