"""Takeback requests: each game's latest one and its answer; accepting one takes the game
back in the same transaction."""

from __future__ import annotations

from dataclasses import fields
from typing import Unpack

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.database import Database
from bot.storage.errors import RollBack
from bot.storage.games import GameRepository, TakeBack
from bot.storage.rows import GameRow, TakebackRow, TakebackStatus
from bot.storage.schema import games, takebacks
from bot.storage.statements import set_message_id
from bot.storage.timer_repository import TimerKind, TimerRepository
from bot.storage.upsert import upsert

_TAKEBACK_COLS = [takebacks.c[f.name] for f in fields(TakebackRow)]


class TakebackRepository:
    """The ``takebacks`` table (one row per game: its latest request)."""

    def __init__(self, db: Database, *, games: GameRepository, timers: TimerRepository) -> None:
        self.db = db
        self.games = games
        self.timers = timers

    async def takeback(self, game_id: int) -> TakebackRow | None:
        """A game's latest takeback request, if it ever had one."""
        async with self.db.reading() as conn:
            return await _read_takeback(conn, game_id)

    async def ask_takeback(self, row: TakebackRow) -> TakebackRow:
        """Store a new pending takeback request (replacing the game's earlier one)."""
        values = {f.name: getattr(row, f.name) for f in fields(TakebackRow)}
        async with self.db.transaction() as conn:
            await conn.execute(upsert(self.db.dialect, takebacks, values, keys=["game_id"]))
            stored = await _read_takeback(conn, row.game_id)
            await self._owed(conn, row.game_id)
        assert stored is not None
        return stored

    async def set_takeback_message(self, game_id: int, message_id: int) -> bool:
        """Remember the message that shows a game's takeback request; False if it has none."""
        async with self.db.transaction() as conn:
            return await set_message_id(conn, takebacks.c.game_id, game_id, message_id=message_id)

    async def decline_takeback(self, game_id: int, *, moves: int) -> TakebackRow | None:
        """Mark the pending request for the position of ``moves`` actions declined; the row,
        or None if there is no such pending request."""
        async with self.db.transaction() as conn:
            declined = await _answer_takeback(
                conn, game_id, moves=moves, status=TakebackStatus.DECLINED
            )
            if declined is not None:
                await self._owed(conn, game_id)
            return declined

    async def _owed(self, conn: AsyncConnection, game_id: int) -> None:
        """The post this task owes for game ``game_id``'s request, if any, in ``conn``'s
        transaction (``TimerRepository.owed``)."""
        guild_id = await conn.scalar(select(games.c.guild_id).where(games.c.game_id == game_id))
        await self.timers.owed(conn, TimerKind.GAME, game_id, guild_id=guild_id)

    async def accept_takeback(self, game_id: int, **back: Unpack[TakeBack]) -> GameRow | None:
        """Mark the pending request for ``moves`` actions accepted and take the game back to
        ``keep`` actions (as ``GameRepository.take_back``), in one transaction; the game as
        stored, or None (nothing changed) if the request or the game moved on."""
        try:
            async with self.db.transaction() as conn:
                if (
                    await _answer_takeback(
                        conn, game_id, moves=back["moves"], status=TakebackStatus.ACCEPTED
                    )
                    is None
                ):
                    return None
                stored = await self.games.take_back_in(conn, game_id, **back)
                if stored is None:
                    raise RollBack  # the game moved on: the request stays as it was
                await self.timers.game_timer(conn, stored)
                return stored
        except RollBack:
            return None


async def _read_takeback(conn: AsyncConnection, game_id: int) -> TakebackRow | None:
    row = (
        await conn.execute(select(*_TAKEBACK_COLS).where(takebacks.c.game_id == game_id))
    ).first()
    return None if row is None else TakebackRow(*row)


async def _answer_takeback(
    conn: AsyncConnection, game_id: int, *, moves: int, status: str
) -> TakebackRow | None:
    row = (
        await conn.execute(
            update(takebacks)
            .where(
                takebacks.c.game_id == game_id,
                takebacks.c.moves == moves,
                takebacks.c.status == TakebackStatus.PENDING,
            )
            .values(status=status)
            .returning(*_TAKEBACK_COLS)
        )
    ).first()
    return None if row is None else TakebackRow(*row)
