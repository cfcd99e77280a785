"""Who is watching which table: the server's WebSockets wait here for changes.

A change is announced with :meth:`Hub.publish` from any thread (a request's worker thread, the
bots, the clock watcher, PostgreSQL's listener); each connection watching the table is woken on
the event loop and builds its own message from its seat's view. A connection only learns *that*
a table changed, never what: what it sends is its seat's view, made afresh.

With PostgreSQL, the storage's listener turns the changes of other server processes into local
publications (:meth:`courtly.web.server.Server.heard`), so a move made through one process
reaches the WebSockets held by another.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict


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
