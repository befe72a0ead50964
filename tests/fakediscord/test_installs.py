"""The fake tells a server install from a user's: who authorised an interaction and where it
happens, and that the bot may answer but not post nor open a thread where it is no member."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.fakediscord.installs import create_group_dm
from tests.fakediscord.test_harness import World, fake_discord, world

__all__ = ["fake_discord", "world"]  # the fixtures are used by name


def recording(world: World) -> list[dict[str, Any]]:
    """The INTERACTION_CREATE payloads the fake sends from now on."""
    sent: list[dict[str, Any]] = []
    dispatch = world.fake.dispatch

    async def record(event: str, data: Any) -> None:
        if event == "INTERACTION_CREATE":
            sent.append(data)
        await dispatch(event, data)

    world.fake.dispatch = record  # type: ignore[method-assign]
    return sent


async def post(world: World, channel_id: int) -> None:
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    await world.tiny.bot.http.request(route, json={"content": "a game"})


async def thread(world: World, channel_id: int) -> None:
    route = discord.http.Route("POST", "/channels/{channel_id}/threads", channel_id=channel_id)
    await world.tiny.bot.http.request(route, json={"name": "game", "type": 11})


async def test_each_place_says_who_authorised_the_app_and_its_context(world: World) -> None:
    fake = world.fake
    sent = recording(world)
    elsewhere = fake.create_guild("No bot here", with_bot=False)
    group = create_group_dm(fake, world.alice, world.bob)
    places = [
        world.general,
        fake.open_dm(world.alice),
        group,
        fake.channel_named("general", elsewhere),
    ]
    for channel in places:
        handle = await fake.slash(world.alice, "hello", channel=channel, name="x")
        assert (await handle.reply()).content == "hello x"  # answering works everywhere
    origins = [(p["authorizing_integration_owners"], p["context"]) for p in sent]
    alice = str(world.alice.id)
    assert origins == [
        ({"0": str(world.guild.id)}, 0),
        ({"1": alice}, 1),
        ({"1": alice}, 2),
        ({"1": alice}, 0),
    ]
    assert world.tiny.bot.get_guild(elsewhere.id) is None  # never announced to the bot


async def test_the_bot_may_not_post_or_open_a_thread_where_it_is_no_member(world: World) -> None:
    fake = world.fake
    elsewhere = fake.create_guild("No bot here", with_bot=False)
    group = create_group_dm(fake, world.alice, world.bob)
    for channel in (fake.channel_named("general", elsewhere), group):
        with pytest.raises(discord.Forbidden) as caught:
            await post(world, channel.id)
        assert caught.value.code == 50001
    with pytest.raises(discord.Forbidden) as refused:
        await thread(world, fake.channel_named("general", elsewhere).id)
    assert refused.value.code == 50001
    await post(world, world.general.id)  # where it is a member it posts as before
    assert fake.posted(world.general)[-1].content == "a game"


async def test_the_bot_may_not_read_a_channel_where_it_is_no_member(world: World) -> None:
    fake = world.fake
    group = create_group_dm(fake, world.alice, world.bob)
    handle = await fake.slash(world.alice, "hello", channel=group, name="x")
    answer = await handle.reply()  # the message exists, answered through the interaction
    for path in (f"/channels/{group.id}", f"/channels/{group.id}/messages/{answer.id}"):
        route = discord.http.Route("GET", path)
        with pytest.raises(discord.Forbidden) as caught:
            await world.tiny.bot.http.request(route)
        assert caught.value.code == 50001
    route = discord.http.Route("GET", f"/channels/{world.general.id}")
    assert (await world.tiny.bot.http.request(route))["id"] == str(world.general.id)


async def test_a_command_is_offered_only_in_its_contexts_and_installs(world: World) -> None:
    fake = world.fake
    command = fake.find_command("hello", world.guild)
    group = create_group_dm(fake, world.alice, world.bob)
    command["contexts"] = [0]  # as a guild-only command is synced
    with pytest.raises(ValueError, match="not offered in context 2"):
        await fake.slash(world.alice, "hello", channel=group, name="x")
    command["contexts"] = [0, 1, 2]
    command["integration_types"] = [0]  # installable to servers only
    with pytest.raises(ValueError, match="not offered to installs"):
        await fake.slash(world.alice, "hello", channel=group, name="x")
    await fake.slash(world.alice, "hello", channel=world.general, name="x")  # a server install
    command["integration_types"] = [0, 1]
    assert (await (await fake.slash(world.alice, "hello", channel=group, name="y")).reply()).content
