"""What people's pages show, built from what the storage reads: a person's profile, a game's
leaderboard, and the signed-in person's tables (My games) in the order they want them: their
turn first, then in play, open, finished.

Only what everyone may know is shown: names, places and clocks of seats, whose turn it is,
results once a game is over, never a card.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import cast

from ..core.registry import make
from .messages import Status
from .model import Seat, TableError
from .names import BadName, clean_name
from .people.model import name_key
from .protocol import (
    GamesPlayed,
    Leaderboard,
    MyGames,
    PersonGame,
    PlayerSeat,
    Profile,
    Rating,
    RatingHistory,
    ReviewFigures,
)
from .ratings import ALL_COUNTS, DISPLAY_SIGMAS, displayed
from .storage import Storage
from .storage.profiles import (
    PersonTable,
    ReviewedSeat,
    count_tables,
    games_played,
    person_named,
    person_tables,
    pool_standings,
    rating_steps,
    reviewed_seats,
)
from .storage.ratings import leaderboard
from .tables.cache import TableCache

RECENT_GAMES = 20
"""Finished games a profile lists."""
HISTORY_STEPS = 2000
"""Rating steps a profile draws (its last ones)."""
REVIEWED_GAMES = 200
"""Reviewed games whose figures a profile shows (the last ones)."""
LEADERBOARD_SIZE = 100
ACTIVE = ("playing", "open")
ENDED = ("over", "closed")
MAX_ACTIVE = 500
"""Tables in play or open that My games lists at most (a person cannot play more at once)."""


def _title(game: str) -> str:
    try:
        return make(game).info.title
    except Exception:  # a game this server no longer has: its id is its name
        return game


class Profiles:
    """Profiles, leaderboards and My games of one server process."""

    def __init__(self, storage: Storage, cache: TableCache, min_games: int) -> None:
        self.storage = storage
        self.cache = cache
        self.min_games = min_games
        self._titles: dict[str, str] = {}

    def title(self, game: str) -> str:
        found = self._titles.get(game)
        if found is None:
            found = self._titles[game] = _title(game)
        return found

    # ------------------------------------------------------------------------------ profile

    def profile(self, name: str) -> Profile:
        """A person's profile; 404 if no account of that name may be shown."""
        try:
            # Names are stored cleaned: a name that cleans to nothing (a NUL, which PostgreSQL
            # cannot even compare) is nobody's.
            key = name_key(clean_name(name))
        except BadName:
            key = ""
        with self.storage.session() as session:
            person = person_named(session, key) if key else None
            if person is None:
                raise TableError(404, f"nobody is called {name!r} here")
            played = games_played(session, person.id)
            recent = person_tables(session, person.id, ENDED, RECENT_GAMES)
            pools = pool_standings(session, person.id)
            steps = rating_steps(session, person.id, HISTORY_STEPS)
            reviews = reviewed_seats(session, person.id, REVIEWED_GAMES)
        now = time.time()
        history: dict[tuple[str, int], RatingHistory] = {}
        for step in steps:
            line = history.setdefault(
                (step.game, step.players),
                {"game": step.game, "players": step.players, "steps": []},
            )
            line["steps"].append(
                {
                    "table": step.table_id,
                    "at": step.at,
                    "mu": step.mu,
                    "sigma": step.sigma,
                    "rating": displayed(step.mu, step.sigma),
                }
            )
        return {
            "name": person.name,
            "since": person.created_at,
            "games": [
                GamesPlayed(
                    game=g.game,
                    title=self.title(g.game),
                    played=g.played,
                    won=g.won,
                    rated=g.rated,
                )
                for g in played
            ],
            "recent": [self._person_game(t, person.id, now) for t in recent],
            "ratings": [
                Rating(
                    game=p.game,
                    players=p.players,
                    mu=p.mu,
                    sigma=p.sigma,
                    rating=displayed(p.mu, p.sigma),
                    games=p.games,
                    wins=p.wins,
                )
                for p in pools
            ],
            "history": list(history.values()),
            "reviews": [figures for r in reviews if (figures := _figures(r)) is not None],
        }

    # ------------------------------------------------------------------------------ leaderboard

    def leaderboard(self, game: str, players: int) -> Leaderboard:
        """The best people of a game's pool (``players`` 0: every count); 404 for no such game,
        400 for a count the game is not played at."""
        try:
            info = make(game).info
        except Exception:
            raise TableError(404, f"no game {game!r}: GET /api/games lists them") from None
        counts = list(info.player_counts)
        if players != ALL_COUNTS and players not in counts:
            raise TableError(
                400,
                f"{info.title} is played by {counts[0]} to {counts[-1]} players, not {players}",
            )
        with self.storage.session() as session:
            best = leaderboard(
                session, info.id, players, self.min_games, LEADERBOARD_SIZE, DISPLAY_SIGMAS
            )
        return {
            "game": info.id,
            "title": info.title,
            "players": players,
            "counts": counts,
            "min_games": self.min_games,
            "entries": [
                {
                    "rank": rank,
                    "name": entry.name,
                    "rating": displayed(entry.mu, entry.sigma),
                    "mu": entry.mu,
                    "sigma": entry.sigma,
                    "games": entry.games,
                    "wins": entry.wins,
                }
                for rank, entry in enumerate(best, 1)
            ],
        }

    # ------------------------------------------------------------------------------ my games

    def my_games(self, account_id: str, finished: int) -> MyGames:
        """The person's tables: their turn first, then in play, open, and the last ``finished``
        finished ones."""
        with self.storage.session() as session:
            active = person_tables(session, account_id, ACTIVE, MAX_ACTIVE)
            ended = person_tables(session, account_id, ENDED, finished) if finished else []
            total = count_tables(session, account_id, ENDED)
        now = time.time()
        shown = [self._person_game(table, account_id, now) for table in active]
        order = {"playing": 1, "open": 2}
        # Stable: within each group, the table changed last comes first; the games waiting for
        # the person, the least time left first (no clock: after those with one).
        shown.sort(
            key=lambda g: (
                (0, g["time_left"] if g["time_left"] is not None else math.inf)
                if g["your_turn"]
                else (order.get(g["status"], 3), 0.0)
            )
        )
        shown.extend(self._person_game(table, account_id, now) for table in ended)
        return {"tables": shown, "finished": total}

    def _person_game(self, table: PersonTable, account_id: str, now: float) -> PersonGame:
        mine = [seat.seat for seat in table.seats if seat.account_id == account_id]
        to_move = self._to_move(table)
        clocks: list[float | None] = []
        seats: list[PlayerSeat] = []
        for seat in table.seats:
            clock = Seat(
                kind="person", bot=None, clock_ms=seat.clock_ms, clock_since=seat.clock_since
            )
            left = clock.time_left(now)
            clocks.append(left)
            seats.append(
                {
                    "seat": seat.seat,
                    "name": seat.name,
                    "kind": "bot" if seat.kind == "bot" else "person",
                    "place": seat.place,
                    "clock": left,
                }
            )
        yours = [seat for seat in to_move if seat in mine]
        timed = yours or to_move
        return {
            "id": table.id,
            "game": table.game,
            "title": self.title(table.game),
            "players": table.players,
            "status": cast(Status, table.status),
            "rated": table.rated,
            "updated_at": table.updated_at,
            "seats": seats,
            "mine": mine,
            "to_move": to_move,
            "your_turn": bool(yours),
            "time_left": _least([clocks[seat] for seat in timed if seat < len(clocks)]),
        }

    def _to_move(self, table: PersonTable) -> list[int]:
        """Whose turn it is at a table in play: the cached table knows (every table in play is
        held by the server from its start)."""
        if table.status != "playing":
            return []
        try:
            cached = self.cache.get(table.id)
        except TableError:
            return []
        with cached.lock:
            return list(cached.state.to_move) if cached.status == "playing" else []


def _least(values: Sequence[float | None]) -> float | None:
    known = [value for value in values if value is not None]
    return min(known) if known else None


def _figures(reviewed: ReviewedSeat) -> ReviewFigures | None:
    """The person's figures in one review: over their seats (several at a hot-seat table), the
    decisions counted, the mean loss and the accuracy weighted by decisions."""
    labels = {f"p{seat}" for seat in reviewed.seats}
    summaries = [s for s in reviewed.review.get("summaries", []) if s.get("seat") in labels]
    weighed = [s for s in summaries if s.get("decisions") and s.get("mean_loss") is not None]
    if not summaries:
        return None
    decisions = sum(int(s.get("decisions") or 0) for s in summaries)

    def mean_of(field: str) -> float | None:
        values = [
            (float(s[field]), int(s["decisions"])) for s in weighed if s.get(field) is not None
        ]
        total = sum(weight for _value, weight in values)
        if not total:
            return None
        return round(sum(value * weight for value, weight in values) / total, 4)

    return {
        "table": reviewed.table_id,
        "game": reviewed.game,
        "at": reviewed.at,
        "decisions": decisions,
        "mean_loss": mean_of("mean_loss"),
        "accuracy": mean_of("accuracy"),
    }
