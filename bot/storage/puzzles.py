"""Puzzles: those mined from the server's games, the ones given to each player with the answer,
and each player's solving streak."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select, update

from bot.storage.database import Database
from bot.storage.schema import puzzle_attempts, puzzle_streaks, puzzles
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


_ATTEMPT = [
    puzzle_attempts.c[name]
    for name in ("attempt_id", "user_id", "puzzle_key", "data", "given", "answered")
]


class PuzzleRepository:
    """The ``puzzles``, ``puzzle_attempts`` and ``puzzle_streaks`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db

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
