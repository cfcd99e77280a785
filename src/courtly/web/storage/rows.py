"""The database's tables as SQLAlchemy 2 models: what the storage reads and writes, and what the
Alembic migrations (``courtly/web/migrations``) create.

The history is the truth: a table stores its game, options and seats, and every event as the
text pair of a record; the state is rebuilt by replaying it, never pickled. The pair
``(table_id, index)`` is the primary key of an event, so two server processes can never both
write the event at one index.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(16))
    """``realtime`` or ``turn-based``."""
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The table's time rules (:class:`courtly.web.model.Clock` as a dict)."""
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open`` (waiting for people), ``playing`` or ``over``."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """The number of events in the history."""
    revision: Mapped[int] = mapped_column(Integer, default=0)
    """Counts every change of the table (moves, seats, notices): a process writes a change only
    if the revision is still the one it knows."""
    hints: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    tutorial: Mapped[bool] = mapped_column(Boolean, default=False)
    """A tutorial: its first chance outcomes are its game's prepared deal; never listed, never
    joined."""
    seed_chosen: Mapped[bool] = mapped_column(Boolean, default=False)
    """The creator chose the seed (a table made before deals were committed to: perhaps)."""
    seed_salt: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """The salt of the commitment to the seed (None: a table made before commitments)."""
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    """Its result moves its players' ratings (chosen when it is made; casual otherwise)."""
    hot_seat: Mapped[bool] = mapped_column(Boolean, default=False)
    """Its people play at one device (it then has no chat)."""


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``person`` or ``bot``."""
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """A bot seat's agent spec; for a person, the bot that plays when they are away."""
    name: Mapped[str] = mapped_column(String(64), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 of the seat's secret token; the token itself is never stored."""
    bot_control: Mapped[bool] = mapped_column(Boolean, default=False)
    """A person's seat played by a bot (out of time, away, or left)."""
    clock_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Time left on the seat's clock when it last stopped (None: no clock)."""
    clock_since: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the seat's clock started running (None: stopped)."""
    seen_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The last time a connection of this seat was alive (any server process)."""
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The account the seat belongs to (None: a guest's or a bot's, held by its token alone)."""
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """Where the seat finished (1: won; tied seats share a place), kept once the game is over
    (None until then, and for a table closed before its end)."""


class EventRow(Base):
    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor: Mapped[str] = mapped_column(String(16))
    item: Mapped[str] = mapped_column(String(200))
    chosen_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The version the move was chosen against (decisions only): a retry is recognised by it."""
    answer_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The version the move's answer named (after the chance events it set off)."""
    at: Mapped[float] = mapped_column(Float)


class NoticeRow(Base):
    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    text: Mapped[str] = mapped_column(String(300))


class ReviewRow(Base):
    """A finished table's review (:func:`courtly.sim.review.review_record`'s JSON), kept so that
    a restart or another server process does not search the game again."""

    __tablename__ = "reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    iterations: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The budget per decision it was made with: another budget is another review."""
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


class HeartbeatRow(Base):
    """When each server process was last alive: after a crash, clocks are not charged for the
    time no server was running."""

    __tablename__ = "heartbeats"

    process: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class AccountRow(Base):
    """A person who signed up. Guests have no row: their seats are held by tokens alone."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    """The name shown to others, as typed."""
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    """The name folded for comparison (casefolded, NFKC): two people cannot pass for one."""
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    """An Argon2id hash in PHC form (None: the person signs in with passkeys only)."""
    created_at: Mapped[float] = mapped_column(Float)
    admin: Mapped[bool] = mapped_column(Boolean, default=False)
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)
    """Disabled by an administrator: cannot sign in, its sessions are ended."""
    name_hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    """Its name hidden by an administrator: shown as a placeholder until changed."""
    deleted_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Deleted by its owner: its games stay, under the name "deleted player"."""
    preferences: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class SessionRow(Base):
    """A signed-in browser: the cookie holds a secret, the row its SHA-256 (a stolen database
    signs nobody in)."""

    __tablename__ = "sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    """The token a state-changing request made with this session's cookie must repeat."""
    created_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    agent: Mapped[str] = mapped_column(String(200), default="")
    """The browser's User-Agent, so that a person can tell their sessions apart."""


class PasskeyRow(Base):
    """A WebAuthn credential registered to an account."""

    __tablename__ = "passkeys"

    credential_id: Mapped[str] = mapped_column(String(400), primary_key=True)
    """base64url, as WebAuthn's JSON gives it."""
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    """COSE-encoded."""
    sign_count: Mapped[int] = mapped_column(BigInteger)
    transports: Mapped[list[str]] = mapped_column(JSON)
    label: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class ChallengeRow(Base):
    """A passkey ceremony's challenge, kept until it is answered once or expires (any server
    process may get the answer)."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    challenge: Mapped[bytes] = mapped_column(LargeBinary)
    purpose: Mapped[str] = mapped_column(String(16))
    """``register`` or ``sign-in``."""
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    expires_at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """A person's OpenSkill rating in one game's pool (``players`` 0: every player count)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game", "game", "players"),)

    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    wins: Mapped[float] = mapped_column(Float)
    """Shared wins count their share."""
    updated_at: Mapped[float] = mapped_column(Float)


class RatingChangeRow(Base):
    """A rating after one rated table: the history a profile draws."""

    __tablename__ = "rating_changes"
    __table_args__ = (
        Index("ix_rating_changes_table", "table_id", "account_id", "players", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class AdminActRow(Base):
    """What an administrator did (closed a table, hid a name, disabled an account)."""

    __tablename__ = "admin_acts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float)
    admin_id: Mapped[str] = mapped_column(String(32))
    act: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(64))
    detail: Mapped[str] = mapped_column(String(300), default="")


class ChatLineRow(Base):
    """A line said at a table, in the players' or the spectators' channel."""

    __tablename__ = "chat_lines"
    __table_args__ = (Index("ix_chat_lines_table", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    channel: Mapped[str] = mapped_column(String(16))
    """``players`` or ``spectators``."""
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The seat that said it (None: a spectator)."""
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """The signed-in person who said it (None: a guest's seat, by its token)."""
    name: Mapped[str] = mapped_column(String(64))
    """The sender's name as shown when it was said."""
    text: Mapped[str] = mapped_column(String(2000))
    at: Mapped[float] = mapped_column(Float)
    hidden: Mapped[bool] = mapped_column(Boolean, default=False)
    """Hidden by an administrator: never sent again."""


class QueueRow(Base):
    """A person waiting in Play now's queue, until a table is formed for them (``table_id``
    and ``seat`` then say where they sit)."""

    __tablename__ = "play_queue"
    __table_args__ = (
        Index("ix_play_queue_game", "game", "table_id"),
        # One waiting row per account, even when two processes take a person's Play now at once.
        Index(
            "ix_play_queue_waiting_account",
            "account_id",
            unique=True,
            sqlite_where=text("table_id IS NULL"),
            postgresql_where=text("table_id IS NULL"),
        ),
    )

    ticket_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    """SHA-256 of the ticket, the secret of its holder (then their seat's token)."""
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    """The player count wanted (0: any the game has)."""
    mode: Mapped[str] = mapped_column(String(16))
    rated: Mapped[bool] = mapped_column(Boolean)
    bots_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Seconds after which the free seats are given to bots (None: wait for people)."""
    account_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The shown rating (``mu - 3 sigma``) in the game's pool, for rated pairing."""
    joined_at: Mapped[float] = mapped_column(Float)
    seen_at: Mapped[float] = mapped_column(Float)
    """The holder's last heartbeat: a row not seen for a while is removed."""
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)


class InvitationRow(Base):
    """A person invited by name to a seat of a table: the seat is held for them while it is
    ``pending``, until they ``accepted`` (took it) or ``declined``, or the inviter
    ``withdrew`` it."""

    __tablename__ = "invitations"
    __table_args__ = (
        Index("ix_invitations_account", "account_id", "status"),
        Index("ix_invitations_table", "table_id", "seat", "status"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    seat: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    """The person invited."""
    inviter_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    status: Mapped[str] = mapped_column(String(16))
    """``pending``, ``accepted``, ``declined`` or ``withdrawn``."""
    created_at: Mapped[float] = mapped_column(Float)
    decided_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class TurnEmailRow(Base):
    """A turn e-mail claimed for one wait (a seat's turn that began at ``since``): its primary
    key lets exactly one server process send it."""

    __tablename__ = "turn_emails"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    since: Mapped[float] = mapped_column(Float, primary_key=True)
    account_id: Mapped[str] = mapped_column(String(32))
    process: Mapped[str] = mapped_column(String(64))
    """The server process that claimed it."""
    at: Mapped[float] = mapped_column(Float)
    sent: Mapped[bool] = mapped_column(Boolean, default=False)
    """Handed to the SMTP server (False: claimed, then the SMTP server refused it)."""


class ServerSecretRow(Base):
    """A secret of the server's own, the same in every process and kept across restarts (the
    key that signs unsubscribe links)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
