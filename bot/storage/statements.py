"""Statements that several repositories run inside one transaction: reading and inserting a
game, reading a challenge, counting a player's running games and checking their limits,
remembering the message that shows a row."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypedDict

from sqlalchemy import (
    BindParameter,
    Column,
    ColumnElement,
    Insert,
    Row,
    ScalarSelect,
    Table,
    bindparam,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.errors import OverLimitError
from bot.storage.rows import ChallengeRow, GameRow, GameStatus
from bot.storage.schema import challenges, games, players


def columns_of(table: Table, row_type: type) -> list[Column[Any]]:
    """The columns of ``table`` that a row dataclass ``row_type`` holds, in its field order
    (what a ``select`` or ``returning`` reads into it)."""
    return [table.c[f.name] for f in fields(row_type)]


GAME_COLS = columns_of(games, GameRow)
CHALLENGE_COLS = columns_of(challenges, ChallengeRow)
RUNNING = games.c.status == GameStatus.RUNNING
_READ_GAME = select(*GAME_COLS).where(games.c.game_id == bindparam("g"))


def plays(user_id: int) -> ColumnElement[bool]:
    """Whether ``user_id`` plays a game (either colour), in SQL."""
    return or_(games.c.pink_id == user_id, games.c.blue_id == user_id)


def remind_every_of(user_id: int | BindParameter[Any]) -> ScalarSelect[Any]:
    """How often ``user_id`` (a value or a bind parameter) is reminded of their turn, as a
    scalar subquery: what a write copies onto the game row when that player's turn starts."""
    return select(players.c.remind_every).where(players.c.user_id == user_id).scalar_subquery()


def as_game(row: Row[Any] | None) -> GameRow | None:
    return None if row is None else GameRow(*row)


# The integers a database column holds (SQLite's and PostgreSQL's BIGINT): a number beyond
# them, typed into a command, is no game's id (the drivers would raise OverflowError).
BIGINT_RANGE = range(-(2**63), 2**63)


async def read_game(conn: AsyncConnection, game_id: int) -> GameRow | None:
    """A game's row, inside the caller's transaction; None for no game (every id a command
    takes is read here first, so a number no database can hold is "no such game" here)."""
    if game_id not in BIGINT_RANGE:
        return None
    return as_game((await conn.execute(_READ_GAME, {"g": game_id})).first())


async def insert_game(conn: AsyncConnection, game: GameRow) -> GameRow:
    """Insert a game (its id is assigned) inside the caller's transaction; as stored."""
    values = {f.name: getattr(game, f.name) for f in fields(GameRow)[1:]}
    values["remind_every"] = remind_every_of(game.pink_id)  # Pink moves first
    stmt: Insert = insert(games).values(values).returning(*GAME_COLS)
    stored = as_game((await conn.execute(stmt)).first())
    assert stored is not None
    return stored


async def count_running(conn: AsyncConnection, guild_id: int, user_id: int) -> int:
    """How many running games ``user_id`` has in a server (inside the caller's transaction)."""
    found = await conn.scalar(
        select(func.count()).where(games.c.guild_id == guild_id, RUNNING, plays(user_id))
    )
    return int(found or 0)


class GameLimits(TypedDict):
    """The running games ``user_id`` may have in a server (``check_game_limits``): all of
    them, and those against one of ``computer_ids``."""

    user_id: int
    max_games: int
    max_computer: int
    computer_ids: tuple[int, ...]


async def check_game_limits(
    conn: AsyncConnection,
    game: GameRow,
    *,
    user_id: int,
    max_games: int,
    max_computer: int,
    computer_ids: tuple[int, ...],
) -> None:
    """Raise ``OverLimitError`` if ``user_id`` has ``max_computer`` running games against one
    of ``computer_ids`` or ``max_games`` running games in the server of ``game`` (inside the
    caller's transaction).

    Raises:
        OverLimitError.
    """
    against = or_(games.c.pink_id.in_(computer_ids), games.c.blue_id.in_(computer_ids))
    computer = select(func.count()).where(
        games.c.guild_id == game.guild_id, RUNNING, plays(user_id), against
    )
    if int(await conn.scalar(computer) or 0) >= max_computer:
        raise OverLimitError("computer", user_id, max_computer)
    if await count_running(conn, game.guild_id, user_id) >= max_games:
        raise OverLimitError("games", user_id, max_games)


def as_challenge(row: Row[Any] | None) -> ChallengeRow | None:
    return None if row is None else ChallengeRow(*row)


async def read_challenge(conn: AsyncConnection, challenge_id: int) -> ChallengeRow | None:
    """A challenge by id, inside the caller's transaction."""
    found = await conn.execute(
        select(*CHALLENGE_COLS).where(challenges.c.challenge_id == challenge_id)
    )
    return as_challenge(found.first())


async def set_message_id(
    conn: AsyncConnection, key: Column[int], value: int, *, message_id: int
) -> bool:
    """Store ``message_id`` on the row of ``key``'s table whose ``key`` is ``value``, inside
    the caller's transaction; False if there is no such row."""
    done = await conn.execute(
        update(key.table).where(key == value).values(message_id=message_id).returning(key)
    )
    return done.first() is not None
