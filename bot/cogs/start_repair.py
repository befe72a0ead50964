"""The start-up's repair: finishing, once connected, the game starts a kill interrupted.

What a start has done is in the database: the game's thread id, its first picture's message
id, and whether the challenge's message says it was accepted. Each step is recorded as it is
done, so finishing is idempotent (a kill in the middle of a step may repeat that step).
"""

from __future__ import annotations

import logging
from datetime import datetime

import discord
from discord.ext import commands

from bot.cogs.challenges import ChallengeButton, accepted_text, challenge_view
from bot.cogs.client import GameBot
from bot.cogs.posts import edit_message
from bot.cogs.starts import post_game_start
from bot.games import Challenge

log = logging.getLogger(__name__)


async def challenge_message(bot: GameBot, challenge: Challenge) -> discord.PartialMessage | None:
    """The message showing ``challenge``: by its recorded id, else found among the channel's
    last 50 messages by its Accept button (a kill can come before the id was recorded)."""
    channel = bot.get_partial_messageable(challenge.channel_id, guild_id=challenge.guild_id)
    if challenge.message_id is not None:
        return channel.get_partial_message(challenge.message_id)
    accept = ChallengeButton.ID.format("accept", challenge.challenge_id)
    try:
        async for message in channel.history(limit=50):
            if message.author.id == getattr(bot.user, "id", None) and any(
                getattr(child, "custom_id", None) == accept
                for row in message.components
                for child in getattr(row, "children", [])
            ):
                return channel.get_partial_message(message.id)
    except discord.HTTPException:
        log.info("could not read the channel of challenge %s", challenge.challenge_id)
    return None


async def finish_starts(bot: GameBot, *, before: datetime) -> int:
    """Finish the starts a kill interrupted (see the module's docstring); how many steps. Only
    what was made ``before`` (the start of this process): a start under way is left alone."""
    service = bot.service
    done = 0
    shown: dict[int, discord.PartialMessage] = {}
    for challenge in await service.unshown_accepts():
        if challenge.game_id is None:
            continue
        view = await service.game(challenge.game_id)
        if view.started >= before:
            continue
        message = await challenge_message(bot, challenge)
        if message is not None:
            try:
                await edit_message(
                    message,
                    content=accepted_text(challenge, view),
                    view=challenge_view(challenge.challenge_id, disabled=True),
                )
            except discord.HTTPException:
                log.info("could not edit the message of challenge %s", challenge.challenge_id)
            shown[challenge.game_id] = message
        await service.mark_answer_shown(
            challenge_id=challenge.challenge_id,
            message_id=None if message is None else message.id,
        )
        done += 1
    for challenge in await service.unrecorded_challenges():
        if challenge.created >= before:
            continue
        message = await challenge_message(bot, challenge)
        if message is not None:
            await service.set_challenge_message(
                challenge_id=challenge.challenge_id, message_id=message.id
            )
            done += 1
    for view in await service.unstarted_games():
        if view.started >= before or await service.is_tournament_game(game_id=view.game_id):
            continue  # a tournament's games are started by its round's post (the outbox)
        message = shown.get(view.game_id)
        if message is None and view.challenge_id is not None:
            challenge = await service.get_challenge(view.challenge_id)
            message = await challenge_message(bot, challenge)
        with bot.posts.pending(view.game_id):
            await post_game_start(bot, None, view, message)
        done += 1
    return done


class StartRepair(commands.Cog):
    """Finishes, once connected after a start-up, the game starts a kill interrupted."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._finished = False
        self._since = bot.service.now()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per process (``on_ready`` also follows a reconnect): finish the starts. Admitted
        like an interaction's handler, so a close under way waits for it before the database
        closes (what it leaves undone, the next start-up finishes)."""
        if self._finished or not self.bot.admit():
            return
        self._finished = True
        try:
            done = await finish_starts(self.bot, before=self._since)
        except Exception:
            log.exception("could not finish the interrupted starts")
            return
        if done:
            log.info("interrupted starts finished: %d steps", done)
