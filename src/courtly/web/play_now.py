"""Play now: a person (signed in or a guest) waits for a table of a game, and the server forms
tables as soon as enough people wait (:mod:`.matching` decides who sits together; the queue
lives in the database, :mod:`.storage.queue`, so that every server process on one database
shares it).

A place in the queue is proved by a ticket, a secret shown once, which becomes the token of
the seat it is given: the database keeps only its SHA-256, as it does of a seat's token. The
place is kept by heartbeats; one not heard from for :data:`HEARTBEAT_GRACE` seconds (a closed
tab) is removed.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import IntegrityError

from ..core.errors import InvalidOptions
from ..core.registry import game_class, game_ids
from .matching import Formed, Waiting, form_tables
from .model import MODES, Table, TableError
from .protocol import PlayNowStatus, PlayNowTicket, PlayNowWaiting
from .ratings import ALL_COUNTS, displayed
from .storage import Storage, Transaction
from .storage import queue as stored
from .storage.ratings import pool_ratings
from .storage.rows import QueueRow
from .tables import Tables
from .tables.access import hash_token

log = logging.getLogger("courtly.web")

HEARTBEAT = 2.0
"""Seconds between a waiting page's heartbeats."""
HEARTBEAT_GRACE = 10.0
"""Seconds without a heartbeat after which a place in the queue is given up."""
SEATED_KEPT = 600.0
"""Seconds a seated place is kept for its holder to learn where they sit."""
REALTIME_CLOCK = {"initial": 300.0, "increment": 5.0, "per_move": 0.0, "away": 60.0}
"""The clock of a realtime table Play now forms: 5 minutes each, 5 s more per move."""
TURN_BASED_CLOCK = {"initial": 0.0, "increment": 0.0, "per_move": 86400.0, "away": 0.0}
"""The clock of a turn-based table Play now forms: a day per move."""


