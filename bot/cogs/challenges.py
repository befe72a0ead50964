"""Challenges: /challenge (to a member, or open to anyone here), the Accept, Decline and
Withdraw buttons under a challenge, and what its message says when accepted, closed or
expired. Accepting starts the game (``bot.cogs.starts``); the challenge itself lives in the
database (``bot.games``), so its buttons work after a restart.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from datetime import timedelta
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.client import GameBot, bot_of
from bot.cogs.interactions import in_time, post_answer, public_locale, update_clicked
from bot.cogs.locales import user_locale
from bot.cogs.names import mentions
from bot.cogs.on_card import anywhere, home_guild
from bot.cogs.options import (
    OPTION_CHOICES,
    OPTION_DESCRIPTIONS,
    TAKEBACKS_DESCRIPTION,
    game_options,
)
from bot.cogs.persistent import ActionButton, CustomId
from bot.cogs.posts import edit_message, edit_placeholder
from bot.cogs.starts import post_game_start, start_against_computer
from bot.games import (
    NO_SERVER,
    Challenge,
    ChallengeCalledOff,
    ChallengeStatus,
    GameView,
    NotYourChallenge,
    PostKind,
    Refusal,
    owing_close,
)
from bot.games.computer import DEFAULT_LEVEL
from bot.i18n import N_, SOURCE, _, translate
from bot.option_words import words_of
from bot.outbox import delivering
from engine import Colour

log = logging.getLogger(__name__)


class Challenges(commands.Cog):
    """/challenge."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_dots_challenge_called_off(self, event: ChallengeCalledOff) -> None:
        """A decline or withdrawal whose post a crash left unsent (``bot.outbox``): shown now."""
        async with delivering(self.bot.outbox, PostKind.CLOSED):
            await show_called_off(self.bot, event.challenge, event.token)

    @app_commands.command(name="challenge", description=N_("Challenge someone to a game of Dots"))
    @anywhere
    @app_commands.describe(
        opponent=N_("Who you want to play (leave it out: anyone here may accept)"),
        rated=N_("Whether the game counts for the leaderboard (default yes)"),
        takebacks=TAKEBACKS_DESCRIPTION,
        **OPTION_DESCRIPTIONS,
    )
    @app_commands.choices(**OPTION_CHOICES)
    async def challenge(  # noqa: PLR0917 (slash command options are positional)
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.User | None = None,
        size: str = "10x10",
        rules: str = "standard",
        start: str = "empty",
        clock: int | None = None,
        colour: str = "random",
        rated: bool = True,
        time: str | None = None,
        takebacks: bool | None = None,
    ) -> None:
        """Post a challenge with Accept and Decline buttons; without an opponent, an open
        challenge that anyone here but the challenger may accept (no Decline); naming the bot
        itself starts a game against the computer (medium, unrated) instead."""
        options = game_options(
            size, rules, start, clock, colour, rated=rated, time=time, takebacks=takebacks
        )
        bot_user = self.bot.user
        if opponent is not None and bot_user is not None and opponent.id == bot_user.id:
            await start_against_computer(interaction, DEFAULT_LEVEL, replace(options, rated=False))
            return
        assert interaction.channel_id is not None
        guild_id, channel_id = home_guild(interaction), interaction.channel_id
        if guild_id == NO_SERVER:  # unrated: on no server's leaderboard
            options = replace(options, rated=False)
        locale = await public_locale(interaction)

        async def open_challenge() -> tuple[Challenge, timedelta]:
            challenge = await self.bot.service.challenge(
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=interaction.user.id,
                opponent_id=None if opponent is None else opponent.id,
                options=options,
                opponent_is_bot=opponent is not None and opponent.bot,
            )
            return challenge, await self._server_clock(challenge)

        (challenge, server_clock), deferred = await in_time(interaction, open_challenge())
        message = await post_answer(
            interaction,
            deferred,
            challenge_text(challenge, server_clock, locale),
            view=challenge_view(
                challenge.challenge_id, open_to_anyone=opponent is None, locale=locale
            ),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[] if opponent is None else [opponent]
            ),
        )
        if message is not None:
            await self.bot.service.set_challenge_message(
                challenge_id=challenge.challenge_id, message_id=message.id
            )

    async def _server_clock(self, challenge: Challenge) -> timedelta:
        """The move clock of a challenge: its own, or else the server's default."""
        if challenge.options.clock is not None:
            return challenge.options.clock
        settings = await self.bot.service.guild_settings(guild_id=challenge.guild_id)
        return settings.default_clock


