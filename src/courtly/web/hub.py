"""Who is watching which table: the server's WebSockets wait here for changes.

A change is announced with :meth:`Hub.publish` from any thread (a request's worker thread, the
bots, the clock watcher, PostgreSQL's listener); each connection watching the table is woken on
the event loop and builds its own message from its seat's view. A connection only learns *that*
a table changed, never what: what it sends is its seat's view, made afresh.

With PostgreSQL, :class:`PostgresListener` turns the ``NOTIFY`` of other server processes into
local publications, so a move made through one process reaches the WebSockets held by another.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from collections.abc import Callable

log = logging.getLogger("courtly.web")


class Hub:
    """Table id → the wake-up events of the connections watching it."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watchers: dict[str, set[asyncio.Event]] = defaultdict(set)

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def watch(self, table_id: str) -> asyncio.Event:
        wake = asyncio.Event()
        self._watchers[table_id].add(wake)
        return wake

    def unwatch(self, table_id: str, wake: asyncio.Event) -> None:
        watchers = self._watchers.get(table_id)
        if watchers is not None:
            watchers.discard(wake)
            if not watchers:
                del self._watchers[table_id]

    def watching(self, table_id: str) -> int:
        return len(self._watchers.get(table_id, ()))

    def publish(self, table_id: str) -> None:
        """Wake every connection watching ``table_id`` (safe from any thread)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._wake(table_id)
        else:
            loop.call_soon_threadsafe(self._wake, table_id)

    def _wake(self, table_id: str) -> None:
        for wake in self._watchers.get(table_id, ()):
            wake.set()


class PostgresListener:
    """A thread that ``LISTEN``s on PostgreSQL and calls ``changed(table_id)`` for each
    ``NOTIFY`` (including this process's own: harmless, the views are rebuilt the same)."""

    def __init__(self, url: str, channel: str, changed: Callable[[str], None]) -> None:
        self.url = url.replace("postgresql+psycopg://", "postgresql://", 1)
        self.channel = channel
        self.changed = changed
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="courtly-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {self.channel}")
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5, stop_after=64):
                            self.changed(note.payload)
            except Exception as error:  # the database went away: listen again shortly
                if self._stop.is_set():
                    return
                log.warning("listening to PostgreSQL failed (%s); retrying", error)
                self._stop.wait(1.0)
