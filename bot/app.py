"""The bot factory: builds the discord.py client without starting it (tests drive it too)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.clocks import Clocks
from bot.cogs import COGS, DYNAMIC_ITEMS, EVENT_NAMES, post_card
from bot.cogs.client import GameBot
from bot.cogs.interactions import RESTARTING, answer_error, refuse
from bot.cogs.mentions import mention_ids
from bot.cogs.translator import CatalogueTranslator
from bot.computer_turns import ComputerTurns
from bot.config import Settings
from bot.games import Event, GameService, Refusal
from bot.i18n import N_
from bot.outbox import Outbox
from bot.pictures import PICTURES
from bot.storage.timers import ALL_SHARDS

log = logging.getLogger(__name__)


def is_guild_only(command: app_commands.Command[Any, ..., Any] | app_commands.Group) -> bool:
    """Whether a command (or its group) is for servers only (``app_commands.guild_only``)."""
    root = command.root_parent or command
    contexts = root.allowed_contexts
    if contexts is not None:
        return not (contexts.dm_channel or contexts.private_channel)
    return root.guild_only


class DotsTree(app_commands.CommandTree[Any]):
    """The command tree with one error handler: nothing a player does shows a traceback."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Refuse a command while the bot is closing (see ``GameBot.admit``), and a server's
        command sent from a direct message (Discord's client does not offer it there, but
        nothing stops a forged one)."""
        if not interaction.client.admit():
            if interaction.type is discord.InteractionType.application_command:
                await refuse(interaction, RESTARTING)
            return False
        command = interaction.command
        if (
            interaction.guild_id is None
            and isinstance(command, app_commands.Command | app_commands.Group)
            and is_guild_only(command)
        ):
            if interaction.type is discord.InteractionType.application_command:
                await refuse(interaction, N_("this command works in a server only, not here"))
            return False
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Answer every failed command privately and in words."""
        original = getattr(error, "original", None) or error
        if isinstance(original, app_commands.CheckFailure) and str(original):
            await answer_error(interaction, Refusal(str(original)))
        elif isinstance(original, app_commands.TransformerError):
            await answer_error(interaction, Refusal(f"`{original.value}` is not valid here"))
        elif isinstance(
            original, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound
        ):
            await answer_error(
                interaction, Refusal(N_("this command changed: try again in a minute"))
            )
        else:
            await answer_error(interaction, original)


