"""Storage: the only code that writes SQL. SQLite through one shared aiosqlite connection."""

from bot.storage.store import Store

__all__ = ["Store"]
