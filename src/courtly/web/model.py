"""A table at the server, as the table logic and the storage both know it: its game, seats,
state, time rules, and the answers it gave.

A :class:`Table` lives in memory for speed and in the database for truth; the storage maps it
to and from its rows (:mod:`courtly.web.storage`), the table logic changes it
(:mod:`courtly.web.tables`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, cast

from ..core.deals import SCHEME, commitment
from ..core.game import Game, State
from ..core.options import variant_words
from ..core.records import MatchRecord
from ..core.story import Story, story_of
from ..core.tutorial import Tutorial
from .messages import Clock as ClockShape
from .messages import (
    Deal,
    Mode,
    MoveAnswer,
    Notice,
    OptionValue,
    RecordDeal,
    Result,
    SeatKind,
    SeatPublic,
    Status,
    TableSummary,
)

MODES: tuple[Mode, ...] = ("realtime", "turn-based")


class TableError(Exception):
    """A request the table refuses: an HTTP status and a message that names the problem (and,
    for a stale move, the table's current ``version``)."""

    def __init__(self, status: int, message: str, version: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.version = version


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
        return cls(**{key: float(value) for key, value in data.items() if key in CLOCK_FIELDS})

    @property
    def timed(self) -> bool:
        return self.initial > 0 or self.per_move > 0

    def to_dict(self) -> ClockShape:
        return cast(ClockShape, asdict(self))


CLOCK_FIELDS = ("initial", "increment", "per_move", "away")


@dataclass
class Seat:
    """A seat as the server knows it."""

    kind: SeatKind
    bot: str | None
    """A bot seat's agent spec; for a person, the bot that plays when they are away."""
    name: str = ""
    token_hash: str | None = None
    """SHA-256 of the seat's secret token; the token itself is never kept."""
    bot_control: bool = False
    """A person's seat played by a bot (out of time, away, or left)."""
    clock_ms: int | None = None
    """Time left on the seat's clock when it last stopped (None: no clock)."""
    clock_since: float | None = None
    """When the seat's clock started running (None: stopped)."""
    account_id: str | None = field(default=None, repr=False)
    """The account the seat belongs to (None: a guest's or a bot's, held by its token alone):
    never in a message (who is behind a seat is told by its name)."""

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def played_by_bot(self) -> bool:
        return self.kind == "bot" or self.bot_control

    def public(self, seat: int, title: str, now: float) -> SeatPublic:
        """What everyone may know of the seat (never its token); ``title`` is what the seat is
        in the game (``Ostrogoth King``)."""
        return {
            "seat": seat,
            "title": title,
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

    def to_dict(self, table_id: str) -> MoveAnswer:
        return {
            "table": table_id,
            "seat": self.seat,
            "action": self.action,
            "index": self.index,
            "version": self.version,
        }


def seat_titles(game: Game) -> list[str]:
    """What each seat of ``game`` is, in words (``Ostrogoth King``; empty where every seat
    plays the same part)."""
    return [game.text.seat_title(game, seat) for seat in range(game.num_players)]


@dataclass
class Table:
    """One game at the server: a game, seats, the state, and what the messages need."""

    id: str
    game: Game
    mode: Mode
    clock: Clock
    seed: int = field(repr=False)
    """Every chance event is drawn from it: a secret until the game is over (never in a log
    line, so never in the table's repr either)."""
    seats: list[Seat]
    state: State
    status: Status = "open"
    revision: int = 0
    """The database row's revision this copy is at: a change is written only while the row is
    still at it (another server process may have changed the table)."""
    hints: bool = True
    created_at: float = 0.0
    rematch_of: str | None = None
    rematch_id: str | None = None
    tutorial: bool = False
    """A tutorial table: the learner alone with bots, on the game's prepared deal (never
    listed, never joined)."""
    notices: list[Notice] = field(default_factory=list)
    to_move_at: list[tuple[int, ...]] = field(default_factory=list)
    """``to_move_at[v]``: the seats to move at version ``v`` (checks moves chosen earlier)."""
    answers: dict[tuple[int, int], tuple[str, Answer]] = field(default_factory=dict)
    """Applied moves by (seat, version chosen at): a retry is recognised and answered again."""
    story: Story | None = field(default=None, repr=False)
    """The lines told about every event so far, each with who may read them: told once per
    event for all the observers as moves are played, or None until a message needs it (told
    again from the history then: a table loaded only to be listed never tells its story)."""
    result: Result | None = field(default=None, repr=False)
    """How the finished game ended (the same for every seat), made once it is asked for."""
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    titles: list[str] = field(init=False, repr=False)
    """What each seat is in the game (``Ostrogoth King``): fixed by the game and its options."""
    seed_chosen: bool = False
    """The creator chose the seed, so may know every card: said to everyone who joins."""
    seed_salt: str | None = field(default=None, repr=False)
    """The salt of the seed's commitment (:func:`courtly.core.deals.commitment`); None for a
    table made before deals were committed to."""
    seed_commitment: str | None = field(init=False, repr=False)
    """The commitment to the seed, published from the start (None without a salt)."""
    rated: bool = False
    """Its result moves its players' ratings (:mod:`courtly.web.ratings`); casual otherwise."""

    variant: list[str] = field(init=False, repr=False)
    """Each option that is not the rules as written, in words: told to everyone who joins."""

    def __post_init__(self) -> None:
        self.titles = seat_titles(self.game)
        self.variant = variant_words(self.game.info.options, self.options)
        self.seed_commitment = (
            None if self.seed_salt is None else commitment(self.id, self.seed, self.seed_salt)
        )

    def deal(self) -> Deal:
        """What everyone may know of the deal now: the commitment always, the seed and salt
        once the game is over, and a chosen seed at once (it is no secret: whoever joins may
        know what the creator knows). A table made before deals were committed to keeps its
        seed until the end: it was perhaps never chosen, and no commitment says otherwise."""
        over = self.status == "over"
        shown = over or (self.seed_chosen and self.seed_salt is not None)
        return {
            "chosen": self.seed_chosen,
            "commitment": self.seed_commitment,
            "seed": str(self.seed) if shown else None,
            "salt": self.seed_salt if over else None,
        }

    def record_deal(self) -> RecordDeal | None:
        """The deal a finished table's record reveals, for ``courtly replay --verify`` (None
        for a table made before deals were committed to)."""
        if self.seed_salt is None or self.seed_commitment is None:
            return None
        return {
            "scheme": SCHEME,
            "table": self.id,
            "salt": self.seed_salt,
            "commitment": self.seed_commitment,
            "chosen": self.seed_chosen,
            "tutorial": self.tutorial,
        }

    def record(self) -> MatchRecord:
        """The game's record, with its seed and deal revealed: for a finished game only (it
        would reveal every card), which the caller checks."""
        deal = self.record_deal()
        return self.state.record(
            seed=self.seed,
            deal=None if deal is None else dict(deal),
            seats=[s.bot if s.kind == "bot" and s.bot else "person" for s in self.seats],
        )

    @property
    def version(self) -> int:
        return len(self.state.history)

    @property
    def teaching(self) -> Tutorial | None:
        """The game's tutorial at a tutorial table (None at any other): its prepared deal and
        its lessons, worked out again from the game and the history, never stored."""
        return self.game.info.tutorial if self.tutorial else None

    @property
    def options(self) -> dict[str, OptionValue]:
        return cast(dict[str, OptionValue], self.game.config()["options"])

    def told(self) -> Story:
        """The table's story, told again from its history if it is not kept yet (the caller
        holds the table's lock)."""
        if self.story is None:
            self.story = story_of(self.game, self.state.history)
        return self.story

    def public_seats(self, now: float) -> list[SeatPublic]:
        """What everyone may know of the seats."""
        return [seat.public(i, self.titles[i], now) for i, seat in enumerate(self.seats)]

    def summary(self, now: float) -> TableSummary:
        """The table as the lobby lists it, read under its lock: a move's change of status and
        of state are one change (never "over" with the state before the last move)."""
        with self.lock:
            return {
                "id": self.id,
                "game": self.game.id,
                "title": self.game.info.title,
                "players": self.game.num_players,
                "options": self.options,
                "variant": self.variant,
                "mode": self.mode,
                "clock": self.clock.to_dict(),
                "status": self.status,
                "version": self.version,
                # Public in every view: a hot-seat page knows whom to hand the device to
                # before it fetches anyone's view.
                "to_move": list(self.state.to_move) if self.status == "playing" else [],
                "hints": self.hints,
                "seats": self.public_seats(now),
                "free_seats": [i for i, seat in enumerate(self.seats) if not seat.taken],
                "created_at": self.created_at,
                "rematch_of": self.rematch_of,
                "rematch_id": self.rematch_id,
                "tutorial": self.tutorial,
                "winners": list(self.state.winners) if self.status == "over" else [],
                "deal": self.deal(),
                "rated": self.rated,
            }
