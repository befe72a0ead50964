"""Players' names as the bot shows them: display names (cached), mentions and thread names;
the computer, which has no account, by its name in the reader's language."""

from __future__ import annotations

import discord

from bot.cogs.client import GameBot
from bot.cogs.posts import fit_name, plain_name
from bot.games import GameView, computer_name, is_computer
from bot.i18n import SOURCE, _, translate
from engine import Player


async def display_name(bot: GameBot, user_id: int, locale: str = SOURCE) -> str:
    """A user's name for pictures and thread names (cached; no members intent needed); the
    computer's name in ``locale`` for its pseudo user ids."""
    if is_computer(user_id):
        return computer_name(user_id, locale)
    cached = bot.names.get(user_id)
    if cached is not None:
        return cached
    user = bot.get_user(user_id)
    name = user.display_name if user is not None else None
    if name is None:
        try:
            name = (await bot.fetch_user(user_id)).display_name
        except discord.HTTPException:
            name = translate(SOURCE, _("player {user_id}", user_id=user_id))
    name = plain_name(name)
    bot.names[user_id] = name
    return name


async def picture_names(bot: GameBot, view: GameView, locale: str = SOURCE) -> dict[Player, str]:
    """Both players' display names, by colour (the computer's in ``locale``)."""
    return {
        Player.PINK: await display_name(bot, view.pink_id, locale),
        Player.BLUE: await display_name(bot, view.blue_id, locale),
    }


def mention(user_id: int, locale: str = SOURCE) -> str:
    """A user as a mention in message text; the computer by its name in ``locale`` (it has
    no account)."""
    return computer_name(user_id, locale) if is_computer(user_id) else f"<@{user_id}>"


def mentions(view: GameView, locale: str = SOURCE) -> dict[Player, str]:
    """Both players as mentions, by colour (for message text in ``locale``)."""
    return {Player.PINK: mention(view.pink_id, locale), Player.BLUE: mention(view.blue_id, locale)}


def thread_name(game_id: int, pink: str, blue: str, locale: str = SOURCE) -> str:
    """The name of a game's thread; it carries the game id, so it is found after a restart."""
    name = _(
        "Dots #{game_id}: {pink} vs {blue}",
        game_id=game_id,
        pink=plain_name(pink),
        blue=plain_name(blue),
    )
    return fit_name(translate(locale, name))
