"""Where the app is installed and where its bot is a member, as Discord tells them apart.

An app installed to a server has its bot in it (the server's ``members`` hold the bot); an app
installed to a user can be used by that user anywhere: in a DM with the bot, in a group DM, in
a server that never added the bot. Its interactions then say who authorised it
(``authorizing_integration_owners``: ``"0"`` the server that installed it, ``"1"`` the user)
and where they happen (``context``: 0 a server, 1 the DM with the bot, 2 a group DM or a DM
between users). Where the bot is no member (a group DM, a server without it) it may answer
interactions, but not post on its own nor open a thread: 403 with code 50001 "Missing Access".
From Discord's developer documentation (Application Commands: Contexts; Interactions:
Interaction Object; JSON Error Codes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.fakediscord.records import HTTPError
from tests.fakediscord.state import DM, Channel, Guild, User

if TYPE_CHECKING:
    from tests.fakediscord.world import World

GROUP_DM = 3
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2  # interaction context types
GUILD_INSTALL, USER_INSTALL = "0", "1"  # application integration types
MISSING_ACCESS = 50001


def bot_is_member(world: World, channel: Channel) -> bool:
    """Whether the bot is in ``channel``'s server (or is the other end of a DM)."""
    if channel.type == GROUP_DM:
        return False
    if channel.guild_id is None:
        return True
    guild = world.guilds.get(channel.guild_id)
    return guild is not None and world.bot.id in guild.members


def check_bot_may_post(world: World, channel: Channel) -> None:
    """Refuse a post of the bot's own (not an interaction's answer) or a new thread where the
    bot is no member.

    Raises:
        HTTPError: 403 / 50001 "Missing Access".
    """
    if not bot_is_member(world, channel):
        raise HTTPError(403, MISSING_ACCESS, "Missing Access")


def check_bot_may_read(world: World, channel: Channel) -> None:
    """Refuse the bot a read of a channel (its object, its messages) where it is no member: a
    group DM's channel and messages are the users', not the bot's.

    Raises:
        HTTPError: 403 / 50001 "Missing Access".
    """
    check_bot_may_post(world, channel)


def check_command_offered(
    world: World, command: dict[str, Any], user: User, channel: Channel, guild: Guild | None
) -> None:
    """Refuse to send a command Discord's client would not offer there: one whose ``contexts``
    leave out the interaction's context, or whose ``integration_types`` leave out every
    install that authorises it (a command that names neither is offered anywhere).

    Raises:
        ValueError: the command is not offered there (a test's mistake, not the bot's).
    """
    origin = interaction_origin(world, user, channel, guild)
    contexts = command.get("contexts")
    if contexts is not None and origin["context"] not in contexts:
        raise ValueError(f"/{command['name']} is not offered in context {origin['context']}")
    installs = command.get("integration_types")
    owners = {int(key) for key in origin["authorizing_integration_owners"]}
    if installs is not None and not owners & set(installs):
        raise ValueError(f"/{command['name']} is not offered to installs {sorted(owners)}")


def interaction_origin(
    world: World, user: User, channel: Channel, guild: Guild | None
) -> dict[str, Any]:
    """The ``authorizing_integration_owners`` and ``context`` of an interaction of ``user`` in
    ``channel``: a server with the bot authorises it as a server install; anywhere else the
    app is the user's install."""
    if channel.type == GROUP_DM:
        context = PRIVATE_CHANNEL
    elif guild is not None:
        context = GUILD
    else:
        context = BOT_DM if channel.type == DM else PRIVATE_CHANNEL
    if guild is not None and world.bot.id in guild.members:
        owners = {GUILD_INSTALL: str(guild.id)}
    else:
        owners = {USER_INSTALL: str(user.id)}
    return {"authorizing_integration_owners": owners, "context": context}


def create_group_dm(world: World, *users: User) -> Channel:
    """A group DM of ``users`` (the bot is not in it: the app can be used there only as one of
    the users' installs)."""
    channel = Channel(id=world.snowflakes.next(), type=GROUP_DM, name="group")
    world.channels[channel.id] = channel
    return channel
