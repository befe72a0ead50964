"""The Store: every query and transaction of the bot, over one SQLite ``Database``.

Each public coroutine is one transaction (``db.transaction()``) or one read (``db.reading()``).
Instants are unix seconds (floats, UTC); the game service converts them to aware datetimes.
"""

from __future__ import annotations

from dataclasses import fields
from importlib.abc import Traversable
from pathlib import Path

from aiosqlite import Connection

from bot import ratings
from bot.storage.database import Database, Row, fetch_all, fetch_one
from bot.storage.migrate import load, migrate, user_version
from bot.storage.rows import (
    ActionRow,
    ChallengeRow,
    ClockRow,
    Finish,
    GameRow,
    RatingRow,
    RatingUpdate,
)

_CHALLENGE_COLS = ", ".join(f.name for f in fields(ChallengeRow))
_GAME_COLS = ", ".join(f.name for f in fields(GameRow))
_RATING_COLS = "guild_id, user_id, rating, rd, volatility, games, wins, losses, draws"


class StaleWriteError(RuntimeError):
    """The game row changed under a write (another writer won); the transaction rolled back."""


class OverLimitError(RuntimeError):
    """A per-user limit would be passed; nothing was written. ``kind`` is ``"challenges"``
    (open challenges), ``"games"`` (running games) or ``"computer"`` (running games against
    the computer); ``user_id`` is whose limit, ``limit`` its value."""

    def __init__(self, kind: str, user_id: int, limit: int) -> None:
        super().__init__(f"user {user_id} is at the limit of {limit} {kind}")
        self.kind, self.user_id, self.limit = kind, user_id, limit


def _challenge(row: Row | None) -> ChallengeRow | None:
    if row is None:
        return None
    c = ChallengeRow(*row)
    c.rated = bool(c.rated)
    return c


def _game(row: Row | None) -> GameRow | None:
    if row is None:
        return None
    g = GameRow(*row)
    g.rated = bool(g.rated)
    g.reminder_sent = bool(g.reminder_sent)
    return g


