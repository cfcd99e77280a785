"""Chat at the table: who may speak where and when, the lines said (stored with the table), the
rate each sender may speak at, and the lines an administrator hides.

A table has two channels. ``players``: its seated people speak (a seat proves itself as it
does for a move: its token, or its signed-in person), and everyone watching the table reads.
``spectators``: signed-in people who hold no seat of the table speak (a person is accountable:
a guest spectator reads, and cannot speak); spectators read it, and a seat only when it asks
to (:class:`~courtly.web.protocol.ChatReadMessage`). Lines are plain text, cleaned as names are
(:func:`courtly.web.names.shown_text`) and at most
:data:`~courtly.web.protocol.MAX_CHAT_LINE` characters.

The chat is closed, and every line refused with the reason, at a tutorial (nobody to talk to),
at a hot-seat table (everyone plays at one device), and while a game whose rules forbid
partners to talk is played (:data:`SILENT_GAMES`): every line would reach the partner.

Each server process keeps the rooms it was asked about in memory; a line said through one
process reaches the others by the storage's ``NOTIFY`` (PostgreSQL), announced as
:func:`chat_topic`, which :meth:`Chat.heard` turns into a reload of that room.
"""

from __future__ import annotations

import bisect
import hashlib
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Final

from fastapi import HTTPException
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import select, update

from .model import Table, TableError
from .names import shown_text, visible
from .people import Account
from .protocol import (
    MAX_CHAT_LINE,
    AdminAct,
    ChatChannel,
    ChatHistory,
    ChatLine,
    ChatMessage,
    SayRequest,
)
from .storage import Storage
from .storage.rows import AccountRow, AdminActRow, ChatLineRow, TableRow
from .tables import Tables
from .tables.access import Credential, authorise

CHAT_RATE: Final = "5/10 seconds;30/minute"
"""How often one sender (a person, or a guest's seat) may speak, in every table together."""
SILENT_GAMES: Final = {
    "goths-save-the-queen": (
        "the King and his Warchief speak only through their cards (rule GOTH-24): the chat "
        "opens when the game ends"
    ),
}
"""Games whose rules forbid partners to talk, with the reason said while one is played."""
ROOMS_KEPT: Final = 4096
"""Rooms one process keeps in memory (the least recently used are read again when asked)."""
CHAT_PREFIX: Final = "chat:"
MUTED_PREFERENCE: Final = "chat_muted"
"""The key of an account's preferences that holds the senders it mutes."""


def chat_topic(table_id: str) -> str:
    """The hub's (and the storage's ``NOTIFY``) name for a table's chat, apart from its moves:
    a line said wakes no view."""
    return CHAT_PREFIX + table_id


def sender_key(account_id: str | None, seat: int | None) -> str:
    """Who said a line, as a page mutes them: a person the same on every table (a digest of
    the account, never the account's id), a guest's seat as ``s<seat>`` (that table's only)."""
    if account_id is not None:
        return "p" + hashlib.sha256(f"chat sender {account_id}".encode()).hexdigest()[:16]
    return f"s{seat}"


def _line_id(line: ChatLine) -> int:
    return line["id"]


def line_of(row: ChatLineRow) -> ChatLine:
    channel: ChatChannel = "spectators" if row.channel == "spectators" else "players"
    return {
        "id": row.id,
        "channel": channel,
        "seat": row.seat,
        "sender": sender_key(row.account_id, row.seat),
        "name": row.name,
        "text": row.text,
        "at": row.at,
    }


