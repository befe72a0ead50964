"""The languages the bot writes in: ``Locales``, the one keeper of what each server and user
showed or chose; private answers are in the user's client's language."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.games.models import NO_SERVER
from bot.i18n import SOURCE, normalize

if TYPE_CHECKING:
    from bot.games import GameService


class Locales:
    """The language of each server's public posts and of each user's direct messages.

    It keeps, in memory, each server's own locale as its interactions show it, the locale an
    admin chose for it (None: none chosen; read from the database once, by one read for all
    who ask at once) and each user's last seen one. ``service`` gives the game service (which
    stores the choices); ``preferred`` a server's locale as Discord's guild object has it.
    """

    def __init__(
        self, service: Callable[[], GameService], preferred: Callable[[int], object | None]
    ) -> None:
        self._service = service
        self._preferred = preferred
        self._seen_in_guild: dict[int, str] = {}
        self._chosen: dict[int, str | None] = {}
        self._loads: dict[int, asyncio.Future[str | None]] = {}
        self._seen_of_user: dict[int, str] = {}
        self._seen_in_place: dict[int, str] = {}

    def note(self, interaction: discord.Interaction[Any]) -> None:
        """Remember (in memory) the server's and the user's languages an interaction shows; the
        user's is stored when a direct message is written in it (``of_user``), so an
        interaction that is refused writes nothing. Where the bot is no member (a DM, a group
        DM, a server without it), the language of the channel's public answers: the server's,
        else the user's (``of_place``)."""
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is not None and interaction.guild_locale is not None:
            self._seen_in_guild[guild_id] = normalize(interaction.guild_locale)
        self._seen_of_user[interaction.user.id] = user_locale(interaction)
        if channel_id is not None and (guild_id is None or not interaction.is_guild_integration()):
            self._seen_in_place[channel_id] = (
                self._seen_in_guild.get(guild_id, SOURCE)
                if guild_id is not None
                else user_locale(interaction)
            )

    async def chosen(self, guild_id: int) -> str | None:
        """The locale an admin chose for the server (None: none chosen)."""
        if guild_id not in self._chosen:
            # One read of the database for all who ask at once (a burst in a new server).
            load = self._loads.get(guild_id)
            if load is None:
                load = asyncio.ensure_future(self._service().guild_locale(guild_id=guild_id))
                self._loads[guild_id] = load
                load.add_done_callback(lambda _: self._loads.pop(guild_id, None))
            stored = await asyncio.shield(load)
            self._chosen.setdefault(guild_id, stored)  # an admin's choice meanwhile wins
        return self._chosen[guild_id]

    async def choose(self, guild_id: int, locale: str | None) -> None:
        """Store an admin's choice for the server (None: follow the server's own language)."""
        await self._service().set_guild_locale(guild_id=guild_id, locale=locale)
        self._chosen[guild_id] = locale

    def is_loading(self, guild_id: int) -> bool:
        """Whether a read of the server's chosen locale is under way."""
        return guild_id in self._loads

    async def of_guild(self, guild_id: int | None) -> str:
        """The language of public posts in a server: the one an admin chose, else the server's
        own (as its interactions show it, or Discord's guild object)."""
        if guild_id is None:
            return SOURCE
        chosen = await self.chosen(guild_id)
        if chosen is not None:
            return chosen
        seen = self._seen_in_guild.get(guild_id)
        if seen is None:
            seen = normalize(self._preferred(guild_id))
        return seen

    async def of_place(self, guild_id: int, channel_id: int) -> str:
        """The language of public posts in a channel: its server's (``of_guild``); for a game
        or challenge with no server (``guild_id`` 0: it lives on its card), the language of the
        newest interaction there, the one its posts follow (English before any)."""
        if guild_id == NO_SERVER:
            return self._seen_in_place.get(channel_id, SOURCE)
        return await self.of_guild(guild_id)

    async def of_user(self, user_id: int) -> str:
        """The language of a direct message to ``user_id``: the one their client last showed
        (seen since the bot started, else as stored); a newer one seen is stored now, so that
        it outlives a restart."""
        service = self._service()
        stored = await service.player_locale(user_id=user_id)
        seen = self._seen_of_user.get(user_id)
        if seen is None:
            return normalize(stored)
        if seen != stored:
            await service.remember_locale(user_id=user_id, locale=seen)
        return seen


def user_locale(interaction: discord.Interaction[Any]) -> str:
    """The language of a private answer: the user's client's."""
    return normalize(interaction.locale)