class Store:
    """The bot's SQLite database (WAL, foreign keys on), migrated when opened."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @classmethod
    async def open(cls, path: str | Path, *, migrations: Traversable | Path | None = None) -> Store:
        """Open the database at ``path``, creating it and applying any new migrations.

        Raises:
            MigrationError: a migration failed (the database stays at the version before it).
        """
        found = load(migrations)
        db = await Database.open(path)
        try:
            await migrate(db, found)
        except BaseException:
            await db.close()
            raise
        return cls(db)

    async def close(self) -> None:
        """Close the database."""
        await self.db.close()

    async def version(self) -> int:
        """The schema version (the number of the last migration applied)."""
        return await user_version(self.db)

    # -- servers and players ----------------------------------------------------------------

    async def guild(self, guild_id: int) -> tuple[int | None, int] | None:
        """A server's (game channel id, default clock seconds), or None if never set."""
        async with self.db.reading() as conn:
            row = await fetch_one(
                conn,
                "SELECT game_channel_id, default_clock FROM guilds WHERE guild_id = ?",
                (guild_id,),
            )
        return None if row is None else (row[0], row[1])

    async def set_guild(
        self, guild_id: int, *, game_channel_id: int | None, default_clock: int, at: float
    ) -> None:
        """Write a server's settings."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guilds (guild_id, game_channel_id, default_clock, updated) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "game_channel_id = excluded.game_channel_id, "
                "default_clock = excluded.default_clock, updated = excluded.updated",
                (guild_id, game_channel_id, default_clock, at),
            )

    async def set_notify(self, user_id: int, *, on: bool, at: float) -> None:
        """Write a player's "DM me when it is my turn" preference."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO players (user_id, dm_on_turn, updated) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET dm_on_turn = excluded.dm_on_turn, "
                "updated = excluded.updated",
                (user_id, int(on), at),
            )

    async def notify(self, user_id: int) -> bool:
        """A player's "DM me when it is my turn" preference (default off)."""
        async with self.db.reading() as conn:
            row = await fetch_one(
                conn, "SELECT dm_on_turn FROM players WHERE user_id = ?", (user_id,)
            )
        return bool(row and row[0])

    # -- challenges -------------------------------------------------------------------------

    async def create_challenge(self, row: ChallengeRow, *, now: float) -> ChallengeRow | None:
        """Insert an open challenge (its id is assigned); None if the two players already have
        an open, unexpired challenge between them in that server."""
        async with self.db.transaction() as conn:
            clash = await fetch_one(
                conn,
                "SELECT 1 FROM challenges WHERE guild_id = ? AND status = 'open' "
                "AND expires > ? AND ((challenger_id = ? AND opponent_id = ?) "
                "OR (challenger_id = ? AND opponent_id = ?))",
                (row.guild_id, now, row.challenger_id, row.opponent_id,
                 row.opponent_id, row.challenger_id),
            )  # fmt: skip
            if clash:
                return None
            values = [getattr(row, f.name) for f in fields(ChallengeRow)][1:]
            cur = await conn.execute(
                f"INSERT INTO challenges ({_CHALLENGE_COLS.split(', ', 1)[1]}) "
                f"VALUES ({', '.join('?' * len(values))})",
                values,
            )
            row.challenge_id = int(cur.lastrowid or 0)
            return row

    async def challenge(self, challenge_id: int) -> ChallengeRow | None:
        """A challenge by id."""
        async with self.db.reading() as conn:
            return await _read_challenge(conn, challenge_id)

    async def close_challenge(
        self, challenge_id: int, *, status: str, now: float, due_only: bool = False
    ) -> ChallengeRow | None:
        """Mark an open challenge declined, cancelled or expired; None if it was not open (or,
        with ``due_only``, not yet due)."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE challenges SET status = ? WHERE challenge_id = ? AND status = 'open'"
                + (" AND expires <= ?" if due_only else ""),
                (status, challenge_id, now) if due_only else (status, challenge_id),
            )
            if cur.rowcount != 1:
                return None
            return await _read_challenge(conn, challenge_id)

    async def accept_challenge(
        self, challenge_id: int, game: GameRow, *, now: float
    ) -> GameRow | None:
        """Mark the challenge accepted and create its game in one transaction; None if the
        challenge was no longer open or had expired."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE challenges SET status = 'accepted' "
                "WHERE challenge_id = ? AND status = 'open' AND expires > ?",
                (challenge_id, now),
            )
            if cur.rowcount != 1:
                return None
            game.game_id = await _insert_game(conn, game)
            await conn.execute(
                "UPDATE challenges SET game_id = ? WHERE challenge_id = ?",
                (game.game_id, challenge_id),
            )
            return game

    async def create_game(self, game: GameRow) -> GameRow:
        """Insert a game directly (no challenge: tests, imports, the computer player later)."""
        async with self.db.transaction() as conn:
            game.game_id = await _insert_game(conn, game)
            return game

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> bool:
        """Remember the message that shows a challenge; False if there is no such challenge."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE challenges SET message_id = ? WHERE challenge_id = ?",
                (message_id, challenge_id),
            )
            return cur.rowcount == 1

    async def open_challenges(self, user_id: int, guild_id: int | None) -> list[ChallengeRow]:
        """Open challenges made by or to a user, oldest first."""
        sql = (
            f"SELECT {_CHALLENGE_COLS} FROM challenges WHERE status = 'open' "
            "AND (challenger_id = ? OR opponent_id = ?)"
        )
        args: list[object] = [user_id, user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args.append(guild_id)
        async with self.db.reading() as conn:
            rows = await fetch_all(conn, sql + " ORDER BY challenge_id", args)
        return [c for c in map(_challenge, rows) if c is not None]

    async def challenge_expiries(self) -> list[tuple[int, float]]:
        """(challenge id, expiry) of every open challenge."""
        async with self.db.reading() as conn:
            rows = await fetch_all(
                conn, "SELECT challenge_id, expires FROM challenges WHERE status = 'open'"
            )
        return [(int(r[0]), float(r[1])) for r in rows]

    async def due_challenges(self, now: float) -> list[int]:
        """Ids of open challenges whose expiry has come."""
        async with self.db.reading() as conn:
            rows = await fetch_all(
                conn,
                "SELECT challenge_id FROM challenges WHERE status = 'open' AND expires <= ?",
                (now,),
            )
        return [int(r[0]) for r in rows]

    # -- games ------------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        """A game's row."""
        async with self.db.reading() as conn:
            return await _read_game(conn, game_id)

    async def game_with_actions(self, game_id: int) -> tuple[GameRow, list[ActionRow]] | None:
        """A game's row and its actions in order, read together."""
        async with self.db.reading() as conn:
            game = await _read_game(conn, game_id)
            if game is None:
                return None
            rows = await fetch_all(
                conn,
                "SELECT seq, kind, player, point, at FROM actions WHERE game_id = ? ORDER BY seq",
                (game_id,),
            )
        return game, [ActionRow(*r) for r in rows]

    async def record_action(
        self,
        game_id: int,
        action: ActionRow,
        *,
        deadline: float | None,
        finish: Finish | None = None,
    ) -> list[RatingUpdate]:
        """Append an action and move the clock, or finish the game, in one transaction; for a
        rated game that ends with a result, update both ratings in the same transaction.

        Raises:
            StaleWriteError: the game is not running or already has an action ``action.seq``.
        """
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET moves = moves + 1, deadline = ?, reminder_sent = 0 "
                "WHERE game_id = ? AND status = 'running' AND moves = ?",
                (deadline, game_id, action.seq),
            )
            if cur.rowcount != 1:
                raise StaleWriteError(f"game {game_id} is not at action {action.seq}")
            await conn.execute(
                "INSERT INTO actions (game_id, seq, kind, player, point, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, action.seq, action.kind, action.player, action.point, action.at),
            )
            if finish is None:
                return []
            return await _finish(conn, game_id, finish, action.at)

    async def take_back(self, game_id: int, *, moves: int, keep: int, deadline: float) -> bool:
        """Delete a running game's actions from ``keep`` on and restart the clock, in one
        transaction (an undo against the computer); False if the game is not running or does
        not have ``moves`` actions (another writer won), and nothing changes then."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET moves = ?, deadline = ?, reminder_sent = 0 "
                "WHERE game_id = ? AND status = 'running' AND moves = ?",
                (keep, deadline, game_id, moves),
            )
            if cur.rowcount != 1:
                return False
            await conn.execute(
                "DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, keep)
            )
            return True

    async def finish_game(self, game_id: int, finish: Finish, *, at: float) -> bool:
        """Finish a running game without an action (an abort); False if it was not running."""
        async with self.db.transaction() as conn:
            row = await fetch_one(
                conn, "SELECT 1 FROM games WHERE game_id = ? AND status = 'running'", (game_id,)
            )
            if row is None:
                return False
            await _finish(conn, game_id, finish, at)
            return True

    async def mark_reminded(self, game_id: int, deadline: float) -> bool:
        """Record that the reminder for this deadline was sent; False if it already was, or
        the deadline moved."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET reminder_sent = 1 WHERE game_id = ? AND status = 'running' "
                "AND reminder_sent = 0 AND abs(deadline - ?) < 0.001",
                (game_id, deadline),
            )
            return cur.rowcount == 1

    async def set_game_thread(
        self, game_id: int, *, thread_id: int | None, message_id: int | None
    ) -> bool:
        """Remember a game's thread and/or picture message (None leaves it); False if no game."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET thread_id = coalesce(?, thread_id), "
                "message_id = coalesce(?, message_id) WHERE game_id = ?",
                (thread_id, message_id, game_id),
            )
            return cur.rowcount == 1

    async def running_clocks(self) -> list[ClockRow]:
        """The deadline and reminder state of every running game (what the clocks need)."""
        async with self.db.reading() as conn:
            rows = await fetch_all(
                conn,
                "SELECT game_id, deadline, clock, reminder_sent FROM games "
                "WHERE status = 'running' AND deadline IS NOT NULL",
            )
        return [ClockRow(r[0], r[1], r[2], bool(r[3])) for r in rows]

    async def game_id_in_thread(self, thread_id: int) -> int | None:
        """The id of the game played in thread ``thread_id`` (the newest one), if any."""
        async with self.db.reading() as conn:
            row = await fetch_one(
                conn,
                "SELECT game_id FROM games WHERE thread_id = ? ORDER BY game_id DESC LIMIT 1",
                (thread_id,),
            )
        return None if row is None else int(row[0])

    async def running_game_ids(self, user_id: int, guild_id: int | None) -> list[int]:
        """Ids of a user's running games, oldest first."""
        sql = "SELECT game_id FROM games WHERE status = 'running' AND (pink_id = ? OR blue_id = ?)"
        args: list[object] = [user_id, user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args.append(guild_id)
        async with self.db.reading() as conn:
            rows = await fetch_all(conn, sql + " ORDER BY game_id", args)
        return [int(r[0]) for r in rows]

    async def finished_games(
        self, guild_id: int, user_id: int, *, limit: int
    ) -> list[tuple[GameRow, float | None]]:
        """A user's finished or aborted games in a server, newest first, with the user's
        rating change (None for unrated games)."""
        async with self.db.reading() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {', '.join('g.' + c for c in _GAME_COLS.split(', '))}, "
                "rc.after - rc.before FROM games AS g LEFT JOIN rating_changes AS rc "
                "ON rc.game_id = g.game_id AND rc.user_id = ? "
                "WHERE g.guild_id = ? AND g.status != 'running' "
                "AND (g.pink_id = ? OR g.blue_id = ?) "
                "ORDER BY g.finished DESC, g.game_id DESC LIMIT ?",
                (user_id, guild_id, user_id, user_id, limit),
            )
        out: list[tuple[GameRow, float | None]] = []
        for r in rows:
            g = _game(r[:-1])
            assert g is not None
            out.append((g, r[-1]))
        return out

    async def games_between(self, guild_id: int, a: int, b: int) -> list[GameRow]:
        """The finished (not aborted) games of two players against each other in a server."""
        async with self.db.reading() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_GAME_COLS} FROM games WHERE guild_id = ? AND status = 'over' "
                "AND ((pink_id = ? AND blue_id = ?) OR (pink_id = ? AND blue_id = ?)) "
                "ORDER BY game_id",
                (guild_id, a, b, b, a),
            )
        return [g for g in map(_game, rows) if g is not None]

    # -- ratings ----------------------------------------------------------------------------

    async def rating(self, guild_id: int, user_id: int) -> tuple[RatingRow, int] | None:
        """A player's rating row and rank in a server (1 = best), or None if never rated."""
        async with self.db.reading() as conn:
            row = await _read_rating(conn, guild_id, user_id)
            if row is None:
                return None
            better = await fetch_one(
                conn,
                "SELECT count(*) FROM ratings WHERE guild_id = ? AND rating > ?",
                (guild_id, row.rating),
            )
        assert better is not None
        return row, int(better[0]) + 1

    async def leaderboard(self, guild_id: int, limit: int) -> list[RatingRow]:
        """A server's ratings, best first."""
        async with self.db.reading() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_RATING_COLS} FROM ratings WHERE guild_id = ? "
                "ORDER BY rating DESC, user_id LIMIT ?",
                (guild_id, limit),
            )
        return [RatingRow(*r) for r in rows]

    async def count_running(self, guild_id: int, user_id: int) -> int:
        """How many running games a user has in a server."""
        async with self.db.reading() as conn:
            row = await fetch_one(
                conn,
                "SELECT count(*) FROM games WHERE guild_id = ? AND status = 'running' "
                "AND (pink_id = ? OR blue_id = ?)",
                (guild_id, user_id, user_id),
            )
        assert row is not None
        return int(row[0])

    # -- per-user limits and unfinished starts (issue 10 items 12 and 3) -------------------

    async def limits(self, guild_id: int) -> tuple[int | None, int | None, int | None]:
        """A server's per-user limits (open challenges, running games, computer games); None
        where the default applies."""
        async with self.db.reading() as conn:
            row = await fetch_one(
                conn,
                "SELECT max_open_challenges, max_running_games, max_computer_games "
                "FROM guilds WHERE guild_id = ?",
                (guild_id,),
            )
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
        """Write a server's per-user limits (None: the default)."""
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guilds (guild_id, max_open_challenges, max_running_games, "
                "max_computer_games, updated) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) "
                "DO UPDATE SET max_open_challenges = excluded.max_open_challenges, "
                "max_running_games = excluded.max_running_games, "
                "max_computer_games = excluded.max_computer_games, updated = excluded.updated",
                (guild_id, challenges, games, computer, at),
            )

    async def create_challenge_within(
        self, row: ChallengeRow, *, now: float, max_challenges: int, max_games: int
    ) -> ChallengeRow | None:
        """``create_challenge``, counting in the same transaction the challenger's open
        challenges and running games in that server.

        Raises:
            OverLimitError: the challenger has ``max_challenges`` open challenges (made by them) or
                ``max_games`` running games there.
        """
        async with self.db.transaction() as conn:
            user = row.challenger_id
            open_ = await _count(
                conn,
                "SELECT count(*) FROM challenges WHERE guild_id = ? AND challenger_id = ? "
                "AND status = 'open' AND expires > ?",
                (row.guild_id, user, now),
            )
            if open_ >= max_challenges:
                raise OverLimitError("challenges", user, max_challenges)
            if await _count_running(conn, row.guild_id, user) >= max_games:
                raise OverLimitError("games", user, max_games)
            clash = await fetch_one(
                conn,
                "SELECT 1 FROM challenges WHERE guild_id = ? AND status = 'open' "
                "AND expires > ? AND ((challenger_id = ? AND opponent_id = ?) "
                "OR (challenger_id = ? AND opponent_id = ?))",
                (row.guild_id, now, row.challenger_id, row.opponent_id,
                 row.opponent_id, row.challenger_id),
            )  # fmt: skip
            if clash:
                return None
            values = [getattr(row, f.name) for f in fields(ChallengeRow)][1:]
            cur = await conn.execute(
                f"INSERT INTO challenges ({_CHALLENGE_COLS.split(', ', 1)[1]}) "
                f"VALUES ({', '.join('?' * len(values))})",
                values,
            )
            row.challenge_id = int(cur.lastrowid or 0)
            return row

    async def accept_challenge_within(
        self, challenge_id: int, game: GameRow, *, now: float, max_games: int
    ) -> GameRow | None:
        """``accept_challenge``, counting in the same transaction both players' running
        games in that server.

        Raises:
            OverLimitError: either player has ``max_games`` running games there (the opponent's
                limit is checked first).
        """
        async with self.db.transaction() as conn:
            for user in (game.blue_id, game.pink_id):
                if await _count_running(conn, game.guild_id, user) >= max_games:
                    raise OverLimitError("games", user, max_games)
            cur = await conn.execute(
                "UPDATE challenges SET status = 'accepted' "
                "WHERE challenge_id = ? AND status = 'open' AND expires > ?",
                (challenge_id, now),
            )
            if cur.rowcount != 1:
                return None
            game.game_id = await _insert_game(conn, game)
            await conn.execute(
                "UPDATE challenges SET game_id = ? WHERE challenge_id = ?",
                (game.game_id, challenge_id),
            )
            return game

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
        that server, all of them and those against one of ``computer_ids``.

        Raises:
            OverLimitError: ``user_id`` has ``max_computer`` running games against the computer,
                or ``max_games`` running games.
        """
        async with self.db.transaction() as conn:
            marks = ", ".join("?" * len(computer_ids))
            computer = await _count(
                conn,
                "SELECT count(*) FROM games WHERE guild_id = ? AND status = 'running' "
                f"AND (pink_id = ? OR blue_id = ?) AND (pink_id IN ({marks}) "
                f"OR blue_id IN ({marks}))",
                (game.guild_id, user_id, user_id, *computer_ids, *computer_ids),
            )
            if computer >= max_computer:
                raise OverLimitError("computer", user_id, max_computer)
            if await _count_running(conn, game.guild_id, user_id) >= max_games:
                raise OverLimitError("games", user_id, max_games)
            game.game_id = await _insert_game(conn, game)
            return game

    async def unstarted_games(self) -> list[int]:
        """Ids of running games whose first picture was never posted (``message_id`` NULL)."""
        async with self.db.reading() as conn:
            rows = await fetch_all(
                conn,
                "SELECT game_id FROM games WHERE status = 'running' AND message_id IS NULL "
                "ORDER BY game_id",
            )
        return [int(r[0]) for r in rows]

    async def unshown_accepts(self) -> list[ChallengeRow]:
        """Accepted challenges whose message does not say so yet (``answer_shown`` 0)."""
        async with self.db.reading() as conn:
            rows = await fetch_all(
                conn,
                f"SELECT {_CHALLENGE_COLS} FROM challenges "
                "WHERE status = 'accepted' AND answer_shown = 0 ORDER BY challenge_id",
            )
        return [c for c in map(_challenge, rows) if c is not None]

    async def mark_answer_shown(self, challenge_id: int, *, message_id: int | None) -> bool:
        """Note that an accepted challenge's message says so (and, if given, which message it
        is); False if there is no such challenge."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "UPDATE challenges SET answer_shown = 1, message_id = coalesce(?, message_id) "
                "WHERE challenge_id = ?",
                (message_id, challenge_id),
            )
            return cur.rowcount == 1

    async def replay(self, game_id: int) -> bytes | None:
        """The stored animated replay (GIF) of a finished game, if rendered once."""
        async with self.db.reading() as conn:
            row = await fetch_one(conn, "SELECT gif FROM replays WHERE game_id = ?", (game_id,))
        return None if row is None else bytes(row[0])

    async def save_replay(self, game_id: int, gif: bytes) -> bool:
        """Store a finished game's replay (kept if one is stored); False unless the game is
        over or aborted."""
        async with self.db.transaction() as conn:
            cur = await conn.execute(
                "INSERT INTO replays (game_id, gif) SELECT game_id, ? FROM games "
                "WHERE game_id = ? AND status <> 'running' ON CONFLICT (game_id) DO NOTHING",
                (gif, game_id),
            )
            return cur.rowcount == 1

    # -- for tests and tools ---------------------------------------------------------------

    async def execute(self, sql: str, args: tuple[object, ...] = ()) -> list[Row]:
        """Run one statement in its own transaction and return its rows (tests and tools)."""
        async with self.db.transaction() as conn:
            return await fetch_all(conn, sql, args)