class ChallengeButton(
    ActionButton,
    custom_id=CustomId("dots:challenge", ("accept", "decline", "cancel")),
):
    """Accept, Decline (the challenged player) or Withdraw (the challenger) a challenge."""

    LABELS: ClassVar[dict[str, str]] = {
        "accept": N_("Accept"),
        "decline": N_("Decline"),
        "cancel": N_("Withdraw"),
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "accept": discord.ButtonStyle.success,
        "decline": discord.ButtonStyle.danger,
        "cancel": discord.ButtonStyle.secondary,
    }

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Accept, decline or withdraw."""
        try:
            if self.action == "accept":
                await accept_challenge(interaction, self.key)
            else:
                await close_challenge(interaction, self.key, self.action)
        except NotYourChallenge as refusal:
            raise Refusal(
                _(
                    "This is not your challenge: {reason}",
                    reason=refusal.render(user_locale(interaction)),
                )
            ) from None


def challenge_view(
    challenge_id: int,
    *,
    disabled: bool = False,
    open_to_anyone: bool = False,
    locale: str = SOURCE,
) -> discord.ui.View:
    """The buttons under a challenge (an open one, to anyone, has no Decline), in ``locale``."""
    view = discord.ui.View(timeout=None)
    actions = ("accept", "cancel") if open_to_anyone else ("accept", "decline", "cancel")
    for action in actions:
        view.add_item(ChallengeButton(action, challenge_id, disabled=disabled, locale=locale))
    return view


def accepted_text(challenge: Challenge, view: GameView, locale: str = SOURCE) -> str:
    """What a challenge's message says once accepted."""
    pink, blue = mentions(view, locale).values()
    accepted = _(
        "<@{user}> accepted. Game #{game_id}: {pink} (Pink) vs {blue} (Blue).",
        user=challenge.opponent_id,
        game_id=view.game_id,
        pink=pink,
        blue=blue,
    )
    return translate(locale, accepted)


def offer_names(challenge: Challenge) -> dict[str, int | None]:
    """The fields a rematch offer's sentences name: ``challenger``, ``opponent`` and the
    finished game (``game_id``)."""
    return {
        "challenger": challenge.challenger_id,
        "opponent": challenge.opponent_id,
        "game_id": challenge.rematch_of,
    }


def expired_text(challenge: Challenge, locale: str = SOURCE) -> str:
    """What a challenge's message says once it expired unanswered."""
    if challenge.opponent_id is None:
        message = _(
            "The open challenge of <@{challenger}> expired: nobody took it.",
            challenger=challenge.challenger_id,
        )
    elif challenge.rematch_of is not None:
        message = _(
            "The rematch offer of <@{challenger}> to <@{opponent}> (game #{game_id}) expired "
            "unanswered.",
            **offer_names(challenge),
        )
    else:
        message = _(
            "The challenge of <@{challenger}> to <@{opponent}> expired unanswered.",
            challenger=challenge.challenger_id,
            opponent=challenge.opponent_id,
        )
    return translate(locale, message)


