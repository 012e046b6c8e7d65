"""Storage trouble said out loud: which database failures mean "nothing could be stored, try again
later" (503 with the reason and Retry-After, app/web/errors.py), a cheap write probe for the
health check, and the SQLite file watched under the running server.

Before: a full disk or a PostgreSQL server that went away was a bare "500 Internal Server Error"
and the health check said ok; a SQLite file deleted under the running server took every write,
answered 200/201, into the deleted file (kept alive by its open connections) and lost them all at
the next start, while new connections made a new empty file at its path.

- The file's identity (device and inode) is taken at the engine's first connection. Every
  checkout of a connection compares it with the path's: a file deleted or replaced is a 503 for
  every request, writes first among them, until the server is restarted on the right file.
- After the first connection, SQLite opens the path with `mode=rw`: it never makes a new, empty
  file where the database was.
- The write probe: SQLite's folder must take a small file (a full disk, a read-only mount);
  PostgreSQL must take a write in a transaction that is rolled back (a read-only server, one
  that is gone)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from urllib.request import pathname2url

from sqlalchemy import event, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, OperationalError

PROBE_BYTES = 4096
BUSY = "The server is busy; nothing was changed, try again in a few seconds."
DISK_FULL = "The disk is full: nothing was stored. The game is intact; try again once there is space."
UNREACHABLE = "The database is unreachable: nothing was stored. Try again in a moment."
CANNOT_WRITE = "The database cannot be written (a read-only or failing disk): nothing was stored."
FILE_GONE = ("The database file was deleted or replaced while the server ran: nothing was stored. "
             "Restore the file and restart the server.")
# sqlite3's words and PostgreSQL's SQLSTATE classes for each kind of trouble
SQLITE_FULL = ("database or disk is full", "no space left")
SQLITE_CANNOT = ("unable to open database file", "readonly database", "disk i/o error",
                 "read-only file system")
PG_UNREACHABLE = ("connection refused", "could not connect", "server closed the connection",
                  "connection is closed", "terminating connection", "connection timeout", "connection failed")
PG_GONE = ("57P01", "57P02", "57P03")  # the server shutting down, crashed, not yet accepting
RETRY_AFTER = {BUSY: 5, DISK_FULL: 30, UNREACHABLE: 10, CANNOT_WRITE: 30, FILE_GONE: 60}


class FileGone(Exception):
    """The SQLite file at the database's path is not the one the server opened."""

    def __str__(self) -> str:
        return FILE_GONE


def sqlstate(error: BaseException | None) -> str:
    return str(getattr(error, "sqlstate", None) or getattr(error, "pgcode", None) or "")


def trouble(error: DBAPIError, busy: bool) -> str | None:
    """The reason a write could not be stored, or None for an error that is the app's own (a 500)."""
    original = error.orig
    words, state = str(original).lower(), sqlstate(original)
    if busy:
        return BUSY
    cannot = any(w in words for w in SQLITE_CANNOT)  # SQLite says "I/O error" for most of them
    if isinstance(original, FileGone) or (cannot and any_file_gone()):
        return FILE_GONE
    if state == "53100" or any(w in words for w in SQLITE_FULL) or (cannot and any_disk_full()):
        return DISK_FULL
    if state.startswith("08") or state in PG_GONE or any(w in words for w in PG_UNREACHABLE):
        return UNREACHABLE
    if state == "25006" or cannot:
        return CANNOT_WRITE
    return None


def retry_after(reason: str) -> int:
    return RETRY_AFTER.get(reason, 10)


# --- the SQLite file ---------------------------------------------------------------------------

def identity(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


# each watched engine's SQLite path and its identity when first opened (the latest few engines)
WATCHED: list[tuple[str, list[tuple[int, int] | None]]] = []
FULL_BELOW = 64 * 1024  # bytes free on the database's disk under which an I/O error is a full disk


def any_file_gone() -> bool:
    return any(first and identity(path) != first[0] for path, first in WATCHED)


def any_disk_full() -> bool:
    for path, _first in WATCHED:
        try:
            found = os.statvfs(Path(path).parent)
        except OSError:
            continue
        if found.f_bavail * found.f_frsize < FULL_BELOW:
            return True
    return False


def watch_file(engine: Engine, path: str) -> None:
    """Refuse every connection once the file at `path` is not the one first opened (above)."""
    first: list[tuple[int, int] | None] = []
    WATCHED[:] = [*WATCHED[-9:], (os.path.abspath(path), first)]
    uri = "file:" + pathname2url(os.path.abspath(path)) + "?mode=rw"

    @event.listens_for(engine, "do_connect")
    def never_a_new_file(_dialect, _record, cargs, cparams) -> None:
        if first:  # the database exists by now: a missing file is an error, not a new database
            cargs[:1] = [uri]
            cparams["uri"] = True

    @event.listens_for(engine, "connect")
    def remember(_dbapi_connection, _record) -> None:
        if not first:
            first.append(identity(path))

    @event.listens_for(engine, "checkout")
    def still_the_same(_dbapi_connection, _record, _proxy) -> None:
        if first and identity(path) != first[0]:
            raise OperationalError("(the database file, checked before use)", None, FileGone())


# --- the write probe ---------------------------------------------------------------------------

def probe_write(connection: Connection, database: str | None) -> None:
    """Raise if nothing could be stored now (see the module's docstring). `database`: the SQLite
    file's path, None for PostgreSQL (or an in-memory database)."""
    if connection.dialect.name == "postgresql":
        with connection.begin_nested() if connection.in_transaction() else connection.begin() as probe:
            connection.execute(text("CREATE TEMPORARY TABLE health_probe (x int) ON COMMIT DROP"))
            connection.execute(text("INSERT INTO health_probe VALUES (1)"))
            probe.rollback()
        return
    if not database or database == ":memory:":
        return
    try:
        with tempfile.TemporaryFile(dir=Path(database).parent) as probe:
            probe.write(b"\0" * PROBE_BYTES)
            probe.flush()  # a full disk refuses the bytes here (no fsync: the probe stays cheap)
    except OSError as failed:
        raise OperationalError("(the database folder's write probe)", None, failed) from failed
