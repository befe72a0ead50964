"""The Store: every query and transaction of the bot (filled in next)."""

from __future__ import annotations


class Store:
    """The bot's SQLite database (WAL, foreign keys on), migrated at open."""
