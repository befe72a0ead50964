"""What happens without anyone typing: expired challenges, time-outs, reminders and the
computer's moves.

The service publishes these events; ``bot.app.DotsBot`` dispatches each through discord.py
(``bot.dispatch("dots_timed_out", event)``), and the listeners here post them.
"""

from __future__ import annotations

import logging
import re
from dataclasses import replace

import discord
from discord.ext import commands

from bot import text
from bot.cogs.challenges import challenge_view, expired_text
from bot.cogs.client import GameBot
from bot.cogs.outcomes import announce
from bot.cogs.posting import jump_url, notify_turn, send_to_game
from bot.cogs.posts import edit_message, fit_list
from bot.games import (
    ChallengeExpired,
    ComputerMoved,
    MoveOutcome,
    PostKind,
    Reminder,
    TimedOut,
    computer_name,
    is_computer,
)
from bot.i18n import SOURCE, _, translate
from bot.outbox import delivering

log = logging.getLogger(__name__)

# The characters the list of dots the computer played alone may take in its post (a long run
# alone, hundreds of dots, is summed up: the result and the picture must fit after it).
ALONE_LIST_BUDGET = 1200


def event_name(event: type) -> str:
    """The name an event is dispatched under: ``dots_`` and its class's name in snake case
    (``TimedOut``: ``dots_timed_out``, received by a listener ``on_dots_timed_out``)."""
    return "dots" + re.sub(r"([A-Z])", r"_\1", event.__name__).lower()


class Events(commands.Cog):
    """Posts the service's events: a challenge's buttons disabled when it expires, a time-out's
    outcome in the game's thread, the reminders of a turn on a long clock, and the computer's
    moves."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:  # type: ignore[type-arg]
        """Remember the languages each interaction shows (direct messages and public posts
        outside an interaction are written in them)."""
        self.bot.locales.note(interaction)

    @commands.Cog.listener()
    async def on_dots_challenge_expired(self, event: ChallengeExpired) -> None:
        """Edit the challenge message: expired, buttons disabled."""
        challenge = event.challenge
        async with delivering(self.bot.outbox, PostKind.EXPIRED):
            if challenge.message_id is None:
                return
            channel = self.bot.get_partial_messageable(
                challenge.channel_id, guild_id=challenge.guild_id
            )
            message = channel.get_partial_message(challenge.message_id)
            locale = await self.bot.locales.of_place(challenge.guild_id, challenge.channel_id)
            try:
                await edit_message(
                    message,
                    content=expired_text(challenge, locale),
                    view=challenge_view(
                        challenge.challenge_id,
                        disabled=True,
                        open_to_anyone=challenge.opponent_id is None,
                        locale=locale,
                    ),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException:
                log.info("could not edit expired challenge %s", challenge.challenge_id)

    @commands.Cog.listener()
    async def on_dots_timed_out(self, event: TimedOut) -> None:
        """Post the time-out's outcome (with the nonces of its outbox row)."""
        async with delivering(self.bot.outbox, PostKind.TIME_OUT):
            await announce(self.bot, event.outcome)

    @commands.Cog.listener()
    async def on_dots_reminder(self, event: Reminder) -> None:
        """A reminder of the turn is due (at the player's frequency): DM (if opted in) or ping
        in the thread; the computer needs no reminder."""
        async with delivering(self.bot.outbox, PostKind.REMINDER):
            if is_computer(event.user_id):
                return
            view = event.view

            def reminder(locale: str, *, link: bool = True) -> str:
                left = text.format_duration(event.left, locale=locale)
                said: dict[str, object] = {"left": left, "game_id": view.game_id}
                if link:
                    message = _(
                        "Reminder: {left} left for your move in Dots game #{game_id}: {url}",
                        url=jump_url(view),
                        **said,
                    )
                else:
                    message = _(
                        "Reminder: {left} left for your move in Dots game #{game_id}.", **said
                    )
                return translate(locale, message)

            if await self.bot.service.wants_notify(user_id=event.user_id):
                await notify_turn(self.bot, view, event.user_id, reminder=reminder)
            else:
                locale = await self.bot.locales.of_place(view.guild_id, view.channel_id)
                await send_to_game(
                    self.bot, view, f"<@{event.user_id}> {reminder(locale, link=False)}"
                )

    @commands.Cog.listener()
    async def on_dots_computer_moved(self, event: ComputerMoved) -> None:
        """Post the computer's move (one post for dots it played on alone), after the post of
        the move it answers."""
        outcome = event.outcome
        async with delivering(self.bot.outbox, PostKind.COMPUTER):
            await self.bot.posts.idle(outcome.view.game_id)
            # The computer may have moved before its game had a thread (it plays first as soon as
            # the game is stored): post where the game is played now, not where it was then.
            home = await self.bot.service.game(outcome.view.game_id)
            if home.thread_id != outcome.view.thread_id:
                outcome = replace(outcome, view=replace(outcome.view, thread_id=home.thread_id))
            # Stickers earned during a run alone are announced with its last action.
            earned = tuple(news for each in event.outcomes for news in each.stickers)
            if earned != outcome.stickers:
                outcome = replace(outcome, stickers=earned)
            locale = await self.bot.locales.of_place(outcome.view.guild_id, outcome.view.channel_id)
            await announce(self.bot, outcome, earlier=alone_line(event.outcomes[:-1], locale))


def alone_line(outcomes: tuple[MoveOutcome, ...], locale: str = SOURCE) -> str:
    """The computer's dots played alone before its last action, e.g. ``"Computer (easy)
    plays on alone: D5, E6 (captures 2)."``; empty when there were none. A long run is cut
    with "… and N more" (``ALONE_LIST_BUDGET``)."""
    dots = text.run_dots(outcomes, locale)
    by = [o.view.user_of(o.action.player) for o in outcomes if o.action and o.action.point]
    if not by:
        return ""
    alone = _(
        "{name} plays on alone: {dots}.",
        name=computer_name(by[-1], locale),
        dots=fit_list(dots, ALONE_LIST_BUDGET, locale=locale),
    )
    return translate(locale, alone)
