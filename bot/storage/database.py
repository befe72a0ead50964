"""One aiosqlite connection shared by the bot's coroutines, one transaction (or read) at a time.

aiosqlite runs each statement on the connection's own thread and awaits it, so a transaction of
several statements spans several awaits. Coroutines sharing the one connection would then
interleave their statements: a BEGIN inside another's transaction, or a read that sees another
coroutine's uncommitted writes. So every use holds one ``asyncio.Lock``: ``transaction()`` for
writes (BEGIN IMMEDIATE ... COMMIT), ``reading()`` for reads. aiosqlite's queue to its thread is
first in, first out, so a ROLLBACK queued by a cancelled transaction runs before whatever the
next holder of the lock queues. Cost: one thread hop per statement (a move is four: BEGIN,
UPDATE, INSERT, COMMIT).

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
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

# A row as sqlite3 gives it (no row factory): a tuple of int, float, str, bytes or None.
Row = tuple[Any, ...]

PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
)


class Database:
    """An aiosqlite connection in autocommit mode, used by one transaction or read at a time."""

    def __init__(
        self, conn: aiosqlite.Connection, reader: aiosqlite.Connection | None = None
    ) -> None:
        self._conn = conn
        self._reader = reader
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open the database file at ``path`` (created if missing, with its folder) with WAL,
        ``synchronous=NORMAL``, foreign keys and a busy timeout."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: sqlite3 opens no transaction of its own; ours are explicit.
        conn = await _connect(path)
        # Reads go through a second connection, so that they neither wait for the writer's
        # lock nor see its uncommitted rows: WAL gives each read the last committed state.
        # (An in-memory database exists once per connection, so it keeps to one.)
        reader = None if str(path) == ":memory:" else await _connect(path)
        return cls(conn, reader)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with db.transaction() as conn``: BEGIN IMMEDIATE ... COMMIT around the
        block; any exception (cancellation too) rolls it back and is raised again."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
                await self._conn.commit()
            except BaseException:
                # sqlite3's rollback() does nothing outside a transaction, so this is right
                # whether the block, the COMMIT or a cancellation stopped it.
                await self._conn.rollback()
                raise

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with db.reading() as conn``: a connection for reads that sees only committed
        data. Each statement reads on its own (fetch in one call: ``fetch_one``/``fetch_all``);
        reads that must agree with each other rely on the caller's per-game lock."""
        if self._reader is not None:
            yield self._reader
            return
        async with self._lock:
            yield self._conn

    async def close(self) -> None:
        """Close the connections (after the transaction in progress, if any) and their threads."""
        async with self._lock:
            if self._reader is not None:
                await self._reader.close()
            await self._conn.close()


async def _connect(path: str | Path) -> aiosqlite.Connection:
    # isolation_level=None: sqlite3 opens no transaction of its own; ours are explicit.
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        for pragma in PRAGMAS:
            await conn.execute(pragma)
    except BaseException:
        await conn.close()
        raise
    return conn


async def fetch_one(
    conn: aiosqlite.Connection, sql: str, args: Iterable[object] = ()
) -> Row | None:
    """The first row of ``sql`` (None if none), read in one call so no statement stays open."""
    rows = await fetch_all(conn, sql, args)
    return rows[0] if rows else None


async def fetch_all(conn: aiosqlite.Connection, sql: str, args: Iterable[object] = ()) -> list[Row]:
    """Every row of ``sql``, as tuples."""
    return list(await conn.execute_fetchall(sql, args))  # type: ignore[arg-type]