def challenge_text(challenge: Challenge, server_clock: timedelta, locale: str = SOURCE) -> str:
    """The public text of a challenge, in ``locale`` (``server_clock``: the server's default
    move clock, shown when the challenge sets none)."""
    options = challenge.options
    settings = text.describe_game_options(options, locale, server_clock=server_clock)
    colour = translate(locale, words_of(Colour(options.colour)).description)
    fields = {"challenger": challenge.challenger_id, "settings": settings, "colour": colour}
    if challenge.opponent_id is None:
        message = _(
            "<@{challenger}> challenges anyone here to Dots ({settings}; the challenger plays "
            "{colour}). The first to accept plays. The challenge expires in 10 minutes.",
            **fields,
        )
    else:
        message = _(
            "<@{opponent}>, <@{challenger}> challenges you to Dots ({settings}; the challenger "
            "plays {colour}). The challenge expires in 10 minutes.",
            opponent=challenge.opponent_id,
            **fields,
        )
    return translate(locale, message)


# -- what the buttons do ---------------------------------------------------------------------


async def accept_challenge(interaction: discord.Interaction[Any], challenge_id: int) -> None:
    """The challenged player accepts: a thread, the first picture and a ping for Pink."""
    bot = bot_of(interaction)

    async def accept() -> tuple[GameView, Challenge]:
        view = await bot.service.accept(challenge_id=challenge_id, user_id=interaction.user.id)
        return view, await bot.service.get_challenge(challenge_id)

    (view, challenge), deferred = await in_time(interaction, accept(), update=True)
    locale = await public_locale(interaction)
    # Answer first (names, thread and picture take further round trips to Discord).
    await update_clicked(
        interaction,
        deferred,
        accepted_text(challenge, view, locale),
        view=challenge_view(challenge_id, disabled=True, locale=locale),
    )
    message = interaction.message
    await bot.service.mark_answer_shown(
        challenge_id=challenge_id, message_id=None if message is None else message.id
    )
    await post_game_start(bot, interaction, view, message)


async def close_challenge(
    interaction: discord.Interaction[Any], challenge_id: int, action: str
) -> None:
    """Decline (the challenged) or withdraw (the challenger) a challenge. Its post (the message
    saying so) is stored with the change, in its transaction, and delivered inside
    ``delivering``: a crash between the two leaves it for the next start."""
    bot = bot_of(interaction)
    service = bot.service
    close = service.decline if action == "decline" else service.cancel
    with owing_close(challenge_id, token=interaction.token):
        challenge, deferred = await in_time(
            interaction, close(challenge_id=challenge_id, user_id=interaction.user.id), update=True
        )
        async with delivering(bot.outbox, PostKind.CLOSED):
            locale = await public_locale(interaction)
            await update_clicked(
                interaction,
                deferred,
                called_off_text(challenge, locale),
                view=challenge_view(challenge_id, disabled=True, locale=locale),
            )


def called_off_text(challenge: Challenge, locale: str = SOURCE) -> str:
    """What a challenge's message says once declined or withdrawn."""
    if challenge.status == ChallengeStatus.DECLINED:
        message = _("<@{user}> declined the challenge.", user=challenge.opponent_id)
    else:
        message = _("<@{user}> withdrew the challenge.", user=challenge.challenger_id)
    return translate(locale, message)


async def show_called_off(bot: GameBot, challenge: Challenge, token: str | None) -> None:
    """Show a decline or withdrawal after a restart: in the placeholder of the click it
    answered (its challenge's message) while Discord still allows the click's token, else by
    editing the challenge's message. Both are edits: shown once however often they are done."""
    locale = await bot.locales.of_place(challenge.guild_id, challenge.channel_id)
    content = called_off_text(challenge, locale)
    buttons = challenge_view(challenge.challenge_id, disabled=True, locale=locale)
    if token is not None:
        try:
            await edit_placeholder(bot, token, content, view=buttons)
            return
        except discord.HTTPException:
            log.info("challenge %s: the placeholder of its click is gone", challenge.challenge_id)
    if challenge.message_id is None:
        return
    channel = bot.get_partial_messageable(challenge.channel_id, guild_id=challenge.guild_id)
    message = channel.get_partial_message(challenge.message_id)
    with contextlib.suppress(discord.HTTPException):
        await edit_message(
            message,
            content=content,
            view=buttons,
            allowed_mentions=discord.AllowedMentions.none(),
        )
