"""People: accounts and their sign-in (password hashes, passkeys, server-side sessions, the
challenges of passkey ceremonies), the seats and tables they own, ratings per game with their
history, and the administrators' log.

A seat's ``account_id`` says whose it is (None: a guest's or a bot's, held by its token alone).
A table's ``rated`` says whether its result moves ratings; every table made before this
migration is casual. A seat's ``place`` is where it finished (1: won, shared places for ties),
kept once its table is over, so that profiles and lists of games need no replay. A rated table
moves two pools of each of its people (its player count's, and ``players`` 0: every count),
once each: the unique index on ``(table_id, account_id, players)`` of ``rating_changes``.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("admin", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("disabled", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("name_hidden", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("deleted_at", sa.Float, nullable=True),
        sa.Column("preferences", sa.JSON, nullable=False, server_default="{}"),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("agent", sa.String(200), nullable=False, server_default=""),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(400), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("public_key", sa.LargeBinary, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("transports", sa.JSON, nullable=False),
        sa.Column("label", sa.String(64), nullable=False, server_default=""),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_index("ix_passkeys_account_id", "passkeys", ["account_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("challenge", sa.LargeBinary, nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    # Plain ALTER TABLE ... ADD COLUMN, on SQLite too: a batch operation would copy the table,
    # and dropping the old copy fails while the seats and events refer to it.
    op.add_column("seats", sa.Column("account_id", sa.String(32), nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.add_column("seats", sa.Column("place", sa.Integer, nullable=True))
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game", "players"])
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])
    op.create_index(
        "ix_rating_changes_table",
        "rating_changes",
        ["table_id", "account_id", "players"],
        unique=True,
    )
    op.create_table(
        "admin_acts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("admin_id", sa.String(32), nullable=False),
        sa.Column("act", sa.String(32), nullable=False),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("detail", sa.String(300), nullable=False, server_default=""),
    )


def downgrade() -> None:
    for name in ("admin_acts", "rating_changes", "ratings"):
        op.drop_table(name)
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("rated")
    op.drop_index("ix_seats_account_id", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("place")
        batch.drop_column("account_id")
    for name in ("challenges", "passkeys", "sessions", "accounts"):
        op.drop_table(name)
