"""The bot as the cogs see it (``GameBot``): its game service, the names and languages it has
seen, the order of each game's posts, and the interactions it is handling."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

from bot.cogs.locales import Locales
from bot.cogs.post_order import PostOrder
from bot.games import GameService
from bot.outbox import Outbox

log = logging.getLogger(__name__)

# More interactions than this handled at once and the bot is busy: each is deferred first,
# before any work, so that its first answer is not queued behind the others' work.
BUSY_HANDLERS = 8
# How long closing waits for the interactions being handled (seconds); then they are cancelled.
HANDLER_WAIT = 5.0


class GameBot(commands.Bot):
    """What the cogs use of the bot (``bot.app.DotsBot`` is the one they get): its game
    service, the display names and languages it has seen and the order of each game's posts."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.names: dict[int, str] = {}
        self.posts = PostOrder()
        self.locales = Locales(lambda: self.service, self._preferred_locale)
        # The posts owed by committed changes (``bot.outbox``); None: none are kept.
        self.outbox: Outbox | None = None
        # Posts a position as a game card (``bot.cogs.card.post_card``); None: as text.
        self.post_card: Callable[..., Awaitable[discord.Message | None]] | None = None
        # Each slash command's id by its name, for mentions (``bot.cogs.mentions``): set by
        # the sync, else by ``command_mentions`` once.
        self.command_ids: dict[str, int] = {}
        # The tasks handling interactions (see ``admit``); True once the bot is closing.
        self.closing = False
        self._handlers: set[asyncio.Task[Any]] = set()

    @property
    def service(self) -> GameService:
        """The game service."""
        raise NotImplementedError

    async def command_mentions(self) -> dict[str, int]:
        """The slash commands' ids by name (see ``command_ids``); empty when Discord cannot
        tell them now (then commands are written, not mentioned)."""
        return self.command_ids

    def _preferred_locale(self, guild_id: int) -> discord.Locale | None:
        guild = self.get_guild(guild_id)
        return None if guild is None else guild.preferred_locale

    @property
    def busy(self) -> bool:
        """Whether more than ``BUSY_HANDLERS`` interactions are being handled (see
        ``bot.cogs.interactions.in_time``)."""
        return len(self._handlers) > BUSY_HANDLERS

    def admit(self) -> bool:
        """Whether the bot takes the interaction (or the start-up's repair) the current task
        handles: False once it is closing (the caller refuses it in words); else ``close``
        waits for the task before the database closes."""
        if self.closing:
            return False
        task = asyncio.current_task()
        if task is not None and task not in self._handlers:
            self._handlers.add(task)
            task.add_done_callback(self._handlers.discard)
        return True

    async def finish_handlers(self) -> None:
        """Let the interactions being handled finish (``HANDLER_WAIT`` seconds at most; those
        still going then are cancelled: their transaction rolls back, nothing half done)."""
        handlers = self._handlers - {asyncio.current_task()}
        if not handlers:
            return
        _, going = await asyncio.wait(handlers, timeout=HANDLER_WAIT)
        if going:
            log.warning("%d interactions still handled at close: cancelled", len(going))
            for task in going:
                task.cancel()
            await asyncio.wait(going)


def bot_of(interaction: discord.Interaction[Any]) -> GameBot:
    """The bot handling ``interaction``."""
    return interaction.client  # type: ignore[no-any-return]
