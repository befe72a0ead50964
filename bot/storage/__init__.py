"""Storage: the only code that writes SQL. SQLite through one connection on one thread."""

from bot.storage.store import Store

__all__ = ["Store"]
