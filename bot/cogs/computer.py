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

from bot.cogs.common import (
    GameBot,
    SeveralGames,
    deferred_if_slow,
    game_locale,
    in_game_channel,
    jump_url,
    mention,
    picture_file,
    resolve_game,
    send_to_game,
    status_text,
    user_locale,
)
from bot.cogs.options import LEVEL_CHOICES, OPTION_CHOICES, OPTION_DESCRIPTIONS, game_options
from bot.cogs.play import game_choices
from bot.cogs.posts import follow_up
from bot.cogs.starts import start_against_computer
from bot.games import GameView, Refusal, is_computer
from bot.i18n import N_, _, translate

log = logging.getLogger(__name__)


def against_computer(view: GameView) -> bool:
    """Whether one of the game's players is the computer."""
    return is_computer(view.pink_id) or is_computer(view.blue_id)


class Computer(commands.Cog):
    """Play the computer: /play-computer and /undo."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="play-computer", description="Play a game against the computer (unrated)"
    )
    @app_commands.guild_only()
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
        try:
            view = await resolve_game(interaction, game)
        except SeveralGames as several:
            mine = [v for v in several.games if against_computer(v)]
            if len(mine) != 1:
                raise Refusal(
                    N_("you have several running games: say which one with the `game` option")
                ) from None
            view = mine[0]
        here = in_game_channel(interaction, view)
        undone, acknowledged = await deferred_if_slow(
            interaction,
            self.bot.service.undo(game_id=view.game_id, user_id=interaction.user.id),
            ephemeral=not here,
        )
        view = undone.view
        points = [a.point.name for a in undone.taken if a.point is not None]
        locale = await game_locale(self.bot, view.guild_id)
        took = _(
            "{user} takes back {point} and the computer's reply {reply}.",
            user=mention(interaction.user.id, locale),
            point=points[0],
            reply=points[1],
        )
        headline = translate(locale, took)
        picture = await picture_file(self.bot, view, locale=locale)
        content = status_text(view, headline=headline, locale=locale)
        if here and acknowledged:
            await follow_up(interaction, content, file=picture)
        else:
            await send_to_game(self.bot, view, content, files=[picture])
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
