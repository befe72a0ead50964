"""Alembic's environment: runs the revisions on the connection bot.storage.migrate hands over.

The bot applies migrations itself at start-up (``Store.open``), on its own connection, so this
file expects ``config.attributes["connection"]`` (a synchronous SQLAlchemy connection, from
``AsyncConnection.run_sync``). Each revision runs in its own transaction with its version bump,
so a failing revision leaves the database at the one before it (SQLite's DDL is
transactional too, hence ``transactional_ddl=True``).
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "these migrations are applied by the bot at start-up (Store.open), not by the alembic "
        "command: start dots-bot (or dots-bot local) with DOTS_DATABASE set"
    )
context.configure(
    connection=connection,
    target_metadata=None,
    transaction_per_migration=True,
    transactional_ddl=True,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
