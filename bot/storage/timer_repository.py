"""The timers and the outbox: when each game's clock and each challenge's expiry fires, and
the posts that must follow a committed change.

A write to a game or challenge moves its timer in its own transaction (``game_timer``,
``challenge_timer``, ``clear``); the write that fires a timer first claims it (``claim``, see
``bot.storage.timers``) and stores the post it owes. The clocks read the due timers
(``due_timers``, ``next_due``), the outbox its unsent posts (``unsent_posts``).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Awaitable, Callable
from dataclasses import fields
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, literal_column, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.database import Database, Prepared
from bot.storage.errors import StaleWriteError
from bot.storage.rows import (
    ChallengeRow,
    ChallengeStatus,
    GameRow,
    GameStatus,
    PostRow,
    TimerRow,
    TournamentStatus,
    WakeRule,
)
from bot.storage.schema import daily_puzzles, outbox, timers, tournaments
from bot.storage.statements import read_challenge, read_game
from bot.storage.timers import ALL_SHARDS, SHARD_SHIFT, Claim, Shards, current_claim
from bot.storage.upsert import upsert

# A server's daily puzzle is posted this long after the one before.
DAY_SECONDS = 24 * 3600.0

# The NOTIFY channel of the timers table's trigger (migration 0008).
CHANNEL = "dots_timers"

_TIMER_COLS = [timers.c.kind, timers.c.ref_id, timers.c.guild_id, timers.c.due]
_POST_COLS = [outbox.c[f.name] for f in fields(PostRow)]

# A game's timer, moved with each of its writes (one more statement in a move's transaction).
_TIMER_VALUES = {
    "kind": bindparam("kind"), "ref_id": bindparam("ref_id"), "guild_id": bindparam("guild_id"),
    "due": bindparam("due"),
}  # fmt: skip
_SET_TIMER = {
    dialect: Prepared(
        upsert(dialect, timers, _TIMER_VALUES, keys=["kind", "ref_id"], replace=["due"]),
        returns_rows=False,
    )
    for dialect in ("sqlite", "postgresql")
}
_CLEAR_TIMER = Prepared(
    delete(timers).where(
        timers.c.kind == bindparam("kind"), timers.c.ref_id == bindparam("ref_id")
    ),
    returns_rows=False,
)


class TimerKind(enum.StrEnum):
    """What a row of ``timers`` is the deadline of (``bot.games.deadlines`` fires each)."""

    GAME = "game"  # a game's clock: its reminder, then its time-out
    CHALLENGE = "challenge"  # a challenge's expiry
    TOURNAMENT = "tournament"  # a tournament's next step: registration closes, a round ends
    DAILY = "daily"  # a server's next puzzle of the day (ref_id: the server)


def deadline_wake(row: GameRow) -> float | None:
    """The default ``WakeRule``: a running game's timer fires at its deadline (no reminder)."""
    return row.deadline if row.status == GameStatus.RUNNING else None


