"""The start of a game, for games between people and against the computer alike: its thread
and its first picture.

A new game always gets a thread of its own: in the server's game channel when one is set,
else from the message that started it, or, when that message is itself in a thread (Discord
refuses a thread inside a thread), from a new message in that thread's parent channel.

What a start has done is in the database: the game's thread id, its first picture's message
id, and whether the challenge's message says it was accepted (``bot.cogs.start_repair``
finishes at start-up what a kill interrupted).
"""

from __future__ import annotations

import logging
from contextlib import ExitStack
from dataclasses import replace
from typing import Any

import discord

from bot import text
from bot.cogs.client import GameBot, bot_of
from bot.cogs.interactions import in_time, post_answer, public_locale
from bot.cogs.names import picture_names, thread_name
from bot.cogs.on_card import home_guild, lives_on_card, note_interaction
from bot.cogs.posting import picture_file, send_to_game, status_text
from bot.cogs.posts import create_thread, send
from bot.games import GameOptions, GameView, computer_name, is_computer
from bot.i18n import N_, _, translate
from engine import Player

log = logging.getLogger(__name__)


async def open_game_thread(
    bot: GameBot,
    interaction: discord.Interaction[Any] | None,
    view: GameView,
    message: discord.Message | discord.PartialMessage | None,
) -> int | None:
    """A public thread for the game (see the module's docstring); ``message`` is the one that
    started the game, if known (else the interaction's response, or, without an interaction,
    a new message in the game's channel). None when Discord refuses, and the game is then
    played in the channel it was started in."""
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    names = await picture_names(bot, view, locale)
    name = thread_name(view.game_id, names[Player.PINK], names[Player.BLUE], locale)
    settings = await bot.service.guild_settings(guild_id=view.guild_id)
    channel = interaction.channel if interaction else bot.get_channel(view.channel_id)
    try:
        home: int | None = None
        if settings.game_channel_id and settings.game_channel_id != view.channel_id:
            home = settings.game_channel_id
        elif isinstance(channel, discord.Thread):
            home = channel.parent_id
        elif message is None and interaction is None:
            home = view.channel_id
        if home is not None:
            parent = bot.get_partial_messageable(home, guild_id=view.guild_id)
            # The thread opens on this message, so it needs no link (the game's own channel
            # may be another game's thread, which is not this game's home).
            below = _("Game #{game_id}: its thread is below.", game_id=view.game_id)
            message = await send(parent, translate(locale, below))
        elif message is None:
            assert interaction is not None
            message = await interaction.original_response()
        thread = await create_thread(message, name=name)
    except discord.HTTPException:
        log.info("no thread for game %s; playing in the channel", view.game_id)
        return None
    return thread.id


async def post_game_start(
    bot: GameBot,
    interaction: discord.Interaction[Any] | None,
    view: GameView,
    message: discord.Message | discord.PartialMessage | None,
) -> None:
    """Open the game's thread (unless it has one) and post its first picture there,
    remembering both. A game that lives on its card (``bot.cogs.on_card``) has no thread: its
    first card follows ``interaction``."""
    if lives_on_card(view):
        if interaction is not None:
            note_interaction(bot, view.game_id, interaction)
    elif view.thread_id is None:
        thread_id = await open_game_thread(bot, interaction, view, message)
        if thread_id is not None:
            await bot.service.set_game_thread(game_id=view.game_id, thread_id=thread_id)
            # Not read back from the service: the computer, moving first, may have played
            # already, and the first picture shows the start.
            view = replace(view, thread_id=thread_id)
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    starts = N_("The game starts. Play with `/move` (e.g. `/move E5`).")
    if lives_on_card(view):  # no slash commands there: the card's buttons
        starts = N_("The game starts. Play with the buttons below.")
    if is_computer(view.pink_id):
        starts = _("The game starts. {name} moves first.", name=computer_name(view.pink_id, locale))
    headline = translate(locale, starts)
    picture = await picture_file(bot, view, locale=locale)
    status = status_text(view, headline=headline, locale=locale)
    posted = await send_to_game(bot, view, status, files=[picture])
    if posted is not None:
        await bot.service.set_game_thread(game_id=view.game_id, message_id=posted.id)


async def start_against_computer(
    interaction: discord.Interaction[Any], level: str, options: GameOptions
) -> None:
    """Start a game of the user against the computer: a public message, the game's thread and
    its first picture; when the computer is Pink the service has its first move under way,
    and its post waits for this start's."""
    bot = bot_of(interaction)
    assert interaction.channel_id is not None
    guild_id, channel_id = home_guild(interaction), interaction.channel_id
    pending = ExitStack()

    async def start() -> GameView:
        view = await bot.service.start_computer_game(
            guild_id=guild_id,
            channel_id=channel_id,
            user_id=interaction.user.id,
            level=level,
            options=options,
        )
        # Pending from the commit on (in the same step): the computer's first move waits.
        pending.enter_context(bot.posts.pending(view.game_id))
        return view

    view, deferred = await in_time(interaction, start())
    with pending:
        computer = view.blue_id if view.pink_id == interaction.user.id else view.pink_id
        locale = await public_locale(interaction)
        settings = text.describe_game_options(view.options, locale, with_takebacks=False)
        pink = view.pink_id == interaction.user.id
        colour = translate(locale, N_("Pink (moves first)") if pink else N_("Blue"))
        plays = _(
            "{user} plays {name}: game #{game_id} ({settings}; you play {colour}). Games "
            "against the computer are unrated; `/undo` takes back your last move and the "
            "computer's reply.",
            user=interaction.user.mention,
            name=computer_name(computer, locale),
            game_id=view.game_id,
            settings=settings,
            colour=colour,
        )
        message = await post_answer(
            interaction,
            deferred,
            translate(locale, plays),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await post_game_start(bot, interaction, view, message)
