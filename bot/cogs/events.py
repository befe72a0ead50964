"""What happens without anyone typing: expired challenges, time-outs, reminders."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot import text
from bot.cogs.common import announce, jump_url, notify_turn, send_to_game
from bot.cogs.play import challenge_view
from bot.games import ChallengeExpired, Event, Reminder, TimedOut, is_computer

if TYPE_CHECKING:
    from bot.app import DotsBot

log = logging.getLogger(__name__)


class Events(commands.Cog):
    """Posts the service's events: a challenge's buttons disabled when it expires, a time-out's
    outcome in the game's thread, and the reminder when a third of a long clock is left."""

    def __init__(self, bot: DotsBot) -> None:
        self.bot = bot

    async def on_service_event(self, event: Event) -> None:
        """Handle one service event (the service logs anything raised here)."""
        if isinstance(event, ChallengeExpired):
            await self.challenge_expired(event)
        elif isinstance(event, TimedOut):
            await announce(self.bot, event.outcome)
        elif isinstance(event, Reminder):
            await self.remind(event)

    async def challenge_expired(self, event: ChallengeExpired) -> None:
        """Edit the challenge message: expired, buttons disabled."""
        challenge = event.challenge
        if challenge.message_id is None:
            return
        channel = self.bot.get_partial_messageable(
            challenge.channel_id, guild_id=challenge.guild_id
        )
        message = channel.get_partial_message(challenge.message_id)
        try:
            await message.edit(
                content=(
                    f"The challenge of <@{challenge.challenger_id}> to "
                    f"<@{challenge.opponent_id}> expired unanswered."
                ),
                view=challenge_view(challenge.challenge_id, disabled=True),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.info("could not edit expired challenge %s", challenge.challenge_id)

    async def remind(self, event: Reminder) -> None:
        """A third of the clock is left: DM (if opted in) or ping in the thread; the computer
        needs no reminder."""
        if is_computer(event.user_id):
            return
        view = event.view
        left = text.format_duration(event.left)
        message = f"Reminder: {left} left for your move in Dots game #{view.game_id}"
        if await self.bot.service.wants_notify(user_id=event.user_id):
            await notify_turn(
                self.bot, view, event.user_id, reminder=f"{message}: {jump_url(view)}"
            )
        else:
            await send_to_game(self.bot, view, f"<@{event.user_id}> {message}.")
