"""Tables made and seats taken: a new table, a person joining, leaving or taking back a seat its
bot played, and a rematch (the same game with the same seats and tokens).

Joining a seat returns its token, once: a secret of 256 random bits, kept only as a SHA-256
hash. The game starts, and its clocks, when every seat is taken.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from ...agents.registry import AgentSpec
from ...core.deals import new_salt, new_seed, resolve_chance
from ...core.errors import InvalidOptions
from ...core.registry import make
from ..model import CLOCK_FIELDS, MODES, Clock, Seat, Table, TableError
from ..playing import check_seat_index, seat_of, to_move_history
from ..ratings import check_rated_seat, check_rated_table
from ..storage import Transaction
from .access import Credential, SignedInPerson, authorise, hash_token
from .cache import TableCache
from .clocks import start_clocks


class Seats:
    """Tables created, and their seats taken, given up, reclaimed and played again.

    ``on_change(table_id)`` is called after every committed change, outside the table's lock.
    """

    def __init__(self, cache: TableCache, on_change: Callable[[str], None]) -> None:
        self.cache = cache
        self.storage = cache.storage
        self.on_change = on_change

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
        prepare: Callable[[Table], None] | None = None,
        rated: bool = False,
    ) -> Table:
        """A new table; 400 names what is wrong with the request. ``prepare`` is given the
        table before it is dealt and stored (a tutorial marks it and seats its learner).

        Without a ``seed`` the table draws a secret one from the operating system and commits
        to it (:mod:`courtly.core.deals`); a chosen ``seed`` is marked so, and told to everyone
        who joins. A ``rated`` table's result moves its people's ratings
        (:func:`courtly.web.ratings.check_rated_table` says what it may not be)."""
        table = self.new_table(
            game_id, players, options, seats, mode, clock, seed, hints, prepare, rated
        )
        with self.storage.session() as session:
            self.storage.add_table(session, table, table.created_at)
        self.cache.add(table)
        self.on_change(table.id)
        return table

    def new_table(
        self,
        game_id: str,
        players: int | None,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        mode: str = "realtime",
        clock: Mapping[str, Any] | None = None,
        seed: int | None = None,
        hints: bool = True,
        prepare: Callable[[Table], None] | None = None,
        rated: bool = False,
    ) -> Table:
        """A new table as :meth:`create` makes it, dealt but neither stored nor held: for a
        caller that stores it in a transaction of its own (Play now), then holds it
        (``cache.add``) and tells of it (``on_change``) once that commits."""
        if rated:
            check_rated_table(seats, seed)
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
        table_seats = [seat_of(game, index, spec) for index, spec in enumerate(seats)]
        for seat in table_seats:
            if timing.initial > 0:
                seat.clock_ms = int(timing.initial * 1000)
        table = Table(
            id=secrets.token_urlsafe(8),
            game=game,
            mode=mode,
            clock=timing,
            seed=new_seed() if seed is None else seed,
            seats=table_seats,
            state=game.new_state(),
            hints=hints,
            created_at=now,
            seed_chosen=seed is not None,
            seed_salt=new_salt(),
            rated=rated,
        )
        if prepare is not None:
            prepare(table)
        resolve_chance(table.state, table.seed, tutorial=table.teaching)
        table.to_move_at = to_move_history(table.state)
        table.status = "playing" if all(s.taken for s in table.seats) else "open"
        if table.status == "playing":
            start_clocks(table, now)
        return table

    @staticmethod
    def _check_clock(mode: str, clock: Mapping[str, Any] | None) -> Clock:
        unknown = sorted(set(clock or {}) - set(CLOCK_FIELDS))
        if unknown:
            raise TableError(
                400, f"unknown clock field {unknown[0]!r}; a clock has {', '.join(CLOCK_FIELDS)}"
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

    # ------------------------------------------------------------------------------ seats

    def join(
        self,
        table_id: str,
        seat: int,
        name: str = "",
        person: SignedInPerson | None = None,
        hot_seat: bool = False,
        may_take: Callable[[Transaction, Table], None] | None = None,
    ) -> tuple[str, Table]:
        """Take the free person's seat ``seat``: returns its secret token (shown once).
        ``person``: the signed-in person it then belongs to (their ``name``), who holds no
        other seat of the table unless this device plays them all (``hot_seat``).
        ``may_take(session, table)``: a further rule, checked with the table held (it raises
        :class:`TableError` to refuse), such as a seat held for an invited person."""
        table = self.cache.get(table_id)
        token = secrets.token_urlsafe(32)
        with table.lock, self.storage.session() as session:
            self.cache.catch_up(session, table)
            check_seat_index(table, seat)
            if table.tutorial:
                raise TableError(403, "a tutorial is its learner's own table: nobody can join it")
            chair = table.seats[seat]
            if chair.taken:
                raise TableError(409, f"seat {seat} is taken")
            if may_take is not None:
                may_take(session, table)
            if table.status == "over":
                raise TableError(409, "the game is over")
            if table.status == "closed":
                raise TableError(409, "the table is closed: nobody played it for a long time")
            if table.rated:
                check_rated_seat(table, person)
            if person is not None and not hot_seat:
                held = [i for i, s in enumerate(table.seats) if s.account_id == person.account_id]
                if held:
                    raise TableError(
                        409,
                        f"you hold seat {held[0]} of this table already: one person plays one "
                        "seat (but at a hot-seat table, where one device plays them all)",
                    )
            before = (chair.token_hash, chair.name, table.status, chair.account_id)
            chair.token_hash = hash_token(token)
            chair.name = str(name)[:64] or f"p{seat}"
            chair.account_id = None if person is None else person.account_id
            now = time.time()
            try:
                if all(s.taken for s in table.seats) and table.status == "open":
                    table.status = "playing"
                    start_clocks(table, now)
                    for index in range(len(table.seats)):
                        self.cache.save_seat(session, table, index)
                self.cache.save_seat(session, table, seat)
                self.cache.save(session, table, now)
                self.storage.notify(session, table.id)
            except Exception:
                chair.token_hash, chair.name, table.status, chair.account_id = before
                raise
        self.on_change(table.id)
        return token, table

    def attach(self, table_id: str, seat: int, token: str, person: SignedInPerson) -> None:
        """A guest's seat, proved by its ``token``, given to the signed-in ``person`` (it keeps
        its token). Refused (:class:`TableError`) for a wrong token, a tutorial, or a seat that
        belongs to another person."""
        table = self.cache.get(table_id)
        with table.lock, self.storage.session() as session:
            self.cache.catch_up(session, table)
            authorise(table, seat, token)
            if table.tutorial:
                raise TableError(409, "a tutorial is a lesson, not a game an account keeps")
            chair = table.seats[seat]
            if chair.account_id == person.account_id:
                return
            if chair.account_id is not None:
                raise TableError(409, f"seat {seat} belongs to another person")
            chair.account_id = person.account_id
            self.cache.save_seat(session, table, seat)
            self.cache.save(session, table, time.time())
            self.storage.notify(session, table.id)
        self.on_change(table.id)

    def of_person(self, table_id: str, person: SignedInPerson) -> list[int]:
        """The seats of ``table_id`` that belong to ``person`` (found from any device)."""
        table = self.cache.get(table_id)
        with table.lock:
            mine = [i for i, s in enumerate(table.seats) if s.account_id == person.account_id]
            if not mine:
                self.cache.reload(table)  # another server process may have seated them
                mine = [i for i, s in enumerate(table.seats) if s.account_id == person.account_id]
            return mine

    def leave(self, table_id: str, seat: int, token: Credential) -> Table:
        """Give up a seat: free again before the game starts; played by its bot after."""
        table = self.cache.get(table_id)
        with table.lock, self.storage.session() as session:
            self.cache.catch_up(session, table)
            authorise(table, seat, token)
            chair = table.seats[seat]
            now = time.time()
            if table.status == "open":
                chair.token_hash = None
                chair.name = ""
            elif table.status == "playing" and not chair.bot_control:
                chair.bot_control = True
                self.cache.note(session, table, f"p{seat} left; {chair.bot} plays for them", now)
            self.cache.save_seat(session, table, seat)
            self.cache.save(session, table, now)
            self.storage.notify(session, table.id)
        self.on_change(table.id)
        return table

    def reclaim(self, table_id: str, seat: int, token: Credential) -> Table:
        """A person takes back the seat a bot played for them."""
        table = self.cache.get(table_id)
        with table.lock, self.storage.session() as session:
            self.cache.catch_up(session, table)
            authorise(table, seat, token)
            chair = table.seats[seat]
            if chair.bot_control:
                chair.bot_control = False
                now = time.time()
                if chair.clock_ms is not None and chair.time_left(now) == 0:
                    # Back with no time left: the clock restarts from the increment, if any.
                    chair.clock_ms = int(max(table.clock.increment, 10) * 1000)
                    chair.clock_since = now if chair.clock_since is not None else None
                self.cache.note(session, table, f"p{seat} is back and plays again", now)
                self.cache.save_seat(session, table, seat)
                self.cache.save(session, table, now)
                self.storage.notify(session, table.id)
        self.on_change(table.id)
        return table

    # ------------------------------------------------------------------------------ rematch

    def rematch(self, table_id: str, seat: int, token: Credential) -> Table:
        """A new table of the same game with the same seats (each person keeps their token)."""
        table = self.cache.get(table_id)
        with table.lock:
            authorise(table, seat, token)
            if table.status != "over":
                raise TableError(409, "a rematch is offered once the game is over")
            if table.rematch_id is not None:
                return self.cache.get(table.rematch_id)
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
                rated=table.rated,
            )
            with new.lock, self.storage.session() as session:
                now = time.time()
                for index, old in enumerate(table.seats):
                    new.seats[index].token_hash = old.token_hash
                    new.seats[index].account_id = old.account_id
                    self.cache.save_seat(session, new, index)
                new.rematch_of = table.id
                if all(s.taken for s in new.seats) and new.status == "open":
                    new.status = "playing"
                    start_clocks(new, now)
                    for index in range(len(new.seats)):
                        self.cache.save_seat(session, new, index)
                self.cache.save(session, new, now)
                table.rematch_id = new.id
                self.cache.save(session, table, now)
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
