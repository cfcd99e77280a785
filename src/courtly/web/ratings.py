"""Ratings of people: what a rated table must be, and each finished table settled once.

Settling a finished table keeps every seat's place (1: won; seats that share a win share the
place), and for a rated table moves its people's OpenSkill ratings (Plackett-Luce, the model the
ladders rate bots with, :mod:`courtly.sim.ladder`) in two pools of its game: its player count's,
and every count's (``players`` 0). Seats that win together (the clans of Goths Save the Queen)
are rated as a team; tied places are ties. A rating is shown as ``mu - 3 sigma``: a newcomer
starts at 0 and climbs as the rating grows surer, so a lucky first game does not top a
leaderboard.

Settling runs on a thread of its own after the table's last move, and again at start for any
finished table not settled yet (a server stopped in between loses nothing). Every server process
that hears of the end may try: the table's row is held while it settles, and the history's unique
index on ``(table, account, pool)`` refuses a second settling, so a result counts exactly once.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError, OperationalError

from ..core.game import Game, State
from .model import Table, TableError
from .storage import Storage
from .storage.ratings import (
    PoolRating,
    pool_ratings,
    rated_already,
    save_places,
    save_pool_ratings,
    seat_results,
    unsettled_tables,
)

if TYPE_CHECKING:
    from .tables.access import SignedInPerson
    from .tables.cache import TableCache

log = logging.getLogger("courtly.web")

DISPLAY_SIGMAS = 3
"""A rating is shown as ``mu - DISPLAY_SIGMAS * sigma`` (the ladders' ordinal too)."""

ALL_COUNTS = 0
"""The pool of every player count of a game."""

SETTLE_ATTEMPTS = 5
"""Looks at a table before settling gives up (until the next change or start)."""


def displayed(mu: float, sigma: float) -> float:
    """The rating shown for ``mu`` and ``sigma``, rounded for people."""
    return round(mu - DISPLAY_SIGMAS * sigma, 2)


def check_rated_table(
    seats: Sequence[Mapping[str, Any]], seed: int | None, tutorial: bool = False
) -> None:
    """Refuse (400) a rated table that could not be a fair contest between people: a bot's
    seat (bots are no fixed anchors here: a bot's strength depends on the machine's budget),
    a chosen deal (its creator may know every card), a tutorial."""
    if tutorial:
        raise TableError(400, "a tutorial cannot be rated")
    if seed is not None:
        raise TableError(400, "a rated table's deal is secret: it cannot have a chosen seed")
    for index, spec in enumerate(seats):
        if spec.get("kind", "person") != "person":
            raise TableError(400, f"seat {index}: a rated table is played by people only, no bots")


def check_rated_seat(table: Table, person: SignedInPerson | None) -> None:
    """Refuse a seat of a rated table to a guest (403) and a second seat to a person who holds
    one there, hot seat or not (409): a rating is one person's, played from one seat. Checked
    under the table's lock, as the seat is taken."""
    if person is None:
        raise TableError(403, "a rated table's seats are for signed-in people: sign in first")
    held = [i for i, s in enumerate(table.seats) if s.account_id == person.account_id]
    if held:
        raise TableError(
            409, f"you hold seat {held[0]} of this rated table already: one seat each, no hot seat"
        )


def places_of(game: Game, state: State) -> list[int]:
    """Each seat's place in the finished ``state`` (1: won; tied seats share a place), as the
    game's own outcome ranks them."""
    places = [0] * state.num_players
    for standing in game.text.outcome(state).standings:
        places[standing.seat] = standing.place
    return places


def teams_of(game: Game) -> list[tuple[int, ...]]:
    """The seats rated together: each team of a team game, else each seat alone."""
    teams = list(game.teams().values())
    if teams:
        return teams
    return [(seat,) for seat in range(game.num_players)]


def rate(
    game: Game, places: Sequence[int], accounts: Sequence[str], before: Mapping[str, PoolRating]
) -> dict[str, PoolRating]:
    """The ratings after a table of ``game`` whose seats (held by ``accounts``, in seat order)
    finished at ``places``, from the ratings ``before`` (a person missing starts afresh)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    teams = teams_of(game)
    current = {
        account: model.rating(mu=found.mu, sigma=found.sigma)
        if (found := before.get(account))
        else model.rating()
        for account in accounts
    }
    rated = model.rate(
        [[current[accounts[seat]] for seat in team] for team in teams],
        ranks=[float(min(places[seat] for seat in team)) for team in teams],
    )
    winners = [seat for seat, place in enumerate(places) if place == 1]
    after: dict[str, PoolRating] = {}
    for team, ratings in zip(teams, rated, strict=True):
        for seat, rating in zip(team, ratings, strict=True):
            account = accounts[seat]
            old = before.get(account, PoolRating(0.0, 0.0, 0, 0.0))
            share = 1.0 / len(winners) * _team_size(teams, seat) if seat in winners else 0.0
            after[account] = PoolRating(rating.mu, rating.sigma, old.games + 1, old.wins + share)
    return after


def _team_size(teams: Sequence[tuple[int, ...]], seat: int) -> int:
    # A team's members each hold the whole team's share of a win: two clansmen who win alone
    # have each won, not each half won.
    return next(len(team) for team in teams if seat in team)


class Ratings:
    """Settles finished tables, once each, on a thread of its own."""

    def __init__(self, storage: Storage, cache: TableCache) -> None:
        self.storage = storage
        self.cache = cache
        self._settled: set[str] = set()
        """The tables being settled (queued or under way)."""
        self._guard = threading.Lock()
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="courtly-ratings")

    def changed(self, table_id: str) -> None:
        """A table changed: settle it if it just ended (cheap for every other change)."""
        table = self.cache.loaded(table_id)
        if table is None or table.status != "over":
            return
        with self._guard:
            if table_id in self._settled:
                return
            self._settled.add(table_id)
        self._worker.submit(self._settle_logged, table_id)

    def resume(self) -> None:
        """Settle every finished table not settled yet (at start)."""
        with self.storage.session() as session:
            ids = unsettled_tables(session)
        for table_id in ids:
            with self._guard:
                self._settled.add(table_id)
            self._worker.submit(self._settle_logged, table_id)

    def stop(self) -> None:
        self._worker.shutdown(wait=True, cancel_futures=True)

    def _settle_logged(self, table_id: str) -> None:
        try:
            self.settle(table_id)
        except Exception:
            log.exception("settling table %s failed", table_id)
        finally:
            # Only tables being settled are remembered: a later change of a finished table (a
            # rematch offered) looks in the database again, and finds it settled.
            with self._guard:
                self._settled.discard(table_id)

    def settle(self, table_id: str) -> bool:
        """Keep the places of a finished table and move its ratings if it is rated; False if
        it is not over or was settled already (here or by another process)."""
        try:
            table = self.cache.get(table_id)
        except TableError:
            return False
        if table.status != "over" or not table.state.is_terminal:
            return False
        for attempt in range(SETTLE_ATTEMPTS):
            try:
                return self._settle(table)
            except IntegrityError:
                # Another process settled it, or gave someone a first rating meanwhile: look
                # again (the next look finds what it committed).
                continue
            except OperationalError:
                # Another process on the same SQLite file wrote after this transaction began
                # to read (SQLite refuses the write at once, it cannot wait): look again.
                if attempt == SETTLE_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))
        return False

    def _settle(self, table: Table) -> bool:
        with table.lock:
            places = places_of(table.game, table.state)
            truncated = table.state.truncated
        with self.storage.session() as session:
            if self.storage.lock_table(session, table.id) is None:
                return False
            seats = seat_results(session, table.id)
            placed = all(seat.place is not None for seat in seats)
            settled = rated_already(session, table.id)
            if placed and (settled or not table.rated):
                return False
            if not placed:
                save_places(session, table.id, places)
            accounts = [seat.account_id for seat in seats]
            people = [account for account in accounts if account is not None]
            if (
                not table.rated
                or settled
                or truncated  # the safety cap ended it: no result worth a rating
                or len(people) != len(seats)
                or len(set(people)) != len(people)
                or any(seat.kind != "person" for seat in seats)
            ):
                return not placed
            now = time.time()
            game = table.game
            for pool in (game.num_players, ALL_COUNTS):
                before = pool_ratings(self.storage, session, people, game.id, pool)
                after = rate(game, places, people, before)
                save_pool_ratings(session, table.id, game.id, pool, after, now)
            return True
