"""Committed deals: a table keeps whether its creator chose its seed, and the salt of the
commitment to its seed that it publishes from the start (:mod:`courtly.core.deals`).

A table made before this migration published no commitment when it was dealt, and its seed may
have been chosen by its creator (the API took one then, and said so to no one): it is marked
chosen, so that everyone who joins it is told its creator may know every hand, and it has no
salt, so it shows no commitment and keeps its seed until its game is over.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE ... ADD COLUMN, on SQLite too: a batch operation would copy the table,
    # and dropping the old copy fails while the seats and events refer to it.
    # Every row there now is an older table: perhaps chosen (see above). A new table always
    # writes both columns.
    op.add_column(
        "tables", sa.Column("seed_chosen", sa.Boolean, nullable=False, server_default=sa.true())
    )
    op.add_column("tables", sa.Column("seed_salt", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("seed_salt")
        batch.drop_column("seed_chosen")
