"""Puzzles: those mined from the server's games, the ones given to each player with the answer,
each player's solving streak, and each server's daily puzzle (its channel, its day's puzzle
and the timer that posts the next one, a day after the last)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, select, update

from bot.storage.database import Database
from bot.storage.errors import StaleWriteError
from bot.storage.schema import daily_puzzles, puzzle_attempts, puzzle_streaks, puzzles
from bot.storage.timer_repository import DAY_SECONDS, TimerKind, TimerRepository
from bot.storage.timers import current_claim
from bot.storage.upsert import insert_for, upsert


@dataclass(frozen=True, slots=True)
class AttemptRow:
    """A puzzle given to a player: its JSON, when, and when it was answered (None: not yet)."""

    attempt_id: int
    user_id: int
    puzzle_key: str
    data: str
    given: float
    answered: float | None = None


@dataclass(frozen=True, slots=True)
class StreakRow:
    """A player's puzzles: solved in a row now, the best such run, solved and tried in all."""

    user_id: int
    streak: int = 0
    best: int = 0
    solved: int = 0
    tried: int = 0


@dataclass(frozen=True, slots=True)
class DailyRow:
    """A server's daily puzzle: its channel, how many days were posted, the last day's puzzle
    (its key and JSON) and when it was posted (None: none yet)."""

    guild_id: int
    channel_id: int
    day: int
    puzzle_key: str | None
    data: str | None
    posted: float | None

    @property
    def next_due(self) -> float | None:
        """When the next day's puzzle is due (None: at once)."""
        return None if self.posted is None else self.posted + DAY_SECONDS


_DAILY = [daily_puzzles.c[name] for name in
          ("guild_id", "channel_id", "day", "puzzle_key", "data", "posted")]  # fmt: skip

_ATTEMPT = [
    puzzle_attempts.c[name]
    for name in ("attempt_id", "user_id", "puzzle_key", "data", "given", "answered")
]


