"""The stickers each player earned, game by game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from sqlalchemy import and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.database import Database
from bot.storage.rows import StickerRow
from bot.storage.schema import stickers
from bot.storage.upsert import insert_for


class StickerRepository:
    """The ``stickers`` table (written in the transaction of the action that earned them)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def insert(self, conn: AsyncConnection, earned: Sequence[StickerRow]) -> None:
        """Write ``earned`` in the caller's transaction; a sticker a player already has from
        that game is kept as it is."""
        stmt = (
            insert_for(self.db.dialect, stickers)
            .values([{f.name: getattr(row, f.name) for f in fields(StickerRow)} for row in earned])
            .on_conflict_do_nothing(
                index_elements=[stickers.c.user_id, stickers.c.sticker, stickers.c.game_id]
            )
        )
        await conn.execute(stmt)

    async def game_stickers(self, game_id: int) -> list[StickerRow]:
        """The stickers earned in a game, in the order of its actions."""
        stmt = (
            select(*[stickers.c[f.name] for f in fields(StickerRow)])
            .where(stickers.c.game_id == game_id)
            .order_by(stickers.c.seq, stickers.c.user_id, stickers.c.sticker)
        )
        async with self.db.reading() as conn:
            return [StickerRow(*r) for r in (await conn.execute(stmt)).all()]

    async def sticker_counts(self, user_id: int) -> dict[str, int]:
        """In how many games a player earned each sticker (every server), by sticker id."""
        stmt = (
            select(stickers.c.sticker, func.count())
            .where(stickers.c.user_id == user_id)
            .group_by(stickers.c.sticker)
        )
        async with self.db.reading() as conn:
            return {str(r[0]): int(r[1]) for r in (await conn.execute(stmt)).all()}

    async def stickers_owned(
        self, pairs: Sequence[tuple[int, str]], *, besides: int
    ) -> set[tuple[int, str]]:
        """Which of ``pairs`` (user id, sticker id) the user earned in a game other than
        ``besides``."""
        if not pairs:
            return set()
        wanted = or_(*(and_(stickers.c.user_id == u, stickers.c.sticker == s) for u, s in pairs))
        stmt = (
            select(stickers.c.user_id, stickers.c.sticker)
            .where(wanted, stickers.c.game_id != besides)
            .distinct()
        )
        async with self.db.reading() as conn:
            return {(int(r[0]), str(r[1])) for r in (await conn.execute(stmt)).all()}
