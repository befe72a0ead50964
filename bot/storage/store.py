"""The Store: every query and transaction of the bot, over one ``Database`` (SQLite or
PostgreSQL), in SQLAlchemy Core.

Each public coroutine is one transaction (``db.transaction()``) or one read (``db.reading()``).
A write to a game returns the row as stored (``UPDATE ... RETURNING``): that is what the game
service caches. Instants are unix seconds (floats, UTC); the service converts them to aware
datetimes. The rating rules are not here: the service passes them into the transaction that
ends a rated game, so the ratings it reads and writes cannot race another game's. Likewise a
per-user limit (open challenges, running games) is counted in the transaction of the insert
that would pass it, which on PostgreSQL first locks the players it counts for
(``pg_advisory_xact_lock``, as the ratings do).
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any, NoReturn

from sqlalchemy import (
    Column,
    ColumnElement,
    Insert,
    LargeBinary,
    Row,
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    literal,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.database import Database, Prepared
from bot.storage.migrate import migrate, revision
from bot.storage.rows import (
    ANYONE,
    ActionRow,
    ChallengeRow,
    Finish,
    GameRow,
    MonthRow,
    PostRow,
    RateGame,
    RatingChange,
    RatingRow,
    StickerRow,
    TakebackRow,
    TimerRow,
    WakeRule,
)
from bot.storage.schema import (
    actions,
    challenges,
    games,
    guild_locales,
    guilds,
    outbox,
    player_locales,
    players,
    rating_changes,
    ratings,
    replays,
    stickers,
    takebacks,
    timers,
)
from bot.storage.timers import ALL_SHARDS, SHARD_SHIFT, Claim, Shards, current_claim

_CHALLENGE_COLS = [challenges.c[f.name] for f in fields(ChallengeRow)]
_GAME_COLS = [games.c[f.name] for f in fields(GameRow)]
_RATING_COLS = [ratings.c[f.name] for f in fields(RatingRow)]
_TAKEBACK_COLS = [takebacks.c[f.name] for f in fields(TakebackRow)]
# A game clock's state, written with every move (all None for a game without one).
CLOCK_STATE = ("gc_pink_ms", "gc_blue_ms", "gc_runner", "gc_since_ms")
_RUNNING = games.c.status == "running"
_PLACEHOLDER = re.compile(r"\?")


# A move's statements, built once: building a statement costs more than running it.
_MOVE_SQL = (
    update(games)
    .where(games.c.game_id == bindparam("g"), _RUNNING, games.c.moves == bindparam("seq"))
    .values(
        moves=games.c.moves + 1,
        deadline=bindparam("deadline"),
        reminder_sent=False,
        **{name: bindparam(name) for name in CLOCK_STATE},
    )
    .returning(*_GAME_COLS)
)
_MOVE = Prepared(_MOVE_SQL, returns_rows=True)
_FINISH = Prepared(
    _MOVE_SQL.values(
        **{name: bindparam(name) for name in ("status", "winner", "pink_score", "blue_score",
                                              "reason", "finished")}
    ),
    returns_rows=True,
)  # fmt: skip
_INSERT_ACTION = Prepared(insert(actions), returns_rows=False)
_READ_GAME = select(*_GAME_COLS).where(games.c.game_id == bindparam("g"))

# A game's timer, moved with each of its writes (one more statement in a move's transaction).
_TIMER_VALUES = {
    "kind": bindparam("kind"), "ref_id": bindparam("ref_id"), "guild_id": bindparam("guild_id"),
    "due": bindparam("due"),
}  # fmt: skip
_SET_TIMER = {
    name: Prepared(
        dialect.insert(timers)
        .values(_TIMER_VALUES)
        .on_conflict_do_update(index_elements=[timers.c.kind, timers.c.ref_id],
                               set_={"due": bindparam("due")}),
        returns_rows=False,
    )
    for name, dialect in (("sqlite", sqlite), ("postgresql", postgresql))
}  # fmt: skip
_CLEAR_TIMER = Prepared(
    delete(timers).where(
        timers.c.kind == bindparam("kind"), timers.c.ref_id == bindparam("ref_id")
    ),
    returns_rows=False,
)


def deadline_wake(row: GameRow) -> float | None:
    """The default ``WakeRule``: a running game's timer fires at its deadline (no reminder)."""
    return row.deadline if row.status == "running" else None


class UnusableDatabaseError(RuntimeError):
    """The database cannot be used at all (not a SQLite file, or the server refuses us)."""


class StaleWriteError(RuntimeError):
    """The game row changed under a write (another writer won); the transaction rolled back."""


class RematchExistsError(RuntimeError):
    """A finished game has its rematch offer already (``existing``); nothing was written."""

    def __init__(self, existing: ChallengeRow) -> None:
        super().__init__(f"game {existing.rematch_of} has rematch {existing.challenge_id}")
        self.existing = existing


class OverLimitError(RuntimeError):
    """A per-user limit would be passed; nothing was written. ``kind`` is ``"challenges"``
    (open challenges), ``"games"`` (running games) or ``"computer"`` (running games against
    the computer); ``user_id`` is whose limit, ``limit`` its value."""

    def __init__(self, kind: str, user_id: int, limit: int) -> None:
        super().__init__(f"user {user_id} is at the limit of {limit} {kind}")
        self.kind, self.user_id, self.limit = kind, user_id, limit