class PuzzleRepository:
    """The ``puzzles``, ``puzzle_attempts`` and ``puzzle_streaks`` tables."""

    def __init__(self, db: Database, *, timers: TimerRepository) -> None:
        self.db = db
        self.timers = timers

    async def add_puzzles(
        self, found: Sequence[tuple[str, int, int, int, str]], *, game_id: int, created: float
    ) -> None:
        """Store mined puzzles (key, width, height, depth, JSON); a key stored already is kept."""
        if not found:
            return
        rows = [
            {"puzzle_key": key, "game_id": game_id, "width": width, "height": height,
             "depth": depth, "data": data, "created": created}
            for key, width, height, depth, data in found
        ]  # fmt: skip
        stmt = (
            insert_for(self.db.dialect, puzzles)
            .values(rows)
            .on_conflict_do_nothing(index_elements=[puzzles.c.puzzle_key])
        )
        async with self.db.transaction() as conn:
            await conn.execute(stmt)

    async def mined(self, *, width: int, height: int, depth: int) -> list[tuple[str, str]]:
        """The mined puzzles of one size and depth: (key, JSON), oldest first."""
        stmt = (
            select(puzzles.c.puzzle_key, puzzles.c.data)
            .where(puzzles.c.width == width, puzzles.c.height == height, puzzles.c.depth == depth)
            .order_by(puzzles.c.created, puzzles.c.puzzle_key)
        )
        async with self.db.reading() as conn:
            return [(str(k), str(d)) for k, d in (await conn.execute(stmt)).all()]

    async def given_keys(self, user_id: int) -> set[str]:
        """The keys of every puzzle ever given to ``user_id``."""
        stmt = select(puzzle_attempts.c.puzzle_key).where(puzzle_attempts.c.user_id == user_id)
        async with self.db.reading() as conn:
            return {str(k) for k in (await conn.execute(stmt)).scalars()}

    async def open_attempt(self, user_id: int) -> AttemptRow | None:
        """The puzzle ``user_id`` was given last and has not answered, if any."""
        stmt = (
            select(*_ATTEMPT)
            .where(puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.answered.is_(None))
            .order_by(puzzle_attempts.c.attempt_id.desc())
            .limit(1)
        )
        async with self.db.reading() as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else AttemptRow(*row)

    async def attempt(self, attempt_id: int) -> AttemptRow | None:
        """A puzzle given, by its number."""
        stmt = select(*_ATTEMPT).where(puzzle_attempts.c.attempt_id == attempt_id)
        async with self.db.reading() as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else AttemptRow(*row)

    async def attempt_of(self, *, user_id: int, puzzle_key: str) -> AttemptRow | None:
        """The puzzle ``puzzle_key`` given to ``user_id`` (the latest), if it was."""
        stmt = (
            select(*_ATTEMPT)
            .where(puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.puzzle_key == puzzle_key)
            .order_by(puzzle_attempts.c.attempt_id.desc())
            .limit(1)
        )
        async with self.db.reading() as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else AttemptRow(*row)

    async def give(self, *, user_id: int, puzzle_key: str, data: str, given: float) -> AttemptRow:
        """Record a puzzle given to ``user_id``; the stored row."""
        stmt = (
            puzzle_attempts.insert()
            .values(user_id=user_id, puzzle_key=puzzle_key, data=data, given=given)
            .returning(*_ATTEMPT)
        )
        async with self.db.transaction() as conn:
            row = (await conn.execute(stmt)).one()
        return AttemptRow(*row)

    async def answer(
        self,
        attempt: AttemptRow,
        *,
        answer: str,
        solved: bool,
        answered: float,
        counts: bool = True,
    ) -> StreakRow | None:
        """Record the answer to an open attempt and (when it ``counts``) the player's streak
        after it, in one transaction; the streak after it, or None when the attempt was
        answered already (nothing changes)."""
        stmt = (
            update(puzzle_attempts)
            .where(
                puzzle_attempts.c.attempt_id == attempt.attempt_id,
                puzzle_attempts.c.answered.is_(None),
            )
            .values(answered=answered, answer=answer, solved=solved)
        )
        async with self.db.transaction() as conn:
            if (await conn.execute(stmt)).rowcount != 1:
                return None
            old = (
                await conn.execute(
                    select(
                        puzzle_streaks.c.streak, puzzle_streaks.c.best,
                        puzzle_streaks.c.solved, puzzle_streaks.c.tried,
                    ).where(puzzle_streaks.c.user_id == attempt.user_id)
                )
            ).first()  # fmt: skip
            streak, best, won, tried = old if old is not None else (0, 0, 0, 0)
            if not counts:
                return StreakRow(attempt.user_id, streak, best, won, tried)
            streak = streak + 1 if solved else 0
            after = StreakRow(
                attempt.user_id, streak, max(best, streak), won + int(solved), tried + 1
            )
            values = {
                "user_id": after.user_id, "streak": after.streak, "best": after.best,
                "solved": after.solved, "tried": after.tried, "updated": answered,
            }  # fmt: skip
            await conn.execute(upsert(self.db.dialect, puzzle_streaks, values, keys=["user_id"]))
        return after

    async def streak(self, user_id: int) -> StreakRow:
        """A player's streak (all zero before their first answer)."""
        stmt = select(
            puzzle_streaks.c.user_id, puzzle_streaks.c.streak, puzzle_streaks.c.best,
            puzzle_streaks.c.solved, puzzle_streaks.c.tried,
        ).where(puzzle_streaks.c.user_id == user_id)  # fmt: skip
        async with self.db.reading() as conn:
            row = (await conn.execute(stmt)).first()
        return StreakRow(user_id) if row is None else StreakRow(*row)

    # -- a server's daily puzzle -------------------------------------------------------------

    async def daily(self, guild_id: int) -> DailyRow | None:
        """A server's daily puzzle (None: it has none)."""
        stmt = select(*_DAILY).where(daily_puzzles.c.guild_id == guild_id)
        async with self.db.reading() as conn:
            row = (await conn.execute(stmt)).first()
        return None if row is None else DailyRow(*row)

    async def set_daily(
        self, *, guild_id: int, channel_id: int | None, now: float
    ) -> DailyRow | None:
        """Post a server's daily puzzle in ``channel_id`` (None: no more), with its timer, in one
        transaction: a server that had none gets its first at ``now``; one that had keeps its
        days and its time of day."""
        async with self.db.transaction() as conn:
            if channel_id is None:
                await conn.execute(
                    delete(daily_puzzles).where(daily_puzzles.c.guild_id == guild_id)
                )
                await self.timers.set_timer(
                    conn, TimerKind.DAILY, guild_id, guild_id=guild_id, due=None
                )
                return None
            values = {"guild_id": guild_id, "channel_id": channel_id, "day": 0}
            await conn.execute(
                upsert(
                    self.db.dialect,
                    daily_puzzles,
                    values,
                    keys=["guild_id"],
                    replace=["channel_id"],
                )
            )
            row = DailyRow(*(await conn.execute(
                select(*_DAILY).where(daily_puzzles.c.guild_id == guild_id))).one())  # fmt: skip
            due = row.next_due if row.next_due is not None else now
            await self.timers.set_timer(conn, TimerKind.DAILY, guild_id, guild_id=guild_id, due=due)
        return row

    async def post_daily(
        self, *, guild_id: int, day: int, puzzle_key: str, data: str, posted: float
    ) -> DailyRow:
        """Make ``day`` the server's day with this puzzle, claim the timer that fired it (its
        post, ``seq`` the day, stored in the outbox) and set the next day's, in one transaction.

        Raises:
            StaleWriteError: the daily puzzle is gone or moved on (another process posted it):
                nothing is written.
        """
        async with self.db.transaction() as conn:
            claim = current_claim()
            if claim is not None and claim.matches(TimerKind.DAILY, guild_id):
                await self.timers.claim(conn, claim, guild_id=guild_id, seq=day)
            moved = (
                await conn.execute(
                    update(daily_puzzles)
                    .where(daily_puzzles.c.guild_id == guild_id, daily_puzzles.c.day == day - 1)
                    .values(day=day, puzzle_key=puzzle_key, data=data, posted=posted)
                    .returning(*_DAILY)
                )
            ).first()
            if moved is None:
                raise StaleWriteError(f"the daily puzzle of server {guild_id} moved on")
            row = DailyRow(*moved)
            await self.timers.set_timer(
                conn, TimerKind.DAILY, guild_id, guild_id=guild_id, due=row.next_due
            )
        return row