class TimerRepository:
    """The ``timers`` and ``outbox`` tables. ``wake`` says when a game's timer fires (the
    game service sets its rule, reminders included)."""

    def __init__(self, db: Database, *, wake: WakeRule = deadline_wake) -> None:
        self.db = db
        self.wake = wake
        # When a timer of each kind is due, read from its row (None: it is over).
        self._due_by_kind: dict[str, Callable[[AsyncConnection, int], Awaitable[float | None]]]
        self._due_by_kind = {
            TimerKind.GAME: self._game_due,
            TimerKind.CHALLENGE: _challenge_due,
            TimerKind.TOURNAMENT: _tournament_due,
            TimerKind.DAILY: _daily_due,
        }

    async def _game_due(self, conn: AsyncConnection, game_id: int) -> float | None:
        game = await read_game(conn, game_id)
        return None if game is None else self.wake(game)

    # -- inside the transaction of a write -----------------------------------------------

    async def game_timer(self, conn: AsyncConnection, stored: GameRow) -> None:
        """Move (or delete) a game's timer to follow the row just written, in its transaction;
        first claim the timer if this task fires it (``bot.storage.timers``).

        Raises:
            StaleWriteError: the claimed timer is gone, moved or locked (another process fired
                it): the caller's transaction rolls back.
        """
        claim = current_claim()
        if claim is not None and claim.matches(TimerKind.GAME, stored.game_id):
            await self.claim(conn, claim, guild_id=stored.guild_id, seq=stored.moves)
        due = self.wake(stored) if stored.status == GameStatus.RUNNING else None
        key = {"kind": TimerKind.GAME.value, "ref_id": stored.game_id}
        if due is None:
            await _CLEAR_TIMER.run(conn, key)
        else:
            await _SET_TIMER[self.db.dialect].run(
                conn, key | {"guild_id": stored.guild_id, "due": due}
            )

    async def challenge_timer(self, conn: AsyncConnection, stored: ChallengeRow) -> None:
        """Add the expiry timer of a challenge just inserted, in its transaction."""
        await conn.execute(
            insert(timers).values(kind=TimerKind.CHALLENGE.value, ref_id=stored.challenge_id,
                                  guild_id=stored.guild_id, due=stored.expires)
        )  # fmt: skip

    async def challenge_closed(self, conn: AsyncConnection, stored: ChallengeRow) -> None:
        """A challenge just closed (declined, cancelled, expired): claim its timer if this task
        fires it, and delete it, in the closing transaction.

        Raises:
            StaleWriteError: the claimed timer is gone, moved or locked.
        """
        claim = current_claim()
        if claim is not None and claim.matches(TimerKind.CHALLENGE, stored.challenge_id):
            await self.claim(conn, claim, guild_id=stored.guild_id, seq=None)
        await self.clear(conn, TimerKind.CHALLENGE, stored.challenge_id)

    async def tournament_timer(
        self, conn: AsyncConnection, *, tournament_id: int, guild_id: int, due: float | None
    ) -> None:
        """Set (or with None delete) a tournament's timer, in the transaction of its change:
        its registration's close, its round's deadline, or now (its round's last game ended,
        its creator started it)."""
        await self.set_timer(conn, TimerKind.TOURNAMENT, tournament_id, guild_id=guild_id, due=due)

    async def set_timer(
        self,
        conn: AsyncConnection,
        kind: TimerKind,
        ref_id: int,
        *,
        guild_id: int,
        due: float | None,
    ) -> None:
        """Set (or with None delete) the timer of ``kind`` ``ref_id``, in the caller's
        transaction (a server's daily puzzle: when its next one is posted)."""
        key = {"kind": kind.value, "ref_id": ref_id}
        if due is None:
            await _CLEAR_TIMER.run(conn, key)
        else:
            await _SET_TIMER[self.db.dialect].run(conn, key | {"guild_id": guild_id, "due": due})

    async def owed(
        self, conn: AsyncConnection, kind: TimerKind, ref_id: int, *, guild_id: int | None
    ) -> None:
        """A write of ``kind`` ``ref_id`` other than its own row (a takeback's answer): store the
        post this task owes for it (``bot.storage.timers.owing``), if any, in the caller's
        transaction."""
        claim = current_claim()
        if claim is not None and claim.timer is None and claim.matches(kind, ref_id):
            await self.claim(conn, claim, guild_id=guild_id, seq=None)

    async def clear(self, conn: AsyncConnection, kind: TimerKind, ref_id: int) -> None:
        """Delete a timer, in the caller's transaction."""
        await _CLEAR_TIMER.run(conn, {"kind": kind.value, "ref_id": ref_id})

    async def claim(
        self, conn: AsyncConnection, claim: Claim, *, guild_id: int | None, seq: int | None
    ) -> None:
        """Lock the claimed timer row (PostgreSQL: skipping it if another process holds it)
        and, if the claim says so, write its post to the outbox.

        Raises:
            StaleWriteError: the row is gone, moved or locked.
        """
        claim.used = True
        timer = claim.timer
        if timer is not None:
            found = await conn.execute(
                select(timers.c.due)
                .where(timers.c.kind == timer.kind, timers.c.ref_id == timer.ref_id,
                       timers.c.due == timer.due)
                .with_for_update(skip_locked=True)
            )  # fmt: skip
            if found.first() is None:
                raise StaleWriteError(f"timer {timer.kind} {timer.ref_id} was fired elsewhere")
        claim.won = True
        if claim.post is not None:
            claim.post_id = await conn.scalar(
                insert(outbox)
                .values(kind=claim.post, ref_id=claim.ref_id, guild_id=guild_id,
                        seq=seq if claim.seq is None else claim.seq,
                        created=time.time(), token=claim.token)
                .returning(outbox.c.post_id)
            )  # fmt: skip

    # -- what the clocks read ----------------------------------------------------------------

    async def listen(self, callback: Callable[[str], None]) -> Callable[[], Awaitable[None]] | None:
        """PostgreSQL: call ``callback(payload)`` on each NOTIFY of the timers' trigger (a
        timer set by any process); the coroutine function that stops listening. None on SQLite
        (one process: its writers wake the clocks in-process).

        Raises:
            OSError, asyncpg.PostgresError: the server cannot be reached.
        """
        return await self.db.listen(CHANNEL, callback)

    async def due_timers(
        self, now: float, *, shards: Shards = ALL_SHARDS, limit: int = 100
    ) -> list[TimerRow]:
        """The timers due at ``now`` of the servers in ``shards``, soonest first (at most
        ``limit``). A plain read: firing one claims it (``bot.storage.timers.claiming``)."""
        stmt = _shard_filter(select(*_TIMER_COLS).where(timers.c.due <= now), shards)
        async with self.db.reading() as conn:
            rows = (await conn.execute(stmt.order_by(timers.c.due).limit(limit))).all()
        return [TimerRow(*r) for r in rows]

    async def next_due(self, *, shards: Shards = ALL_SHARDS) -> float | None:
        """When the next timer of ``shards`` fires (None: no timers)."""
        stmt = _shard_filter(select(func.min(timers.c.due)), shards)
        async with self.db.reading() as conn:
            found = await conn.scalar(stmt)
        return None if found is None else float(found)

    async def timers(self, *, shards: Shards = ALL_SHARDS) -> list[TimerRow]:
        """Every timer of ``shards``, soonest first."""
        stmt = _shard_filter(select(*_TIMER_COLS), shards).order_by(timers.c.due)
        async with self.db.reading() as conn:
            return [TimerRow(*r) for r in (await conn.execute(stmt)).all()]

    async def resync_timer(self, timer: TimerRow) -> bool:
        """Set a timer that fired nothing from its game's or challenge's row (delete it if
        that is over); False if it is still exactly as due as before (stuck), True if it
        changed or had changed meanwhile."""
        async with self.db.transaction() as conn:
            found = await conn.execute(
                select(timers.c.due)
                .where(timers.c.kind == timer.kind, timers.c.ref_id == timer.ref_id,
                       timers.c.due == timer.due)
                .with_for_update()
            )  # fmt: skip
            if found.first() is None:
                return True
            due = await self._due_by_kind.get(timer.kind, self._game_due)(conn, timer.ref_id)
            key = {"kind": timer.kind, "ref_id": timer.ref_id}
            if due is None:
                await _CLEAR_TIMER.run(conn, key)
                return True
            if due == timer.due:
                return False
            await conn.execute(
                update(timers)
                .where(timers.c.kind == timer.kind, timers.c.ref_id == timer.ref_id)
                .values(due=due)
            )
            return True

    # -- the outbox --------------------------------------------------------------------------

    async def unsent_posts(self, *, shards: Shards = ALL_SHARDS) -> list[PostRow]:
        """The outbox rows of ``shards`` not sent yet, oldest first."""
        stmt = select(*_POST_COLS)
        if not shards.is_all:
            stmt = stmt.where(_shard_of(outbox.c.guild_id, shards.count).in_(sorted(shards.ids)))
        async with self.db.reading() as conn:
            rows = (await conn.execute(stmt.order_by(outbox.c.post_id))).all()
        return [PostRow(*r) for r in rows]

    async def post_sent(self, post_id: int) -> bool:
        """Delete a sent outbox row; False if it was gone already."""
        async with self.db.transaction() as conn:
            done = await conn.execute(
                delete(outbox).where(outbox.c.post_id == post_id).returning(outbox.c.post_id)
            )
            return done.first() is not None