def _challenge(row: Row[Any] | None) -> ChallengeRow | None:
    return None if row is None else ChallengeRow(*row)


def _game(row: Row[Any] | None) -> GameRow | None:
    return None if row is None else GameRow(*row)


# The advisory lock of the one-off jobs: ("dots" in ASCII, 1).
ONE_OFF_LOCK = (0x646F7473, 1)


class Store:
    """The bot's database, migrated when opened."""

    def __init__(self, db: Database, *, wake: WakeRule = deadline_wake) -> None:
        self.db = db
        # When a game's timer fires; the game service sets its rule (reminders) here.
        self.wake = wake
        self._one_off: AsyncConnection | None = None

    @classmethod
    async def open(cls, target: str | Path, *, migrations: Path | None = None) -> Store:
        """Open the database ``target`` (a SQLite file, created if missing, or a
        ``postgresql://`` URL), applying any new migrations.

        Raises:
            MigrationError: a migration failed (the database stays at the revision before it).
            UnusableDatabaseError: ``target`` is no database the bot can read (a file that is
                not SQLite, a database that refuses us).
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
        return cls(db)

    async def close(self) -> None:
        """Close the database (releasing the one-off jobs' lock, if held)."""
        one_off, self._one_off = self._one_off, None
        if one_off is not None:
            await one_off.close()
        await self.db.close()

    # -- one-off jobs: one process of several runs them ---------------------------

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

    def _upsert(self) -> Any:
        return postgresql.insert if self.db.dialect == "postgresql" else sqlite.insert

    # -- servers and players ----------------------------------------------------------------

    async def guild(self, guild_id: int) -> tuple[int | None, int] | None:
        """A server's (game channel id, default clock seconds), or None if never set."""
        async with self.db.reading() as conn:
            row = (
                await conn.execute(
                    select(guilds.c.game_channel_id, guilds.c.default_clock).where(
                        guilds.c.guild_id == guild_id
                    )
                )
            ).first()
        return None if row is None else (row[0], row[1])

    async def set_guild(
        self, guild_id: int, *, game_channel_id: int | None, default_clock: int, at: float
    ) -> None:
        """Write a server's settings."""
        stmt = self._upsert()(guilds).values(
            guild_id=guild_id, game_channel_id=game_channel_id, default_clock=default_clock,
            updated=at,
        )  # fmt: skip
        stmt = stmt.on_conflict_do_update(
            index_elements=[guilds.c.guild_id],
            set_={
                "game_channel_id": stmt.excluded.game_channel_id,
                "default_clock": stmt.excluded.default_clock,
                "updated": stmt.excluded.updated,
            },
        )
        async with self.db.transaction() as conn:
            await conn.execute(stmt)

    async def set_notify(self, user_id: int, *, on: bool, at: float) -> None:
        """Write a player's "DM me when it is my turn" preference."""
        stmt = self._upsert()(players).values(user_id=user_id, dm_on_turn=on, updated=at)
        stmt = stmt.on_conflict_do_update(
            index_elements=[players.c.user_id],
            set_={"dm_on_turn": stmt.excluded.dm_on_turn, "updated": stmt.excluded.updated},
        )
        async with self.db.transaction() as conn:
            await conn.execute(stmt)

    async def notify(self, user_id: int) -> bool:
        """A player's "DM me when it is my turn" preference (default off)."""
        async with self.db.reading() as conn:
            found = await conn.scalar(
                select(players.c.dm_on_turn).where(players.c.user_id == user_id)
            )
        return bool(found)

    # -- challenges -------------------------------------------------------------------------

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        """A challenge by id."""
        async with self.db.reading() as conn:
            return await _read_challenge(conn, challenge_id)

    async def close_challenge(
        self, challenge_id: int, *, status: str, now: float, due_only: bool = False
    ) -> ChallengeRow | None:
        """Mark an open challenge declined, cancelled or expired; None if it was not open (or,
        with ``due_only``, not yet due)."""
        stmt = update(challenges).where(
            challenges.c.challenge_id == challenge_id, challenges.c.status == "open"
        )
        if due_only:
            stmt = stmt.where(challenges.c.expires <= now)
        try:
            async with self.db.transaction() as conn:
                found = await conn.execute(stmt.values(status=status).returning(*_CHALLENGE_COLS))
                stored = _challenge(found.first())
                if stored is None:
                    return None
                claim = current_claim()
                if claim is not None and claim.matches("challenge", challenge_id):
                    await self._claim(conn, claim, guild_id=stored.guild_id, seq=None)
                await _CLEAR_TIMER.run(conn, {"kind": "challenge", "ref_id": challenge_id})
                return stored
        except StaleWriteError:
            return None

    async def create_game(self, game: GameRow) -> GameRow:
        """Insert a game directly (no challenge: tests, imports, the computer player); the game
        as stored."""
        async with self.db.transaction() as conn:
            stored = await _insert_game(conn, game)
            await self._game_timer(conn, stored)
            return stored

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> bool:
        """Remember the message that shows a challenge; False if there is no such challenge."""
        return await self._set_message(challenges.c.challenge_id, challenge_id, message_id)

    async def _set_message(self, key: Column[int], value: int, message_id: int) -> bool:
        """Set ``message_id`` in the row of ``key``'s table whose ``key`` is ``value``; False
        if there is no such row."""
        async with self.db.transaction() as conn:
            done = await conn.execute(
                update(key.table).where(key == value).values(message_id=message_id).returning(key)
            )
            return done.first() is not None

    async def open_challenges(self, user_id: int, guild_id: int | None) -> list[ChallengeRow]:
        """Open challenges made by or to a user, oldest first."""
        stmt = select(*_CHALLENGE_COLS).where(
            challenges.c.status == "open",
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
                    ).where(challenges.c.status == "open")
                )
            ).all()
        return [(int(r[0]), float(r[1]), int(r[2])) for r in rows]

    # -- games ------------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        """A game's row."""
        async with self.db.reading() as conn:
            return await _read_game(conn, game_id)

    async def game_with_actions(self, game_id: int) -> tuple[GameRow, list[ActionRow]] | None:
        """A game's row and its actions in order."""
        async with self.db.reading() as conn:
            game = await _read_game(conn, game_id)
            if game is None:
                return None
            rows = (
                await conn.execute(
                    select(actions.c.seq, actions.c.kind, actions.c.player, actions.c.point,
                           actions.c.at)
                    .where(actions.c.game_id == game_id)
                    .order_by(actions.c.seq)
                )
            ).all()  # fmt: skip
        return game, [ActionRow(*r) for r in rows]

    async def record_action(
        self,
        game_id: int,
        action: ActionRow,
        *,
        deadline: float | None,
        finish: Finish | None = None,
        rate: RateGame | None = None,
        clock: dict[str, int | None] | None = None,
        earned: Sequence[StickerRow] = (),
    ) -> tuple[GameRow, tuple[RatingChange, ...]]:
        """Append an action and move the clock, or finish the game, in one transaction; for a
        rated game that ends with a result, rate it with ``rate`` and write both new ratings in
        the same transaction. The game as stored, and the rating changes. ``clock`` is the game
        clock's new state (``CLOCK_STATE`` keys; None for a game without a game clock);
        ``earned`` are the stickers the action earned (one kept per player, game and sticker).

        Raises:
            StaleWriteError: the game is not running or already has an action ``action.seq``.
            ValueError: a rated game ends with a result and no ``rate`` was given (nothing is
                written).
        """
        params: dict[str, Any] = {"g": game_id, "seq": action.seq, "deadline": deadline}
        params.update(_clock_params(clock))
        if finish is not None:
            params.update(_finished(finish, action.at))
        async with self.db.transaction() as conn:
            rows = await (_FINISH if finish else _MOVE).run(conn, params)
            if not rows:
                raise StaleWriteError(f"game {game_id} is not at action {action.seq}")
            stored = GameRow(*rows[0])
            stored.rated, stored.reminder_sent = bool(stored.rated), bool(stored.reminder_sent)
            stored.takebacks = bool(stored.takebacks)
            await self._game_timer(conn, stored)
            await _INSERT_ACTION.run(
                conn,
                {"game_id": game_id, "seq": action.seq, "kind": action.kind,
                 "player": action.player, "point": action.point, "at": action.at},
            )  # fmt: skip
            if earned:
                await self._insert_stickers(conn, earned)
            if finish is None:
                return stored, ()
            return stored, await self._rate(conn, stored, rate)

    async def take_back(
        self,
        game_id: int,
        *,
        moves: int,
        keep: int,
        deadline: float,
        clock: dict[str, int | None] | None = None,
    ) -> GameRow | None:
        """Delete a running game's actions from ``keep`` on and restart the clock (``clock``:
        the game clock's new state, as in ``record_action``), in one transaction (an undo
        against the computer); the game as stored, or None if the game is not running or does
        not have ``moves`` actions (another writer won), and nothing changes then."""
        async with self.db.transaction() as conn:
            stored = await _take_back(
                conn, game_id, moves=moves, keep=keep, deadline=deadline, clock=clock
            )
            if stored is not None:
                await self._game_timer(conn, stored)
            return stored

    async def finish_game(
        self, game_id: int, finish: Finish, *, at: float, rate: RateGame | None = None
    ) -> GameRow | None:
        """Finish a running game without an action (an abort); the game as stored, or None if
        it was not running.

        Raises:
            ValueError: a rated game ends with a result and no ``rate`` was given.
        """
        try:
            async with self.db.transaction() as conn:
                stored = _game(
                    (
                        await conn.execute(
                            update(games)
                            .where(games.c.game_id == game_id, _RUNNING)
                            .values(_finished(finish, at))
                            .returning(*_GAME_COLS)
                        )
                    ).first()
                )
                if stored is None:
                    return None
                await self._game_timer(conn, stored)
                await self._rate(conn, stored, rate)
                return stored
        except StaleWriteError:
            return None

    async def mark_reminded(self, game_id: int, deadline: float) -> GameRow | None:
        """Record that the reminder for this deadline was sent; the game as stored, or None if
        it already was, or the deadline moved."""
        try:
            async with self.db.transaction() as conn:
                stored = _game(
                    (
                        await conn.execute(
                            update(games)
                            .where(
                                games.c.game_id == game_id,
                                _RUNNING,
                                games.c.reminder_sent.is_(False),
                                func.abs(games.c.deadline - deadline) < 0.001,
                            )
                            .values(reminder_sent=True)
                            .returning(*_GAME_COLS)
                        )
                    ).first()
                )
                if stored is not None:
                    await self._game_timer(conn, stored)
                return stored
        except StaleWriteError:
            return None

    async def set_game_thread(
        self, game_id: int, *, thread_id: int | None, message_id: int | None
    ) -> GameRow | None:
        """Remember a game's thread and/or picture message (None leaves it); the game as
        stored, or None if there is no such game."""
        changes: dict[str, Any] = {}
        if thread_id is not None:
            changes["thread_id"] = thread_id
        if message_id is not None:
            changes["message_id"] = message_id
        stmt = update(games).where(games.c.game_id == game_id)
        if not changes:
            changes["game_id"] = games.c.game_id
        async with self.db.transaction() as conn:
            stored = await conn.execute(stmt.values(changes).returning(*_GAME_COLS))
            return _game(stored.first())

    async def game_id_in_thread(self, thread_id: int) -> int | None:
        """The id of the game played in thread ``thread_id`` (the newest one), if any."""
        async with self.db.reading() as conn:
            found = await conn.scalar(
                select(games.c.game_id)
                .where(games.c.thread_id == thread_id)
                .order_by(games.c.game_id.desc())
                .limit(1)
            )
        return None if found is None else int(found)

    async def running_game_ids(self, user_id: int, guild_id: int | None) -> list[int]:
        """Ids of a user's running games, oldest first."""
        stmt = select(games.c.game_id).where(_RUNNING, _plays(user_id))
        if guild_id is not None:
            stmt = stmt.where(games.c.guild_id == guild_id)
        async with self.db.reading() as conn:
            return [int(x) for x in await conn.scalars(stmt.order_by(games.c.game_id))]

    async def finished_games(
        self, guild_id: int, user_id: int, *, limit: int
    ) -> list[tuple[GameRow, float | None]]:
        """A user's finished or aborted games in a server, newest first, with the user's
        rating change (None for unrated games)."""
        change = rating_changes
        stmt = (
            select(*_GAME_COLS, (change.c.after - change.c.before))
            .select_from(
                games.outerjoin(
                    change, and_(change.c.game_id == games.c.game_id, change.c.user_id == user_id)
                )
            )
            .where(games.c.guild_id == guild_id, games.c.status != "running", _plays(user_id))
            .order_by(games.c.finished.desc(), games.c.game_id.desc())
            .limit(limit)
        )
        async with self.db.reading() as conn:
            rows = (await conn.execute(stmt)).all()
        return [(GameRow(*r[:-1]), r[-1]) for r in rows]

    # -- ratings ----------------------------------------------------------------------------

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

    async def count_running(self, guild_id: int, user_id: int) -> int:
        """How many running games a user has in a server."""
        async with self.db.reading() as conn:
            return await _count_running(conn, guild_id, user_id)

    async def _rate(
        self, conn: AsyncConnection, game: GameRow, rate: RateGame | None
    ) -> tuple[RatingChange, ...]:
        """Rate a finished rated game with ``rate`` and write both new ratings and changes."""
        if not game.rated or game.status != "over":
            return ()
        if rate is None:
            raise ValueError(f"game {game.game_id} is rated: pass the rating rules (rate=...)")
        pink, blue = game.pink_id, game.blue_id
        # PostgreSQL: another game of either player could rate between our read and write;
        # lock both (in one order, so two such transactions cannot deadlock). SQLite's one
        # writer at a time already keeps them apart.
        await self._serialise(conn, pink, blue)
        before = {u: await _read_rating(conn, game.guild_id, u) for u in (pink, blue)}
        score_pink = 0.5 if game.winner is None else 1.0 if game.winner == 1 else 0.0
        after = dict(zip((pink, blue), rate(before[pink], before[blue], score_pink), strict=True))
        upsert = self._upsert()
        out = []
        for user_id, score in ((pink, score_pink), (blue, 1.0 - score_pink)):
            old, new = after[user_id]
            stmt = upsert(ratings).values(
                guild_id=game.guild_id, user_id=user_id, rating=new.rating, rd=new.rd,
                volatility=new.volatility, games=1, wins=int(score == 1.0),
                losses=int(score == 0.0), draws=int(score == 0.5), updated=game.finished,
            )  # fmt: skip
            stmt = stmt.on_conflict_do_update(
                index_elements=[ratings.c.guild_id, ratings.c.user_id],
                set_={
                    "rating": stmt.excluded.rating,
                    "rd": stmt.excluded.rd,
                    "volatility": stmt.excluded.volatility,
                    "games": ratings.c.games + 1,
                    "wins": ratings.c.wins + stmt.excluded.wins,
                    "losses": ratings.c.losses + stmt.excluded.losses,
                    "draws": ratings.c.draws + stmt.excluded.draws,
                    "updated": stmt.excluded.updated,
                },
            )
            await conn.execute(stmt)
            await conn.execute(
                insert(rating_changes).values(
                    game_id=game.game_id, user_id=user_id, before=old.rating, after=new.rating,
                    rd=new.rd,
                )
            )  # fmt: skip
            out.append(RatingChange(user_id, old.rating, new.rating, new.rd, new.is_provisional))
        return tuple(out)

    async def _serialise(self, conn: AsyncConnection, *keys: int) -> None:
        """PostgreSQL: hold a lock on each of ``keys`` (user ids) to the end of the
        transaction, taken in ascending order so that two transactions cannot deadlock on them
        (SQLite: nothing to do, its writers already take turns)."""
        if self.db.dialect == "postgresql":
            for key in sorted(set(keys)):
                await conn.execute(select(func.pg_advisory_xact_lock(key)))

    # -- per-user limits and unfinished starts -------------------

    async def limits(self, guild_id: int) -> tuple[int | None, int | None, int | None]:
        """A server's per-user limits (open challenges, running games, computer games); None
        where the default applies."""
        async with self.db.reading() as conn:
            row = (
                await conn.execute(
                    select(guilds.c.max_open_challenges, guilds.c.max_running_games,
                           guilds.c.max_computer_games)
                    .where(guilds.c.guild_id == guild_id)
                )
            ).first()  # fmt: skip
        return (None, None, None) if row is None else (row[0], row[1], row[2])

    async def set_limits(
        self,
        guild_id: int,
        *,
        challenges: int | None,
        games: int | None,
        computer: int | None,
        at: float,
    ) -> None:
        """Write a server's per-user limits (None: the default); its other settings stay."""
        stmt = self._upsert()(guilds).values(
            guild_id=guild_id, max_open_challenges=challenges, max_running_games=games,
            max_computer_games=computer, updated=at,
        )  # fmt: skip
        stmt = stmt.on_conflict_do_update(
            index_elements=[guilds.c.guild_id],
            set_={
                "max_open_challenges": stmt.excluded.max_open_challenges,
                "max_running_games": stmt.excluded.max_running_games,
                "max_computer_games": stmt.excluded.max_computer_games,
                "updated": stmt.excluded.updated,
            },
        )
        async with self.db.transaction() as conn:
            await conn.execute(stmt)

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
            await self._serialise(conn, row.challenger_id, row.opponent_id)
            await _check_challenger_limits(
                conn, row, now=now, max_challenges=max_challenges, max_games=max_games
            )
            return await _insert_challenge(conn, row, now=now)

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
            await self._serialise(conn, game.pink_id, game.blue_id)
            for user in (game.blue_id, game.pink_id):
                if await _count_running(conn, game.guild_id, user) >= max_games:
                    raise OverLimitError("games", user, max_games)
            stored = await _accept(conn, challenge_id, game, now=now, taker=taker)
            if stored is not None:
                await self._game_timer(conn, stored)
            return stored

    async def create_game_within(
        self,
        game: GameRow,
        *,
        user_id: int,
        max_games: int,
        max_computer: int,
        computer_ids: tuple[int, ...],
    ) -> GameRow:
        """``create_game``, counting in the same transaction ``user_id``'s running games in
        that server, all of them and those against one of ``computer_ids``; the game as stored.

        Raises:
            OverLimitError: ``user_id`` has ``max_computer`` running games against the computer,
                or ``max_games`` running games (nothing is written).
        """
        against = or_(games.c.pink_id.in_(computer_ids), games.c.blue_id.in_(computer_ids))
        computer = select(func.count()).where(
            games.c.guild_id == game.guild_id, _RUNNING, _plays(user_id), against
        )
        async with self.db.transaction() as conn:
            await self._serialise(conn, user_id)
            if int(await conn.scalar(computer) or 0) >= max_computer:
                raise OverLimitError("computer", user_id, max_computer)
            if await _count_running(conn, game.guild_id, user_id) >= max_games:
                raise OverLimitError("games", user_id, max_games)
            stored = await _insert_game(conn, game)
            await self._game_timer(conn, stored)
            return stored

    async def unstarted_games(self) -> list[int]:
        """Ids of running games whose first picture was never posted (``message_id`` NULL)."""
        stmt = select(games.c.game_id).where(_RUNNING, games.c.message_id.is_(None))
        async with self.db.reading() as conn:
            return [int(x) for x in await conn.scalars(stmt.order_by(games.c.game_id))]

    async def unshown_accepts(self) -> list[ChallengeRow]:
        """Accepted challenges whose message does not say so yet (``answer_shown`` false)."""
        # ``~answer_shown`` is the partial index's own condition on either database.
        stmt = select(*_CHALLENGE_COLS).where(
            challenges.c.status == "accepted", ~challenges.c.answer_shown
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

    async def replay(self, game_id: int) -> bytes | None:
        """The stored animated replay (GIF) of a finished game, if rendered once."""
        async with self.db.reading() as conn:
            found = await conn.scalar(select(replays.c.gif).where(replays.c.game_id == game_id))
        return None if found is None else bytes(found)

    async def save_replay(self, game_id: int, gif: bytes) -> bool:
        """Store a finished game's replay (kept if one is stored); False unless the game is
        over or aborted, or if a replay was stored already."""
        finished = select(games.c.game_id, literal(gif, LargeBinary())).where(
            games.c.game_id == game_id, games.c.status != "running"
        )
        stmt = (
            self._upsert()(replays)
            .from_select([replays.c.game_id, replays.c.gif], finished)
            .on_conflict_do_nothing(index_elements=[replays.c.game_id])
            .returning(replays.c.game_id)
        )
        async with self.db.transaction() as conn:
            return (await conn.execute(stmt)).first() is not None

    # -- locales ------------------------------------------------------------------

    async def guild_locale(self, guild_id: int) -> str | None:
        """The language an admin chose for a server's public posts, or None."""
        async with self.db.reading() as conn:
            found = await conn.scalar(
                select(guild_locales.c.locale).where(guild_locales.c.guild_id == guild_id)
            )
        return None if found is None else str(found)

    async def set_guild_locale(self, guild_id: int, locale: str | None, *, at: float) -> None:
        """Write (or with None, forget) a server's chosen language."""
        async with self.db.transaction() as conn:
            if locale is None:
                await conn.execute(
                    delete(guild_locales).where(guild_locales.c.guild_id == guild_id)
                )
                return
            stmt = self._upsert()(guild_locales).values(
                guild_id=guild_id, locale=locale, updated=at
            )
            stmt = stmt.on_conflict_do_update(
                index_elements=[guild_locales.c.guild_id],
                set_={"locale": stmt.excluded.locale, "updated": stmt.excluded.updated},
            )
            await conn.execute(stmt)

    async def player_locale(self, user_id: int) -> str | None:
        """The language a user's client last showed, or None."""
        async with self.db.reading() as conn:
            found = await conn.scalar(
                select(player_locales.c.locale).where(player_locales.c.user_id == user_id)
            )
        return None if found is None else str(found)

    async def set_player_locale(self, user_id: int, locale: str, *, at: float) -> None:
        """Write the language a user's client showed."""
        stmt = self._upsert()(player_locales).values(user_id=user_id, locale=locale, updated=at)
        stmt = stmt.on_conflict_do_update(
            index_elements=[player_locales.c.user_id],
            set_={"locale": stmt.excluded.locale, "updated": stmt.excluded.updated},
        )
        async with self.db.transaction() as conn:
            await conn.execute(stmt)

    # -- rematch and open challenges ---------------------------------------------

    async def rematch_of(self, game_id: int) -> ChallengeRow | None:
        """The rematch offer (or started rematch) of a finished game, if any."""
        stmt = select(*_CHALLENGE_COLS).where(challenges.c.rematch_of == game_id)
        async with self.db.reading() as conn:
            return _challenge((await conn.execute(stmt)).first())

    async def offer_rematch_within(
        self, row: ChallengeRow, *, now: float, max_challenges: int, max_games: int
    ) -> ChallengeRow | None:
        """``create_challenge_within`` for a rematch offer (``row.rematch_of`` set): the
        challenge as stored, None if the pair has an open challenge already.

        Raises:
            RematchExistsError: the game has a rematch offer already (nothing is written).
            OverLimitError: as ``create_challenge_within``.
        """
        assert row.rematch_of is not None
        try:
            async with self.db.transaction() as conn:
                await self._serialise(conn, row.challenger_id, row.opponent_id)
                await _check_no_rematch(conn, row.rematch_of)
                await _check_challenger_limits(
                    conn, row, now=now, max_challenges=max_challenges, max_games=max_games
                )
                return await _insert_challenge(conn, row, now=now)
        except IntegrityError as error:  # two offers at once: the unique index refused one
            await self._rematch_clash(row.rematch_of, error)

    async def start_rematch_within(
        self,
        row: ChallengeRow,
        game: GameRow,
        *,
        user_id: int,
        max_games: int,
        max_computer: int,
        computer_ids: tuple[int, ...],
    ) -> GameRow:
        """A rematch against the computer: its challenge row (``row``, stored accepted and
        shown) and its game, in one transaction, counting ``user_id``'s limits as
        ``create_game_within`` does; the game as stored.

        Raises:
            RematchExistsError: the game has a rematch already (nothing is written).
            OverLimitError: as ``create_game_within``.
        """
        assert row.rematch_of is not None
        against = or_(games.c.pink_id.in_(computer_ids), games.c.blue_id.in_(computer_ids))
        computer = select(func.count()).where(
            games.c.guild_id == game.guild_id, _RUNNING, _plays(user_id), against
        )
        try:
            async with self.db.transaction() as conn:
                await self._serialise(conn, user_id)
                await _check_no_rematch(conn, row.rematch_of)
                if int(await conn.scalar(computer) or 0) >= max_computer:
                    raise OverLimitError("computer", user_id, max_computer)
                if await _count_running(conn, game.guild_id, user_id) >= max_games:
                    raise OverLimitError("games", user_id, max_games)
                values = {f.name: getattr(row, f.name) for f in fields(ChallengeRow)[1:]}
                values.update(status="accepted", answer_shown=True)
                challenge_id = await conn.scalar(
                    insert(challenges).values(values).returning(challenges.c.challenge_id)
                )
                game.challenge_id = int(challenge_id)
                stored = await _insert_game(conn, game)
                await conn.execute(
                    update(challenges)
                    .where(challenges.c.challenge_id == challenge_id)
                    .values(game_id=stored.game_id)
                )
                await self._game_timer(conn, stored)
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

    # -- stickers ---------------------------------------------------------

    async def _insert_stickers(self, conn: AsyncConnection, earned: Sequence[StickerRow]) -> None:
        """Write ``earned`` in the caller's transaction; a sticker a player already has from
        that game is kept as it is."""
        stmt = (
            self._upsert()(stickers)
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

    # -- leaderboard periods -----------------------------------------------

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
                games.c.status == "over",
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

    # -- timers and outbox ------------------------------------------------------

    async def _game_timer(self, conn: AsyncConnection, stored: GameRow) -> None:
        """Move (or delete) a game's timer to follow the row just written, in its transaction;
        first claim the timer if this task fires it (``bot.storage.timers``).

        Raises:
            StaleWriteError: the claimed timer is gone, moved or locked (another process fired
                it): the caller's transaction rolls back.
        """
        claim = current_claim()
        if claim is not None and claim.matches("game", stored.game_id):
            await self._claim(conn, claim, guild_id=stored.guild_id, seq=stored.moves)
        due = self.wake(stored) if stored.status == "running" else None
        key = {"kind": "game", "ref_id": stored.game_id}
        if due is None:
            await _CLEAR_TIMER.run(conn, key)
        else:
            await _SET_TIMER[self.db.dialect].run(
                conn, key | {"guild_id": stored.guild_id, "due": due}
            )

    async def _claim(
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
                .values(kind=claim.post, ref_id=claim.ref_id, guild_id=guild_id, seq=seq,
                        created=time.time())
                .returning(outbox.c.post_id)
            )  # fmt: skip

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
            due: float | None
            if timer.kind == "challenge":
                row = await _read_challenge(conn, timer.ref_id)
                due = row.expires if row is not None and row.status == "open" else None
            else:
                game = await _read_game(conn, timer.ref_id)
                due = None if game is None else self.wake(game)
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

    # -- for tests and tools ---------------------------------------------------------------

    # -- takebacks ---------------------------------------------------------------------------

    async def takeback(self, game_id: int) -> TakebackRow | None:
        """A game's latest takeback request, if it ever had one."""
        async with self.db.reading() as conn:
            return await _read_takeback(conn, game_id)

    async def ask_takeback(self, row: TakebackRow) -> TakebackRow:
        """Store a new pending takeback request (replacing the game's earlier one)."""
        values = {f.name: getattr(row, f.name) for f in fields(TakebackRow)}
        stmt = self._upsert()(takebacks).values(values)
        changes = {name: stmt.excluded[name] for name in values if name != "game_id"}
        async with self.db.transaction() as conn:
            await conn.execute(stmt.on_conflict_do_update(index_elements=["game_id"], set_=changes))
            stored = await _read_takeback(conn, row.game_id)
        assert stored is not None
        return stored

    async def set_takeback_message(self, game_id: int, message_id: int) -> bool:
        """Remember the message that shows a game's takeback request; False if it has none."""
        return await self._set_message(takebacks.c.game_id, game_id, message_id)

    async def decline_takeback(self, game_id: int, *, moves: int) -> TakebackRow | None:
        """Mark the pending request for the position of ``moves`` actions declined; the row,
        or None if there is no such pending request."""
        async with self.db.transaction() as conn:
            return await _answer_takeback(conn, game_id, moves=moves, status="declined")

    async def accept_takeback(
        self,
        game_id: int,
        *,
        moves: int,
        keep: int,
        deadline: float,
        clock: dict[str, int | None] | None = None,
    ) -> GameRow | None:
        """Mark the pending request for ``moves`` actions accepted and take the game back to
        ``keep`` actions (as ``take_back``), in one transaction; the game as stored, or None
        (nothing changed) if the request or the game moved on."""
        try:
            async with self.db.transaction() as conn:
                if await _answer_takeback(conn, game_id, moves=moves, status="accepted") is None:
                    return None
                stored = await _take_back(
                    conn, game_id, moves=moves, keep=keep, deadline=deadline, clock=clock
                )
                if stored is None:
                    raise _RollBack  # the game moved on: the request stays as it was
                await self._game_timer(conn, stored)
                return stored
        except _RollBack:
            return None

    async def execute(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Run one statement (``?`` placeholders) in its own transaction and return its rows
        (tests and tools)."""
        if self.db.dialect == "postgresql":
            count = iter(range(1, sql.count("?") + 1))
            sql = _PLACEHOLDER.sub(lambda _: f"${next(count)}", sql)
        async with self.db.transaction() as conn:
            result = await conn.exec_driver_sql(sql, tuple(args))
            return [tuple(r) for r in result.all()] if result.returns_rows else []


_TIMER_COLS = [timers.c.kind, timers.c.ref_id, timers.c.guild_id, timers.c.due]
_POST_COLS = [outbox.c[f.name] for f in fields(PostRow)]


def _shard_of(guild_id: Any, count: int) -> Any:
    """A server's shard in SQL: ``(guild_id >> 22) % count``, shard 0 for no server."""
    # The shift as a literal: PostgreSQL has bigint >> integer, not bigint >> bigint.
    return func.coalesce(guild_id, 0).op(">>")(literal_column(str(SHARD_SHIFT))) % count


def _shard_filter(stmt: Any, shards: Shards) -> Any:
    if shards.is_all:
        return stmt
    return stmt.where(_shard_of(timers.c.guild_id, shards.count).in_(sorted(shards.ids)))


def _plays(user_id: int) -> ColumnElement[bool]:
    return or_(games.c.pink_id == user_id, games.c.blue_id == user_id)


def _finished(finish: Finish, at: float) -> dict[str, Any]:
    return {
        "status": finish.status, "winner": finish.winner, "pink_score": finish.pink_score,
        "blue_score": finish.blue_score, "reason": finish.reason, "finished": at,
        "deadline": None,
    }  # fmt: skip


async def _insert_challenge(
    conn: AsyncConnection, row: ChallengeRow, *, now: float
) -> ChallengeRow | None:
    """Insert an open challenge; None if the pair has an open, unexpired one in that server."""
    pair = or_(
        and_(challenges.c.challenger_id == row.challenger_id,
             challenges.c.opponent_id == row.opponent_id),
        and_(challenges.c.challenger_id == row.opponent_id,
             challenges.c.opponent_id == row.challenger_id),
    )  # fmt: skip
    clash = select(literal(1)).where(
        challenges.c.guild_id == row.guild_id,
        challenges.c.status == "open",
        challenges.c.expires > now,
        pair,
    )
    if (await conn.execute(clash)).first() is not None:
        return None
    values = {f.name: getattr(row, f.name) for f in fields(ChallengeRow)[1:]}
    stored = _challenge(
        (await conn.execute(insert(challenges).values(values).returning(*_CHALLENGE_COLS))).first()
    )
    assert stored is not None
    await conn.execute(
        insert(timers).values(kind="challenge", ref_id=stored.challenge_id,
                              guild_id=stored.guild_id, due=stored.expires)
    )  # fmt: skip
    return stored


async def _accept(
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
        challenges.c.status == "open",
        challenges.c.expires > now,
    )
    if taker is None:
        stmt = stmt.values(status="accepted")
    else:
        stmt = stmt.where(challenges.c.opponent_id.in_([taker, ANYONE])).values(
            status="accepted", opponent_id=taker
        )
    accepted = await conn.execute(stmt.returning(challenges.c.challenge_id))
    if accepted.first() is None:
        return None
    await _CLEAR_TIMER.run(conn, {"kind": "challenge", "ref_id": challenge_id})
    stored = await _insert_game(conn, game)
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
        challenges.c.status == "open",
        challenges.c.expires > now,
    )
    if int(await conn.scalar(mine) or 0) >= max_challenges:
        raise OverLimitError("challenges", user, max_challenges)
    if await _count_running(conn, row.guild_id, user) >= max_games:
        raise OverLimitError("games", user, max_games)


async def _check_no_rematch(conn: AsyncConnection, game_id: int) -> None:
    """Raise ``RematchExistsError`` if the game has a rematch offer (inside the caller's
    transaction; the unique index ``challenges_rematch_of`` guards what this cannot see).

    Raises:
        RematchExistsError.
    """
    found = await conn.execute(select(*_CHALLENGE_COLS).where(challenges.c.rematch_of == game_id))
    existing = _challenge(found.first())
    if existing is not None:
        raise RematchExistsError(existing)


async def _count_running(conn: AsyncConnection, guild_id: int, user_id: int) -> int:
    """How many running games ``user_id`` has in a server (inside the caller's transaction)."""
    found = await conn.scalar(
        select(func.count()).where(games.c.guild_id == guild_id, _RUNNING, _plays(user_id))
    )
    return int(found or 0)


async def _read_challenge(conn: AsyncConnection, challenge_id: int) -> ChallengeRow | None:
    return _challenge(
        (
            await conn.execute(
                select(*_CHALLENGE_COLS).where(challenges.c.challenge_id == challenge_id)
            )
        ).first()
    )


async def _insert_game(conn: AsyncConnection, game: GameRow) -> GameRow:
    values = {f.name: getattr(game, f.name) for f in fields(GameRow)[1:]}
    stmt: Insert = insert(games).values(values).returning(*_GAME_COLS)
    stored = _game((await conn.execute(stmt)).first())
    assert stored is not None
    return stored


async def _read_game(conn: AsyncConnection, game_id: int) -> GameRow | None:
    return _game((await conn.execute(_READ_GAME, {"g": game_id})).first())


async def _read_rating(conn: AsyncConnection, guild_id: int, user_id: int) -> RatingRow | None:
    row = (
        await conn.execute(
            select(*_RATING_COLS).where(
                ratings.c.guild_id == guild_id, ratings.c.user_id == user_id
            )
        )
    ).first()
    return None if row is None else RatingRow(*row)


# -- takebacks and game clocks ---


class _RollBack(Exception):  # noqa: N818 (a signal inside the store, never raised out of it)
    """Raised inside a transaction to undo it."""


def _clock_params(clock: dict[str, int | None] | None) -> dict[str, int | None]:
    """The game clock columns of a write (all None for a game without a game clock)."""
    return {name: (clock or {}).get(name) for name in CLOCK_STATE}


async def _take_back(
    conn: AsyncConnection,
    game_id: int,
    *,
    moves: int,
    keep: int,
    deadline: float,
    clock: dict[str, int | None] | None,
) -> GameRow | None:
    stored = _game(
        (
            await conn.execute(
                update(games)
                .where(games.c.game_id == game_id, _RUNNING, games.c.moves == moves)
                .values(moves=keep, deadline=deadline, reminder_sent=False, **_clock_params(clock))
                .returning(*_GAME_COLS)
            )
        ).first()
    )
    if stored is None:
        return None
    await conn.execute(delete(actions).where(actions.c.game_id == game_id, actions.c.seq >= keep))
    # The stickers of the actions taken back go with them.
    await conn.execute(
        delete(stickers).where(stickers.c.game_id == game_id, stickers.c.seq >= keep)
    )
    return stored


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
                takebacks.c.status == "pending",
            )
            .values(status=status)
            .returning(*_TAKEBACK_COLS)
        )
    ).first()
    return None if row is None else TakebackRow(*row)