@dataclass
class Room:
    """A table's chat as this process knows it."""

    lines: list[ChatLine]
    """The lines not hidden, oldest first."""
    hot_seat: bool
    arrivals: list[ChatLine] = field(default_factory=list)
    """Every line in the order this process learnt of it: what a connection has had is a count
    of them. (Ids are not enough: lines said at once may be committed out of the order of their
    ids, by two threads or two processes, and a reader past the later id would miss the
    earlier.)"""
    hidden: list[int] = field(default_factory=list)
    """The ids of lines hidden since the room was loaded, in the order they were hidden."""
    hidden_ids: set[int] = field(default_factory=set)
    known: set[int] = field(default_factory=set)
    """The ids of every line that arrived."""

    def __post_init__(self) -> None:
        self.arrivals = list(self.lines)
        self.known = {line["id"] for line in self.lines}

    def arrived(self, line: ChatLine) -> None:
        """``line`` is new here (once: a line already known is left alone)."""
        if line["id"] in self.known:
            return
        self.known.add(line["id"])
        self.arrivals.append(line)
        bisect.insort(self.lines, line, key=_line_id)

    def hide(self, line_id: int) -> None:
        if line_id in self.known and line_id not in self.hidden_ids:
            self.hidden_ids.add(line_id)
            self.hidden.append(line_id)
            self.lines = [x for x in self.lines if x["id"] != line_id]


