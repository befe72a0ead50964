"""The Rematch button under a game's result.

Either player of a finished game may click it: against a person it posts the offer (a
challenge with fixed colours, ``bot.games.rematch``) in the game's channel, with the
challenge's own buttons, so accepting it opens the new game's thread like any challenge;
against the computer the new game starts at once in a thread of its own. Every result is
posted with ``result_buttons`` (``bot.cogs.outcomes``). A game that lived on its card
(``bot.cogs.on_card``: a DM, a group DM) has its offer as the answer to the click, where the
bot may not post on its own, and the new game lives on its card too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import ExitStack
from typing import Any

import discord
from discord.ext import commands

from bot import text
from bot.cogs.challenges import challenge_view, offer_names
from bot.cogs.client import GameBot, bot_of
from bot.cogs.interactions import in_time, post_answer, reply
from bot.cogs.on_card import lives_on_card
from bot.cogs.persistent import CustomId, PersistentItem
from bot.cogs.posts import edit_placeholder, send
from bot.cogs.review import ReviewButton
from bot.cogs.start_repair import challenge_message
from bot.cogs.starts import post_game_start
from bot.games import (
    NO_SERVER,
    Challenge,
    GameStatus,
    GameView,
    PostKind,
    Refusal,
    RematchOffered,
    computer_name,
    is_computer,
    owing_offer,
)
from bot.i18n import N_, SOURCE, _, translate
from bot.option_words import words_of
from bot.outbox import delivering
from engine import Colour

log = logging.getLogger(__name__)

# Discord's error codes for a user who is no member of a server (any more), or no user at all.
UNKNOWN_MEMBER, UNKNOWN_USER = 10007, 10013

# How long the member lookup before a rematch offer may take (of Discord's 3 seconds for the
# first answer); past it the offer goes ahead, as it did before members were looked up.
MEMBER_LOOKUP_SECONDS = 1.5


class OpponentLeft(Refusal):
    """The other player of the finished game is no longer a member of its server."""


# -- what players read ---


def settings_text(options_of: Challenge | GameView, locale: str = SOURCE) -> str:
    """The settings of a rematch in one line (the game's own clock, never a default)."""
    return text.describe_game_options(options_of.options, locale)


def offer_text(challenge: Challenge, locale: str = SOURCE) -> str:
    """The public rematch offer, to the other player."""
    colour = challenge.options.colour
    offer = _(
        "<@{opponent}>, <@{challenger}> asks you for a rematch of game #{game_id} ({settings}; "
        "colours swapped: <@{challenger}> plays {colour}). The offer expires in 10 minutes.",
        **offer_names(challenge),
        settings=settings_text(challenge, locale),
        colour=translate(locale, words_of(Colour(colour)).description),
    )
    return translate(locale, offer)


def offer_post(offer: Challenge, locale: str) -> dict[str, Any]:
    """The offer's post: its text, the challenge's buttons, a ping of the other player only."""
    assert offer.opponent_id is not None
    return {
        "content": offer_text(offer, locale),
        "view": challenge_view(offer.challenge_id, locale=locale),
        "allowed_mentions": discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(offer.opponent_id)]
        ),
    }


def asked_text(challenge: Challenge, link: str, locale: str = SOURCE) -> str:
    """The answer to the click in the finished game's thread: where the offer is."""
    asked = _(
        "<@{challenger}> asks <@{opponent}> for a rematch: {link}",
        challenger=challenge.challenger_id,
        opponent=challenge.opponent_id,
        link=link,
    )
    return translate(locale, asked)


def computer_rematch_text(view: GameView, user_id: int, locale: str = SOURCE) -> str:
    """The answer to the click against the computer: the new game."""
    computer = view.blue_id if view.pink_id == user_id else view.pink_id
    colour = N_("Pink (moves first)") if view.pink_id == user_id else N_("Blue")
    again = _(
        "<@{user}> plays {name} again: game #{game_id} ({settings}; colours swapped: you play "
        "{colour}).",
        user=user_id,
        name=computer_name(computer, locale),
        game_id=view.game_id,
        settings=settings_text(view, locale),
        colour=translate(locale, colour),
    )
    return translate(locale, again)