class PlayNow:
    """The queue of one server process's database, and the tables formed from it.

    ``on_formed(table_id)`` is called for every table formed, after it is committed."""

    def __init__(self, storage: Storage, tables: Tables, on_formed: Callable[[str], None]) -> None:
        self.storage = storage
        self.tables = tables
        self.on_formed = on_formed
        self._forming = threading.Lock()
        """One forming at a time in this process (other processes: the rows' locks)."""
        self.formed = 0
        """Tables this process formed (for the operator's logs and the benchmark)."""

    # ------------------------------------------------------------------------------ people

    def join(
        self,
        game: str,
        players: int,
        mode: str,
        rated: bool,
        bots_after: int | None,
        name: str,
        account: tuple[str, str] | None,
    ) -> PlayNowTicket:
        """Wait for a table; ``account``: the signed-in person's id and name (None: a guest).
        Refused (:class:`TableError`) for an unknown game or count, or a guest asking for a
        rated table."""
        game_id, counts = _game_counts(game)
        if players and players not in counts:
            raise TableError(
                400,
                f"{game_id} is played by {', '.join(map(str, counts))} players, not {players}",
            )
        if mode not in MODES:
            raise TableError(400, f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if rated and account is None:
            raise TableError(401, "sign in to play rated tables (guests play casual ones)")
        ticket = secrets.token_urlsafe(32)
        now = time.time()
        row = QueueRow(
            ticket_hash=hash_token(ticket),
            game=game_id,
            players=players,
            mode=mode,
            rated=rated,
            bots_after=None if bots_after is None else float(bots_after),
            account_id=None if account is None else account[0],
            name=(account[1] if account is not None else name.strip()[:64]) or "guest",
            rating=None,
            joined_at=now,
            seen_at=now,
            table_id=None,
            seat=None,
        )
        for attempt in range(3):
            try:
                with self.storage.session() as session:
                    if rated and account is not None:
                        pool = players or ALL_COUNTS
                        found = pool_ratings(self.storage, session, [account[0]], game_id, pool)
                        mine = found.get(account[0])
                        row.rating = 0.0 if mine is None else displayed(mine.mu, mine.sigma)
                    stored.add_entry(session, row)
                break
            except IntegrityError:
                # The same account joined through another process at the same moment.
                if attempt == 2:
                    raise TableError(409, "you are joining Play now elsewhere already") from None
        return {**self._status(row, now), "ticket": ticket, "heartbeat": HEARTBEAT}

    def wait(self, ticket: str) -> PlayNowStatus:
        """The heartbeat of a place: where it stands (404 for an unknown ticket)."""
        now, key = time.time(), hash_token(ticket)
        with self.storage.session() as session:
            row = self._held(session, key)
            if row.table_id is None and row.seen_at < now - HEARTBEAT_GRACE:
                stored.remove_entry(session, key)
                return {**self._status(row, now), "state": "gone"}
            stored.touch_entry(session, key, now)
            return self._status(row, now)

    def leave(self, ticket: str) -> PlayNowStatus:
        """Leave the queue (409 once seated: the table is made)."""
        now, key = time.time(), hash_token(ticket)
        with self.storage.session() as session:
            row = self._held(session, key)
            if row.table_id is not None:
                raise TableError(
                    409, f"you are seated already, at table {row.table_id} (leave the seat there)"
                )
            stored.remove_entry(session, key)
            return {**self._status(row, now), "state": "gone"}

    def waiting(self) -> list[PlayNowWaiting]:
        """How many wait for what."""
        with self.storage.session() as session:
            found = stored.counts(session, time.time() - HEARTBEAT_GRACE)
        return [
            {
                "game": c.game,
                "players": c.players,
                "mode": "turn-based" if c.mode == "turn-based" else "realtime",
                "rated": c.rated,
                "waiting": c.waiting,
            }
            for c in found
        ]

    @staticmethod
    def _held(session: Transaction, key: str) -> QueueRow:
        row = stored.find_entry(session, key)
        if row is None:
            raise TableError(404, "no such place in the queue: it was left or given up")
        return row

    @staticmethod
    def _status(row: QueueRow, now: float) -> PlayNowStatus:
        return {
            "state": "waiting" if row.table_id is None else "seated",
            "game": row.game,
            "players": row.players,
            "mode": "turn-based" if row.mode == "turn-based" else "realtime",
            "rated": row.rated,
            "waited": round(max(0.0, now - row.joined_at), 3),
            "table": row.table_id,
            "seat": row.seat,
        }

    # ------------------------------------------------------------------------------ forming

    def form(self, wait: bool = False) -> list[str]:
        """Form every table the queue allows now: the ids of the tables made. If this process
        is forming already, ``wait`` for it and look again (else leave it to that look)."""
        with self.storage.sessions() as reading:
            # Looked for every half second: an empty queue must not take SQLite's one writer.
            if not stored.anyone_waiting(reading):
                return []
        if not self._forming.acquire(blocking=wait):
            return []
        try:
            return self._form()
        finally:
            self._forming.release()

    def _form(self) -> list[str]:
        now = time.time()
        made: list[Table] = []
        with self.storage.session() as session:
            stored.expire(session, now - HEARTBEAT_GRACE, now - SEATED_KEPT)
            rows = stored.hold_waiting(self.storage, session, now - HEARTBEAT_GRACE)
            if not rows:
                return []
            by_key = {row.ticket_hash: row for row in rows}
            waiting = [
                Waiting(
                    key=row.ticket_hash,
                    game=row.game,
                    players=row.players,
                    mode=row.mode,
                    rated=row.rated,
                    joined_at=row.joined_at,
                    rating=row.rating,
                    bots_after=row.bots_after,
                    account_id=row.account_id,
                )
                for row in rows
            ]
            counts = {g: _game_counts(g)[1] for g in {row.game for row in rows}}
            seated: list[tuple[str, str, int]] = []
            for formed in form_tables(waiting, counts, now):
                try:
                    table = self._new_table(formed, by_key)
                except TableError:
                    log.exception("Play now could not make a table of %s", formed.game)
                    continue
                self.storage.add_table(session, table, now)
                made.append(table)
                seated += [(p.key, table.id, i) for i, p in enumerate(formed.people)]
            stored.seat_entries(session, seated)
        for table in made:
            self.tables.cache.add(table)
            self.formed += 1
            self.on_formed(table.id)
        return [table.id for table in made]

    def _new_table(self, formed: Formed, rows: dict[str, QueueRow]) -> Table:
        game = game_class(formed.game)
        seats: list[dict[str, Any]] = [{"kind": "person"} for _ in formed.people]
        seats += [{"kind": "bot", "bot": game.info.default_bot} for _ in range(formed.bots)]
        clock = REALTIME_CLOCK if formed.mode == "realtime" else TURN_BASED_CLOCK

        def sit(table: Table) -> None:
            for index, person in enumerate(formed.people):
                row = rows[person.key]
                chair = table.seats[index]
                chair.token_hash = row.ticket_hash
                chair.account_id = row.account_id
                chair.name = row.name

        return self.tables.seats.new_table(
            formed.game,
            formed.players,
            {},
            seats,
            formed.mode,
            clock,
            prepare=sit,
            rated=formed.rated,
        )


def _game_counts(game: str) -> tuple[str, list[int]]:
    """A game's id and its player counts, smallest first (404 for an unknown game)."""
    try:
        found = game_class(game)
    except InvalidOptions:
        raise TableError(
            404, f"unknown game {game!r}; the games are: {', '.join(game_ids())}"
        ) from None
    return found.info.id, list(found.info.player_counts)
