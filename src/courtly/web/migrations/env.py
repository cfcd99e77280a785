"""Alembic's entry point: migrations run on the connection :func:`courtly.web.storage.base.upgrade`
hands over (the server upgrades its database on start)."""

from __future__ import annotations

from alembic import context

from courtly.web.storage.rows import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - run only through courtly.web.storage.base.upgrade
    raise SystemExit("run migrations through courtly.web.storage.base.upgrade(engine)")
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
