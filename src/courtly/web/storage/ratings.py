"""What settling a finished table writes, and what leaderboards read: the seats' places, the
ratings of people per game and their history.

A table is settled in one transaction that holds its row (:meth:`Storage.lock_table`): a second
process settling the same table waits, then finds it settled. The rating rows it changes are
held too (``FOR UPDATE`` on PostgreSQL; SQLite has one writer at a time), so two tables ending
together with a person in common both count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import exists, select

from .base import Storage, Transaction
from .rows import AccountRow, RatingChangeRow, RatingRow, SeatRow, TableRow


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A seat of a finished table: whose it is (None: a guest's or a bot's) and its place."""

    seat: int
    kind: str
    account_id: str | None
    place: int | None


@dataclass(frozen=True, slots=True)
class PoolRating:
    """A person's rating in one pool before or after a table."""

    mu: float
    sigma: float
    games: int
    wins: float


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    name: str
    mu: float
    sigma: float
    games: int
    wins: float


def seat_results(session: Transaction, table_id: str) -> list[SeatResult]:
    rows = session.execute(
        select(SeatRow.seat, SeatRow.kind, SeatRow.account_id, SeatRow.place)
        .where(SeatRow.table_id == table_id)
        .order_by(SeatRow.seat)
    ).all()
    return [SeatResult(*row) for row in rows]


def save_places(session: Transaction, table_id: str, places: Sequence[int]) -> None:
    for row in session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)):
        row.place = places[row.seat]


def rated_already(session: Transaction, table_id: str) -> bool:
    """Whether the table's result has moved ratings (by this process or another)."""
    found = session.scalar(select(exists().where(RatingChangeRow.table_id == table_id)))
    return bool(found)


def pool_ratings(
    storage: Storage, session: Transaction, accounts: Sequence[str], game: str, players: int
) -> dict[str, PoolRating]:
    """The ratings of ``accounts`` in one pool, held against other writers until the
    transaction ends; a person with no rating there yet is missing."""
    query = select(RatingRow).where(
        RatingRow.account_id.in_(accounts), RatingRow.game == game, RatingRow.players == players
    )
    if storage.engine.dialect.name == "postgresql":
        query = query.with_for_update()
    return {
        row.account_id: PoolRating(row.mu, row.sigma, row.games, row.wins)
        for row in session.scalars(query)
    }


def save_pool_ratings(
    session: Transaction,
    table_id: str,
    game: str,
    players: int,
    ratings: Mapping[str, PoolRating],
    at: float,
) -> None:
    """Write each person's new rating in a pool, and the step of its history (the unique
    index on the history refuses a second settling of the table)."""
    for account_id, rating in ratings.items():
        row = session.get(RatingRow, (account_id, game, players))
        if row is None:
            session.add(
                RatingRow(
                    account_id=account_id,
                    game=game,
                    players=players,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    games=rating.games,
                    wins=rating.wins,
                    updated_at=at,
                )
            )
        else:
            row.mu, row.sigma = rating.mu, rating.sigma
            row.games, row.wins, row.updated_at = rating.games, rating.wins, at
        session.add(
            RatingChangeRow(
                account_id=account_id,
                game=game,
                players=players,
                table_id=table_id,
                mu=rating.mu,
                sigma=rating.sigma,
                at=at,
            )
        )
    session.flush()


def unsettled_tables(session: Transaction) -> list[str]:
    """The finished tables of people with accounts with a seat whose place is not kept yet (a
    server stopped between a game's end and its settling). Tables of guests alone are left:
    every table finished before places were kept is one, and replaying them all at an upgrade
    would be work for nobody."""
    query = (
        select(TableRow.id)
        .where(
            TableRow.status == "over",
            exists().where(SeatRow.table_id == TableRow.id, SeatRow.place.is_(None)),
            exists().where(SeatRow.table_id == TableRow.id, SeatRow.account_id.is_not(None)),
        )
        .order_by(TableRow.updated_at)
    )
    return list(session.scalars(query))


def leaderboard(
    session: Transaction, game: str, players: int, min_games: int, limit: int, sigmas: float
) -> list[LeaderboardEntry]:
    """The best ``limit`` people of a pool with at least ``min_games`` rated games, by their
    displayed rating (``mu - sigmas * sigma``); deleted, disabled and hidden accounts are left
    out."""
    query = (
        select(AccountRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.games, RatingRow.wins)
        .join(AccountRow, AccountRow.id == RatingRow.account_id)
        .where(
            RatingRow.game == game,
            RatingRow.players == players,
            RatingRow.games >= min_games,
            AccountRow.deleted_at.is_(None),
            AccountRow.disabled.is_(False),
            AccountRow.name_hidden.is_(False),
        )
        .order_by((RatingRow.mu - sigmas * RatingRow.sigma).desc(), AccountRow.name_key)
        .limit(limit)
    )
    return [LeaderboardEntry(*row) for row in session.execute(query)]
