"""Server settings (game channel, default clock, per-user limits, language) and player
settings (direct messages on their turn, how often their turn is reminded, language)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Row, delete, select

from bot.storage.database import Database
from bot.storage.schema import guild_locales, guilds, player_locales, players
from bot.storage.upsert import upsert


class SettingsRepository:
    """The ``guilds``, ``players``, ``guild_locales`` and ``player_locales`` tables."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _guild_row(self, guild_id: int, *columns: Column[Any]) -> Row[Any] | None:
        async with self.db.reading() as conn:
            found = await conn.execute(select(*columns).where(guilds.c.guild_id == guild_id))
            return found.first()

    async def guild(self, guild_id: int) -> tuple[int | None, int] | None:
        """A server's (game channel id, default clock seconds), or None if never set."""
        row = await self._guild_row(guild_id, guilds.c.game_channel_id, guilds.c.default_clock)
        return None if row is None else (row[0], row[1])

    async def set_guild(
        self, guild_id: int, *, game_channel_id: int | None, default_clock: int, at: float
    ) -> None:
        """Write a server's settings (its limits stay)."""
        values = {"guild_id": guild_id, "game_channel_id": game_channel_id,
                  "default_clock": default_clock, "updated": at}  # fmt: skip
        async with self.db.transaction() as conn:
            await conn.execute(upsert(self.db.dialect, guilds, values, keys=["guild_id"]))

    async def limits(self, guild_id: int) -> tuple[int | None, int | None, int | None]:
        """A server's per-user limits (open challenges, running games, computer games); None
        where the default applies."""
        limits = (guilds.c.max_open_challenges, guilds.c.max_running_games,
                  guilds.c.max_computer_games)  # fmt: skip
        row = await self._guild_row(guild_id, *limits)
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
        """Write a server's per-user limits (None: the default); its other settings stay."""
        values = {"guild_id": guild_id, "max_open_challenges": challenges,
                  "max_running_games": games, "max_computer_games": computer,
                  "updated": at}  # fmt: skip
        async with self.db.transaction() as conn:
            await conn.execute(upsert(self.db.dialect, guilds, values, keys=["guild_id"]))

    async def set_notify(self, user_id: int, *, on: bool, at: float) -> None:
        """Write a player's "DM me when it is my turn" preference."""
        values = {"user_id": user_id, "dm_on_turn": on, "updated": at}
        async with self.db.transaction() as conn:
            await conn.execute(upsert(self.db.dialect, players, values, keys=["user_id"]))

    async def notify(self, user_id: int) -> bool:
        """A player's "DM me when it is my turn" preference (default off)."""
        async with self.db.reading() as conn:
            found = await conn.scalar(
                select(players.c.dm_on_turn).where(players.c.user_id == user_id)
            )
        return bool(found)

    async def set_remind_every(self, user_id: int, every: int | None, *, at: float) -> None:
        """Write how often a player is reminded of their turn in long games (None: once, a
        third of the clock before the deadline; 0: never; else every so many seconds), taken
        by each of their games when their turn starts."""
        values = {"user_id": user_id, "remind_every": every, "updated": at}
        async with self.db.transaction() as conn:
            await conn.execute(upsert(self.db.dialect, players, values, keys=["user_id"]))

    async def remind_every(self, user_id: int) -> int | None:
        """How often a player is reminded of their turn (as ``set_remind_every``; default
        None, once)."""
        async with self.db.reading() as conn:
            found = await conn.scalar(
                select(players.c.remind_every).where(players.c.user_id == user_id)
            )
        return None if found is None else int(found)

    async def guild_locale(self, guild_id: int) -> str | None:
        """The language an admin chose for a server's public posts, or None."""
        async with self.db.reading() as conn:
            found = await conn.scalar(
                select(guild_locales.c.locale).where(guild_locales.c.guild_id == guild_id)
            )
        return None if found is None else str(found)

    async def set_guild_locale(self, guild_id: int, locale: str | None, *, at: float) -> None:
        """Write (or with None, forget) a server's chosen language."""
        async with self.db.transaction() as conn:
            if locale is None:
                await conn.execute(
                    delete(guild_locales).where(guild_locales.c.guild_id == guild_id)
                )
                return
            values = {"guild_id": guild_id, "locale": locale, "updated": at}
            await conn.execute(upsert(self.db.dialect, guild_locales, values, keys=["guild_id"]))

    async def player_locale(self, user_id: int) -> str | None:
        """The language a user's client last showed, or None."""
        async with self.db.reading() as conn:
            found = await conn.scalar(
                select(player_locales.c.locale).where(player_locales.c.user_id == user_id)
            )
        return None if found is None else str(found)

    async def set_player_locale(self, user_id: int, locale: str, *, at: float) -> None:
        """Write the language a user's client showed."""
        values = {"user_id": user_id, "locale": locale, "updated": at}
        async with self.db.transaction() as conn:
            await conn.execute(upsert(self.db.dialect, player_locales, values, keys=["user_id"]))
