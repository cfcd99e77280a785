"""The tables of a server, each part of their life in a module of its own:

- :mod:`.cache`: the tables in memory, loaded from storage, kept in step with other server
  processes, saved;
- :mod:`.seats`: tables created, seats joined, left and reclaimed, rematches;
- :mod:`.tutorials`: a learner's tutorial table, and the lesson in the learner's message;
- :mod:`.moves`: a move checked, played with the chance it sets off, committed;
- :mod:`.clocks`: the seats' clocks, who is connected, and the bots that take over;
- :mod:`.abandonment`: tables nobody plays any more, closed;
- :mod:`.views`: the seats' messages (made by :mod:`courtly.web.seat_messages`);
- :mod:`.replays`: a finished game's record and replay;
- :mod:`.history`: chance drawn from the table's seed, events replayed from storage;
- :mod:`.access`: a seat's token checked.

Games are known only through the engine contract; the database only through
:class:`courtly.web.storage.Storage`.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import Table, TableError
from ..seat_messages import seat_message
from ..storage import Storage
from .abandonment import Abandonment
from .cache import TableCache
from .clocks import Clocks
from .moves import Moves
from .replays import Replays
from .seats import Seats
from .tutorials import Tutorials
from .views import Views


class Tables:
    """Every table of a server process, by part.

    ``on_change(table_id)`` is called after every committed change (it pushes the new views and
    wakes the bots), outside the table's lock.
    """

    def __init__(self, storage: Storage, on_change: Callable[[str], None] | None = None) -> None:
        changed = on_change or (lambda _table_id: None)
        self.storage = storage
        self.cache = TableCache(storage)
        self.seats = Seats(self.cache, changed)
        self.tutorials = Tutorials(self.seats)
        self.moves = Moves(self.cache, changed)
        self.clocks = Clocks(self.cache, changed)
        self.views = Views(self.cache)
        self.replays = Replays(self.cache)

    def load_active(self, downtime_from: float | None = None) -> list[str]:
        """Load every table in play (at start); with ``downtime_from`` (the last moment a server
        was alive), running clocks are not charged for the time no server ran."""
        with self.storage.session() as session:
            loaded = self.cache.load_all(session, ("open", "playing"))
            if downtime_from is not None:
                for table in loaded:
                    if table.status == "playing":
                        self.clocks.forgive_downtime(session, table, downtime_from)
        return [table.id for table in loaded]


__all__ = ["Abandonment", "Table", "TableError", "Tables", "seat_message"]
