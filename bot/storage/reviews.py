"""The computer's reviews of finished games: one row per game, its JSON made once."""

from __future__ import annotations

from sqlalchemy import func, select

from bot.storage.database import Database
from bot.storage.schema import reviews
from bot.storage.upsert import insert_for


class ReviewRepository:
    """The ``reviews`` table."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def review(self, game_id: int) -> str | None:
        """A game's stored review (its JSON text), or None."""
        async with self.db.reading() as conn:
            found = await conn.scalar(select(reviews.c.data).where(reviews.c.game_id == game_id))
        return None if found is None else str(found)

    async def save_review(
        self, *, game_id: int, requested_by: int, data: str, created: float
    ) -> str:
        """Store a game's review unless one is stored already; the stored one's JSON."""
        stmt = (
            insert_for(self.db.dialect, reviews)
            .values(game_id=game_id, requested_by=requested_by, data=data, created=created)
            .on_conflict_do_nothing(index_elements=[reviews.c.game_id])
        )
        async with self.db.transaction() as conn:
            await conn.execute(stmt)
            stored = await conn.scalar(select(reviews.c.data).where(reviews.c.game_id == game_id))
        return str(stored)

    async def reviews_since(self, *, user_id: int, since: float) -> int:
        """How many reviews ``user_id`` asked for (and got made) since ``since``."""
        stmt = select(func.count()).where(
            reviews.c.requested_by == user_id, reviews.c.created >= since
        )
        async with self.db.reading() as conn:
            return int(await conn.scalar(stmt) or 0)
