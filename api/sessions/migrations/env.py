"""Alembic environment: migrations run on the connection that ``db.migrate`` passes in."""
from __future__ import annotations

from alembic import context

from api.sessions.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the sessions migrations through api.sessions.db.migrate")

context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
