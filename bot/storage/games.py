"""The games and their actions (and a finished game's replay): start, move, take back,
finish, and the reads of the game service.

A write to a game returns the row as stored (``UPDATE ... RETURNING``): that is what the game
service caches. Every write moves the game's timer in its own transaction; the move that ends
a rated game rates it there too, and stores the stickers the action earned with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NotRequired, TypedDict, Unpack

from sqlalchemy import (
    LargeBinary,
    and_,
    bindparam,
    delete,
    func,
    insert,
    literal,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.database import Database, Prepared
from bot.storage.errors import StaleWriteError
from bot.storage.ratings import RatingRepository
from bot.storage.rows import (
    ActionRow,
    Finish,
    GameRow,
    GameStatus,
    RateGame,
    RatingChange,
    StickerRow,
)
from bot.storage.schema import actions, games, rating_changes, replays, stickers
from bot.storage.statements import (
    GAME_COLS,
    RUNNING,
    GameLimits,
    as_game,
    check_game_limits,
    count_running,
    insert_game,
    plays,
    read_game,
    remind_every_of,
)
from bot.storage.stickers import StickerRepository
from bot.storage.timer_repository import TimerRepository
from bot.storage.upsert import insert_for

# A game clock's state, written with every move (all None for a game without one).
CLOCK_STATE = ("gc_pink_ms", "gc_blue_ms", "gc_runner", "gc_since_ms")

# A move's statements, built once: building a statement costs more than running it.
_MOVE_SQL = (
    update(games)
    .where(games.c.game_id == bindparam("g"), RUNNING, games.c.moves == bindparam("seq"))
    .values(
        moves=games.c.moves + 1,
        deadline=bindparam("deadline"),
        reminder_sent=False,
        reminded_at=None,
        remind_every=remind_every_of(bindparam("mover")),
        **{name: bindparam(name) for name in CLOCK_STATE},
    )
    .returning(*GAME_COLS)
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


class TakeBack(TypedDict):
    """A take-back of a running game (``GameRepository.take_back``): from ``moves`` actions
    back to ``keep``, the new ``deadline`` (unix seconds) and game ``clock`` state."""

    moves: int
    keep: int
    deadline: float
    clock: NotRequired[dict[str, int | None] | None]
    mover: NotRequired[int | None]  # the player to move then (their reminders' frequency)


class GameRepository:
    """The ``games``, ``actions`` and ``replays`` tables; a write also moves the game's timer
    (``timers``), and ending a rated game rates it (``ratings``)."""

    def __init__(
        self,
        db: Database,
        *,
        timers: TimerRepository,
        ratings: RatingRepository,
        stickers: StickerRepository,
    ) -> None:
        self.db = db
        self.timers = timers
        self.ratings = ratings
        self.stickers = stickers

    async def create_game(self, game: GameRow) -> GameRow:
        """Insert a game directly (no challenge: tests, imports, the computer player); the game
        as stored."""
        async with self.db.transaction() as conn:
            stored = await insert_game(conn, game)
            await self.timers.game_timer(conn, stored)
            return stored

    async def create_game_within(self, game: GameRow, **limits: Unpack[GameLimits]) -> GameRow:
        """``create_game``, counting in the same transaction ``user_id``'s running games in
        that server, all of them and those against one of ``computer_ids``; the game as stored.

        Raises:
            OverLimitError: ``user_id`` has ``max_computer`` running games against the computer,
                or ``max_games`` running games (nothing is written).
        """
        async with self.db.transaction() as conn:
            await self.db.serialise(conn, limits["user_id"])
            await check_game_limits(conn, game, **limits)
            stored = await insert_game(conn, game)
            await self.timers.game_timer(conn, stored)
            return stored

    async def game(self, game_id: int) -> GameRow | None:
        """A game's row."""
        async with self.db.reading() as conn:
            return await read_game(conn, game_id)

    async def game_with_actions(self, game_id: int) -> tuple[GameRow, list[ActionRow]] | None:
        """A game's row and its actions in order."""
        async with self.db.reading() as conn:
            game = await read_game(conn, game_id)
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
        mover: int | None = None,
    ) -> tuple[GameRow, tuple[RatingChange, ...]]:
        """Append an action and move the clock, or finish the game, in one transaction; for a
        rated game that ends with a result, rate it with ``rate`` and write both new ratings in
        the same transaction. The game as stored, and the rating changes. ``clock`` is the game
        clock's new state (``CLOCK_STATE`` keys; None for a game without a game clock);
        ``earned`` are the stickers the action earned (one kept per player, game and sticker);
        ``mover`` the user id of the player to move next, whose reminders' frequency the row
        takes.

        Raises:
            StaleWriteError: the game is not running or already has an action ``action.seq``.
            ValueError: a rated game ends with a result and no ``rate`` was given (nothing is
                written).
        """
        params: dict[str, Any] = {
            "g": game_id,
            "seq": action.seq,
            "deadline": deadline,
            "mover": mover,
        }
        params.update(clock_params(clock))
        if finish is not None:
            params.update(_finished(finish, action.at))
        async with self.db.transaction() as conn:
            rows = await (_FINISH if finish else _MOVE).run(conn, params)
            if not rows:
                raise StaleWriteError(f"game {game_id} is not at action {action.seq}")
            stored = GameRow(*rows[0])
            stored.rated, stored.reminder_sent = bool(stored.rated), bool(stored.reminder_sent)
            stored.takebacks = bool(stored.takebacks)
            await self.timers.game_timer(conn, stored)
            await _INSERT_ACTION.run(
                conn,
                {"game_id": game_id, "seq": action.seq, "kind": action.kind,
                 "player": action.player, "point": action.point, "at": action.at},
            )  # fmt: skip
            if earned:
                await self.stickers.insert(conn, earned)
            if finish is None:
                return stored, ()
            return stored, await self.ratings.rate(conn, stored, rate)

    async def take_back(self, game_id: int, **back: Unpack[TakeBack]) -> GameRow | None:
        """Delete a running game's actions from ``keep`` on and restart the clock (``clock``:
        the game clock's new state, as in ``record_action``), in one transaction (an undo
        against the computer); the game as stored, or None if the game is not running or does
        not have ``moves`` actions (another writer won), and nothing changes then."""
        async with self.db.transaction() as conn:
            stored = await self.take_back_in(conn, game_id, **back)
            if stored is not None:
                await self.timers.game_timer(conn, stored)
            return stored

    async def take_back_in(
        self,
        conn: AsyncConnection,
        game_id: int,
        *,
        moves: int,
        keep: int,
        deadline: float,
        clock: dict[str, int | None] | None = None,
        mover: int | None = None,
    ) -> GameRow | None:
        """``take_back`` inside the caller's transaction, without moving the timer."""
        stored = as_game(
            (
                await conn.execute(
                    update(games)
                    .where(games.c.game_id == game_id, RUNNING, games.c.moves == moves)
                    .values(moves=keep, deadline=deadline, reminder_sent=False,
                            reminded_at=None, remind_every=remind_every_of(mover),
                            **clock_params(clock))
                    .returning(*GAME_COLS)
                )
            ).first()
        )  # fmt: skip
        if stored is None:
            return None
        await conn.execute(
            delete(actions).where(actions.c.game_id == game_id, actions.c.seq >= keep)
        )
        # The stickers of the actions taken back go with them.
        await conn.execute(
            delete(stickers).where(stickers.c.game_id == game_id, stickers.c.seq >= keep)
        )
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
                stored = as_game(
                    (
                        await conn.execute(
                            update(games)
                            .where(games.c.game_id == game_id, RUNNING)
                            .values(_finished(finish, at))
                            .returning(*GAME_COLS)
                        )
                    ).first()
                )
                if stored is None:
                    return None
                await self.timers.game_timer(conn, stored)
                await self.ratings.rate(conn, stored, rate)
                return stored
        except StaleWriteError:
            return None

    async def mark_reminded(
        self, game_id: int, deadline: float, *, at: float, after: float | None = None
    ) -> GameRow | None:
        """Record that a reminder for this deadline was sent ``at``, the one after this turn's
        reminder sent ``after`` (None: its first); the game as stored, or None if that one was
        sent already (here or by another process), or the deadline moved."""
        last = games.c.reminded_at
        try:
            async with self.db.transaction() as conn:
                stored = as_game(
                    (
                        await conn.execute(
                            update(games)
                            .where(
                                games.c.game_id == game_id,
                                RUNNING,
                                last.is_(None) if after is None else func.abs(last - after) < 0.001,
                                func.abs(games.c.deadline - deadline) < 0.001,
                            )
                            .values(reminder_sent=True, reminded_at=at)
                            .returning(*GAME_COLS)
                        )
                    ).first()
                )
                if stored is not None:
                    await self.timers.game_timer(conn, stored)
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
            stored = await conn.execute(stmt.values(changes).returning(*GAME_COLS))
            return as_game(stored.first())

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
        stmt = select(games.c.game_id).where(RUNNING, plays(user_id))
        if guild_id is not None:
            stmt = stmt.where(games.c.guild_id == guild_id)
        async with self.db.reading() as conn:
            return [int(x) for x in await conn.scalars(stmt.order_by(games.c.game_id))]

    async def unstarted_games(self) -> list[int]:
        """Ids of running games whose first picture was never posted (``message_id`` NULL)."""
        stmt = select(games.c.game_id).where(RUNNING, games.c.message_id.is_(None))
        async with self.db.reading() as conn:
            return [int(x) for x in await conn.scalars(stmt.order_by(games.c.game_id))]

    async def count_running(self, guild_id: int, user_id: int) -> int:
        """How many running games a user has in a server."""
        async with self.db.reading() as conn:
            return await count_running(conn, guild_id, user_id)

    async def finished_games(
        self, guild_id: int, user_id: int, *, limit: int
    ) -> list[tuple[GameRow, float | None]]:
        """A user's finished or aborted games in a server, newest first, with the user's
        rating change (None for unrated games)."""
        change = rating_changes
        stmt = (
            select(*GAME_COLS, (change.c.after - change.c.before))
            .select_from(
                games.outerjoin(
                    change, and_(change.c.game_id == games.c.game_id, change.c.user_id == user_id)
                )
            )
            .where(
                games.c.guild_id == guild_id, games.c.status != GameStatus.RUNNING, plays(user_id)
            )
            .order_by(games.c.finished.desc(), games.c.game_id.desc())
            .limit(limit)
        )
        async with self.db.reading() as conn:
            rows = (await conn.execute(stmt)).all()
        return [(GameRow(*r[:-1]), r[-1]) for r in rows]

    async def replay(self, game_id: int) -> bytes | None:
        """The stored animated replay (GIF) of a finished game, if rendered once."""
        async with self.db.reading() as conn:
            found = await conn.scalar(select(replays.c.gif).where(replays.c.game_id == game_id))
        return None if found is None else bytes(found)

    async def save_replay(self, game_id: int, gif: bytes) -> bool:
        """Store a finished game's replay (kept if one is stored); False unless the game is
        over or aborted, or if a replay was stored already."""
        finished = select(games.c.game_id, literal(gif, LargeBinary())).where(
            games.c.game_id == game_id, games.c.status != GameStatus.RUNNING
        )
        stmt = (
            insert_for(self.db.dialect, replays)
            .from_select([replays.c.game_id, replays.c.gif], finished)
            .on_conflict_do_nothing(index_elements=[replays.c.game_id])
            .returning(replays.c.game_id)
        )
        async with self.db.transaction() as conn:
            return (await conn.execute(stmt)).first() is not None


def clock_params(clock: dict[str, int | None] | None) -> dict[str, int | None]:
    """The game clock columns of a write (all None for a game without a game clock)."""
    return {name: (clock or {}).get(name) for name in CLOCK_STATE}


def _finished(finish: Finish, at: float) -> dict[str, Any]:
    return {
        "status": finish.status, "winner": finish.winner, "pink_score": finish.pink_score,
        "blue_score": finish.blue_score, "reason": finish.reason, "finished": at,
        "deadline": None,
    }  # fmt: skip
