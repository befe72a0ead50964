"""The bot factory: builds the discord.py client without starting it (tests drive it too)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.clocks import Clocks
from bot.cogs import COGS, DYNAMIC_ITEMS
from bot.cogs.common import announce, answer_error
from bot.config import Settings
from bot.games import GameService, MoveOutcome, Refusal, computer_name, is_computer

log = logging.getLogger(__name__)


class DotsTree(app_commands.CommandTree[Any]):
    """The command tree with one error handler: nothing a player does shows a traceback."""

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
            await answer_error(interaction, Refusal("this command changed: try again in a minute"))
        else:
            await answer_error(interaction, original)


class DotsBot(commands.Bot):
    """The Dots bot: slash commands over a GameService, with its clocks.

    Built by ``create_bot``; ``setup_hook`` opens the service (unless one was given), starts
    the clocks, adds the cogs and the dynamic buttons, and syncs the commands.
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
        self.names: dict[int, str] = {}
        # The computer's turns being played; kept so the tasks are not collected mid-way.
        self._computer_tasks: set[asyncio.Task[None]] = set()

    @property
    def service(self) -> GameService:
        """The game service (open once ``setup_hook`` ran)."""
        if self._service is None:
            raise RuntimeError("the game service is not open yet")
        return self._service

    async def setup_hook(self) -> None:
        """Open the service, start the clocks, add cogs and buttons, sync the commands."""
        if self._service is None:
            self._service = await GameService.open(self.settings.database)
        if self.clocks is None:
            self.clocks = Clocks(self._service)
        for cog_class in COGS:
            await self.add_cog(cog_class(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        events = self.get_cog("Events")
        if events is not None:
            self._service.subscribe(events.on_service_event)  # type: ignore[attr-defined]
        if self._owns_clocks:
            armed = await self.clocks.start()
            log.info("clocks armed: %d", armed)
        # Games left waiting for the computer (it was thinking when the bot stopped).
        waiting = await self._service.computer_turns()
        for game_id in waiting:
            self.computer_to_move(game_id=game_id)
        if waiting:
            log.info("computer moves resumed: %d", len(waiting))
        if self.sync_commands:
            await self.sync_tree()

    def computer_to_move(self, *, game_id: int) -> None:
        """Let the computer play its turn in this game in the background and announce it (its
        announcement starts the next turn when it plays on alone)."""
        task = asyncio.get_running_loop().create_task(self._computer_turn(game_id))
        self._computer_tasks.add(task)
        task.add_done_callback(self._computer_tasks.discard)

    async def _computer_turn(self, game_id: int) -> None:
        # Playing on alone (the player has ended), the computer moves until it ends: one post
        # for the lot, listing the earlier dots, rather than a picture per dot.
        played: list[MoveOutcome] = []
        try:
            while not played or (is_computer(played[-1].next_user_id) and not played[-1].is_over):
                outcome = await self.service.computer_move(game_id=game_id)
                if outcome is None:
                    break
                played.append(outcome)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the computer's move in game %s failed", game_id)
        if not played:
            return
        try:
            await announce(self, played[-1], earlier=alone_line(played[:-1]))
        except Exception:
            log.exception("could not announce the computer's move in game %s", game_id)

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
        return synced

    async def on_ready(self) -> None:
        """Log who we are and where."""
        log.info("logged in as %s in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        """Stop the computer's turns, the clocks and the database (when we opened them), then
        disconnect."""
        try:
            tasks = list(self._computer_tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if self.clocks is not None and self._owns_clocks:
                await self.clocks.stop()
            if self._service is not None and self._owns_service:
                await self._service.close()
                self._service = None
        finally:
            await super().close()


def alone_line(outcomes: list[MoveOutcome]) -> str:
    """The computer's dots played alone before its last action, e.g. ``"Computer (easy)
    plays on alone: D5, E6 (captures 2)."``; empty when there were none."""
    dots = []
    for outcome in outcomes:
        action, placement = outcome.action, outcome.placement
        if action is None or action.point is None:
            continue
        gain = max(placement.pink_gain, placement.blue_gain) if placement else 0
        dots.append(action.point.name + (f" (captures {gain})" if gain else ""))
    if not dots:
        return ""
    user_id = outcomes[0].view.user_of(outcomes[0].action.player)  # type: ignore[union-attr]
    return f"{computer_name(user_id)} plays on alone: {', '.join(dots)}."


def create_bot(
    settings: Settings,
    *,
    service: GameService | None = None,
    clocks: Clocks | None = None,
    sync_commands: bool = True,
    **options: Any,
) -> DotsBot:
    """Build the bot without starting it.

    ``service``: an open GameService to use (tests); by default ``setup_hook`` opens
    ``settings.database``. ``clocks``: pass one to manage it yourself (then it is not
    started). ``options`` go to ``commands.Bot`` (e.g. ``application_id``, ``intents``).
    """
    return DotsBot(settings, service=service, clocks=clocks, sync_commands=sync_commands, **options)
