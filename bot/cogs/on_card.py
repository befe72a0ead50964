"""Games that live on their card: those started where the app is used as a user's install (a
DM with the bot, a group DM, a server that never added the bot).

There the bot may answer interactions but not post on its own nor open a thread (Discord
answers 403 / 50001), so such a game has no thread and no server: its ``guild_id`` is
``bot.games.NO_SERVER`` (0: no Discord snowflake is 0; not NULL, as ``games.guild_id`` is NOT NULL
since 0001 and SQLite could drop that only by copying the table, which foreign keys refuse:
see migration 0005). It is unrated, so on no server's leaderboard; its timers run on shard 0.
It speaks its place's language (``Locales.of_place``): the server's, else the client's of the
player whose click its posts follow.

Its cards are follow-ups of the players' own interactions: each click is a fresh
interaction, and an interaction's webhook answers for 15 minutes (``TOKEN_LIFE``). What
happens with no player's interaction that recent (a time-out, a reminder) goes to the
players' DMs with the bot, where Discord lets it, and the next click shows the game as it
is. Nothing here is retried: a place the bot can never post in is not an error. The
interactions are kept in memory only: after a restart the next click carries on.
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Sequence
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.cogs.client import GameBot, bot_of
from bot.cogs.posts import edit_message, follow_up, send
from bot.games import NO_SERVER, GameView, Refusal, is_computer
from bot.i18n import N_

log = logging.getLogger(__name__)

T = TypeVar("T")

# An interaction's token answers for 15 minutes; a follow-up started a minute before the end
# (a picture to render, a slow upload) still arrives in time.
TOKEN_LIFE = 14 * 60.0


def anywhere(command: T) -> T:
    """A slash command offered wherever the app is: installed to a server or to a user, in a
    server, a DM with the bot and a group DM (Discord's ``integration_types`` and
    ``contexts``)."""
    command = app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(command)
    return app_commands.allowed_installs(guilds=True, users=True)(command)


def home_guild(interaction: discord.Interaction[Any]) -> int:
    """The server a game started by ``interaction`` belongs to: the interaction's when the app
    is installed there (the bot is a member), else ``NO_SERVER`` (it lives on its card).

    Raises:
        Refusal: the game would live on its card, and this bot has no cards.
    """
    if interaction.guild_id is not None and interaction.is_guild_integration():
        return interaction.guild_id
    bot = bot_of(interaction)
    if bot.post_card is None:
        raise Refusal(N_("games outside a server need game cards, and this bot has them off"))
    bot.locales.note(interaction)  # the language of the place, for its first post
    return NO_SERVER


def lives_on_card(view: GameView) -> bool:
    """Whether ``view``'s game lives on its card (no server with the bot, no thread)."""
    return view.guild_id == NO_SERVER


class _Reach:
    """What the bot may still post through for each game that lives on its card: the newest
    interaction in its channel, and the card messages it posted with their interactions."""

    def __init__(self) -> None:
        self.latest: dict[int, tuple[discord.Interaction[Any], float]] = {}
        self.cards: dict[int, tuple[discord.WebhookMessage, float]] = {}

    def forget_expired(self, now: float) -> None:
        """Drop what no token answers for any more (kept, both would grow with every game)."""
        for kept in (self.latest, self.cards):
            for key in [key for key, (_, when) in kept.items() if now - when > TOKEN_LIFE]:
                del kept[key]


_REACH: weakref.WeakKeyDictionary[GameBot, _Reach] = weakref.WeakKeyDictionary()


def _reach(bot: GameBot) -> _Reach:
    found = _REACH.get(bot)
    if found is None:
        found = _REACH[bot] = _Reach()
    return found


def note_interaction(bot: GameBot, game_id: int, interaction: discord.Interaction[Any]) -> None:
    """Remember ``interaction`` as the newest one in game ``game_id``'s place (its follow-ups
    carry the game's posts for the next ``TOKEN_LIFE`` seconds)."""
    reach, now = _reach(bot), time.monotonic()
    reach.forget_expired(now)
    reach.latest[game_id] = (interaction, now)
    bot.locales.note(interaction)  # its posts follow this interaction, in its place's language


def live_interaction(bot: GameBot, view: GameView) -> discord.Interaction[Any] | None:
    """The newest interaction in the channel of ``view``'s game whose token still answers."""
    found = _reach(bot).latest.get(view.game_id)
    if found is None:
        return None
    interaction, when = found
    if time.monotonic() - when > TOKEN_LIFE or interaction.channel_id != view.channel_id:
        return None
    return interaction


async def post_on_card(
    bot: GameBot,
    game: GameView,
    news: str,
    *,
    files: Sequence[discord.File] = (),
    **fields: Any,
) -> discord.WebhookMessage | None:
    """Post in the place of ``game``, which lives on its card: a follow-up of the
    newest interaction there (``fields``: its content or layout), else a DM of ``news`` (what
    it says, without buttons) to each player; None then (the next click shows the game)."""
    interaction = live_interaction(bot, game)
    if interaction is not None:
        try:
            posted: discord.WebhookMessage = await follow_up(
                interaction, files=list(files), wait=True, **fields
            )
        except discord.HTTPException as error:
            log.info("game %s: its post was refused (%s)", game.game_id, error.code)
        else:
            _reach(bot).cards[posted.id] = (posted, time.monotonic())
            return posted
    await tell_players(bot, game, news)
    return None


async def tell_players(bot: GameBot, view: GameView, content: str) -> None:
    """DM each person playing in ``view``'s game ``content`` (nothing when Discord refuses:
    closed DMs are no fault of ours)."""
    for user_id in (view.pink_id, view.blue_id):
        if is_computer(user_id):
            continue
        try:
            user = bot.get_user(user_id) or await bot.fetch_user(user_id)
            await send(user, content, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.info("game %s: could not DM player %s", view.game_id, user_id)


async def retire_posted(bot: GameBot, message_id: int, strip: Any) -> None:
    """Take the buttons off card ``message_id`` (posted by ``post_on_card``) while its
    interaction's token answers; ``strip`` removes them from its layout. An older card keeps
    them: a click on it is refused (it is not the game's card)."""
    found = _reach(bot).cards.pop(message_id, None)
    if found is None or time.monotonic() - found[1] > TOKEN_LIFE:
        return
    message = found[0]
    try:
        layout = discord.ui.LayoutView.from_message(message, timeout=None)
        strip(layout)
        await edit_message(message, view=layout)
    except discord.HTTPException:
        log.info("could not take the buttons off card %s", message_id)
