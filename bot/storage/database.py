"""One SQLite connection on one worker thread; each transaction runs there as a single call.

Why not one awaited call per statement (as aiosqlite does): with one shared connection, two
coroutines awaiting statements in turn would interleave their transactions. Here a whole
transaction is one function run on the database thread, so transactions never mix, and a
use-case costs one thread hop, not one per statement.

Durability: WAL with ``synchronous=NORMAL``. A commit has written its frames to the WAL file
(into the OS page cache) before it returns, so a transaction acknowledged to a player survives
SIGKILL of the bot; only a power loss or OS crash can lose the last commits (the database stays
consistent even then). ``synchronous=FULL`` would fsync every commit to survive power loss too.

Checkpoints stay SQLite's automatic ones, on the writing connection (every 1000 WAL pages: a
few ms with an fsync, which is most of the p99 of a move). Checkpointing from a second thread
was tried and dropped: under a steady stream of commits a PASSIVE checkpoint never finds the
WAL fully copied at the start of a write, so the WAL is never restarted and grows without end.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def connect(path: str | Path) -> sqlite3.Connection:
    """Open ``path`` in autocommit mode (transactions are explicit) with WAL and foreign keys."""
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 5000")
    return conn


class Database:
    """An SQLite connection used from asyncio through a single worker thread."""

    def __init__(self, conn: sqlite3.Connection, executor: ThreadPoolExecutor) -> None:
        self._conn = conn
        self._executor = executor

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open the database file at ``path`` (created if missing, with its folder)."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite")
        loop = asyncio.get_running_loop()
        conn = await loop.run_in_executor(executor, connect, path)
        return cls(conn, executor)

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(conn)`` on the database thread (reads, or writes that manage their own
        transaction)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, self._conn)

    async def transaction(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(conn)`` inside BEGIN IMMEDIATE ... COMMIT; any exception rolls it back."""
        return await self.run(lambda conn: in_transaction(conn, fn))

    async def close(self) -> None:
        """Close the connection and stop the thread."""
        await self.run(lambda conn: conn.close())
        self._executor.shutdown(wait=True)


def in_transaction(conn: sqlite3.Connection, fn: Callable[[sqlite3.Connection], T]) -> T:
    """Run ``fn(conn)`` in one transaction, committed if it returns, rolled back if it raises."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        result = fn(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return result
