"""Tutorial tables: a table marked as a tutorial draws its first chance outcomes from its game's
prepared deal (worked out again from the game and the history, never stored), is never listed
and cannot be joined.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN, on SQLite too: a batch operation would copy the table,
    # and dropping the old copy fails while the seats and events refer to it.
    op.add_column(
        "tables", sa.Column("tutorial", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("tutorial")
