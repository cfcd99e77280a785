"""A game played offline, uploaded by the signed-in person who played it: its record checked
(:func:`courtly.web.recorded.finished_table`), then kept as a finished casual table of theirs
(listed in My games and on their profile, never counted in a rating). A browser holds the seed and
the moves, so an uploaded game is the uploader's word: never rated, and it says so in a notice.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy.exc import IntegrityError

from .messages import Notice
from .model import Table, TableError
from .recorded import finished_table
from .storage import Storage

OFFLINE_GAMES: Final = "/api/account/offline-games"
"""Where a person uploads a game they played offline."""
MAX_RECORD: Final = 512 * 1024
"""Bytes an uploaded record may hold: the longest games between random bots write about 30 kB."""


def offline_table(data: object, account_id: str, name: str) -> Table:
    """The finished table the record ``data`` holds, its people's seats ``account_id``'s (named
    ``name``); refused (422, in words) unless the record proves itself completely."""
    table = finished_table(data, name, account_id)
    if all(seat.kind == "bot" for seat in table.seats):
        # Bots alone played it: nobody's game, and nobody's to keep.
        raise TableError(422, "the record was refused: no seat is a person's")
    table.notices.append(
        Notice(
            version=table.version,
            at=table.created_at,
            text=f"played offline and uploaded by {name}: dealt and played on their device",
        )
    )
    return table


def keep(storage: Storage, table: Table) -> None:
    """Store ``table`` as a finished game; 409 if a table of its name is kept already (the same
    record uploaded twice)."""
    twice = TableError(409, f"the game {table.id} is uploaded already")
    try:
        with storage.session() as session:
            if storage.table(session, table.id) is not None:
                raise twice
            storage.add_table(session, table, table.created_at)
            for notice in table.notices:
                storage.add_notice(session, table.id, notice)
    except IntegrityError:
        # Uploaded at the same moment by another request or server process.
        raise twice from None
