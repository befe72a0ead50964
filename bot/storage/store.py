"""The Store: the bot's database (SQLite or PostgreSQL, one ``Database``), migrated when
opened, and its repositories, one per aggregate, in SQLAlchemy Core.

- ``games``: games and their actions, replays (``bot.storage.games``);
- ``challenges``: challenges and rematch offers (``bot.storage.challenges``);
- ``ratings``: ratings, their changes, the tables read from them (``bot.storage.ratings``);
- ``settings``: server and player settings and languages (``bot.storage.settings``);
- ``stickers``: the stickers earned (``bot.storage.stickers``);
- ``takebacks``: takeback requests (``bot.storage.takebacks``);
- ``reviews``: the computer's reviews of games (``bot.storage.reviews``);
- ``puzzles``: puzzles mined, given and answered, streaks (``bot.storage.puzzles``);
- ``timers``: the timers and the outbox (``bot.storage.timer_repository``);
- ``tournaments``: tournaments, their entrants and pairings (``bot.storage.tournaments``).

Each public coroutine of a repository is one transaction (``db.transaction()``) or one read
(``db.reading()``). A write that spans aggregates stays one transaction: the repository that
owns it passes its connection to the others' ``conn`` methods (a move writes its game, its
action, its timer, its outbox row, its stickers and the ratings together). Instants are unix
seconds (floats, UTC); the service converts them to aware datetimes.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.challenges import ChallengeRepository
from bot.storage.database import Database, is_postgres
from bot.storage.errors import (
    OverLimitError,
    RematchExistsError,
    StaleWriteError,
    UnreachableDatabaseError,
    UnusableDatabaseError,
)
from bot.storage.games import GameRepository
from bot.storage.migrate import migrate, revision
from bot.storage.puzzles import PuzzleRepository
from bot.storage.ratings import RatingRepository
from bot.storage.reviews import ReviewRepository
from bot.storage.rows import WakeRule
from bot.storage.settings import SettingsRepository
from bot.storage.stickers import StickerRepository
from bot.storage.takebacks import TakebackRepository
from bot.storage.timer_repository import TimerRepository, deadline_wake
from bot.storage.tournaments import TournamentRepository

_PLACEHOLDER = re.compile(r"\?")

# The advisory lock of the one-off jobs: ("dots" in ASCII, 1).
ONE_OFF_LOCK = (0x646F7473, 1)


class Store:
    """The bot's database and its repositories (see the module's docstring)."""

    def __init__(self, db: Database, *, wake: WakeRule = deadline_wake) -> None:
        self.db = db
        self.timers = TimerRepository(db, wake=wake)
        self.ratings = RatingRepository(db)
        self.stickers = StickerRepository(db)
        self.settings = SettingsRepository(db)
        self.games = GameRepository(
            db, timers=self.timers, ratings=self.ratings, stickers=self.stickers
        )
        self.challenges = ChallengeRepository(db, timers=self.timers)
        self.takebacks = TakebackRepository(db, games=self.games, timers=self.timers)
        self.reviews = ReviewRepository(db)
        self.puzzles = PuzzleRepository(db, timers=self.timers)
        self.tournaments = TournamentRepository(db, timers=self.timers, stickers=self.stickers)
        self._one_off: AsyncConnection | None = None

    @property
    def wake(self) -> WakeRule:
        """When a game's timer fires; the game service sets its rule (reminders) here."""
        return self.timers.wake

    @wake.setter
    def wake(self, rule: WakeRule) -> None:
        self.timers.wake = rule

    @classmethod
    async def open(cls, target: str | Path, *, migrations: Path | None = None) -> Store:
        """Open the database ``target`` (a SQLite file, created if missing, or a
        ``postgresql://`` URL), applying any new migrations.

        Raises:
            MigrationError: a migration failed (the database stays at the revision before it).
            UnusableDatabaseError: ``target`` is no database the bot can read (a file that is
                not SQLite or cannot be opened, a database that refuses us).
            UnreachableDatabaseError: the PostgreSQL server of ``target`` cannot be reached.
        """
        try:
            db = await Database.open(target)
            try:
                await migrate(db, migrations)
            except BaseException:
                await db.close()
                raise
        except (sqlite3.DatabaseError, DBAPIError) as error:
            # The driver's own words ("file is not a database"), without SQLAlchemy's wrapping.
            raise UnusableDatabaseError(str(getattr(error, "orig", None) or error)) from error
        except OSError as error:  # a connection, or a file (TimeoutError is one too)
            words = str(error) or type(error).__name__
            if is_postgres(target):
                raise UnreachableDatabaseError(words) from error
            raise UnusableDatabaseError(words) from error
        return cls(db)

    async def close(self) -> None:
        """Close the database (releasing the one-off jobs' lock, if held)."""
        one_off, self._one_off = self._one_off, None
        if one_off is not None:
            await one_off.close()
        await self.db.close()

    async def claim_one_off_jobs(self) -> bool:
        """Whether this process runs the one-off jobs (the command sync): on PostgreSQL the
        first process to take a session advisory lock, held until ``close`` (or the process's
        death: the server then frees it); on SQLite (one process) always."""
        if self.db.dialect != "postgresql":
            return True
        if self._one_off is not None:
            return True
        conn = await self.db.engine.connect()
        try:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            # The two-number form: a key space apart from the ratings' one-number user ids.
            got = bool(await conn.scalar(select(func.pg_try_advisory_lock(*ONE_OFF_LOCK))))
        except BaseException:
            await conn.close()
            raise
        if not got:
            await conn.close()
            return False
        self._one_off = conn
        return True

    async def version(self) -> int:
        """The schema version: the number of the last revision applied (0: none)."""
        found = await revision(self.db)
        return 0 if found is None else int(found)

    async def execute(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (``?`` placeholders) in its own transaction and return its rows
        (tests and tools)."""
        if self.db.dialect == "postgresql":
            count = iter(range(1, sql.count("?") + 1))
            sql = _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)
        async with self.db.transaction() as conn:
            result = await conn.exec_driver_sql(sql, tuple(args))
            return [tuple(r) for r in result.all()] if result.returns_rows else []


__all__ = [
    "OverLimitError",
    "RematchExistsError",
    "StaleWriteError",
    "Store",
    "UnreachableDatabaseError",
    "UnusableDatabaseError",
]
