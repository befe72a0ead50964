"""The ratings of each server's players, their changes game by game, and the tables read
from them (the leaderboard, this month's table).

The rating rules are not here: the game service passes them into the transaction that ends a
rated game (``rate``), so the ratings it reads and writes cannot race another game's.
"""

from __future__ import annotations

from dataclasses import fields

from sqlalchemy import and_, case, func, insert, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.database import Database
from bot.storage.rows import GameRow, GameStatus, MonthRow, RateGame, RatingChange, RatingRow
from bot.storage.schema import games, rating_changes, ratings
from bot.storage.upsert import upsert

_RATING_COLS = [ratings.c[f.name] for f in fields(RatingRow)]


class RatingRepository:
    """The ``ratings`` and ``rating_changes`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def rating(self, guild_id: int, user_id: int) -> tuple[RatingRow, int] | None:
        """A player's rating row and rank in a server (1 = best), or None if never rated."""
        async with self.db.reading() as conn:
            row = await _read_rating(conn, guild_id, user_id)
            if row is None:
                return None
            better = await conn.scalar(
                select(func.count()).where(
                    ratings.c.guild_id == guild_id, ratings.c.rating > row.rating
                )
            )
        return row, int(better or 0) + 1

    async def leaderboard(self, guild_id: int, limit: int) -> list[RatingRow]:
        """A server's ratings, best first."""
        async with self.db.reading() as conn:
            rows = (
                await conn.execute(
                    select(*_RATING_COLS)
                    .where(ratings.c.guild_id == guild_id)
                    .order_by(ratings.c.rating.desc(), ratings.c.user_id)
                    .limit(limit)
                )
            ).all()
        return [RatingRow(*r) for r in rows]

    async def rate(
        self, conn: AsyncConnection, game: GameRow, rate: RateGame | None
    ) -> tuple[RatingChange, ...]:
        """Rate a finished rated game with ``rate`` and write both new ratings and changes,
        inside the caller's transaction (nothing for an unrated or aborted game).

        Raises:
            ValueError: the game is rated and no ``rate`` was given.
        """
        if not game.rated or game.status != GameStatus.OVER:
            return ()
        if rate is None:
            raise ValueError(f"game {game.game_id} is rated: pass the rating rules (rate=...)")
        pink, blue = game.pink_id, game.blue_id
        # PostgreSQL: another game of either player could rate between our read and write;
        # lock both (in one order, so two such transactions cannot deadlock). SQLite's one
        # writer at a time already keeps them apart.
        await self.db.serialise(conn, pink, blue)
        before = {u: await _read_rating(conn, game.guild_id, u) for u in (pink, blue)}
        score_pink = 0.5 if game.winner is None else 1.0 if game.winner == 1 else 0.0
        after = dict(zip((pink, blue), rate(before[pink], before[blue], score_pink), strict=True))
        out = []
        for user_id, score in ((pink, score_pink), (blue, 1.0 - score_pink)):
            old, new = after[user_id]
            stmt = upsert(
                self.db.dialect,
                ratings,
                {"guild_id": game.guild_id, "user_id": user_id, "rating": new.rating,
                 "rd": new.rd, "volatility": new.volatility, "games": 1,
                 "wins": int(score == 1.0), "losses": int(score == 0.0),
                 "draws": int(score == 0.5), "updated": game.finished},
                keys=["guild_id", "user_id"],
                replace=["rating", "rd", "volatility", "updated"],
                add={
                    "games": ratings.c.games + 1,
                    "wins": lambda s: ratings.c.wins + s.excluded.wins,
                    "losses": lambda s: ratings.c.losses + s.excluded.losses,
                    "draws": lambda s: ratings.c.draws + s.excluded.draws,
                },
            )  # fmt: skip
            await conn.execute(stmt)
            await conn.execute(
                insert(rating_changes).values(
                    game_id=game.game_id, user_id=user_id, before=old.rating, after=new.rating,
                    rd=new.rd,
                )
            )  # fmt: skip
            out.append(RatingChange(user_id, old.rating, new.rating, new.rd, new.is_provisional))
        return tuple(out)

    async def period_table(self, guild_id: int, *, start: float, end: float) -> list[MonthRow]:
        """Every player's rated games of a server finished from ``start`` until before
        ``end``: the record and the rating gained, in no particular order."""
        change = rating_changes
        won = or_(
            and_(games.c.winner == 1, games.c.pink_id == change.c.user_id),
            and_(games.c.winner == 2, games.c.blue_id == change.c.user_id),
        )
        stmt = (
            select(
                change.c.user_id,
                func.count(),
                func.sum(case((won, 1), else_=0)),
                func.sum(case((games.c.winner.is_(None), 1), else_=0)),
                func.sum(change.c.after - change.c.before),
            )
            .select_from(change.join(games, games.c.game_id == change.c.game_id))
            .where(
                games.c.guild_id == guild_id,
                games.c.status == GameStatus.OVER,
                games.c.finished >= start,
                games.c.finished < end,
            )
            .group_by(change.c.user_id)
        )
        async with self.db.reading() as conn:
            rows = (await conn.execute(stmt)).all()
        out = []
        for user_id, count, wins, draws, gained in rows:
            count, wins, draws = int(count), int(wins or 0), int(draws or 0)
            out.append(
                MonthRow(int(user_id), count, wins, count - wins - draws, draws, float(gained or 0))
            )
        return out


async def _read_rating(conn: AsyncConnection, guild_id: int, user_id: int) -> RatingRow | None:
    row = (
        await conn.execute(
            select(*_RATING_COLS).where(
                ratings.c.guild_id == guild_id, ratings.c.user_id == user_id
            )
        )
    ).first()
    return None if row is None else RatingRow(*row)
