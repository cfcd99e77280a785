"""Chat at the table: every line said at a table, in its players' or its spectators' channel,
with who said it and when, and whether an administrator hid it; and whether a table is played
at one device (a hot-seat table has no chat: everyone at it is in the same room).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_chat_lines_table", "chat_lines", ["table_id", "id"])
    # Plain ALTER TABLE ... ADD COLUMN, on SQLite too (see 0005).
    op.add_column(
        "tables", sa.Column("hot_seat", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("hot_seat")
    op.drop_index("ix_chat_lines_table", "chat_lines")
    op.drop_table("chat_lines")