def message_link(guild_id: int, channel_id: int, message_id: int) -> str:
    """A link to a message."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


# -- the button ---


class RematchButton(
    PersistentItem[discord.ui.Button[Any]],
    custom_id=CustomId("dots:rematch", ("offer",)),
):
    """Rematch (under a result; the key is the finished game's id), for either player."""

    def component(self, *, locale: str = SOURCE, **options: Any) -> discord.ui.Button[Any]:
        """The button, its label in ``locale``."""
        return discord.ui.Button(
            label=translate(locale, N_("Rematch")),
            style=discord.ButtonStyle.primary,
            custom_id=self.made_id(),
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Offer the rematch, or start it against the computer (refusals are private).

        Raises:
            OpponentLeft: the other player left the server (asked of Discord before any
                answer, so that the refusal is private from the start).
        """
        bot = bot_of(interaction)
        old = await bot.service.game(self.key)
        colour = old.player_of(interaction.user.id)  # None: a bystander, refused by the service
        if colour is not None and not lives_on_card(old):  # on a card: no server to leave
            other = old.user_of(colour.opponent)
            if not is_computer(other) and not await is_member(bot, old.guild_id, other):
                raise OpponentLeft(N_("your opponent is no longer in this server: no rematch"))
        pending = ExitStack()

        async def ask() -> Challenge | GameView:
            made = await bot.service.rematch(game_id=self.key, user_id=interaction.user.id)
            if isinstance(made, GameView):
                # Pending from the commit on (in the same step): the computer's first move
                # waits for the start's post.
                pending.enter_context(bot.posts.pending(made.game_id))
            return made

        # An offer's post is stored with it (in its transaction) and delivered inside
        # ``delivering``: a crash between the two leaves it for the next start.
        with owing_offer(self.key, token=interaction.token):
            made, deferred = await in_time(interaction, ask())
            with pending:
                if isinstance(made, GameView):
                    await start_computer_rematch(interaction, deferred, made)
                    return
                async with delivering(bot.outbox, PostKind.OFFERED):
                    await post_offer(bot, interaction, deferred, made)


async def is_member(bot: GameBot, guild_id: int, user_id: int) -> bool:
    """Whether ``user_id`` is still a member of server ``guild_id``, as Discord says (the bot has
    no members intent, so no event tells it who left); True when Discord does not say in time."""
    try:
        await asyncio.wait_for(bot.http.get_member(guild_id, user_id), MEMBER_LOOKUP_SECONDS)
    except discord.NotFound as error:
        return error.code not in (UNKNOWN_MEMBER, UNKNOWN_USER)
    except (TimeoutError, discord.HTTPException) as error:
        log.warning("could not look up member %s of server %s: %s", user_id, guild_id, error)
    return True


async def post_offer(
    bot: GameBot, interaction: discord.Interaction[Any], deferred: bool | None, offer: Challenge
) -> None:
    """Post the offer in the game's channel (pinging the other player) and say where; for a
    game that lived on its card, the offer is the answer to the click."""
    locale = await bot.locales.of_place(offer.guild_id, offer.channel_id)
    if offer.guild_id == NO_SERVER:
        message = await post_answer(interaction, deferred, **offer_post(offer, locale))
        if message is not None:
            await bot.service.set_challenge_message(
                challenge_id=offer.challenge_id, message_id=message.id
            )
        return
    link = await send_offer(bot, offer)
    await reply(
        interaction,
        deferred,
        asked_text(offer, link, locale),
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def send_offer(bot: GameBot, offer: Challenge) -> str:
    """Post the offer in the game's channel, pinging the other player, and remember its
    message; the link to it."""
    channel = bot.get_partial_messageable(offer.channel_id, guild_id=offer.guild_id)
    locale = await bot.locales.of_place(offer.guild_id, offer.channel_id)
    message = await send(channel, **offer_post(offer, locale))
    await bot.service.set_challenge_message(challenge_id=offer.challenge_id, message_id=message.id)
    return message_link(offer.guild_id, offer.channel_id, message.id)


async def offer_again(bot: GameBot, offer: Challenge, token: str | None) -> None:
    """Post a rematch offer after a restart unless it was posted before the crash (its
    message found by its id or by its Accept button; a resend's nonce keeps it single too),
    and say where in the placeholder of the Rematch click while Discord still allows it. An
    offer of a game that lived on its card can only be that placeholder (nothing when its
    token expired: the players' next click shows where the game stands)."""
    if offer.guild_id == NO_SERVER:
        await offer_in_placeholder(bot, offer, token)
        return
    found = await challenge_message(bot, offer)
    if found is None:
        try:
            link = await send_offer(bot, offer)
        except (discord.Forbidden, discord.NotFound):  # the channel is gone, or closed to us
            log.warning("could not post rematch offer %s again", offer.challenge_id)
            return
    else:
        if offer.message_id is None:
            await bot.service.set_challenge_message(
                challenge_id=offer.challenge_id, message_id=found.id
            )
        link = message_link(offer.guild_id, offer.channel_id, found.id)
    if token is not None:
        locale = await bot.locales.of_place(offer.guild_id, offer.channel_id)
        with contextlib.suppress(discord.HTTPException):
            await edit_placeholder(
                bot,
                token,
                asked_text(offer, link, locale),
                allowed_mentions=discord.AllowedMentions.none(),
            )


async def offer_in_placeholder(bot: GameBot, offer: Challenge, token: str | None) -> None:
    """The offer of a game that lived on its card, in the placeholder of the Rematch click
    whose token is ``token`` (while Discord still accepts it)."""
    if token is None:
        return
    locale = await bot.locales.of_place(offer.guild_id, offer.channel_id)
    try:
        message = await edit_placeholder(bot, token, **offer_post(offer, locale))
    except discord.HTTPException:  # the token expired: no place left to show it
        log.info("rematch offer %s: its click expired before it was shown", offer.challenge_id)
        return
    await bot.service.set_challenge_message(challenge_id=offer.challenge_id, message_id=message.id)


class Rematches(commands.Cog):
    """Delivers the rematch offers a crash left unsent (the Rematch button is a dynamic item,
    ``RematchButton``)."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_dots_rematch_offered(self, event: RematchOffered) -> None:
        """A rematch offer whose post a crash left unsent (``bot.outbox``): posted now."""
        async with delivering(self.bot.outbox, PostKind.OFFERED):
            await offer_again(self.bot, event.challenge, event.token)


async def start_computer_rematch(
    interaction: discord.Interaction[Any], deferred: bool | None, view: GameView
) -> None:
    """Say that the new game against the computer starts, then open its thread."""
    bot = bot_of(interaction)
    assert is_computer(view.pink_id) or is_computer(view.blue_id)
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    message = await post_answer(
        interaction,
        deferred,
        computer_rematch_text(view, interaction.user.id, locale),
        allowed_mentions=discord.AllowedMentions.none(),
    )
    await post_game_start(bot, interaction, view, message)


def result_buttons(view: GameView, locale: str = SOURCE) -> discord.ui.View | None:
    """The buttons under a game's result: Rematch and Review, for a game that is over (not
    aborted)."""
    if view.status != GameStatus.OVER:
        return None
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(RematchButton("offer", view.game_id, locale=locale))
    buttons.add_item(ReviewButton("game", view.game_id, locale=locale))
    return buttons
