"""What a person's pages read: their tables (My games), games played and won per game, recent
finished games, ratings with their history, and the figures of their reviewed games.

Everything here is read from rows (a seat's kept place says how it finished): no table is
replayed, so a person with thousands of finished tables is read in a few queries.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, func, select

from ..people.model import shown_name
from .base import Transaction
from .rows import AccountRow, RatingChangeRow, RatingRow, ReviewRow, SeatRow, TableRow


@dataclass(frozen=True, slots=True)
class Person:
    id: str
    name: str
    created_at: float


@dataclass(frozen=True, slots=True)
class PlayedGame:
    game: str
    played: int
    won: int
    rated: int


@dataclass(frozen=True, slots=True)
class TableSeat:
    """A seat of a person's table: whose it is and, once over, where it finished."""

    seat: int
    name: str
    kind: str
    account_id: str | None
    place: int | None
    clock_ms: int | None
    clock_since: float | None


@dataclass(frozen=True, slots=True)
class PersonTable:
    """A table one of whose seats is the person's."""

    id: str
    game: str
    players: int
    status: str
    rated: bool
    updated_at: float
    seats: list[TableSeat]


@dataclass(frozen=True, slots=True)
class PoolStanding:
    game: str
    players: int
    mu: float
    sigma: float
    games: int
    wins: float


@dataclass(frozen=True, slots=True)
class RatingStep:
    game: str
    players: int
    table_id: str
    mu: float
    sigma: float
    at: float


@dataclass(frozen=True, slots=True)
class ReviewedSeat:
    table_id: str
    game: str
    at: float
    seats: list[int]
    review: dict[str, Any]


def seat_name(account: AccountRow | None, typed: str) -> str:
    """The name others see for a seat: its account's (or what became of it), else the name
    typed when it was taken."""
    return typed if account is None else shown_name(account)


def person_named(session: Transaction, name_key: str) -> Person | None:
    """The account whose folded name is ``name_key``, if it may be shown (not deleted, not
    hidden by an administrator)."""
    row = session.scalars(select(AccountRow).where(AccountRow.name_key == name_key)).first()
    if row is None or row.deleted_at is not None or row.name_hidden:
        return None
    return Person(row.id, row.name, row.created_at)


def games_played(session: Transaction, account_id: str) -> list[PlayedGame]:
    """Per game, the person's finished tables, those won (first place, shared or not) and those
    rated."""
    query = (
        select(
            TableRow.game,
            func.count(),
            func.sum(case((SeatRow.place == 1, 1), else_=0)),
            func.sum(case((TableRow.rated.is_(True), 1), else_=0)),
        )
        .join(TableRow, TableRow.id == SeatRow.table_id)
        .where(SeatRow.account_id == account_id, TableRow.status == "over")
        .group_by(TableRow.game)
        .order_by(TableRow.game)
    )
    return [
        PlayedGame(game, int(played), int(won or 0), int(rated or 0))
        for game, played, won, rated in session.execute(query)
    ]


def person_tables(
    session: Transaction, account_id: str, statuses: Sequence[str], limit: int
) -> list[PersonTable]:
    """The person's ``limit`` tables with one of ``statuses`` changed last, with their seats."""
    ids = (
        select(TableRow.id)
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(
            SeatRow.account_id == account_id,
            TableRow.status.in_(statuses),
            TableRow.tutorial.is_(False),
        )
        .group_by(TableRow.id, TableRow.updated_at)
        .order_by(TableRow.updated_at.desc())
        .limit(limit)
    )
    tables = session.execute(
        select(
            TableRow.id,
            TableRow.game,
            TableRow.players,
            TableRow.status,
            TableRow.rated,
            TableRow.updated_at,
        )
        .where(TableRow.id.in_(ids.scalar_subquery()))
        .order_by(TableRow.updated_at.desc())
    ).all()
    seats: dict[str, list[TableSeat]] = {row.id: [] for row in tables}
    if seats:
        found = session.execute(
            select(SeatRow, AccountRow)
            .outerjoin(AccountRow, AccountRow.id == SeatRow.account_id)
            .where(SeatRow.table_id.in_(list(seats)))
            .order_by(SeatRow.table_id, SeatRow.seat)
        ).all()
        for seat, account in found:
            seats[seat.table_id].append(
                TableSeat(
                    seat=seat.seat,
                    name=seat_name(account, seat.name),
                    kind=seat.kind,
                    account_id=seat.account_id,
                    place=seat.place,
                    clock_ms=seat.clock_ms,
                    clock_since=seat.clock_since,
                )
            )
    return [
        PersonTable(
            row.id, row.game, row.players, row.status, row.rated, row.updated_at, seats[row.id]
        )
        for row in tables
    ]


def count_tables(session: Transaction, account_id: str, statuses: Sequence[str]) -> int:
    query = (
        select(func.count(func.distinct(TableRow.id)))
        .join(SeatRow, SeatRow.table_id == TableRow.id)
        .where(
            SeatRow.account_id == account_id,
            TableRow.status.in_(statuses),
            TableRow.tutorial.is_(False),
        )
    )
    return int(session.scalar(query) or 0)


def pool_standings(session: Transaction, account_id: str) -> list[PoolStanding]:
    rows = session.scalars(
        select(RatingRow)
        .where(RatingRow.account_id == account_id)
        .order_by(RatingRow.game, RatingRow.players)
    )
    return [PoolStanding(r.game, r.players, r.mu, r.sigma, r.games, r.wins) for r in rows]


def rating_steps(session: Transaction, account_id: str, limit: int) -> list[RatingStep]:
    """The person's last ``limit`` rating steps, oldest first."""
    rows = session.scalars(
        select(RatingChangeRow)
        .where(RatingChangeRow.account_id == account_id)
        .order_by(RatingChangeRow.at.desc(), RatingChangeRow.id.desc())
        .limit(limit)
    ).all()
    return [RatingStep(r.game, r.players, r.table_id, r.mu, r.sigma, r.at) for r in reversed(rows)]


def reviewed_seats(session: Transaction, account_id: str, limit: int) -> list[ReviewedSeat]:
    """The reviews made of the person's last ``limit`` reviewed tables, oldest first, with the
    person's seats there (a review made at any budget: the latest one of a table)."""
    rows = session.execute(
        select(ReviewRow, TableRow.game, SeatRow.seat)
        .join(TableRow, TableRow.id == ReviewRow.table_id)
        .join(SeatRow, SeatRow.table_id == ReviewRow.table_id)
        .where(SeatRow.account_id == account_id)
        .order_by(ReviewRow.at.desc())
    ).all()
    found: dict[str, ReviewedSeat] = {}
    for review, game, seat in rows:
        if not review.review:
            continue  # asked for, not made yet
        known = found.get(review.table_id)
        if known is None:
            if len(found) == limit:
                continue
            found[review.table_id] = ReviewedSeat(
                review.table_id, game, review.at, [seat], review.review
            )
        elif known.review is review.review and seat not in known.seats:
            known.seats.append(seat)
    return sorted(found.values(), key=lambda item: item.at)
