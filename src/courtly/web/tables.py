"""Tables: a game, its seats and its state, changed only through the engine contract.

A :class:`Table` lives in memory for speed and in the database for truth. Every change (a
move, a seat joined, a clock run out) happens under the table's lock, is written and committed
first, and only then becomes the table's state; a failed commit leaves the table as it was.
Chance is resolved by the server right after the move that led to it, with a generator drawn
from the table's seed and the event's index, so a table rebuilt from its history after a
restart goes on exactly as it would have.

Several server processes may serve one PostgreSQL database: before a change a process locks the
table's row and catches up with the events and seats another process wrote, and the primary key
of an event (table, index) makes a double write impossible.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import secrets
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from ..agents.registry import AgentSpec, find_bot, make_agent
from ..core.errors import IllegalAction, InvalidOptions
from ..core.events import CHANCE, actor_text, parse_actor
from ..core.game import Game, State, View
from ..core.records import MatchRecord
from ..core.registry import make
from .storage import (
    WRITER_PATIENCE,
    EventRow,
    NoticeRow,
    SeatRow,
    Stale,
    Storage,
    TableRow,
    WriterBusy,
)

MODES = ("realtime", "turn-based")
MAX_SEATS = 8
REPLAYS_KEPT = 16
"""Finished tables whose replayed states a server keeps (a replay steps through one)."""
FINISHED_KEPT = 512
"""Finished tables a server keeps in memory, the most recently finished or read: any other is
read again from the database when asked for (a late retry, a rematch, its record). A server
that runs for months holds its tables in play, not every table it ever had."""
REPLAY_EVERY = 16
"""A replayed table keeps its state every this many events; a step replays the rest from one."""


class TableError(Exception):
    """A request the table refuses: an HTTP status and a message that names the problem."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


@dataclass(frozen=True)
class Clock:
    """A table's time rules, in seconds (0: none).

    Realtime tables give each seat ``initial`` seconds plus ``increment`` per move; turn-based
    tables give ``per_move`` seconds for each decision. ``away`` is how long a person who must
    move may stay disconnected. A seat out of time or away is played by a bot until its person
    takes it back.
    """

    initial: float = 0.0
    increment: float = 0.0
    per_move: float = 0.0
    away: float = 0.0

    @classmethod
    def of(cls, data: Mapping[str, Any] | None) -> Clock:
        if not data:
            return cls()
        return cls(**{key: float(value) for key, value in data.items() if key in _CLOCK_FIELDS})

    @property
    def timed(self) -> bool:
        return self.initial > 0 or self.per_move > 0


_CLOCK_FIELDS = ("initial", "increment", "per_move", "away")


@dataclass
class Seat:
    """A seat as the server knows it (mirrors :class:`~courtly.web.storage.SeatRow`)."""

    kind: str
    bot: str | None
    name: str = ""
    token_hash: str | None = None
    bot_control: bool = False
    clock_ms: int | None = None
    clock_since: float | None = None

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or self.bot_control

    def public(self, seat: int, now: float) -> dict[str, Any]:
        """What everyone may know of the seat (never its token)."""
        return {
            "seat": seat,
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot if self.played_by_bot else None,
            "taken": self.taken,
            "bot_control": self.bot_control,
            "clock": self.time_left(now),
            "clock_running": self.clock_since is not None,
        }

    def time_left(self, now: float) -> float | None:
        """Seconds left on the seat's clock now (None: no clock)."""
        if self.clock_ms is None:
            return None
        spent = 0.0 if self.clock_since is None else max(0.0, now - self.clock_since)
        return round(max(0.0, self.clock_ms / 1000 - spent), 3)


@dataclass
class Answer:
    """The reply to an applied move, kept so that a retry gets the very same reply."""

    seat: int
    action: str
    index: int
    version: int

    def to_dict(self, table_id: str) -> dict[str, Any]:
        return {"table": table_id, **asdict(self)}


