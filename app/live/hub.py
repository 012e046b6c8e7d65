"""The broadcast hub: tells every open game page that its game changed (docs/architecture.md § Live sharing).

Steps are committed by sync routes running in a threadpool; the SSE streams are async generators
on the event loop. So publishing never touches a stream directly: it hands the message to the
stream's own loop with `loop.call_soon_threadsafe`, and the registry is guarded by a lock.

Messages are tiny ("game 7 is at step 42"); the stream that sends one adds the step's panels,
rendered once per link and step (app/web/routes/live.py). A subscription keeps only the newest
step number, so a burst of 50 steps costs a slow watcher one refresh.

One process: `LocalRelay`. Several processes on PostgreSQL: a step committed in process A must
reach streams held by process B, so app.live.pg_relay's `PgRelay` also sends `NOTIFY potham_live` and
its LISTEN thread calls `hub.deliver` in every process (started by the app's lifespan). Nothing
else changes: routes and streams only talk to `hub`.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

StepData = Callable[[int], Awaitable[tuple[int, str]]]  # a step -> (the step shown, the event's data)
HEARTBEAT_SECONDS = 15.0  # a comment line this often keeps proxies from closing an idle stream


@dataclass(frozen=True)
class Message:
    kind: str  # "step" (a new step, undo included), "links" (a link was regenerated), "renamed",
    # "revoked" (one link), "deleted" (the game), "closing" (the server stops)
    seq: int | None = None
    token: str | None = None  # "revoked": only the streams opened with this token end


class Relay(Protocol):
    def send(self, game_id: int, message: Message) -> None: ...


class LocalRelay:
    """Same process: deliver at once. (A PostgreSQL relay would NOTIFY here instead.)"""

    def __init__(self, hub: Hub):
        self.hub = hub

    def send(self, game_id: int, message: Message) -> None:
        self.hub.deliver(game_id, message)


@dataclass(eq=False)
class Subscription:
    """One open stream. Its fields are touched only on its own event loop."""

    game_id: int
    token: str
    loop: asyncio.AbstractEventLoop
    seq: int | None = None  # newest step not yet sent
    links_changed: bool = False
    renamed: bool = False
    ending: str | None = None  # "revoked", "deleted" or "closing": send it, then end the stream
    wake: asyncio.Event = field(default_factory=asyncio.Event)

    def _receive(self, message: Message) -> None:
        if message.kind == "step" and message.seq is not None:
            self.seq = message.seq if self.seq is None else max(self.seq, message.seq)
        elif message.kind == "links":
            self.links_changed = True
        elif message.kind == "renamed":
            self.renamed = True
        elif message.kind in ("deleted", "closing") or (
                message.kind == "revoked" and message.token == self.token):
            self.ending = message.kind
        self.wake.set()

    async def next_frames(self, timeout: float, step_data: StepData | None = None) -> list[str] | None:
        """The SSE frames to send next, or None after `timeout` seconds of silence. `step_data`
        (the web layer's live push) turns a step number into the step event's data and the step
        it shows: the panels rendered at that step."""
        if not self.wake.is_set():  # (asyncio.timeout: wait_for made a task per wait)
            try:
                async with asyncio.timeout(timeout):
                    await self.wake.wait()
            except TimeoutError:
                return None
        self.wake.clear()
        frames = []
        if self.seq is not None:
            seq, self.seq = self.seq, None
            data = f'{{"seq": {seq}}}'
            if step_data is not None:
                seq, data = await step_data(seq)
            frames.append(frame("step", data, seq))
        if self.links_changed:
            frames.append(frame("links", "{}"))
            self.links_changed = False
        if self.renamed:
            frames.append(frame("renamed", "{}"))
            self.renamed = False
        if self.ending == "deleted":  # a "revoked" frame, so the page's sse-close ends it for good
            frames.append(frame("revoked", '{"reason": "deleted"}'))
        elif self.ending:
            frames.append(frame(self.ending, "{}"))
        return frames


def frame(event: str, data: str, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {data}\n\n"


class Hub:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscriptions: dict[int, set[Subscription]] = {}
        self.relay: Relay = LocalRelay(self)

    def subscribe(self, game_id: int, token: str,
                  loop: asyncio.AbstractEventLoop | None = None) -> Subscription:
        """`loop`: the event loop that will read the subscription (default: the running one)."""
        subscription = Subscription(game_id, token, loop or asyncio.get_running_loop())
        with self._lock:
            self._subscriptions.setdefault(game_id, set()).add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            subs = self._subscriptions.get(subscription.game_id, set())
            subs.discard(subscription)
            if not subs:
                self._subscriptions.pop(subscription.game_id, None)

    def game_ids(self) -> list[int]:
        """The games this process has streams for."""
        with self._lock:
            return list(self._subscriptions)

    def count(self, game_id: int | None = None) -> int:
        with self._lock:
            if game_id is not None:
                return len(self._subscriptions.get(game_id, ()))
            return sum(len(s) for s in self._subscriptions.values())

    # --- publishing: safe from any thread ---------------------------------------------------

    def step(self, game_id: int, seq: int) -> None:
        """After each committed step, undo included (app/bootstrap.py wire_listeners)."""
        self.relay.send(game_id, Message("step", seq=seq))

    def links_changed(self, game_id: int, old_token: str) -> None:
        """A link was regenerated: streams opened with the old one end, the others refresh links."""
        self.relay.send(game_id, Message("revoked", token=old_token))
        self.relay.send(game_id, Message("links"))

    def game_changed(self, game_id: int, what: str) -> None:
        """games.GAME_LISTENERS calls this: "renamed" (pages refresh the title) or "deleted"
        (every stream of the game ends, and its pages stop reconnecting)."""
        self.relay.send(game_id, Message(what))

    def deliver(self, game_id: int, message: Message) -> None:
        """Hand the message to each local stream of the game, on the stream's own loop."""
        with self._lock:
            targets = list(self._subscriptions.get(game_id, ()))
        for subscription in targets:
            self._post(subscription, message)

    def close_all(self) -> None:
        """The server is stopping: end every stream so shutdown does not wait for them."""
        with self._lock:
            targets = [s for subs in self._subscriptions.values() for s in subs]
        for subscription in targets:
            self._post(subscription, Message("closing"))

    def _post(self, subscription: Subscription, message: Message) -> None:
        try:
            subscription.loop.call_soon_threadsafe(subscription._receive, message)
        except RuntimeError:  # its loop is closed: the stream is gone
            self.unsubscribe(subscription)


hub = Hub()  # app/bootstrap.py makes it hear of every committed step and changed game


_shutdown_hook_installed = False


def install_shutdown_hook() -> None:
    """End the streams when uvicorn is asked to stop (SIGINT/SIGTERM).

    Uvicorn waits for open responses before it exits, and an event stream never finishes, so
    without this `Ctrl+C` would hang until a second one. We chain to uvicorn's own handler. Called
    from the event loop on the first stream; only the main thread may set signal handlers."""
    global _shutdown_hook_installed
    if _shutdown_hook_installed or threading.current_thread() is not threading.main_thread():
        return
    _shutdown_hook_installed = True
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)
        if not callable(previous):
            continue

        def on_signal(signum, frame, previous=previous):
            hub.close_all()
            previous(signum, frame)

        signal.signal(sig, on_signal)
