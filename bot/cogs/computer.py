"""Games against the computer: /play-computer (or /challenge naming the bot) and /undo.

The computer's moves are played by ``DotsBot.computer_to_move`` (started from ``announce``
after every outcome that leaves it to move) and announced like any move.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.common import (
    SeveralGames,
    bot_of,
    in_game_channel,
    jump_url,
    mention,
    picture_file,
    picture_names,
    resolve_game,
    send_to_game,
    status_text,
    thread_name,
)
from bot.cogs.play import OPTION_CHOICES, OPTION_DESCRIPTIONS, game_choices, game_options
from bot.games import (
    GameOptions,
    GameView,
    Refusal,
    computer_name,
    is_computer,
)
from bot.games.computer import DEFAULT_LEVEL
from engine import Player

if TYPE_CHECKING:
    from bot.app import DotsBot

log = logging.getLogger(__name__)

LEVEL_CHOICES = [
    app_commands.Choice(name="easy: takes what it is given", value="easy"),
    app_commands.Choice(name="medium: sees your threats coming", value="medium"),
    app_commands.Choice(name="hard: thinks longer (up to 2 s a move)", value="hard"),
]


def against_computer(view: GameView) -> bool:
    """Whether one of the game's players is the computer."""
    return is_computer(view.pink_id) or is_computer(view.blue_id)


async def start_against_computer(
    interaction: discord.Interaction[Any], level: str, options: GameOptions
) -> None:
    """Start a game of the user against the computer: a public message, a thread from it (or
    the server's game channel), the first picture; the computer moves at once when it is Pink."""
    bot = bot_of(interaction)
    assert interaction.guild_id is not None and interaction.channel_id is not None
    view = await bot.service.start_computer_game(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        user_id=interaction.user.id,
        level=level,
        options=options,
    )
    computer = view.blue_id if view.pink_id == interaction.user.id else view.pink_id
    settings = text.describe_options(
        width=view.game.width,
        height=view.game.height,
        rules=view.game.rules,
        start=view.game.start,
        clock=view.clock,
        rated=False,
    )
    colour = "Pink (moves first)" if view.pink_id == interaction.user.id else "Blue"
    response = await interaction.response.send_message(
        f"{interaction.user.mention} plays {computer_name(computer)}: game #{view.game_id} "
        f"({settings}; you play {colour}). Games against the computer are unrated; "
        "`/undo` takes back your last move and the computer's reply.",
        allowed_mentions=discord.AllowedMentions.none(),
    )
    names = await picture_names(bot, view)
    name = thread_name(view.game_id, names[Player.PINK], names[Player.BLUE])
    message = response.resource if isinstance(response.resource, discord.Message) else None
    thread_id = await open_thread(bot, interaction, view, name, message)
    if thread_id is not None:
        await bot.service.set_game_thread(game_id=view.game_id, thread_id=thread_id)
        view = await bot.service.game(view.game_id)
    picture = await picture_file(bot, view)
    headline = "The game starts. Play with `/move` (e.g. `/move E5`)."
    if is_computer(view.pink_id):
        headline = f"The game starts. {computer_name(view.pink_id)} moves first."
    posted = await send_to_game(bot, view, status_text(view, headline=headline), files=[picture])
    if posted is not None:
        await bot.service.set_game_thread(game_id=view.game_id, message_id=posted.id)
    if is_computer(view.to_move_id):
        bot.computer_to_move(game_id=view.game_id)


async def open_thread(
    bot: DotsBot,
    interaction: discord.Interaction[Any],
    view: GameView,
    name: str,
    message: discord.Message | None,
) -> int | None:
    """A public thread for the game from the command's answer (or in the server's game
    channel); None when threads are not allowed, and the game is played in the channel."""
    settings = await bot.service.guild_settings(guild_id=view.guild_id)
    try:
        if settings.game_channel_id and settings.game_channel_id != interaction.channel_id:
            channel = bot.get_partial_messageable(settings.game_channel_id, guild_id=view.guild_id)
            message = await channel.send(f"Game #{view.game_id}: {jump_url(view)}")
        elif message is None:
            message = await interaction.original_response()
        thread = await message.create_thread(name=name)
    except discord.HTTPException:
        log.info("no thread for game %s; playing in the channel", view.game_id)
        return None
    return thread.id


class Computer(commands.Cog):
    """Play the computer: /play-computer and /undo."""

    def __init__(self, bot: DotsBot) -> None:
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
    ) -> None:
        """Start a game against the computer in a new thread."""
        options = game_options(size, rules, start, clock, colour, rated=False)
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
                    "you have several running games: say which one with the `game` option"
                ) from None
            view = mine[0]
        undone = await self.bot.service.undo(game_id=view.game_id, user_id=interaction.user.id)
        view = undone.view
        here = in_game_channel(interaction, view)
        await interaction.response.defer(thinking=True, ephemeral=not here)
        points = [a.point.name for a in undone.taken if a.point is not None]
        headline = (
            f"{mention(interaction.user.id)} takes back {points[0]} and the computer's "
            f"reply {points[1]}."
        )
        picture = await picture_file(self.bot, view)
        content = status_text(view, headline=headline)
        if here:
            await interaction.followup.send(content, file=picture)
        else:
            await send_to_game(self.bot, view, content, files=[picture])
            await interaction.followup.send(
                f"Took back {points[0]} and {points[1]} in game #{view.game_id}: {jump_url(view)}",
                ephemeral=True,
            )

    async def start_from_challenge(
        self, interaction: discord.Interaction[Any], options: GameOptions
    ) -> None:
        """/challenge naming the bot itself: a game against the computer at medium."""
        await start_against_computer(interaction, DEFAULT_LEVEL, options)
