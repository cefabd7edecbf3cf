"""Alembic environment: run on the connection the store hands over (never from a URL)."""

from __future__ import annotations

from alembic import context

from stoptable.server.store import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
