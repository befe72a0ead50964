"""The database the Store talks to: SQLite (aiosqlite) or PostgreSQL (asyncpg), through
SQLAlchemy Core's asyncio API; ``DOTS_DATABASE`` picks one (a file path, or a
``postgresql://`` URL).

SQLite: one writing connection shared by the bot's coroutines, one transaction at a time (an
``asyncio.Lock``: ``transaction()`` is BEGIN IMMEDIATE ... COMMIT), and reads on other
connections (``reading()``), so that they neither wait for the writer nor see its uncommitted
rows: WAL gives each read the last committed state. aiosqlite runs each statement on its
connection's thread, so a transaction of several statements spans several awaits; the lock
keeps other coroutines' statements out of it. A ROLLBACK queued by a cancelled transaction runs
before whatever the next holder of the lock queues (aiosqlite's queue is first in, first out).
Cost: one trip to that thread per statement, so a move is four (BEGIN, UPDATE ... RETURNING,
INSERT, COMMIT), as before SQLAlchemy: BEGIN/COMMIT go straight to aiosqlite and a move's two
statements are ``Prepared`` (SQLAlchemy's SQL, compiled once, run on the driver), because
SQLAlchemy's execution path cost more CPU than the statements themselves.

Durability (SQLite): WAL with ``synchronous=NORMAL``. A commit has written its frames to the WAL
file (into the OS page cache) before it returns, so a transaction acknowledged to a player
survives SIGKILL of the bot; only a power loss or OS crash can lose the last commits (the
database stays consistent even then). Checkpoints stay SQLite's automatic ones, on the writing
connection (every 1000 WAL pages): checkpointing from a second thread was tried and dropped,
as under a steady stream of commits the WAL was then never restarted and grew without end.

PostgreSQL: a pool of connections; each transaction is its own (READ COMMITTED). Writers of one
game are kept apart by the per-game lock in the service and by each write's guard on the game
row (``WHERE moves = ...``); rating updates lock both players (see ``Store``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from sqlalchemy import Executable, event, func, select
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool
from sqlalchemy.util import await_only

PRAGMAS = (
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = NORMAL",
    "PRAGMA foreign_keys = ON",
    "PRAGMA busy_timeout = 5000",
)


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` (a ``DOTS_DATABASE`` value) names a PostgreSQL database."""
    return isinstance(target, str) and target.startswith(("postgresql:", "postgres:"))


# The parameters of a libpq URL's query that asyncpg reads itself (``connect_utils``); any
# other would reach the server as a setting of the session, which it refuses.
ASYNCPG_PARAMETERS = frozenset(
    {
        "host", "port", "dbname", "database", "user", "password", "passfile", "service",
        "sslmode", "sslcert", "sslkey", "sslrootcert", "sslcrl", "sslpassword",
        "sslnegotiation", "ssl_min_protocol_version", "ssl_max_protocol_version",
        "target_session_attrs", "krbsrvname", "gsslib",
        "application_name",  # a setting of the session the server accepts
    }
)  # fmt: skip
SSL_MODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")


def postgres_dsn(target: str) -> str:
    """``target`` as the libpq URL asyncpg connects with (``postgres:`` spelt
    ``postgresql:``); asyncpg reads its query itself (``sslmode`` and the rest).

    Raises:
        ValueError: the URL has a parameter asyncpg cannot honour, or an ``sslmode`` libpq
            does not know; the message is one sentence naming it.
    """
    if target.startswith("postgres:"):
        target = target.replace("postgres:", "postgresql:", 1)
    for name, value in parse_qsl(urlsplit(target).query, keep_blank_values=True):
        if name not in ASYNCPG_PARAMETERS:
            raise ValueError(
                f"DOTS_DATABASE has the parameter {name}, which the bot's PostgreSQL "
                f"driver (asyncpg) cannot honour: remove it (it understands "
                f"{', '.join(sorted(ASYNCPG_PARAMETERS - {'database', 'service'}))})."
            )
        if name == "sslmode" and value not in SSL_MODES:
            raise ValueError(
                f"DOTS_DATABASE has sslmode={value}, which is not one of {', '.join(SSL_MODES)}."
            )
    return target


# The advisory lock held while migrating a PostgreSQL database: ("dots" in ASCII, 2); 1 is
# the one-off jobs' (``bot.storage.store``).
MIGRATION_LOCK = (0x646F7473, 2)