class DotsBot(GameBot):
    """The Dots bot: slash commands over a GameService, with its clocks and the computer's
    turns.

    Built by ``create_bot``; ``setup_hook`` opens the service (unless one was given), starts
    the clocks and the computer's turns, adds the cogs and the dynamic buttons, dispatches
    the service's events to the cogs' listeners, and syncs the commands.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        service: GameService | None = None,
        clocks: Clocks | None = None,
        sync_commands: bool = True,
        **options: Any,
    ) -> None:
        intents = options.pop("intents", None) or discord.Intents.default()
        # The bot never joins voice: no warning about the voice libraries it does not need.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            tree_cls=DotsTree,
            help_command=None,
            # Only the users we name are pinged; nothing anyone types can ping @everyone.
            allowed_mentions=options.pop(
                "allowed_mentions", discord.AllowedMentions(everyone=False, roles=False)
            ),
            **options,
        )
        self.settings = settings
        self._service = service
        self._owns_service = service is None
        self.clocks = clocks
        self._owns_clocks = clocks is None
        self.sync_commands = sync_commands
        self.turns: ComputerTurns | None = None

    @property
    def service(self) -> GameService:
        """The game service (open once ``setup_hook`` ran)."""
        if self._service is None:
            raise RuntimeError("the game service is not open yet")
        return self._service

    async def setup_hook(self) -> None:
        """Open the service, start the clocks and the computer's turns, add cogs and buttons,
        sync the commands."""
        PICTURES.warm()  # the picture workers start while the database opens
        if self._service is None:
            self._service = await GameService.open(self.settings.database, owns=self.settings.owns)
        if self.clocks is None:
            # The posts that follow a fired timer are kept in the outbox until posted.
            # Only this process's shards' timers (every shard when it runs them all).
            self.clocks = Clocks(
                self._service, shards=self.settings.shards or ALL_SHARDS, outbox=True
            )
        self.outbox = Outbox(self._service, shards=self.clocks.shards)
        self.turns = ComputerTurns(self._service, shards=self.clocks.shards, outbox=True)
        await self.tree.set_translator(CatalogueTranslator())
        for cog_class in COGS:
            await self.add_cog(cog_class(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self._service.subscribe(self.dispatch_event, *EVENT_NAMES)
        # Posts owed by changes committed before a crash (their nonces keep them single).
        resent = await self.outbox.start()
        if resent:
            log.info("posts resent from the outbox: %d", resent)
        if self._owns_clocks:
            armed = await self.clocks.start()
            log.info("clocks armed: %d", armed)
        # Games left waiting for the computer (it was thinking when the bot stopped).
        waiting = await self.turns.start()
        if waiting:
            log.info("computer moves resumed: %d", waiting)
        # Several processes share the database: only one of them syncs the commands.
        if self.sync_commands and await self._service.claim_one_off_jobs():
            await self.sync_tree()

    def dispatch_event(self, event: Event) -> None:
        """Hand a service event to the cogs' listeners (``on_dots_timed_out`` and so on)."""
        self.dispatch(EVENT_NAMES[type(event)], event)

    async def sync_tree(self) -> list[app_commands.AppCommand]:
        """Sync the slash commands: to the development server when one is set (instant),
        else globally (Discord may take a while to show changes)."""
        guild_id = self.settings.dev_guild
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to server %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d commands globally", len(synced))
        self.command_ids = mention_ids(synced)
        return synced

    async def command_mentions(self) -> dict[str, int]:
        """The slash commands' ids by name: those this process synced, else fetched from
        Discord once (another process synced them); empty when Discord cannot tell them."""
        if not self.command_ids:
            guild_id = self.settings.dev_guild
            try:
                fetched = await self.tree.fetch_commands(
                    guild=discord.Object(id=guild_id) if guild_id else None
                )
            except discord.HTTPException as error:
                log.warning("could not fetch the commands' ids (%s)", error.status)
                return {}
            self.command_ids = mention_ids(fetched)
        return self.command_ids

    async def on_ready(self) -> None:
        """Log who we are and where."""
        shards = self.settings.shards
        if shards is None:
            log.info("logged in as %s in %d servers", self.user, len(self.guilds))
        else:
            log.info(
                "logged in as %s in %d servers (shards %s of %d)",
                self.user,
                len(self.guilds),
                ",".join(map(str, sorted(shards.ids))),
                shards.count,
            )

    async def close(self) -> None:
        """Refuse new interactions and finish those under way, stop the computer's turns,
        the clocks and the database (when we opened them), then disconnect."""
        self.closing = True
        try:
            await self.finish_handlers()
            if self.turns is not None:
                await self.turns.stop()
            if self.clocks is not None and self._owns_clocks:
                await self.clocks.stop()
            if self.outbox is not None:
                await self.outbox.drain()  # the posts on their way, before the database closes
            if self._service is not None and self._owns_service:
                await self._service.close()
                self._service = None
        finally:
            await super().close()


class ShardedDotsBot(DotsBot, commands.AutoShardedBot):
    """The Dots bot over several gateway shards in one process (``DOTS_SHARD_COUNT`` and
    ``DOTS_SHARD_IDS``): discord.py's ``AutoShardedBot``, one websocket per shard."""


def create_bot(
    settings: Settings,
    *,
    service: GameService | None = None,
    clocks: Clocks | None = None,
    sync_commands: bool = True,
    cards: bool = False,
    **options: Any,
) -> DotsBot:
    """Build the bot without starting it.

    ``service``: an open GameService to use (tests); by default ``setup_hook`` opens
    ``settings.database``. ``clocks``: pass one to manage it yourself (then it is not
    started). ``cards``: each position is posted as a game card with buttons
    (``bot.cogs.card``) rather than as text under a picture. ``options`` go to
    ``commands.Bot`` (e.g. ``application_id``, ``intents``). With ``settings.shards`` the bot
    is an ``AutoShardedBot`` over those shards.
    """
    bot = _new_bot(settings, service=service, clocks=clocks, sync_commands=sync_commands, **options)
    if cards:
        bot.post_card = post_card
    return bot


def _new_bot(
    settings: Settings,
    *,
    service: GameService | None,
    clocks: Clocks | None,
    sync_commands: bool,
    **options: Any,
) -> DotsBot:
    if settings.shards is not None:
        return ShardedDotsBot(
            settings,
            service=service,
            clocks=clocks,
            sync_commands=sync_commands,
            shard_count=settings.shards.count,
            shard_ids=sorted(settings.shards.ids),
            **options,
        )
    return DotsBot(settings, service=service, clocks=clocks, sync_commands=sync_commands, **options)
