"""Playing together: invitations to a seat, the turn e-mails sent (one per wait), and the
server's own secrets (the key that signs unsubscribe links, the same in every process).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "invitations",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("inviter_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("decided_at", sa.Float, nullable=True),
    )
    op.create_index("ix_invitations_account", "invitations", ["account_id", "status"])
    op.create_index("ix_invitations_table", "invitations", ["table_id", "seat", "status"])
    op.create_table(
        "turn_emails",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("since", sa.Float, primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False),
        sa.Column("process", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("sent", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_table("turn_emails")
    op.drop_index("ix_invitations_table", "invitations")
    op.drop_index("ix_invitations_account", "invitations")
    op.drop_table("invitations")
