"""The seats' messages of the server's tables, each made by :func:`seat_message` under the
table's lock, and the view a hint for a seat is searched from."""

from __future__ import annotations

import time

from ...core.game import View
from ..messages import SeatMessage
from ..seat_messages import hint_view, seat_message
from .access import Credential, authorise
from .cache import TableCache


class Views:
    """The messages of the seats and spectators of every table."""

    def __init__(self, cache: TableCache) -> None:
        self.cache = cache

    def message(
        self, table_id: str, seat: int | None, token: Credential, since: int
    ) -> SeatMessage:
        """The view of ``seat`` (its token checked) or of a spectator."""
        table = self.cache.get(table_id)
        with table.lock:
            if seat is not None:
                authorise(table, seat, token)
            return seat_message(table, seat, max(0, since), time.time())

    def message_now(
        self, table_id: str, seat: int | None, token: Credential, since: int
    ) -> SeatMessage | None:
        """:meth:`message` if it can be made at once (the table is loaded and not being
        changed), else None: the event loop builds most messages itself this way, and leaves
        the rest to a worker thread, which may wait."""
        table = self.cache.loaded(table_id)
        if table is None or not table.lock.acquire(blocking=False):
            return None
        try:
            if table.story is None:
                return None  # told again from the whole history first: not on the event loop
            if seat is not None:
                authorise(table, seat, token)
            return seat_message(table, seat, max(0, since), time.time())
        finally:
            table.lock.release()

    def hint_view(self, table_id: str, seat: int, token: Credential, version: int) -> View:
        """The view a hint for ``seat`` is searched from (its token checked): refused with 403
        where the table has hints off, 409 unless the seat is to move at ``version`` in a game
        in play. The view alone goes to the search, never the state."""
        table = self.cache.get(table_id)
        with table.lock:
            authorise(table, seat, token, reload=self.cache.reload)
            return hint_view(table, seat, version)
