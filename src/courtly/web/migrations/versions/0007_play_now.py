"""Play now: the people waiting to be seated, a row each, shared by every server process.

A row is held by its ticket (the SHA-256 of a secret only its holder knows, which becomes the
token of the seat it is given) and kept alive by the holder's heartbeat (``seen_at``). When a
table is formed for it, the row names the table and the seat (``table_id``, ``seat``).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_queue",
        sa.Column("ticket_hash", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bots_after", sa.Float, nullable=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=True),
        sa.Column("joined_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
    )
    op.create_index("ix_play_queue_game", "play_queue", ["game", "table_id"])
    # One waiting row per account, even when two processes take a person's Play now at once.
    op.create_index(
        "ix_play_queue_waiting_account",
        "play_queue",
        ["account_id"],
        unique=True,
        sqlite_where=sa.text("table_id IS NULL"),
        postgresql_where=sa.text("table_id IS NULL"),
    )


def downgrade() -> None:
    op.drop_table("play_queue")