@dataclass
class _Move:
    """A decided move: its answer and what committing it writes (no state for a retry)."""

    answer: Answer
    state: State | None = None
    moved: list[tuple[int, ...]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    table_values: dict[str, Any] = field(default_factory=dict)
    seat_values: dict[int, dict[str, Any]] = field(default_factory=dict)


@dataclass
class Table:
    """One game at the server: a game, seats, the state, and what the messages need."""

    id: str
    game: Game
    mode: str
    clock: Clock
    seed: int
    seats: list[Seat]
    state: State
    status: str = "open"
    revision: int = 0
    """The database row's revision this copy is at (see :meth:`Storage.commit_move`)."""
    hints: bool = True
    created_at: float = 0.0
    rematch_of: str | None = None
    rematch_id: str | None = None
    notices: list[dict[str, Any]] = field(default_factory=list)
    to_move_at: list[tuple[int, ...]] = field(default_factory=list)
    """``to_move_at[v]``: the seats to move at version ``v`` (checks moves chosen earlier)."""
    answers: dict[tuple[int, int], tuple[str, Answer]] = field(default_factory=dict)
    """Applied moves by (seat, version chosen at): a retry is recognised and answered again."""
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    @property
    def version(self) -> int:
        return len(self.state.history)

    def summary(self, now: float) -> dict[str, Any]:
        """The table as the lobby lists it, read under its lock: a move's change of status and
        of state are one change (never "over" with the state before the last move)."""
        with self.lock:
            return {
                "id": self.id,
                "game": self.game.id,
                "title": self.game.info.title,
                "players": self.game.num_players,
                "options": self.game.config()["options"],
                "mode": self.mode,
                "clock": asdict(self.clock),
                "status": self.status,
                "version": self.version,
                # Public in every view: a hot-seat page knows whom to hand the device to
                # before it fetches anyone's view.
                "to_move": list(self.state.to_move) if self.status == "playing" else [],
                "hints": self.hints,
                "seats": [seat.public(i, now) for i, seat in enumerate(self.seats)],
                "free_seats": [i for i, seat in enumerate(self.seats) if not seat.taken],
                "created_at": self.created_at,
                "rematch_of": self.rematch_of,
                "rematch_id": self.rematch_id,
            }


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def refusal(view: View, action: object) -> str:
    """Why ``view``'s seat may not make ``action`` (its text or id), from the seat's view alone:
    the full state's reason could tell of something the seat may not know."""
    try:
        text = action if isinstance(action, str) else str(view.game.action_from_id(action))
        view.parse_action(text)
    except IllegalAction as error:
        return str(error)
    return f"{action} is not legal now"


def chance_rng(seed: int, index: int) -> random.Random:
    """The generator that resolves the chance event at ``index`` of a table: the same after a
    restart, so a table replayed from its history carries on as it would have."""
    return random.Random(f"courtly-table/{seed}/{index}")


def _legal_action(view: View, action: Any) -> dict[str, Any]:
    """A legal action as a seat is sent it: its id and text, and the game's ``caution`` (from
    the seat's view alone) when the move throws the game away, for the page to confirm first."""
    entry: dict[str, Any] = {"id": action.id, "text": str(action)}
    caution = view.caution(action)
    if caution:
        entry["caution"] = caution
    return entry


def seat_message(table: Table, seat: int | None, since: int, now: float) -> dict[str, Any]:
    """Everything a seat (``None``: a spectator) is sent: made from ``state.view(seat)`` and
    the table's public facts, nothing else. ``since`` is how much of the log it already has."""
    view = table.state.view(seat)
    since = view.log_from(since)  # again from an event revealed to the seat since
    playing = table.status == "playing"
    legal = view.legal_actions() if playing else ()
    message: dict[str, Any] = {
        "table": table.id,
        "game": table.game.id,
        "players": table.game.num_players,
        "seat": seat,
        "version": view.version,
        "status": table.status,
        "to_move": list(view.to_move),
        "legal_actions": [_legal_action(view, action) for action in legal],
        "observation": view.observation(),
        "log_from": since,
        "log": view.log(since),
        "result": None,
        "seats": [s.public(i, now) for i, s in enumerate(table.seats)],
        "notices": table.notices,
        "mode": table.mode,
        "hints": table.hints,
        "rematch_id": table.rematch_id,
    }
    if view.is_terminal:
        message["result"] = {
            "returns": view.returns(),
            "winners": list(view.winners),
            "truncated": view.truncated,
        }
    return message


class Tables:
    """Every table of a server, in memory and in the database.

    ``on_change(table_id)`` is called after every committed change (pushes the new views and
    wakes the bots); it is called outside the table's lock.
    """

    def __init__(self, storage: Storage, on_change: Callable[[str], None] | None = None) -> None:
        self.storage = storage
        self.on_change = on_change or (lambda _table_id: None)
        self._tables: dict[str, Table] = {}
        self._guard = threading.Lock()
        self._present: Counter[tuple[str, int]] = Counter()
        """(table, seat) -> this process's open WebSockets of that seat."""
        self._finished: OrderedDict[str, None] = OrderedDict()
        """Finished tables held in memory, the most recently finished or read last."""
        self.finished_kept = FINISHED_KEPT
        self._replays: OrderedDict[str, list[State]] = OrderedDict()
        """Finished tables replayed (their state every :data:`REPLAY_EVERY` events), the most
        recently used last."""
        self._replays_guard = threading.Lock()

    # ------------------------------------------------------------------------------ reading

    def get(self, table_id: str) -> Table:
        """The table ``table_id`` (loaded from the database on first use); 404 if unknown."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        with self._guard:
            table = self._tables.get(table_id)
            if table is None:
                with self.storage.session() as session:
                    row = session.get(TableRow, table_id)
                    if row is None:
                        raise TableError(404, f"there is no table {table_id!r}")
                    table = self._load(session, row)
                self._tables[table_id] = table
                if table.status == "over":
                    self._keep_finished(table_id)
        return table

    def _keep_finished(self, table_id: str) -> None:
        """Count ``table_id`` among the finished tables in memory, and let the oldest go beyond
        :attr:`finished_kept` (``self._guard`` held)."""
        self._finished[table_id] = None
        self._finished.move_to_end(table_id)
        while len(self._finished) > self.finished_kept:
            old, _ = self._finished.popitem(last=False)
            table = self._tables.get(old)
            if table is not None and table.status == "over":
                del self._tables[old]

    def load_active(self, downtime_from: float | None = None) -> list[str]:
        """Load every table in play (at start); with ``downtime_from`` (the last moment a server
        was alive), running clocks are not charged for the time no server ran."""
        with self.storage.session() as session:
            rows = self.storage.tables(session, ("open", "playing"), limit=1_000_000)
            ids = []
            for row in rows:
                table = self._load(session, row)
                self._tables[row.id] = table
                ids.append(row.id)
                if downtime_from is not None and table.status == "playing":
                    self._forgive_downtime(session, table, downtime_from)
        return ids

    def _forgive_downtime(self, session: Session, table: Table, last_alive: float) -> None:
        now = time.time()
        if now - last_alive < 1:
            return
        forgiven = False
        for index, seat in enumerate(table.seats):
            if seat.clock_since is None:
                continue
            if seat.clock_ms is not None:
                used = max(0.0, min(last_alive, now) - seat.clock_since)
                seat.clock_ms = max(0, seat.clock_ms - int(used * 1000))
            # An untimed seat's turn start counts for ``away``: the downtime is not absence.
            seat.clock_since = now
            self._save_seat(session, table, index)
            forgiven = True
        if forgiven and (table.clock.timed or table.clock.away > 0):
            self._notice(
                session,
                table,
                f"the server was down for {now - last_alive:.0f} s; no clock ran meanwhile",
                now,
            )

    def listing(self, statuses: Sequence[str], limit: int = 100) -> list[dict[str, Any]]:
        now = time.time()
        with self.storage.session() as session:
            ids = [row.id for row in self.storage.tables(session, statuses, limit)]
        return [self.get(table_id).summary(now) for table_id in ids]

    def message(
        self, table_id: str, seat: int | None, token: str | None, since: int
    ) -> dict[str, Any]:
        """The view of ``seat`` (its token checked) or of a spectator."""
        table = self.get(table_id)
        with table.lock:
            if seat is not None:
                self._authorise(table, seat, token)
            return seat_message(table, seat, max(0, since), time.time())

    def message_now(
        self, table_id: str, seat: int | None, token: str | None, since: int
    ) -> dict[str, Any] | None:
        """:meth:`message` if it can be made at once (the table is loaded and not being
        changed), else None: the event loop builds most messages itself this way, and leaves
        the rest to a worker thread, which may wait."""
        table = self._tables.get(table_id)
        if table is None or not table.lock.acquire(blocking=False):
            return None
        try:
            if seat is not None:
                self._authorise(table, seat, token)
            return seat_message(table, seat, max(0, since), time.time())
        finally:
            table.lock.release()

    def record(self, table_id: str) -> dict[str, Any]:
        """A finished table's record (every event revealed: the game is over)."""
        return self.match_record(table_id).to_dict()

    def match_record(self, table_id: str) -> MatchRecord:
        """A finished table's record; 409 while the game is on (it would reveal every card)."""
        table = self.get(table_id)
        with table.lock:
            if table.status != "over":
                raise TableError(
                    409, "the record of a table is public once the game is over, and it is not"
                )
            return table.state.record(
                seed=table.seed,
                seats=[s.bot if s.kind == "bot" and s.bot else "person" for s in table.seats],
            )

    def hint_view(self, table_id: str, seat: int, token: str | None, version: int) -> View:
        """The view a hint for ``seat`` is searched from (its token checked): refused with 403
        where the table has hints off, 409 unless the seat is to move at ``version`` in a game
        in play. The view alone goes to the search, never the state."""
        table = self.get(table_id)
        with table.lock:
            self._authorise(table, seat, token, may_reload=True)
            if not table.hints:
                raise TableError(403, "hints are off at this table")
            if table.status != "playing":
                raise TableError(409, f"no hint: the table is {table.status}, not in play")
            if version != table.version:
                raise TableError(
                    409,
                    f"no hint for version {version}: the table is at version {table.version}",
                    version=table.version,
                )
            if seat not in table.state.to_move:
                raise TableError(409, f"no hint: seat {seat} is not to move")
            return table.state.view(seat)

    def replay(self, table_id: str, step: int | None, seat: str = "all") -> dict[str, Any]:
        """A finished table as it stood after ``step`` events (default: the end), seen by
        ``seat``: a seat's number (what it knew then), ``spectator``, or ``all`` (every seat's
        view side by side and every event revealed: the record is public once the game is over).

        Refused with 409 while the game is on: a replay must never show a live game.
        """
        table = self.get(table_id)
        with table.lock:
            if table.status != "over":
                raise TableError(
                    409, "a table is replayed once its game is over, and this one is not"
                )
            seats = [s.public(i, time.time()) for i, s in enumerate(table.seats)]
        states = self._replayed(table)
        history = table.state.history
        steps = len(history)
        if step is None:
            step = steps
        if not 0 <= step <= steps:
            raise TableError(422, f"step {step} is not a step of this game (0 to {steps})")
        players = table.game.num_players
        viewers: list[int | None]
        who: int | str
        if seat == "all":
            viewers, who = list(range(players)), "all"
        elif seat == "spectator":
            viewers, who = [None], "spectator"
        elif seat.isdigit() and int(seat) < players:
            viewers, who = [int(seat)], int(seat)
        else:
            raise TableError(
                422, f"seat is a seat number (0 to {players - 1}), spectator or all, not {seat!r}"
            )
        state = states[step // REPLAY_EVERY].clone()
        for actor, item in history[step - step % REPLAY_EVERY : step]:
            if actor == CHANCE:
                state.apply_chance(item)
            else:
                state.apply(actor, item)
        views = [state.view(viewer) for viewer in viewers]
        log = state.history_text() if who == "all" else views[0].log()
        answer: dict[str, Any] = {
            "table": table.id,
            "game": table.game.id,
            "players": players,
            "step": step,
            "steps": steps,
            "seat": who,
            "to_move": [] if state.is_terminal else list(state.to_move),
            "views": [
                {"seat": viewer, "observation": view.observation()}
                for viewer, view in zip(viewers, views, strict=True)
            ],
            "log": log,
            "result": None,
            "seats": seats,
        }
        if state.is_terminal:
            answer["result"] = {
                "returns": state.returns(),
                "winners": list(state.winners),
                "truncated": state.truncated,
            }
        return answer

    def _replayed(self, table: Table) -> list[State]:
        """A finished table's state after every :data:`REPLAY_EVERY` events from the start:
        built once, then kept for the last few tables replayed, so that a step costs at most
        that many events and a view."""
        with self._replays_guard:
            states = self._replays.get(table.id)
            if states is not None:
                self._replays.move_to_end(table.id)
                return states
        state = table.game.new_state()
        states = [state.clone()]
        for index, (actor, item) in enumerate(table.state.history, start=1):
            if actor == CHANCE:
                state.apply_chance(item)
            else:
                state.apply(actor, item)
            if index % REPLAY_EVERY == 0:
                states.append(state.clone())
        with self._replays_guard:
            self._replays[table.id] = states
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        return states

    # ------------------------------------------------------------------------------ creating

    def create(
        self,
        game_id: str,
        players: int | None,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        mode: str = "realtime",
        clock: Mapping[str, Any] | None = None,
        seed: int | None = None,
        hints: bool = True,
    ) -> Table:
        """A new table; 400 names what is wrong with the request."""
        try:
            game = make(game_id, players=players, **options)
        except InvalidOptions as error:
            raise TableError(400, str(error)) from None
        if mode not in MODES:
            raise TableError(400, f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        timing = self._check_clock(mode, clock)
        if len(seats) != game.num_players:
            raise TableError(
                400,
                f"{game.id} with {game.num_players} players needs {game.num_players} seats, "
                f"got {len(seats)}",
            )
        now = time.time()
        table_seats = [self._check_seat(game, index, spec) for index, spec in enumerate(seats)]
        for seat in table_seats:
            if timing.initial > 0:
                seat.clock_ms = int(timing.initial * 1000)
        table = Table(
            id=secrets.token_urlsafe(8),
            game=game,
            mode=mode,
            clock=timing,
            seed=secrets.randbits(62) if seed is None else seed,
            seats=table_seats,
            state=game.new_state(),
            hints=hints,
            created_at=now,
        )
        self._resolve_chance(table.state, table.seed)
        table.to_move_at = self._to_move_history(table.state)
        table.status = "playing" if all(s.taken for s in table.seats) else "open"
        if table.status == "playing":
            self._start_clocks(table, table.state, now)
        with self.storage.session() as session:
            session.add(self._table_row(table, now))
            session.flush()  # the table's row first: seats and events refer to it
            for index in range(len(table.seats)):
                session.add(self._seat_row(table, index))
            for index, (actor, item) in enumerate(table.state.history):
                session.add(self._event_row(table, index, actor, item, now))
        with self._guard:
            self._tables[table.id] = table
        self.on_change(table.id)
        return table

    @staticmethod
    def _check_clock(mode: str, clock: Mapping[str, Any] | None) -> Clock:
        unknown = sorted(set(clock or {}) - set(_CLOCK_FIELDS))
        if unknown:
            raise TableError(
                400, f"unknown clock field {unknown[0]!r}; a clock has {', '.join(_CLOCK_FIELDS)}"
            )
        try:
            timing = Clock.of(clock)
        except (TypeError, ValueError):
            raise TableError(400, "clock fields are numbers of seconds") from None
        values = asdict(timing)
        for name, value in values.items():
            if not 0 <= value <= 366 * 86400 or value != value:
                raise TableError(400, f"clock {name} must be between 0 and a year, not {value}")
        if mode == "realtime" and timing.per_move:
            raise TableError(
                400, "a realtime table's clock has initial and increment, not per_move"
            )
        if mode == "turn-based" and (timing.initial or timing.increment):
            raise TableError(
                400, "a turn-based table's clock has per_move, not initial or increment"
            )
        return timing

    @staticmethod
    def _check_seat(game: Game, index: int, spec: Mapping[str, Any]) -> Seat:
        kind = spec.get("kind", "person")
        name = str(spec.get("name") or "")[:64]
        if kind == "person":
            # The bot that plays for the person when they are out of time or away.
            return Seat(kind="person", bot=game.info.default_bot, name=name)
        if kind != "bot":
            raise TableError(400, f"seat {index}: kind must be person or bot, not {kind!r}")
        bot_name = str(spec.get("bot") or game.info.default_bot)
        bot_options = spec.get("options") or {}
        if not isinstance(bot_options, Mapping):
            raise TableError(400, f"seat {index}: bot options must be an object")
        agent = AgentSpec(bot_name, {str(k): str(v) for k, v in bot_options.items()})
        if agent.name == "human":
            raise TableError(400, f"seat {index}: a person's seat has kind person, not bot human")
        try:
            make_agent(agent, game)
        except InvalidOptions as error:
            raise TableError(400, f"seat {index}: {error}") from None
        return Seat(kind="bot", bot=str(agent), name=name or agent.name)

    # ------------------------------------------------------------------------------ seats

    def join(self, table_id: str, seat: int, name: str = "") -> tuple[str, Table]:
        """Take the free person's seat ``seat``: returns its secret token (shown once)."""
        table = self.get(table_id)
        token = secrets.token_urlsafe(32)
        with table.lock, self.storage.session() as session:
            self._catch_up(session, table)
            self._check_seat_index(table, seat)
            chair = table.seats[seat]
            if chair.taken:
                raise TableError(409, f"seat {seat} is taken")
            if table.status == "over":
                raise TableError(409, "the game is over")
            before = (chair.token_hash, chair.name, table.status)
            chair.token_hash = hash_token(token)
            chair.name = str(name)[:64] or f"p{seat}"
            now = time.time()
            try:
                if all(s.taken for s in table.seats) and table.status == "open":
                    table.status = "playing"
                    self._start_clocks(table, table.state, now)
                    for index in range(len(table.seats)):
                        self._save_seat(session, table, index)
                self._save_seat(session, table, seat)
                self._save_table(session, table, now)
                self.storage.notify(session, table.id)
            except Exception:
                chair.token_hash, chair.name, table.status = before
                raise
        self.on_change(table.id)
        return token, table

    def leave(self, table_id: str, seat: int, token: str | None) -> Table:
        """Give up a seat: free again before the game starts; played by its bot after."""
        table = self.get(table_id)
        with table.lock, self.storage.session() as session:
            self._catch_up(session, table)
            self._authorise(table, seat, token)
            chair = table.seats[seat]
            now = time.time()
            if table.status == "open":
                chair.token_hash = None
                chair.name = ""
            elif table.status == "playing" and not chair.bot_control:
                chair.bot_control = True
                self._notice(session, table, f"p{seat} left; {chair.bot} plays for them", now)
            self._save_seat(session, table, seat)
            self._save_table(session, table, now)
            self.storage.notify(session, table.id)
        self.on_change(table.id)
        return table

    def reclaim(self, table_id: str, seat: int, token: str | None) -> Table:
        """A person takes back the seat a bot played for them."""
        table = self.get(table_id)
        with table.lock, self.storage.session() as session:
            self._catch_up(session, table)
            self._authorise(table, seat, token)
            chair = table.seats[seat]
            if chair.bot_control:
                chair.bot_control = False
                now = time.time()
                if chair.clock_ms is not None and chair.time_left(now) == 0:
                    # Back with no time left: the clock restarts from the increment, if any.
                    chair.clock_ms = int(max(table.clock.increment, 10) * 1000)
                    chair.clock_since = now if chair.clock_since is not None else None
                self._notice(session, table, f"p{seat} is back and plays again", now)
                self._save_seat(session, table, seat)
                self._save_table(session, table, now)
                self.storage.notify(session, table.id)
        self.on_change(table.id)
        return table

    def _check_seat_index(self, table: Table, seat: int) -> None:
        if not 0 <= seat < len(table.seats):
            raise TableError(
                404, f"seat {seat} is not a seat of this table (seats 0 to {len(table.seats) - 1})"
            )

    def _authorise(
        self, table: Table, seat: int, token: str | None, may_reload: bool = False
    ) -> None:
        """401 without a token, 403 with another one. With ``may_reload``, a token this process
        does not know yet (the seat was joined through another server process) is looked up
        once in the database before it is refused."""
        self._check_seat_index(table, seat)
        if not token:
            raise TableError(401, f"seat {seat} needs its token (Authorization: Bearer <token>)")
        expected = table.seats[seat].token_hash
        if expected is None or not hmac.compare_digest(expected, hash_token(token)):
            if may_reload:
                self._reload(table)
                self._authorise(table, seat, token)
                return
            raise TableError(403, f"this token is not the token of seat {seat}")

    # ------------------------------------------------------------------------------ moves

    def submit(
        self,
        table_id: str,
        seat: int,
        action: object,
        version: int,
        token: str | None = None,
        by_bot: bool = False,
    ) -> Answer:
        """Apply ``seat``'s move chosen at ``version``, committed before it is answered.

        A retry of an applied move gets the same answer; a move chosen at an older version is
        taken only while nothing this seat could see has changed since (a simultaneous choice
        arriving after another seat's); otherwise 409 with the current version. If another
        server process changed the table first, this one catches up and decides again.
        """
        table = self.get(table_id)
        with table.lock:
            answer = self._submit(table, seat, action, version, token, by_bot, wait=True)
        self.on_change(table.id)
        return answer

    async def submit_on_loop(
        self, table_id: str, seat: int, action: object, version: int, token: str | None
    ) -> Answer | None:
        """:meth:`submit` made by the event loop itself, sparing the move a trip to a worker
        thread, or None (nothing done) when that is not possible now: the table is not loaded
        or is busy, SQLite's one writer is busy, or another writer changed the table first. The
        caller then hands the move to :meth:`submit` in a worker thread, which may wait."""
        if self.storage.is_postgresql:
            return await self._submit_async(table_id, seat, action, version, token)
        return self._submit_now(table_id, seat, action, version, token)

    def _submit_now(
        self, table_id: str, seat: int, action: object, version: int, token: str | None
    ) -> Answer | None:
        """:meth:`submit_on_loop` on SQLite: a local file, written at once when its writer is
        free (waiting at most about a commit for it)."""
        table = self._tables.get(table_id)
        if table is None or not table.lock.acquire(timeout=WRITER_PATIENCE):
            return None
        try:
            answer = self._submit(table, seat, action, version, token, False, wait=False)
        except WriterBusy:
            return None
        finally:
            table.lock.release()
        self.on_change(table.id)
        return answer

    async def _submit_async(
        self, table_id: str, seat: int, action: object, version: int, token: str | None
    ) -> Answer | None:
        """:meth:`submit_on_loop` on PostgreSQL: the move written by its async driver (another
        writer first: a worker thread catches up)."""
        table = self._tables.get(table_id)
        if table is None or not table.lock.acquire(blocking=False):
            return None
        try:
            self._authorise(table, seat, token)
            move = self._decide(table, seat, action, version, by_bot=False)
            revision = table.revision
        finally:
            table.lock.release()
        if move.state is None:  # a retry: answered again, nothing changed
            return move.answer
        try:
            await self.storage.commit_move_async(
                table.id, revision, move.table_values, move.events, move.seat_values
            )
        except Stale:
            return None
        # Committed. The table is unchanged in memory unless a worker thread read this very
        # move back from the database meanwhile (it caught up after a write of its own failed).
        while not table.lock.acquire(blocking=False):
            await asyncio.sleep(0.0005)  # held by a thread for a moment: never block the loop
        try:
            if table.revision == revision:
                self._committed(table, seat, version, move)
        finally:
            table.lock.release()
        self.on_change(table.id)
        return move.answer

    def _committed(self, table: Table, seat: int, version: int, move: _Move) -> None:
        """The move is in the database: only now does the table move on."""
        assert move.state is not None
        table.state = move.state
        table.revision += 1
        table.status = move.table_values["status"]
        table.to_move_at.extend(move.moved)
        table.answers[(seat, version)] = (move.answer.action, move.answer)
        for index, values in move.seat_values.items():
            table.seats[index].clock_ms = values["clock_ms"]
            table.seats[index].clock_since = values["clock_since"]
        if table.status == "over":
            with self._guard:
                self._keep_finished(table.id)

    def _submit(
        self,
        table: Table,
        seat: int,
        action: object,
        version: int,
        token: str | None,
        by_bot: bool,
        wait: bool,
    ) -> Answer:
        """:meth:`submit`, the table's lock held; ``wait=False``: :class:`WriterBusy` rather
        than wait for the database (or for another process's copy of the table)."""
        for attempt in range(3):
            if by_bot:
                self._check_seat_index(table, seat)
            else:
                self._authorise(table, seat, token, may_reload=attempt == 0 and wait)
            move = self._decide(table, seat, action, version, by_bot)
            if move.state is None:  # a retry: answered again, nothing changed
                return move.answer
            try:
                self.storage.commit_move(
                    table.id,
                    table.revision,
                    move.table_values,
                    move.events,
                    move.seat_values,
                    wait=wait,
                )
            except Stale:
                if not wait:
                    raise WriterBusy() from None
                self._reload(table)
                continue
            self._committed(table, seat, version, move)
            return move.answer
        raise TableError(409, "the table kept changing: try again", version=table.version)

    def _decide(self, table: Table, seat: int, action: object, version: int, by_bot: bool) -> _Move:
        """Check the move and play it on a copy: what to write, and the table after it (or,
        for a retry, the answer already given). Changes nothing."""
        earlier = table.answers.get((seat, version))
        if earlier is not None:
            text, answer = earlier
            if self._same_action(table, seat, action, text):
                return _Move(answer)
            raise TableError(
                409,
                f"seat {seat} already moved at version {version} ({text})",
                version=table.version,
            )
        if table.status != "playing":
            waiting = "the game is over" if table.status == "over" else "the game has not started"
            raise TableError(409, waiting, version=table.version)
        if by_bot != table.seats[seat].played_by_bot:
            # A person's move while their bot plays, or a bot's once its person is back.
            why = (
                f"seat {seat} is played by its person again"
                if by_bot
                else f"a bot plays seat {seat} now: take the seat back first (reclaim)"
            )
            raise TableError(409, why, version=table.version)
        self._check_version(table, seat, version)
        state = table.state.clone()
        try:
            state.apply(seat, action)
        except IllegalAction:
            reason = refusal(table.state.view(seat), action)
            raise TableError(422, reason, version=table.version) from None
        decision = len(state.history) - 1
        moved = [state.to_move, *self._resolve_chance(state, table.seed)]
        now = time.time()
        answer = Answer(seat, str(state.history[decision][1]), decision, len(state.history))
        events = []
        for index in range(decision, len(state.history)):
            actor, item = state.history[index]
            events.append(
                {
                    "table_id": table.id,
                    "index": index,
                    "actor": actor_text(actor),
                    "item": str(item),
                    "chosen_at": version if index == decision else None,
                    "answer_version": answer.version if index == decision else None,
                    "at": now,
                }
            )
        table_values = {
            "status": "over" if state.is_terminal else "playing",
            "version": len(state.history),
            "updated_at": now,
        }
        seat_values = {
            index: {"clock_ms": clock_ms, "clock_since": clock_since}
            for index, (clock_ms, clock_since) in self._clock_changes(
                table, table.state, state, seat, now
            ).items()
        }
        return _Move(answer, state, moved, events, table_values, seat_values)

    def _same_action(self, table: Table, seat: int, action: object, text: str) -> bool:
        if isinstance(action, str):
            return (
                action.strip().lower() == text.lower() or self._parsed(table, seat, action) == text
            )
        try:
            return str(table.game.action_from_id(action)) == text
        except IllegalAction:
            return False

    @staticmethod
    def _parsed(table: Table, seat: int, text: str) -> str | None:
        try:
            return str(table.game.action_from_text(text))
        except Exception:
            return None

    def _check_version(self, table: Table, seat: int, version: int) -> None:
        current = table.version
        if version == current and seat in table.state.to_move:
            return  # (a seat not to move is told so below: 409, not the engine's 422)
        if version > current or version < 0:
            raise TableError(
                409, f"version {version} is not a version of this table yet", version=current
            )
        # Chosen earlier: fine only at a simultaneous point where nothing but other seats'
        # hidden commitments happened since (their choices are kept apart, so this seat's
        # choice cannot depend on them).
        for index in range(version, current):
            actor = table.state.history[index][0]
            if actor in (CHANCE, seat) or seat not in table.to_move_at[index]:
                raise TableError(
                    409,
                    f"the table moved on since version {version}: choose again at version {current}",
                    version=current,
                )
        if seat not in table.state.to_move:
            raise TableError(409, f"p{seat} is not to move", version=current)

    @staticmethod
    def _resolve_chance(state: State, seed: int) -> list[tuple[int, ...]]:
        """Resolve the chance events due now; returns the seats to move after each."""
        moved = []
        while state.is_chance and not state.is_terminal:
            state.apply_chance(state.sample_chance_outcome(chance_rng(seed, len(state.history))))
            moved.append(state.to_move)
        return moved

    @staticmethod
    def _to_move_history(state: State) -> list[tuple[int, ...]]:
        """The seats to move at every version of ``state``'s history (replayed)."""
        replay = state.game.new_state()
        seats = []
        for actor, item in state.history:
            seats.append(replay.to_move)
            if actor == CHANCE:
                replay.apply_chance(item)
            else:
                replay.apply(actor, item)
        seats.append(replay.to_move)
        return seats

    # ------------------------------------------------------------------------------ bots

    def may_need_bots(self, table_id: str) -> bool:
        """False when no bot can have a move to make at ``table_id`` now (read without the
        lock: every change pokes the bots again, so a table caught mid-change is looked at
        afresh): most tables of people spare the bots a look in a worker thread per move."""
        table = self._tables.get(table_id)
        if table is None or (table.status == "playing" and table.state.is_chance):
            return True  # not loaded here yet, or between two events: look properly
        if table.status != "playing":
            return False
        seats = table.seats
        return any(seats[seat].played_by_bot for seat in table.state.to_move)

    def bot_turns(self, table_id: str) -> tuple[int, list[tuple[int, str, Any]]]:
        """The version and, for each seat a bot must play now, ``(seat, bot spec, view)``."""
        table = self.get(table_id)
        with table.lock:
            if table.status != "playing":
                return table.version, []
            turns = [
                (seat, table.seats[seat].bot or "random", table.state.view(seat))
                for seat in table.state.to_move
                if table.seats[seat].played_by_bot
            ]
            return table.version, turns

    # ------------------------------------------------------------------------------ clocks

    def _start_clocks(self, table: Table, state: State, now: float) -> None:
        """Start the clocks of the seats to move (the game begins); applied at once (the
        caller saves the seats)."""
        for index, (clock_ms, clock_since) in self._clock_changes(
            table, None, state, None, now
        ).items():
            table.seats[index].clock_ms = clock_ms
            table.seats[index].clock_since = clock_since

    def _clock_changes(
        self, table: Table, before: State | None, after: State, mover: int | None, now: float
    ) -> dict[int, tuple[int | None, float | None]]:
        """The seats' new ``(clock_ms, clock_since)`` when the table goes from ``before`` to
        ``after``: the clocks of seats no longer to move stop (the mover's gains the increment),
        those of seats now to move start, a turn-based seat gets a fresh ``per_move``. Untimed
        seats keep no time, but a table with an ``away`` limit notes when each turn began."""
        if not table.clock.timed and table.clock.away <= 0:
            return {}
        was = set(before.to_move) if before is not None else set()
        now_to_move = set(after.to_move) if not after.is_terminal else set()
        changes: dict[int, tuple[int | None, float | None]] = {}
        for index, seat in enumerate(table.seats):
            clock_ms, clock_since = seat.clock_ms, seat.clock_since
            if index in was and index not in now_to_move and clock_since is not None:
                if clock_ms is not None:
                    left = (seat.time_left(now) or 0.0) + (
                        table.clock.increment if index == mover else 0.0
                    )
                    clock_ms = int(left * 1000)
                clock_since = None
            if index in now_to_move and (index not in was or index == mover):
                if table.clock.per_move:
                    clock_ms = int(table.clock.per_move * 1000)
                if clock_since is None:
                    clock_since = now
            if (clock_ms, clock_since) != (seat.clock_ms, seat.clock_since):
                changes[index] = (clock_ms, clock_since)
        return changes

    def check_clocks(self, now: float | None = None) -> list[str]:
        """Hand to its bot every seat out of time, or away too long while it must move; returns
        the tables that changed."""
        now = time.time() if now is None else now
        changed = []
        for table in list(self._tables.values()):
            if table.status != "playing":
                continue
            late = [
                seat for seat in table.state.to_move if self._should_take_over(table, seat, now)
            ]
            if late and self._take_over(table, late, now):
                changed.append(table.id)
        for table_id in changed:
            self.on_change(table_id)
        return changed

    def _should_take_over(self, table: Table, seat: int, now: float) -> bool:
        chair = table.seats[seat]
        if chair.played_by_bot:
            return False
        if chair.clock_since is None:
            return False  # not its turn
        if chair.clock_ms is not None and chair.time_left(now) == 0:
            return True
        away = table.clock.away
        return away > 0 and now - chair.clock_since > away

    def _take_over(self, table: Table, seats: list[int], now: float) -> bool:
        with table.lock, self.storage.session() as session:
            self._catch_up(session, table)
            taken = False
            for seat in seats:
                chair = table.seats[seat]
                if chair.played_by_bot or seat not in table.state.to_move:
                    continue
                if table.clock.away > 0 and chair.time_left(now) != 0:
                    if self._present[(table.id, seat)] > 0:
                        continue  # connected to this process
                    seen = self._seen_at(session, table.id, seat)
                    if seen is not None and now - seen < table.clock.away:
                        continue  # connected (to another server process) or just left
                    why = "is away"
                else:
                    why = "ran out of time"
                chair.bot_control = True
                self._notice(session, table, f"p{seat} {why}; {chair.bot} plays for them", now)
                self._save_seat(session, table, seat)
                taken = True
            if taken:
                self._save_table(session, table, now)
                self.storage.notify(session, table.id)
            return taken

    def connected(self, table_id: str, seat: int) -> None:
        """A WebSocket of ``seat`` opened in this process: its person is not away."""
        with self._guard:
            self._present[(table_id, seat)] += 1

    def disconnected(self, table_id: str, seat: int) -> None:
        with self._guard:
            self._present[(table_id, seat)] -= 1
            if self._present[(table_id, seat)] <= 0:
                del self._present[(table_id, seat)]

    @staticmethod
    def _seen_at(session: Session, table_id: str, seat: int) -> float | None:
        row = session.get(SeatRow, (table_id, seat))
        return None if row is None else row.seen_at

    # ------------------------------------------------------------------------------ rematch

    def rematch(self, table_id: str, seat: int, token: str | None) -> Table:
        """A new table of the same game with the same seats (each person keeps their token)."""
        table = self.get(table_id)
        with table.lock:
            self._authorise(table, seat, token)
            if table.status != "over":
                raise TableError(409, "a rematch is offered once the game is over")
            if table.rematch_id is not None:
                return self.get(table.rematch_id)
            seats = [{"kind": s.kind, "name": s.name, **self._bot_fields(s)} for s in table.seats]
            config = table.game.config()
            new = self.create(
                config["game"],
                config["players"],
                config["options"],
                seats,
                table.mode,
                asdict(table.clock),
                hints=table.hints,
            )
            with new.lock, self.storage.session() as session:
                now = time.time()
                for index, old in enumerate(table.seats):
                    new.seats[index].token_hash = old.token_hash
                    self._save_seat(session, new, index)
                new.rematch_of = table.id
                if all(s.taken for s in new.seats) and new.status == "open":
                    new.status = "playing"
                    self._start_clocks(new, new.state, now)
                    for index in range(len(new.seats)):
                        self._save_seat(session, new, index)
                self._save_table(session, new, now)
                table.rematch_id = new.id
                self._save_table(session, table, now)
                self.storage.notify(session, table.id)
        self.on_change(table.id)
        self.on_change(new.id)
        return new

    @staticmethod
    def _bot_fields(seat: Seat) -> dict[str, Any]:
        if seat.kind != "bot" or seat.bot is None:
            return {}
        spec = AgentSpec.parse(seat.bot)
        return {"bot": spec.name, "options": spec.options}

    # ------------------------------------------------------------------------------ storage

    def _load(self, session: Session, row: TableRow) -> Table:
        game = make(row.game, players=row.players, **row.options)
        seats = [self._seat_of(seat_row) for seat_row in self.storage.seats(session, row.id)]
        events = self.storage.events(session, row.id)
        state = game.new_state()
        answers: dict[tuple[int, int], tuple[str, Answer]] = {}
        for event_row in events:
            self._replay_event(state, event_row, answers)
        table = Table(
            id=row.id,
            game=game,
            mode=row.mode,
            clock=Clock.of(row.clock),
            seed=row.seed,
            seats=seats,
            state=state,
            status=row.status,
            hints=row.hints,
            created_at=row.created_at,
            rematch_of=row.rematch_of,
            rematch_id=row.rematch_id,
            revision=row.revision,
            notices=[self._notice_dict(n) for n in self.storage.notices(session, row.id)],
            answers=answers,
        )
        table.to_move_at = self._to_move_history(state)
        return table

    @staticmethod
    def _replay_event(
        state: State, row: EventRow, answers: dict[tuple[int, int], tuple[str, Answer]]
    ) -> None:
        actor = parse_actor(row.actor, state.num_players)
        if actor == CHANCE:
            state.apply_chance(state.game.text.parse_chance(state, row.item))
            return
        state.apply(actor, row.item)
        if row.chosen_at is not None and row.answer_version is not None:
            answers[(actor, row.chosen_at)] = (
                row.item,
                Answer(actor, row.item, row.index, row.answer_version),
            )

    def _catch_up(self, session: Session, table: Table) -> None:
        """Bring ``table`` up to date with what other server processes committed (the row is
        locked for the rest of the transaction on PostgreSQL)."""
        row = self.storage.lock_table(session, table.id)
        if row is None:
            raise TableError(404, f"there is no table {table.id!r}")
        if row.revision == table.revision:
            return
        if row.version != table.version:
            for event_row in self.storage.events(session, table.id, since=table.version):
                self._replay_event(table.state, event_row, table.answers)
            table.to_move_at = self._to_move_history(table.state)
        table.status = row.status
        table.rematch_id = row.rematch_id
        table.revision = row.revision
        table.seats = [
            self._seat_of(seat_row) for seat_row in self.storage.seats(session, table.id)
        ]
        table.notices = [self._notice_dict(n) for n in self.storage.notices(session, table.id)]

    def _reload(self, table: Table) -> None:
        """Catch up now, in a transaction of its own (the caller holds the table's lock)."""
        with self.storage.session() as session:
            self._catch_up(session, table)

    def refresh(self, table_id: str) -> bool:
        """Catch up with a change another process announced (if the table is loaded here);
        whether anything changed (a process hears its own announcements too)."""
        table = self._tables.get(table_id)
        if table is None:
            return False
        with table.lock:
            revision = table.revision
            self._reload(table)
            return table.revision != revision

    def _notice(self, session: Session, table: Table, text: str, now: float) -> None:
        row = NoticeRow(table_id=table.id, version=table.version, at=now, text=text)
        session.add(row)
        table.notices.append({"version": table.version, "at": now, "text": text})

    @staticmethod
    def _notice_dict(row: NoticeRow) -> dict[str, Any]:
        return {"version": row.version, "at": row.at, "text": row.text}

    @staticmethod
    def _seat_of(row: SeatRow) -> Seat:
        return Seat(
            kind=row.kind,
            bot=row.bot,
            name=row.name,
            token_hash=row.token_hash,
            bot_control=row.bot_control,
            clock_ms=row.clock_ms,
            clock_since=row.clock_since,
        )

    @staticmethod
    def _table_row(table: Table, now: float) -> TableRow:
        return TableRow(
            id=table.id,
            game=table.game.id,
            players=table.game.num_players,
            options=table.game.config()["options"],
            mode=table.mode,
            clock=asdict(table.clock),
            seed=table.seed,
            status=table.status,
            version=table.version,
            revision=table.revision,
            hints=table.hints,
            created_at=now,
            updated_at=now,
            rematch_of=table.rematch_of,
            rematch_id=table.rematch_id,
        )

    @staticmethod
    def _seat_row(table: Table, index: int) -> SeatRow:
        seat = table.seats[index]
        return SeatRow(
            table_id=table.id,
            seat=index,
            kind=seat.kind,
            bot=seat.bot,
            name=seat.name,
            token_hash=seat.token_hash,
            bot_control=seat.bot_control,
            clock_ms=seat.clock_ms,
            clock_since=seat.clock_since,
        )

    @staticmethod
    def _event_row(table: Table, index: int, actor: int, item: Any, now: float) -> EventRow:
        return EventRow(
            table_id=table.id, index=index, actor=actor_text(actor), item=str(item), at=now
        )

    def _save_seat(self, session: Session, table: Table, index: int) -> None:
        seat = table.seats[index]
        row = session.get(SeatRow, (table.id, index))
        if row is None:
            session.add(self._seat_row(table, index))
            return
        row.name = seat.name
        row.token_hash = seat.token_hash
        row.bot_control = seat.bot_control
        row.clock_ms = seat.clock_ms
        row.clock_since = seat.clock_since

    def _save_table(
        self, session: Session, table: Table, now: float, version: int | None = None
    ) -> None:
        row = session.get(TableRow, table.id)
        if row is None:
            raise TableError(404, f"there is no table {table.id!r}")
        row.status = table.status
        row.version = table.version if version is None else version
        row.revision += 1
        table.revision = row.revision
        row.updated_at = now
        row.rematch_of = table.rematch_of
        row.rematch_id = table.rematch_id


def bot_spec_name(spec: str, game: Game) -> str:
    """The bot's name in ``spec`` (checked against the game's bots)."""
    return find_bot(AgentSpec.parse(spec).name, game).name
