"""Storage trouble said out loud, against real server processes (app/store/storage.py): a write
that cannot be stored is 503 with its reason and Retry-After, the health check says the database
is unhealthy, and a SQLite file deleted under the running server is never written into.

Before: writes into a deleted SQLite file answered 201 (lost at the next start) while health said
ok; a full disk and a PostgreSQL server gone were a bare 500, health ok on the full disk.

The full disk is a real one: the server runs in a mount namespace of its own (`unshare`) on a
tmpfs of 2 MB, which the test fills through /proc/<pid>/root."""

from __future__ import annotations

import os
import shutil
import subprocess

import httpx
import pytest

from tests.support.server import LiveServer, migrated_template

pytestmark = [pytest.mark.server]


def new_game(url: str) -> httpx.Response:
    return httpx.post(url + "/api/games", json={"name": "Kept"}, timeout=60)


def said_out_loud(answer: httpx.Response, words: str) -> None:
    assert answer.status_code == 503, answer.text
    assert words in answer.json()["detail"] and int(answer.headers["Retry-After"]) > 0


def unhealthy(url: str, words: str) -> None:
    health = httpx.get(url + "/api/health", timeout=60)
    assert health.status_code == 503 and health.json()["status"] == "unhealthy"
    assert words in health.json()["reason"]


def test_a_deleted_sqlite_file_is_never_written_into_and_health_says_so(tmp_path):
    server = LiveServer(tmp_path / "gone.db").start()
    try:
        assert new_game(server.url).status_code == 201
        for suffix in ("", "-wal", "-shm"):
            (tmp_path / f"gone.db{suffix}").unlink(missing_ok=True)
        said_out_loud(new_game(server.url), "deleted or replaced")
        unhealthy(server.url, "deleted or replaced")
        assert not (tmp_path / "gone.db").exists()  # no new, empty database made at its path
    finally:
        server.stop()


def test_a_replaced_sqlite_file_is_refused_too(tmp_path):
    server = LiveServer(tmp_path / "swap.db").start()
    try:
        assert new_game(server.url).status_code == 201
        shutil.copyfile(migrated_template(), tmp_path / "other.db")
        os.replace(tmp_path / "other.db", tmp_path / "swap.db")
        said_out_loud(new_game(server.url), "deleted or replaced")
    finally:
        server.stop()


def can_mount_tmpfs() -> bool:
    if shutil.which("unshare") is None:
        return False
    try:
        return subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"],
                              capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.mark.skipif(not can_mount_tmpfs(), reason="needs unshare and an unprivileged tmpfs mount")
def test_a_full_disk_is_503_with_its_reason_health_says_so_and_writes_come_back_with_space(tmp_path):
    folder = tmp_path / "disk"
    folder.mkdir()
    script = 'mount -t tmpfs -o size=2m tmpfs "$DISK" && cp "$TEMPLATE" "$DISK/full.db" && exec "$@"'
    server = LiveServer(folder / "full.db", wrap=["unshare", "-rm", "sh", "-c", script, "sh"],
                        env={"DISK": str(folder), "TEMPLATE": str(migrated_template())})
    server.start()
    try:
        inside = f"/proc/{server.process.pid}/root{folder}"  # the server's tmpfs, seen from here
        with open(f"{inside}/filler", "wb") as filler:
            try:
                while True:
                    filler.write(b"\0" * 65536)
                    filler.flush()
            except OSError:
                pass
        said_out_loud(new_game(server.url), "disk is full")
        unhealthy(server.url, "disk is full")
        os.unlink(f"{inside}/filler")
        assert new_game(server.url).status_code == 201
        assert httpx.get(server.url + "/api/health", timeout=60).status_code == 200
    finally:
        server.stop()