class Chat:
    """The chat of every table. ``publish(topic)`` wakes the watchers of a table's chat."""

    def __init__(
        self,
        storage: Storage,
        tables: Tables,
        publish: Callable[[str], None],
        rate: str = CHAT_RATE,
    ) -> None:
        self.storage = storage
        self.tables = tables
        self.publish = publish
        self._rooms: OrderedDict[str, Room] = OrderedDict()
        self._lock = threading.Lock()
        self._rates = [] if rate.strip() in ("", "0") else parse_many(rate)
        """Each rate a sender is held to (none: no limit); a bad ``rate`` is a ValueError."""
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    # ------------------------------------------------------------------------------ reading

    def closed(self, table: Table) -> str | None:
        """Why nobody may speak at ``table`` now (None: the chat is open)."""
        if table.tutorial:
            return "a tutorial has no chat: there is nobody to talk to"
        if self.room(table.id).hot_seat:
            return "a hot-seat table has no chat: everyone at it plays at one device"
        silent = SILENT_GAMES.get(table.game.id)
        if silent is not None and table.status in ("open", "playing"):
            return f"no chat while {table.game.info.title} is played: {silent}"
        return None

    def history(self, table_id: str, channel: ChatChannel) -> ChatHistory:
        """A channel's lines (404 for an unknown table)."""
        table = self.tables.cache.get(table_id)
        lines = [line for line in self.room(table_id).lines if line["channel"] == channel]
        return {"table": table_id, "channel": channel, "closed": self.closed(table), "lines": lines}

    def news(
        self, room: Room, after: int, hidden_held: int, spectators: bool
    ) -> tuple[list[ChatLine], list[int], int]:
        """The lines of ``room`` that arrived after the first ``after`` (the spectators' only
        if ``spectators``; none hidden), the ids hidden after the first ``hidden_held``, and
        the count of arrivals now."""
        with self._lock:
            lines = [
                line
                for line in room.arrivals[after:]
                if (spectators or line["channel"] == "players")
                and line["id"] not in room.hidden_ids
            ]
            return lines, room.hidden[hidden_held:], len(room.arrivals)

    def room(self, table_id: str) -> Room:
        with self._lock:
            room = self._rooms.get(table_id)
            if room is not None:
                self._rooms.move_to_end(table_id)
                return room
        room = self._load(table_id)
        with self._lock:
            kept = self._rooms.setdefault(table_id, room)
            while len(self._rooms) > ROOMS_KEPT:
                self._rooms.popitem(last=False)
            return kept

    def _load(self, table_id: str) -> Room:
        with self.storage.session() as session:
            rows = session.scalars(
                select(ChatLineRow)
                .where(ChatLineRow.table_id == table_id, ChatLineRow.hidden.is_(False))
                .order_by(ChatLineRow.id)
            ).all()
            hot_seat = session.scalar(select(TableRow.hot_seat).where(TableRow.id == table_id))
            return Room([line_of(row) for row in rows], bool(hot_seat))

    def heard(self, table_id: str) -> None:
        """Another process changed the table's chat: read it again, keeping the hidden lines'
        order, and wake its watchers."""
        with self._lock:
            if table_id not in self._rooms:
                return  # nobody here reads it
        fresh = self._load(table_id)
        with self._lock:
            room = self._rooms.get(table_id)
            if room is not None:
                # A line is never deleted: one no longer read was hidden.
                ids = {line["id"] for line in fresh.lines}
                for gone in [x["id"] for x in room.lines if x["id"] not in ids]:
                    room.hide(gone)
                for line in fresh.lines:
                    room.arrived(line)
                room.hot_seat = fresh.hot_seat
        self.publish(chat_topic(table_id))

    # ------------------------------------------------------------------------------ speaking

    def say(
        self, table_id: str, request: SayRequest, credential: Credential, account: Account | None
    ) -> ChatLine:
        """Say ``request.text`` in its channel: refused (nothing stored) when the chat is
        closed, the sender may not speak there, the line is empty or long, or the sender
        spoke too often."""
        text = shown_text(request.text)
        if not visible(text):
            raise TableError(422, "text: a chat line needs a letter, digit or sign to show")
        if len(text) > MAX_CHAT_LINE:
            raise TableError(
                422, f"text: a chat line is at most {MAX_CHAT_LINE} characters, not {len(text)}"
            )
        table = self.tables.cache.get(table_id)
        with table.lock:
            why = self.closed(table)
            if why is not None:
                raise TableError(409, why)
            if request.channel == "players":
                seat, account_id, name = self._seat_speaker(table, request.seat, credential)
            else:
                account_id, name = self._spectator(table, request.seat, account)
                seat = None
        self._count(account_id or f"{table_id}:{seat}")
        row = ChatLineRow(
            table_id=table_id,
            channel=request.channel,
            seat=seat,
            account_id=account_id,
            name=name,
            text=text,
            at=time.time(),
            hidden=False,
        )
        with self.storage.session() as session:
            session.add(row)
            session.flush()
            line = line_of(row)
            self.storage.notify(session, chat_topic(table_id))
        room = self.room(table_id)
        with self._lock:
            room.arrived(line)
        self.publish(chat_topic(table_id))
        return line

    def _seat_speaker(
        self, table: Table, seat: int | None, credential: Credential
    ) -> tuple[int, str | None, str]:
        if seat is None:
            raise TableError(422, "seat: the players' channel is for seats: say which is yours")
        authorise(table, seat, credential, reload=self.tables.cache.reload)
        chair = table.seats[seat]
        if chair.kind != "person":
            raise TableError(403, f"seat {seat} is a bot's")
        return seat, chair.account_id, chair.name

    @staticmethod
    def _spectator(table: Table, seat: int | None, account: Account | None) -> tuple[str, str]:
        if seat is not None:
            raise TableError(422, "seat: the spectators' channel is for spectators, not seats")
        if account is None:
            raise TableError(
                401, "sign in to speak in the spectators' channel (guests may read it)"
            )
        held = [i for i, s in enumerate(table.seats) if s.account_id == account.id]
        if held:
            raise TableError(
                403, f"you play seat {held[0]} of this table: speak in the players' channel"
            )
        return account.id, account.name

    def _count(self, sender: str) -> None:
        """Count a line of ``sender``'s: 429 with ``Retry-After`` over :data:`CHAT_RATE`."""
        for rate in self._rates:
            if not self._limiter.test(rate, "chat", sender):
                stats = self._limiter.get_window_stats(rate, "chat", sender)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                raise HTTPException(
                    429,
                    f"you are speaking too fast: at most {rate} lines; try again in {wait} s",
                    headers={"Retry-After": str(wait)},
                )
        for rate in self._rates:
            self._limiter.hit(rate, "chat", sender)

    # ------------------------------------------------------------------------------ managing

    def hide(self, admin: Account, line_id: int, reason: str) -> AdminAct:
        """An administrator hides a line: never sent again, taken off every page showing it;
        the act logged. 404 for no such line; hiding a hidden line again changes nothing."""
        now = time.time()
        detail = reason[:300]
        with self.storage.session() as session:
            row = session.get(ChatLineRow, line_id)
            if row is None:
                raise TableError(404, f"there is no chat line {line_id}")
            table_id = row.table_id
            if not row.hidden:
                row.hidden = True
                session.add(
                    AdminActRow(
                        at=now,
                        admin_id=admin.id,
                        act="hide-chat-line",
                        target=str(line_id),
                        detail=detail,
                    )
                )
                self.storage.notify(session, chat_topic(table_id))
        with self._lock:
            room = self._rooms.get(table_id)
            if room is not None:
                room.hide(line_id)
        self.publish(chat_topic(table_id))
        return {
            "at": now,
            "admin": admin.name,
            "act": "hide-chat-line",
            "target": str(line_id),
            "detail": detail,
        }

    def muted(self, account_id: str) -> list[str]:
        """The senders ``account_id`` keeps muted (kept in the account's preferences)."""
        with self.storage.session() as session:
            preferences = session.scalar(
                select(AccountRow.preferences).where(AccountRow.id == account_id)
            )
        kept = (preferences or {}).get(MUTED_PREFERENCE, [])
        return [key for key in kept if isinstance(key, str)] if isinstance(kept, list) else []

    def set_muted(self, account_id: str, muted: list[str]) -> list[str]:
        """Keep ``muted`` as the senders ``account_id`` mutes (the other preferences stay)."""
        kept = list(dict.fromkeys(muted))
        with self.storage.session() as session:
            # The row held while its preferences are rewritten: the turn e-mail settings live
            # there too, and a change of theirs at the same instant must not be lost.
            row = session.get(AccountRow, account_id, with_for_update=True)
            if row is None:
                raise TableError(404, "this account no longer exists")
            # A new dict: the JSON column is saved only when it is assigned.
            row.preferences = {**(row.preferences or {}), MUTED_PREFERENCE: kept}
        return kept

    def joined(self, table: Table, hot_seat: bool) -> None:
        """A person's seat of ``table`` was taken, at a hot seat or not. The table is a hot
        seat's (no chat) when its first person's seat was taken as one and every later one
        too: a stranger who joins the last seat of a table "as a hot seat" silences nobody."""
        first = sum(1 for seat in table.seats if seat.kind == "person" and seat.taken) == 1
        if hot_seat and first:
            self._mark_hot_seat(table.id, True)
        elif not hot_seat and self.room(table.id).hot_seat:
            self._mark_hot_seat(table.id, False)

    def _mark_hot_seat(self, table_id: str, hot_seat: bool) -> None:
        with self.storage.session() as session:
            session.execute(
                update(TableRow).where(TableRow.id == table_id).values(hot_seat=hot_seat)
            )
            self.storage.notify(session, chat_topic(table_id))
        self.room(table_id).hot_seat = hot_seat
        self.publish(chat_topic(table_id))