class Database:
    """The engines and connections of one database; see the module's docstring."""

    def __init__(
        self,
        engine: AsyncEngine,
        *,
        writer: AsyncConnection | None = None,
        readers: AsyncEngine | None = None,
    ) -> None:
        self.engine = engine
        self.dialect = engine.dialect.name
        self._writer = writer
        self._readers = readers
        self._lock = asyncio.Lock()
        self.dsn = ""  # PostgreSQL: the URL asyncpg connects with
        # SQLite: whether SQLAlchemy's own BEGIN emits ours (for Alembic's transactions);
        # ``transaction()`` begins on the driver itself instead.
        self._sqlalchemy_begins = _Switch()

    @classmethod
    async def open(cls, target: str | Path) -> Database:
        """Open ``target``: a ``postgresql://`` URL, or a SQLite file (created if missing, with
        its folder; WAL, ``synchronous=NORMAL``, foreign keys and a busy timeout)."""
        if is_postgres(target):
            assert isinstance(target, str)
            dsn = postgres_dsn(target)
            import asyncpg  # noqa: PLC0415 (the postgres extra; SQLite never needs it)

            # asyncpg reads the URL itself, as libpq would (SQLAlchemy would pass its query
            # on as keyword arguments asyncpg does not take, such as sslmode).
            engine = create_async_engine(
                "postgresql+asyncpg://",
                async_creator=lambda: asyncpg.connect(dsn),
                pool_size=16,
                max_overflow=0,
            )
            db = cls(engine)
            db.dsn = dsn
            return db
        memory = str(target) == ":memory:"
        if not memory:
            Path(target).parent.mkdir(parents=True, exist_ok=True)
        url = f"sqlite+aiosqlite:///{target}"
        # One writing connection, held open: the lock below is what orders the writers.
        engine = create_async_engine(url, poolclass=StaticPool)
        switch = _Switch()
        _sqlite_events(engine, begin=switch)
        writer = await engine.connect()
        # An in-memory database exists once per connection, so it keeps to the one.
        readers = None
        if not memory:
            readers = create_async_engine(url, isolation_level="AUTOCOMMIT", pool_size=4)
            _sqlite_events(readers, begin=None)
        db = cls(engine, writer=writer, readers=readers)
        db._sqlalchemy_begins = switch
        return db

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """``async with db.transaction() as conn``: one transaction around the block; any
        exception (cancellation too) rolls it back and is raised again."""
        if self._writer is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._lock:
            conn = self._writer
            # BEGIN and COMMIT straight on aiosqlite: one trip to its thread each. (Through
            # SQLAlchemy a move's transaction cost about twice the CPU.) SQLAlchemy's own
            # BEGIN, at the block's first Core statement, then only opens its bookkeeping.
            driver = conn.sync_connection.connection.driver_connection  # type: ignore[union-attr]
            await driver.execute("BEGIN IMMEDIATE")
            try:
                yield conn
                if conn.in_transaction():
                    await conn.commit()  # SQLite's COMMIT, and SQLAlchemy's bookkeeping
                else:
                    await driver.commit()
            except BaseException:
                # sqlite3's rollback() does nothing outside a transaction, so this is right
                # whether the block, the COMMIT or a cancellation stopped it.
                if conn.in_transaction():
                    await conn.rollback()
                else:
                    await driver.rollback()
                raise

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        """``async with db.reading() as conn``: a connection for reads that sees only committed
        data. Reads that must agree with each other rely on the caller's per-game lock."""
        if self._writer is None:
            async with self.engine.connect() as conn:
                yield conn
            return
        if self._readers is not None:
            async with self._readers.connect() as conn:
                yield conn
            return
        async with self._lock:
            try:
                yield self._writer
            finally:
                await self._writer.rollback()

    @asynccontextmanager
    async def migrating(self) -> AsyncIterator[AsyncConnection]:
        """A connection outside any transaction, for Alembic (which opens one per revision).
        PostgreSQL: it holds a session advisory lock meanwhile, so processes started together
        on a new database migrate it one after the other (the first applies the revisions,
        the others then find none left; at once, their DDL raced and failed or hung)."""
        if self._writer is None:
            async with self.engine.connect() as conn:
                await conn.execute(select(func.pg_advisory_lock(*MIGRATION_LOCK)))
                await conn.commit()  # the lock is the session's: it outlives the transaction
                try:
                    yield conn
                finally:
                    if conn.in_transaction():
                        await conn.rollback()
                    await conn.execute(select(func.pg_advisory_unlock(*MIGRATION_LOCK)))
                    await conn.commit()
            return
        async with self._lock:
            self._sqlalchemy_begins.on = True
            try:
                yield self._writer
            finally:
                self._sqlalchemy_begins.on = False

    # -- LISTEN/NOTIFY ----------------------------------------------------------

    async def listen(
        self, channel: str, callback: Callable[[str], None]
    ) -> Callable[[], Awaitable[None]] | None:
        """PostgreSQL: call ``callback(payload)`` for each NOTIFY on ``channel`` (on a
        connection of its own, outside the pool); the coroutine function that stops listening.
        None on SQLite (one process: its writers wake the listeners in-process).

        Raises:
            OSError, asyncpg.PostgresError: the server cannot be reached.
        """
        if self.dialect != "postgresql":
            return None
        import asyncpg  # noqa: PLC0415 (the postgres extra; SQLite never needs it)

        conn = await asyncpg.connect(self.dsn)

        def notified(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            callback(payload)

        await conn.add_listener(channel, notified)

        async def stop() -> None:
            try:
                await conn.remove_listener(channel, notified)
            finally:
                await conn.close()

        return stop

    async def serialise(self, conn: AsyncConnection, *keys: int) -> None:
        """PostgreSQL: hold a lock on each of ``keys`` (user ids) to the end of the
        transaction of ``conn``, taken in ascending order so that two transactions cannot
        deadlock on them (SQLite: nothing to do, its writers already take turns)."""
        if self.dialect == "postgresql":
            for key in sorted(set(keys)):
                await conn.execute(select(func.pg_advisory_xact_lock(key)))

    async def close(self) -> None:
        """Close the connections (after the transaction in progress, if any)."""
        async with self._lock:
            if self._writer is not None:
                await self._writer.close()
            if self._readers is not None:
                await self._readers.dispose()
            await self.engine.dispose()


class _Switch:
    on = False


def _sqlite_events(engine: AsyncEngine, *, begin: _Switch | None) -> None:
    """The pragmas on every new connection, and (while ``begin.on``) our own BEGIN IMMEDIATE
    for SQLAlchemy's (its recipe for pysqlite: the driver then opens no transaction itself)."""

    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            for pragma in PRAGMAS:
                cursor.execute(pragma)
        finally:
            cursor.close()

    if begin is not None:

        @event.listens_for(engine.sync_engine, "begin")
        def _begin(conn: Any) -> None:
            if begin.on:
                await_only(conn.connection.driver_connection.execute("BEGIN IMMEDIATE"))


class Prepared:
    """A Core statement compiled once and run straight on aiosqlite's connection, for the
    statements of a move (on PostgreSQL it runs the ordinary way).

    SQLAlchemy's execution path costs several times the statement itself here (a move's
    transaction took ~2 ms of CPU through it against ~0.2 ms through the driver), so the hot
    statements skip it: the SQL is still SQLAlchemy's, for either database, but the rows come
    back as sqlite3 gives them (booleans as 0/1). Run it only inside
    ``Database.transaction()`` or ``reading()``, on the connection they give.
    """

    def __init__(self, statement: Executable, *, returns_rows: bool) -> None:
        self.statement = statement
        self.returns_rows = returns_rows
        self._compiled: dict[str, tuple[str, tuple[str, ...], dict[str, Any]]] = {}

    def _sql(self, dialect: Dialect) -> tuple[str, tuple[str, ...], dict[str, Any]]:
        found = self._compiled.get(dialect.name)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            # The statement's own literals ('running', False, ...) are binds with defaults.
            found = (compiled.string, tuple(compiled.positiontup or ()), dict(compiled.params))
            self._compiled[dialect.name] = found
        return found

    async def run(self, conn: AsyncConnection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        """The statement's rows (empty if it returns none), with ``params`` bound by name."""
        if conn.dialect.name != "sqlite":
            # asyncpg's transaction starts with SQLAlchemy's first statement, so PostgreSQL
            # (not the speed-critical default) takes the ordinary path.
            result = await conn.execute(self.statement, dict(params))
            return [tuple(r) for r in result.all()] if self.returns_rows else []
        sql, order, defaults = self._sql(conn.dialect)
        args = [params[name] if name in params else defaults[name] for name in order]
        # Checked out and in a transaction already (our BEGIN): no await needed to reach it.
        driver = conn.sync_connection.connection.driver_connection  # type: ignore[union-attr]
        assert driver is not None
        if self.returns_rows:
            return list(await driver.execute_fetchall(sql, args))
        await driver.execute(sql, args)
        return []
