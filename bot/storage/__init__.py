"""Storage: the only code that writes SQL. SQLite (aiosqlite) or PostgreSQL (asyncpg) through
SQLAlchemy Core; schema changes are the Alembic revisions in migrations/."""

from bot.storage.store import Store, UnreachableDatabaseError, UnusableDatabaseError

__all__ = ["Store", "UnreachableDatabaseError", "UnusableDatabaseError"]
