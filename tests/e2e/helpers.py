"""Shared set-up for the end-to-end tests: a fake server with players, the real bot on a
SQLite file, database snapshots, and a way to start a game the way players do."""

from __future__ import annotations

import asyncio
import contextlib
import io
import sqlite3
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from PIL import Image

from bot.app import DotsBot, create_bot
from bot.config import Settings
from bot.games import GameService
from tests.fakediscord.fixtures import run_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import MANAGE_GUILD, Channel, Guild, Message, User

Snapshot = dict[str, list[tuple[Any, ...]]]


@dataclass
class Server:
    """A fake Discord server with the people the tests need."""

    fake: FakeDiscord
    guild: Guild
    general: Channel
    alice: User
    bob: User
    carol: User  # a bystander: plays in no game
    admin: User  # has Manage Server
    database: Path  # the bot's SQLite file


def make_server(fake: FakeDiscord, database: Path) -> Server:
    """A server "Dots Club" with #general, two players, a bystander and an admin (call
    before the bot connects); ``database`` is where the bot will keep its games."""
    guild = fake.create_guild("Dots Club")
    alice, bob = fake.create_user("alice"), fake.create_user("bob", dms_closed=True)
    carol, admin = fake.create_user("carol"), fake.create_user("ada")
    for user in (alice, bob, carol):
        fake.add_member(guild, user)
    fake.add_member(guild, admin, permissions=MANAGE_GUILD)
    general = fake.channel_named("general", guild)
    return Server(fake, guild, general, alice, bob, carol, admin, database)


class ShiftedClock:
    """The real UTC time plus an offset that tests move (to let a move clock run out fast)."""

    def __init__(self) -> None:
        self.offset = timedelta(0)

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.offset


@contextlib.asynccontextmanager
async def bot_on(
    fake: FakeDiscord,
    database: Path,
    *,
    now: Callable[[], datetime] | None = None,
    cards: bool = False,
) -> AsyncIterator[DotsBot]:
    """The real bot, connected to ``fake``, on the SQLite file ``database``; closed after.

    With ``now`` the game service runs on that clock (the bot's own clocks follow it); with
    ``cards`` it posts game cards.
    """
    settings = Settings(token=fake.token, database=database)
    service = await GameService.open(database, now=now) if now is not None else None
    try:
        async with run_bot(fake, create_bot(settings, service=service, cards=cards)) as bot:
            yield bot
    finally:
        if service is not None:
            await service.close()


def snapshot(database: Path) -> Snapshot:
    """Every row of every table, to show that a refusal changed nothing; but the outbox, whose
    rows of the last action's posts leave it as they are delivered, just after the answer a
    test waits for (a write that stores one shows in the other tables too)."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as con:
        tables = [
            row[0]
            for row in con.execute(
                "SELECT name FROM sqlite_master WHERE type='table' AND name != 'outbox' "
                "ORDER BY name"
            )
        ]
        return {t: sorted(con.execute(f'SELECT * FROM "{t}"').fetchall()) for t in tables}


def query(database: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows of a read-only query on the bot's database."""
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as con:
        return con.execute(sql, args).fetchall()


def actions(database: Path, game_id: int) -> list[tuple[str, int, str | None]]:
    """A game's stored actions in order: (kind, player, point)."""
    return [
        (str(kind), int(player), point)
        for kind, player, point in query(
            database,
            "SELECT kind, player, point FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
    ]


def decode_png(data: bytes) -> tuple[int, int]:
    """Decode a PNG fully with Pillow (raising if it is broken); its size."""
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG", image.format
        image.load()
        return image.size


async def quiet(database: Path) -> None:
    """Wait until the bot's writes after its answer are done: a challenge notes its message
    id after answering; an accept answers, opens the thread, posts the picture, notes it; a
    move's post, once delivered, leaves the outbox."""
    for _ in range(250):
        pending = query(
            database,
            "SELECT (SELECT COUNT(*) FROM games WHERE status = 'running' AND message_id IS NULL)"
            " + (SELECT COUNT(*) FROM challenges WHERE status = 'open' AND message_id IS NULL)"
            " + (SELECT COUNT(*) FROM outbox)",
        )
        if pending == [(0,)]:
            return
        await asyncio.sleep(0.02)
    raise TimeoutError("a game's first picture was never posted")


@dataclass
class StartedGame:
    """A game started through /challenge and Accept."""

    game_id: int
    thread: Channel
    challenge: Message


async def start_game(server: Server, pink: User, blue: User, **options: Any) -> StartedGame:
    """``pink`` challenges ``blue`` (playing Pink) in #general, ``blue`` accepts; the game's
    thread with its first picture."""
    fake = server.fake
    before = {t.id for t in fake.threads()}
    handle = await fake.slash(
        pink, "challenge", channel=server.general, opponent=blue, colour="pink", **options
    )
    challenge = await handle.reply()
    accept = next(c for c in challenge.custom_ids() if c.startswith("dots:challenge:accept:"))
    await fake.click(blue, challenge, accept)
    thread = await fake.wait_until(
        lambda: next((t for t in fake.threads() if t.id not in before and fake.posted(t)), None),
        poll=None,
    )
    # The bot notes the thread, then the picture's message id, just after posting it.
    ((game_id,),) = await fake.wait_until(
        lambda: query(
            server.database,
            "SELECT game_id FROM games WHERE thread_id = ? AND message_id IS NOT NULL",
            (thread.id,),
        )
    )
    return StartedGame(int(game_id), thread, challenge)
