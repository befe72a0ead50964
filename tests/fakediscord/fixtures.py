"""Pytest fixtures and helpers to run a real discord.py client against the fake Discord.

In a test module::

    from tests.fakediscord.fixtures import fake_discord, run_bot  # noqa: F401 (fixture)

    async def test_something(fake_discord):
        guild = fake_discord.create_guild()
        bot = make_my_bot()
        async with run_bot(fake_discord, bot):
            await bot.tree.sync()
            ...
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypeVar

import discord
import pytest_asyncio
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.fakediscord.server import FakeDiscord

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.contextmanager
def patch_discord(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at ``fake``; restore them after."""
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.base_url
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


def prepare_client(client: discord.Client) -> None:
    """Make a client start fast: no 5 s identify pause, no 2 s wait for more guilds."""

    async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    client.before_identify_hook = no_wait  # type: ignore[method-assign]
    client._connection.guild_ready_timeout = 0.05


@contextlib.asynccontextmanager
async def run_bot(
    fake: FakeDiscord, client: ClientT, *, timeout: float = 10.0, token: str | None = None
) -> AsyncIterator[ClientT]:
    """Start ``client`` against ``fake`` as a task, wait until it is ready, close it after.

    If the client dies while starting (bad token, an exception in ``setup_hook``), its
    exception is raised here instead of a hang. Route.BASE must already point at the fake
    (the ``fake_discord`` fixture does that). ``token`` defaults to the one the fake accepts.

    Raises:
        TimeoutError: if the client is not ready within ``timeout`` seconds.
    """
    prepare_client(client)
    task = asyncio.create_task(client.start(token or fake.token), name=f"bot-{id(client)}")
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        done, _ = await asyncio.wait(
            {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if task in done:
            task.result()  # raises what stopped the client
            raise RuntimeError("the client stopped before it was ready")
        if ready not in done:
            raise TimeoutError(f"the client was not ready after {timeout} s")
        yield client
    finally:
        ready.cancel()
        await stop_bot(client, task)


async def stop_bot(client: discord.Client, task: asyncio.Task[Any]) -> None:
    """Close a client started by ``run_bot`` and wait for its task to end."""
    with contextlib.suppress(Exception):
        await client.close()
    try:
        await asyncio.wait_for(task, timeout=5.0)
    except (asyncio.CancelledError, TimeoutError):
        task.cancel()
    except Exception:
        # The test's own outcome matters more than how the client's task ended.
        pass


@pytest_asyncio.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A running fake Discord with discord.py patched to use it."""
    fake = FakeDiscord()
    await fake.start()
    try:
        with patch_discord(fake):
            yield fake
    finally:
        await fake.stop()
