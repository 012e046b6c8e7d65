"""Live updates across processes on PostgreSQL (the relay app/live/hub.py describes).

Several app processes share one PostgreSQL database. A step committed through process B must
reach the streams that process A holds: `PgRelay.send` delivers to this process's streams at once
and sends `NOTIFY potham_live` with the message; a thread in every process LISTENs and hands what
other processes sent to its own hub. After a lost connection the thread reconnects and tells each
of its games' streams the game's current step, so a page never stays behind a missed message.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading

import psycopg
from sqlalchemy.engine import make_url

from app.live.hub import Hub, Message
from app.store.db import is_postgres

CHANNEL = "potham_live"
POLL_SECONDS = 1.0  # how often the listening thread looks up from its socket to check for stop
log = logging.getLogger("potham.live")


def conninfo(url: str) -> str:
    """A SQLAlchemy URL (`postgresql+psycopg://…`) as the libpq URL psycopg connects with."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PgRelay:
    def __init__(self, hub: Hub, url: str):
        self.hub = hub
        self.conninfo = conninfo(url)
        self.origin = secrets.token_hex(8)  # our own NOTIFYs come back to us: skip those
        self.listening = threading.Event()
        self._stop = threading.Event()
        self._send_lock = threading.Lock()
        self._sender: psycopg.Connection | None = None
        self._thread: threading.Thread | None = None

    # --- sending: any thread ---------------------------------------------------------------

    def send(self, game_id: int, message: Message) -> None:
        self.hub.deliver(game_id, message)
        payload = json.dumps([self.origin, game_id, message.kind, message.seq, message.token])
        with self._send_lock:
            for attempt in (1, 2):  # a dropped connection is reopened once
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = psycopg.connect(self.conninfo, autocommit=True)
                    self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                    return
                except psycopg.OperationalError as error:
                    self._sender = None
                    if attempt == 2:  # the others catch up when their listener reconnects
                        log.warning("live: NOTIFY failed: %s", error)

    # --- listening: one thread ----------------------------------------------------------------

    def start(self) -> PgRelay:
        self._thread = threading.Thread(target=self._listen, name="potham-live-listen", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(POLL_SECONDS * 3)
        with self._send_lock:
            if self._sender is not None:
                self._sender.close()
                self._sender = None

    def _listen(self) -> None:
        backoff = 0.5
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if self.listening.is_set():  # a reconnect: messages may have been missed
                        self._resync(conn)
                    self.listening.set()
                    backoff = 0.5
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=POLL_SECONDS):
                            self._receive(note.payload)
            except psycopg.Error as error:
                log.warning("live: LISTEN connection lost (%s); retrying in %.1f s", error, backoff)
                self._stop.wait(backoff)
                backoff = min(backoff * 2, 10.0)

    def _receive(self, payload: str) -> None:
        try:
            origin, game_id, kind, seq, token = json.loads(payload)
        except (ValueError, TypeError):
            return  # not one of ours
        if origin != self.origin:
            self.hub.deliver(int(game_id), Message(kind, seq, token))

    def _resync(self, conn: psycopg.Connection) -> None:
        for game_id in self.hub.game_ids():
            row = conn.execute("SELECT seq FROM game WHERE id = %s", (game_id,)).fetchone()
            self.hub.deliver(game_id, Message("step", seq=row[0]) if row else Message("deleted"))


def start(hub: Hub, url: str) -> PgRelay | None:
    """Relay through PostgreSQL when the database is PostgreSQL; else keep the local relay."""
    if not is_postgres(url):
        return None
    relay = PgRelay(hub, url).start()
    hub.relay = relay
    return relay