class ChatReader:
    """What one connection has had of a table's chat: the lines up to an id, the hidden lines
    it was told of, whether it reads the spectators' channel, and the chat's state it knows."""

    def __init__(self, chat: Chat, table_id: str, spectator: bool) -> None:
        self.chat = chat
        self.table_id = table_id
        self.spectators = spectator
        """A spectator reads the spectators' channel; a seat once it asks to."""
        self.room = chat.room(table_id)
        self.held = 0
        """The room's arrivals the connection has had."""
        self.hidden_held = len(self.room.hidden)
        self.closed: str | None = None
        self.started = False

    def message(self, everything: bool = False) -> ChatMessage | None:
        """What the connection has not had (``everything``: every line again), or None."""
        chat = self.chat
        closed = chat.closed(chat.tables.cache.get(self.table_id))
        room = chat.room(self.table_id)
        if room is not self.room:  # the room was read again: its arrivals are counted anew
            self.room, self.hidden_held, everything = room, len(room.hidden), True
        after = 0 if everything else self.held
        lines, hidden, self.held = chat.news(room, after, self.hidden_held, self.spectators)
        if self.started and not everything and not lines and not hidden and closed == self.closed:
            return None
        self.started = True
        self.closed = closed
        self.hidden_held += len(hidden)
        return {"type": "chat", "lines": lines, "hidden": hidden, "closed": closed}
