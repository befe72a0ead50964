"""Use-cases of settings: a server's game channel and default move clock, its language, and
each player's direct-message wish, how often their turn is reminded, and language."""

from __future__ import annotations

from datetime import timedelta

from bot.games import convert
from bot.games.convert import to_ts
from bot.games.core import GameCore
from bot.games.errors import OptionOutOfRange
from bot.games.models import MAX_CLOCK, REMINDER_MIN_CLOCK, GuildSettings
from bot.i18n import LOCALES, _, normalize


class Settings:
    """Server and player settings, stored at once."""

    def __init__(self, core: GameCore) -> None:
        self.core = core

    async def set_notify(self, *, user_id: int, on: bool) -> None:
        """Set whether ``user_id`` wants a direct message when it is their turn."""
        await self.core.store.settings.set_notify(user_id, on=on, at=to_ts(self.core.now()))

    async def wants_notify(self, *, user_id: int) -> bool:
        """Whether ``user_id`` wants a direct message when it is their turn (default False)."""
        return await self.core.store.settings.notify(user_id)

    async def set_reminders(self, *, user_id: int, every: timedelta | None) -> None:
        """Set how often ``user_id`` is reminded of their turn in games with a clock of an hour
        or more, from their next turn in each game: None once (a third of the clock before the
        deadline, the default), zero never, else every ``every``.

        Raises:
            ValueError: ``every`` is neither zero nor between an hour and a week.
        """
        seconds = None if every is None else int(every.total_seconds())
        if every and not REMINDER_MIN_CLOCK <= every <= MAX_CLOCK:
            raise ValueError(f"a reminder every {every} is out of range")
        await self.core.store.settings.set_remind_every(user_id, seconds, at=to_ts(self.core.now()))

    async def reminders(self, *, user_id: int) -> timedelta | None:
        """How often ``user_id`` is reminded of their turn (as ``set_reminders``)."""
        seconds = await self.core.store.settings.remind_every(user_id)
        return None if seconds is None else timedelta(seconds=seconds)

    async def guild_settings(self, *, guild_id: int) -> GuildSettings:
        """A server's settings (defaults if never set)."""
        stored = await self.core.store.settings.guild(guild_id)
        if stored is None:
            return GuildSettings(guild_id)
        channel, clock = stored
        return GuildSettings(guild_id, channel, timedelta(seconds=clock))

    async def set_guild_settings(
        self,
        *,
        guild_id: int,
        game_channel_id: int | None = None,
        default_clock: timedelta | None = None,
    ) -> GuildSettings:
        """Change a server's game channel and/or default move clock (None leaves it).

        Raises:
            OptionOutOfRange: a clock outside 30 seconds to 7 days.
        """
        current = await self.guild_settings(guild_id=guild_id)
        clock = current.default_clock if default_clock is None else default_clock
        seconds = convert.clock_seconds(clock)
        channel = current.game_channel_id if game_channel_id is None else game_channel_id
        await self.core.store.settings.set_guild(
            guild_id, game_channel_id=channel, default_clock=seconds, at=to_ts(self.core.now())
        )
        return GuildSettings(guild_id, channel, timedelta(seconds=seconds))

    async def guild_locale(self, *, guild_id: int) -> str | None:
        """The language an admin chose for a server's public posts (None: the server's own)."""
        return await self.core.store.settings.guild_locale(guild_id)

    async def set_guild_locale(self, *, guild_id: int, locale: str | None) -> str | None:
        """Choose (or with None, forget) the language of a server's public posts.

        Raises:
            OptionOutOfRange: a language the bot does not speak.
        """
        if locale is not None and (normalize(locale) != locale or locale not in LOCALES):
            raise OptionOutOfRange(_("the bot speaks {locales}", locales=", ".join(LOCALES)))
        await self.core.store.settings.set_guild_locale(guild_id, locale, at=to_ts(self.core.now()))
        return locale

    async def player_locale(self, *, user_id: int) -> str | None:
        """The language ``user_id``'s client last showed (for direct messages), or None."""
        return await self.core.store.settings.player_locale(user_id)

    async def remember_locale(self, *, user_id: int, locale: str) -> None:
        """Keep the language ``user_id``'s client showed."""
        await self.core.store.settings.set_player_locale(
            user_id, normalize(locale), at=to_ts(self.core.now())
        )
