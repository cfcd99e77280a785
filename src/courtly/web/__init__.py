"""Courtly online: the server (``courtly serve``) that the browser client and remote players
talk to. It needs the ``web`` extra (FastAPI, uvicorn, SQLAlchemy, Alembic, psycopg)."""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
