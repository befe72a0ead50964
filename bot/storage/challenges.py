"""Challenges: open, accepted (with the game they start), declined, cancelled, expired; the
rematch offers among them. Each per-user limit is counted in the transaction of the insert
that would pass it, which on PostgreSQL first locks the players it counts for."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, NoReturn, Unpack

from sqlalchemy import and_, func, insert, literal, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.database import Database
from bot.storage.errors import OverLimitError, RematchExistsError, StaleWriteError
from bot.storage.rows import ANYONE, ChallengeRow, ChallengeStatus, GameRow
from bot.storage.schema import challenges
from bot.storage.statements import (
    CHALLENGE_COLS,
    GameLimits,
    as_challenge,
    check_game_limits,
    count_running,
    insert_game,
    read_challenge,
    set_message_id,
)
from bot.storage.timer_repository import TimerKind, TimerRepository


class ChallengeRepository:
    """The ``challenges`` table; accepting one inserts its game, and every write moves the
    challenge's (and its game's) timer, in one transaction."""

    def __init__(self, db: Database, *, timers: TimerRepository) -> None:
        self.db = db
        self.timers = timers

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        """A challenge by id."""
        async with self.db.reading() as conn:
            return await read_challenge(conn, challenge_id)

    async def create_challenge_within(
        self, row: ChallengeRow, *, now: float, max_challenges: int, max_games: int
    ) -> ChallengeRow | None:
        """Insert an open challenge (its id is assigned), counting in the same transaction the
        challenger's open challenges and running games in that server; the challenge as stored,
        or None if the two players already have an open, unexpired challenge there.

        Raises:
            OverLimitError: the challenger has ``max_challenges`` open challenges (made by them) or
                ``max_games`` running games there (nothing is written).
        """
        async with self.db.transaction() as conn:
            # PostgreSQL: both players, so that no other count of theirs (nor the pair's
            # clash check) runs between our count and our insert.
            await self.db.serialise(conn, row.challenger_id, row.opponent_id)
            await _check_challenger_limits(
                conn, row, now=now, max_challenges=max_challenges, max_games=max_games
            )
            return await self._insert(conn, row, now=now)

    async def accept_challenge_within(
        self,
        challenge_id: int,
        game: GameRow,
        *,
        now: float,
        max_games: int,
        taker: int | None = None,
    ) -> GameRow | None:
        """Mark the challenge accepted and create its game, counting in the same transaction
        both players' running games in that server; the game as stored, or None if the
        challenge was no longer open or had expired (an open challenge taken by someone else
        first: see ``_accept``).

        Raises:
            OverLimitError: either player has ``max_games`` running games there (the opponent's
                limit is checked first; nothing is written).
        """
        async with self.db.transaction() as conn:
            await self.db.serialise(conn, game.pink_id, game.blue_id)
            for user in (game.blue_id, game.pink_id):
                if await count_running(conn, game.guild_id, user) >= max_games:
                    raise OverLimitError("games", user, max_games)
            stored = await self._accept(conn, challenge_id, game, now=now, taker=taker)
            if stored is not None:
                await self.timers.game_timer(conn, stored)
            return stored

    async def close_challenge(
        self, challenge_id: int, *, status: str, now: float, due_only: bool = False
    ) -> ChallengeRow | None:
        """Mark an open challenge declined, cancelled or expired; None if it was not open (or,
        with ``due_only``, not yet due)."""
        stmt = update(challenges).where(
            challenges.c.challenge_id == challenge_id, challenges.c.status == ChallengeStatus.OPEN
        )
        if due_only:
            stmt = stmt.where(challenges.c.expires <= now)
        try:
            async with self.db.transaction() as conn:
                found = await conn.execute(stmt.values(status=status).returning(*CHALLENGE_COLS))
                stored = as_challenge(found.first())
                if stored is None:
                    return None
                await self.timers.challenge_closed(conn, stored)
                return stored
        except StaleWriteError:
            return None

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> bool:
        """Remember the message that shows a challenge; False if there is no such challenge."""
        async with self.db.transaction() as conn:
            return await set_message_id(
                conn, challenges.c.challenge_id, challenge_id, message_id=message_id
            )

    async def open_challenges(self, user_id: int, guild_id: int | None) -> list[ChallengeRow]:
        """Open challenges made by or to a user, oldest first."""
        stmt = select(*CHALLENGE_COLS).where(
            challenges.c.status == ChallengeStatus.OPEN,
            or_(challenges.c.challenger_id == user_id, challenges.c.opponent_id == user_id),
        )
        if guild_id is not None:
            stmt = stmt.where(challenges.c.guild_id == guild_id)
        async with self.db.reading() as conn:
            rows = (await conn.execute(stmt.order_by(challenges.c.challenge_id))).all()
        return [ChallengeRow(*r) for r in rows]

    async def challenge_expiries(self) -> list[tuple[int, float, int]]:
        """(challenge id, expiry, server id) of every open challenge."""
        async with self.db.reading() as conn:
            rows = (
                await conn.execute(
                    select(
                        challenges.c.challenge_id, challenges.c.expires, challenges.c.guild_id
                    ).where(challenges.c.status == ChallengeStatus.OPEN)
                )
            ).all()
        return [(int(r[0]), float(r[1]), int(r[2])) for r in rows]

    async def unshown_accepts(self) -> list[ChallengeRow]:
        """Accepted challenges whose message does not say so yet (``answer_shown`` false)."""
        # ``~answer_shown`` is the partial index's own condition on either database.
        stmt = select(*CHALLENGE_COLS).where(
            challenges.c.status == ChallengeStatus.ACCEPTED, ~challenges.c.answer_shown
        )
        async with self.db.reading() as conn:
            rows = (await conn.execute(stmt.order_by(challenges.c.challenge_id))).all()
        return [ChallengeRow(*r) for r in rows]

    async def mark_answer_shown(self, challenge_id: int, *, message_id: int | None) -> bool:
        """Note that an accepted challenge's message says so (and, if given, which message it
        is); False if there is no such challenge."""
        changes: dict[str, Any] = {"answer_shown": True}
        if message_id is not None:
            changes["message_id"] = message_id
        async with self.db.transaction() as conn:
            done = await conn.execute(
                update(challenges)
                .where(challenges.c.challenge_id == challenge_id)
                .values(changes)
                .returning(challenges.c.challenge_id)
            )
            return done.first() is not None

    # -- rematches ---------------------------------------------------------------------------

    async def rematch_of(self, game_id: int) -> ChallengeRow | None:
        """The rematch offer (or started rematch) of a finished game, if any."""
        stmt = select(*CHALLENGE_COLS).where(challenges.c.rematch_of == game_id)
        async with self.db.reading() as conn:
            return as_challenge((await conn.execute(stmt)).first())

    async def offer_rematch_within(
        self, row: ChallengeRow, *, now: float, max_challenges: int, max_games: int
    ) -> ChallengeRow | None:
        """``create_challenge_within`` for a rematch offer (``row.rematch_of`` set): the
        challenge as stored, None if the pair has an open challenge already. The post the
        offer owes (``bot.storage.timers.owing`` of the finished game) goes into the outbox
        in the same transaction.

        Raises:
            RematchExistsError: the game has a rematch offer already (nothing is written).
            OverLimitError: as ``create_challenge_within``.
        """
        assert row.rematch_of is not None
        try:
            async with self.db.transaction() as conn:
                await self.db.serialise(conn, row.challenger_id, row.opponent_id)
                await _check_no_rematch(conn, row.rematch_of)
                await _check_challenger_limits(
                    conn, row, now=now, max_challenges=max_challenges, max_games=max_games
                )
                stored = await self._insert(conn, row, now=now)
                if stored is not None:  # the offer's post, if owed (``timers.owing``)
                    await self.timers.owed(
                        conn, TimerKind.GAME, row.rematch_of, guild_id=row.guild_id
                    )
                return stored
        except IntegrityError as error:  # two offers at once: the unique index refused one
            await self._rematch_clash(row.rematch_of, error)

    async def start_rematch_within(
        self,
        row: ChallengeRow,
        game: GameRow,
        **limits: Unpack[GameLimits],
    ) -> GameRow:
        """A rematch against the computer: its challenge row (``row``, stored accepted and
        shown) and its game, in one transaction, counting ``user_id``'s limits as
        ``GameRepository.create_game_within`` does; the game as stored.

        Raises:
            RematchExistsError: the game has a rematch already (nothing is written).
            OverLimitError: as ``GameRepository.create_game_within``.
        """
        assert row.rematch_of is not None
        try:
            async with self.db.transaction() as conn:
                await self.db.serialise(conn, limits["user_id"])
                await _check_no_rematch(conn, row.rematch_of)
                await check_game_limits(conn, game, **limits)
                values = {f.name: getattr(row, f.name) for f in fields(ChallengeRow)[1:]}
                values.update(status=ChallengeStatus.ACCEPTED, answer_shown=True)
                challenge_id = await conn.scalar(
                    insert(challenges).values(values).returning(challenges.c.challenge_id)
                )
                game.challenge_id = int(challenge_id)
                stored = await insert_game(conn, game)
                await conn.execute(
                    update(challenges)
                    .where(challenges.c.challenge_id == challenge_id)
                    .values(game_id=stored.game_id)
                )
                await self.timers.game_timer(conn, stored)
                return stored
        except IntegrityError as error:
            await self._rematch_clash(row.rematch_of, error)

    async def _rematch_clash(self, game_id: int, error: IntegrityError) -> NoReturn:
        """Raise ``RematchExistsError`` when ``error`` came from another rematch of
        ``game_id`` stored first (the unique index), else ``error`` itself.

        Raises:
            RematchExistsError, IntegrityError.
        """
        existing = await self.rematch_of(game_id)
        if existing is not None:
            raise RematchExistsError(existing) from None
        raise error

    # -- inside a transaction -----------------------------------------------------------------

    async def _insert(
        self, conn: AsyncConnection, row: ChallengeRow, *, now: float
    ) -> ChallengeRow | None:
        """Insert an open challenge and its timer; None if the pair has an open, unexpired one
        in that server."""
        pair = or_(
            and_(challenges.c.challenger_id == row.challenger_id,
                 challenges.c.opponent_id == row.opponent_id),
            and_(challenges.c.challenger_id == row.opponent_id,
                 challenges.c.opponent_id == row.challenger_id),
        )  # fmt: skip
        clash = select(literal(1)).where(
            challenges.c.guild_id == row.guild_id,
            challenges.c.status == ChallengeStatus.OPEN,
            challenges.c.expires > now,
            pair,
        )
        if (await conn.execute(clash)).first() is not None:
            return None
        values = {f.name: getattr(row, f.name) for f in fields(ChallengeRow)[1:]}
        stored = as_challenge(
            (
                await conn.execute(insert(challenges).values(values).returning(*CHALLENGE_COLS))
            ).first()
        )
        assert stored is not None
        await self.timers.challenge_timer(conn, stored)
        return stored

    async def _accept(
        self,
        conn: AsyncConnection,
        challenge_id: int,
        game: GameRow,
        *,
        now: float,
        taker: int | None = None,
    ) -> GameRow | None:
        """Mark an open, unexpired challenge accepted and insert its game; None if it was not.
        With ``taker``, only if the challenge is theirs or open to anyone (``ANYONE``), which
        then becomes theirs: of two takers of an open challenge, the first UPDATE wins."""
        stmt = update(challenges).where(
            challenges.c.challenge_id == challenge_id,
            challenges.c.status == ChallengeStatus.OPEN,
            challenges.c.expires > now,
        )
        if taker is None:
            stmt = stmt.values(status=ChallengeStatus.ACCEPTED)
        else:
            stmt = stmt.where(challenges.c.opponent_id.in_([taker, ANYONE])).values(
                status=ChallengeStatus.ACCEPTED, opponent_id=taker
            )
        accepted = await conn.execute(stmt.returning(challenges.c.challenge_id))
        if accepted.first() is None:
            return None
        await self.timers.clear(conn, TimerKind.CHALLENGE, challenge_id)
        stored = await insert_game(conn, game)
        await conn.execute(
            update(challenges)
            .where(challenges.c.challenge_id == challenge_id)
            .values(game_id=stored.game_id)
        )
        return stored


async def _check_challenger_limits(
    conn: AsyncConnection, row: ChallengeRow, *, now: float, max_challenges: int, max_games: int
) -> None:
    """Raise ``OverLimitError`` if the challenger of ``row`` has ``max_challenges`` open
    challenges or ``max_games`` running games in its server (inside the caller's
    transaction).

    Raises:
        OverLimitError.
    """
    user = row.challenger_id
    mine = select(func.count()).where(
        challenges.c.guild_id == row.guild_id,
        challenges.c.challenger_id == user,
        challenges.c.status == ChallengeStatus.OPEN,
        challenges.c.expires > now,
    )
    if int(await conn.scalar(mine) or 0) >= max_challenges:
        raise OverLimitError("challenges", user, max_challenges)
    if await count_running(conn, row.guild_id, user) >= max_games:
        raise OverLimitError("games", user, max_games)


async def _check_no_rematch(conn: AsyncConnection, game_id: int) -> None:
    """Raise ``RematchExistsError`` if the game has a rematch offer (inside the caller's
    transaction; the unique index ``challenges_rematch_of`` guards what this cannot see).

    Raises:
        RematchExistsError.
    """
    found = await conn.execute(select(*CHALLENGE_COLS).where(challenges.c.rematch_of == game_id))
    existing = as_challenge(found.first())
    if existing is not None:
        raise RematchExistsError(existing)