async def _count(conn: Connection, sql: str, args: tuple[object, ...]) -> int:
    row = await fetch_one(conn, sql, args)
    assert row is not None
    return int(row[0])


async def _count_running(conn: Connection, guild_id: int, user_id: int) -> int:
    return await _count(
        conn,
        "SELECT count(*) FROM games WHERE guild_id = ? AND status = 'running' "
        "AND (pink_id = ? OR blue_id = ?)",
        (guild_id, user_id, user_id),
    )


async def _read_challenge(conn: Connection, challenge_id: int) -> ChallengeRow | None:
    return _challenge(
        await fetch_one(
            conn,
            f"SELECT {_CHALLENGE_COLS} FROM challenges WHERE challenge_id = ?",
            (challenge_id,),
        )
    )


async def _insert_game(conn: Connection, game: GameRow) -> int:
    names = [f.name for f in fields(GameRow)][1:]
    values = [getattr(game, name) for name in names]
    cur = await conn.execute(
        f"INSERT INTO games ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})", values
    )
    return int(cur.lastrowid or 0)


async def _read_game(conn: Connection, game_id: int) -> GameRow | None:
    return _game(
        await fetch_one(conn, f"SELECT {_GAME_COLS} FROM games WHERE game_id = ?", (game_id,))
    )