async def _challenge_due(conn: AsyncConnection, challenge_id: int) -> float | None:
    row = await read_challenge(conn, challenge_id)
    return row.expires if row is not None and row.status == ChallengeStatus.OPEN else None


async def _tournament_due(conn: AsyncConnection, tournament_id: int) -> float | None:
    found = (
        await conn.execute(
            select(tournaments.c.status, tournaments.c.registration_deadline,
                   tournaments.c.round_deadline)
            .where(tournaments.c.tournament_id == tournament_id)
        )
    ).first()  # fmt: skip
    if found is None:
        return None
    status, registration, deadline = found
    if status == TournamentStatus.REGISTERING:
        return None if registration is None else float(registration)
    if status == TournamentStatus.RUNNING:
        return None if deadline is None else float(deadline)
    return None


async def _daily_due(conn: AsyncConnection, guild_id: int) -> float | None:
    # A day after the last post (at once if none yet); None once the channel is unset.
    found = (
        await conn.execute(
            select(daily_puzzles.c.posted).where(daily_puzzles.c.guild_id == guild_id)
        )
    ).first()
    if found is None:
        return None
    return time.time() if found[0] is None else float(found[0]) + DAY_SECONDS


def _shard_of(guild_id: Any, count: int) -> Any:
    """A server's shard in SQL: ``(guild_id >> 22) % count``, shard 0 for no server."""
    # The shift as a literal: PostgreSQL has bigint >> integer, not bigint >> bigint.
    return func.coalesce(guild_id, 0).op(">>")(literal_column(str(SHARD_SHIFT))) % count


def _shard_filter(stmt: Any, shards: Shards) -> Any:
    if shards.is_all:
        return stmt
    return stmt.where(_shard_of(timers.c.guild_id, shards.count).in_(sorted(shards.ids)))
