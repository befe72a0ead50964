"""Games against the computer: /play-computer (or /challenge naming the bot) and /undo.

The computer's moves are played by ``bot.computer_turns.ComputerTurns`` as soon as the service
has committed the move they answer; the Events cog posts them (``on_dots_computer_moved``).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.client import GameBot, bot_of
from bot.cogs.in_game import Action, game_choices, handles, run_in_game
from bot.cogs.interactions import deferred_if_slow
from bot.cogs.locales import user_locale
from bot.cogs.names import mention
from bot.cogs.on_card import anywhere
from bot.cogs.options import LEVEL_CHOICES, OPTION_CHOICES, OPTION_DESCRIPTIONS, game_options
from bot.cogs.posting import in_game_channel, jump_url, picture_file, send_to_game, status_text
from bot.cogs.posts import follow_up
from bot.cogs.starts import start_against_computer
from bot.games import GameView
from bot.i18n import _, translate

log = logging.getLogger(__name__)


class Computer(commands.Cog):
    """Play the computer: /play-computer and /undo."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="play-computer", description="Play a game against the computer (unrated)"
    )
    @anywhere
    @app_commands.describe(
        level="How strong the computer plays (default medium)", **OPTION_DESCRIPTIONS
    )
    @app_commands.choices(level=LEVEL_CHOICES, **OPTION_CHOICES)
    async def play_computer(  # noqa: PLR0917 (slash command options are positional)
        self,
        interaction: discord.Interaction[Any],
        level: str = "medium",
        size: str = "10x10",
        rules: str = "standard",
        start: str = "empty",
        clock: int | None = None,
        colour: str = "random",
        time: str | None = None,
    ) -> None:
        """Start a game against the computer in a new thread."""
        options = game_options(size, rules, start, clock, colour, rated=False, time=time)
        await start_against_computer(interaction, level, options)

    @app_commands.autocomplete(game=game_choices)
    @app_commands.command(
        name="undo", description="Take back your last move and the computer's reply"
    )
    @app_commands.guild_only()
    @app_commands.describe(game="Game number, if you play several")
    async def undo(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Take back the user's last dot and the computer's reply (games against it only)."""
        await run_in_game(interaction, Action.UNDO, game)


@handles(Action.UNDO)
async def undo_in(interaction: discord.Interaction[Any], view: GameView, _arg: str) -> None:
    """The undo action: take back the user's last dot and the computer's reply, and post the
    picture in the game's thread."""
    bot = bot_of(interaction)
    # With game cards the new card is posted in the thread, not as this action's answer.
    here = in_game_channel(interaction, view) and bot.post_card is None
    undone, acknowledged = await deferred_if_slow(
        interaction,
        bot.service.undo(game_id=view.game_id, user_id=interaction.user.id),
        ephemeral=not here,
    )
    view = undone.view
    points = [a.point.name for a in undone.taken if a.point is not None]
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    took = _(
        "{user} takes back {point} and the computer's reply {reply}.",
        user=mention(interaction.user.id, locale),
        point=points[0],
        reply=points[1],
    )
    headline = translate(locale, took)
    picture = await picture_file(bot, view, locale=locale)
    content = status_text(view, headline=headline, locale=locale)
    if here and acknowledged:
        await follow_up(interaction, content, file=picture)
    else:
        await send_to_game(bot, view, content, files=[picture])
    if not here and acknowledged:
        await follow_up(
            interaction,
            translate(
                user_locale(interaction),
                _(
                    "Took back {point} and {reply} in game #{game_id}: {url}",
                    point=points[0],
                    reply=points[1],
                    game_id=view.game_id,
                    url=jump_url(view),
                ),
            ),
            ephemeral=True,
        )