async def _read_rating(conn: Connection, guild_id: int, user_id: int) -> RatingRow | None:
    row = await fetch_one(
        conn,
        f"SELECT {_RATING_COLS} FROM ratings WHERE guild_id = ? AND user_id = ?",
        (guild_id, user_id),
    )
    return None if row is None else RatingRow(*row)


async def _finish(conn: Connection, game_id: int, finish: Finish, at: float) -> list[RatingUpdate]:
    """Write the end of a game and, when it is rated and over, both new ratings."""
    await conn.execute(
        "UPDATE games SET status = ?, winner = ?, pink_score = ?, blue_score = ?, reason = ?, "
        "finished = ?, deadline = NULL WHERE game_id = ?",
        (finish.status, finish.winner, finish.pink_score, finish.blue_score, finish.reason, at,
         game_id),
    )  # fmt: skip
    if finish.status != "over":
        return []
    game = await fetch_one(
        conn, "SELECT guild_id, pink_id, blue_id, rated FROM games WHERE game_id = ?", (game_id,)
    )
    assert game is not None
    guild_id, pink_id, blue_id, rated = game
    if not rated:
        return []
    score_pink = 0.5 if finish.winner is None else 1.0 if finish.winner == 1 else 0.0
    before = {}
    for user_id in (pink_id, blue_id):
        row = await _read_rating(conn, guild_id, user_id)
        before[user_id] = (
            ratings.Rating() if row is None else ratings.Rating(row.rating, row.rd, row.volatility)
        )
    after = dict(
        zip((pink_id, blue_id), ratings.rate_game(before[pink_id], before[blue_id], score_pink),
            strict=True)
    )  # fmt: skip
    updates = []
    for user_id, score in ((pink_id, score_pink), (blue_id, 1.0 - score_pink)):
        new = after[user_id]
        await conn.execute(
            "INSERT INTO ratings (guild_id, user_id, rating, rd, volatility, games, wins, losses, "
            "draws, updated) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET rating = excluded.rating, "
            "rd = excluded.rd, volatility = excluded.volatility, games = games + 1, "
            "wins = wins + excluded.wins, losses = losses + excluded.losses, "
            "draws = draws + excluded.draws, updated = excluded.updated",
            (guild_id, user_id, new.rating, new.rd, new.volatility, int(score == 1.0),
             int(score == 0.0), int(score == 0.5), at),
        )  # fmt: skip
        await conn.execute(
            "INSERT INTO rating_changes (game_id, user_id, before, after, rd) "
            "VALUES (?, ?, ?, ?, ?)",
            (game_id, user_id, before[user_id].rating, new.rating, new.rd),
        )
        updates.append(
            RatingUpdate(user_id, before[user_id].rating, new.rating, new.rd, new.is_provisional)
        )
    return updates
