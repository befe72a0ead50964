"""The fake gateway shards like Discord: each server's events go to the session of its shard
(``(guild_id >> 22) % shard_count``), and a bad shard is closed with 4010 or 4011. Driven
with real discord.py clients (``AutoShardedBot``), one per shard as in separate processes."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import discord
import pytest
from discord.ext import commands

from tests.fakediscord.fixtures import fake_discord, run_bot
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import shard_of

__all__ = ["fake_discord"]  # the fixture is used by name


def make_shard_bot(shard_ids: list[int] | None, shard_count: int | None) -> commands.Bot:
    """A client over ``shard_ids`` of ``shard_count`` with one command that says which
    shards answered it."""
    bot = commands.AutoShardedBot(
        command_prefix="!",
        intents=discord.Intents.default(),
        shard_ids=shard_ids,
        shard_count=shard_count,
    )

    @bot.tree.command(description="Which shards answer")
    async def whoami(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"shards {bot.shard_ids}", ephemeral=True)

    return bot


@contextlib.asynccontextmanager
async def two_processes(fake: FakeDiscord) -> AsyncIterator[tuple[commands.Bot, commands.Bot]]:
    """Shards 0 and 1 of 2, each in a client of its own; the commands synced once."""
    first, second = make_shard_bot([0], 2), make_shard_bot([1], 2)
    async with run_bot(fake, first), run_bot(fake, second):
        await first.tree.sync()
        yield first, second


async def test_each_server_goes_to_the_session_of_its_shard(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    zero = fake.create_guild("Zero", shard=(0, 2))
    one = fake.create_guild("One", shard=(1, 2))
    assert (shard_of(zero.id, 2), shard_of(one.id, 2)) == (0, 1)
    alice = fake.create_user("alice")
    async with two_processes(fake) as (first, second):
        # READY and GUILD_CREATE carried only the servers of each session's shard.
        assert first.get_guild(zero.id) is not None and first.get_guild(one.id) is None
        assert second.get_guild(one.id) is not None and second.get_guild(zero.id) is None
        for guild, answer in ((zero, "shards [0]"), (one, "shards [1]"), (zero, "shards [0]")):
            channel = fake.channel_named("general", guild)
            reply = await (await fake.slash(alice, "whoami", channel=channel)).reply()
            assert reply.content == answer
        # Direct messages arrive on shard 0.
        reply = await (await fake.slash(alice, "whoami", channel=fake.open_dm(alice))).reply()
        assert reply.content == "shards [0]"
        assert fake.session_for(one.id) is not fake.session_for(zero.id)


async def test_a_restarted_shard_takes_its_servers_back(fake_discord: FakeDiscord) -> None:
    """A process that died and IDENTIFYs afresh receives its shard's events again; the other
    shard's session is untouched."""
    fake = fake_discord
    one = fake.create_guild("One", shard=(1, 2))
    fake.create_guild("Zero", shard=(0, 2))
    alice = fake.create_user("alice")
    async with two_processes(fake) as (_, second):
        await second.close()
        kept = fake.session_for(None)
        again = make_shard_bot([1], 2)
        async with run_bot(fake, again):
            reply = await (
                await fake.slash(alice, "whoami", channel=fake.channel_named("general", one))
            ).reply()
            assert reply.content == "shards [1]"
            assert fake.session_for(None) is kept and fake.identifies == 3


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0"])
async def test_a_bad_shard_is_closed_with_4010(fake_discord: FakeDiscord, shard: object) -> None:
    fake = fake_discord
    fake.create_guild()
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    # discord.py checks its own shard settings; a forged IDENTIFY reaches the fake as sent.
    original = discord.gateway.DiscordWebSocket.identify

    async def forged(ws: discord.gateway.DiscordWebSocket) -> None:
        sent = ws.send_as_json

        async def with_shard(data: dict[str, object]) -> None:
            data["d"]["shard"] = shard  # type: ignore[index]
            await sent(data)

        ws.send_as_json = with_shard  # type: ignore[method-assign]
        await original(ws)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(discord.gateway.DiscordWebSocket, "identify", forged)
        with pytest.raises(discord.ConnectionClosed) as closed:
            async with run_bot(fake, bot):
                pass
    assert closed.value.code == 4010
    assert fake.identifies == 0


async def test_too_many_servers_for_one_session_is_closed_with_4011(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.max_guilds_per_session = 2
    fake.recommended_shards = 2
    for n in range(4):
        fake.create_guild(f"Server {n}", shard=(n % 2, 2))
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with run_bot(fake, commands.Bot(command_prefix="!", intents=discord.Intents.none())):
            pass
    assert closed.value.code == 4011
    # Sharded as /gateway/bot recommends (two shards, one client), it connects.
    bot = make_shard_bot(None, None)
    async with run_bot(fake, bot):
        assert bot.shard_count == 2 and len(bot.guilds) == 4
        assert set(fake.shard_sessions) == {(0, 2), (1, 2)}
