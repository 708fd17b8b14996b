"""Alembic environment: runs on the connection feedloom hands it (see database.migrate)."""

from alembic import context

from feedloom.adapters.sql.schema import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
