"""Answering interactions: deferral in time, answers as a deferral left them, private refusals.

Discord gives an interaction 3 seconds for its first answer. Work that is done within
``ANSWER_BUDGET`` is answered directly (a refusal then is private from the start); slower work
gets a deferral first (``in_time``, ``deferred_if_slow``), and the answer then follows as the
deferral left the interaction (``reply``, ``post_answer``, ``update_clicked``). Every error a
handler raises is answered privately and in words (``answer_error``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from typing import Any, TypeVar

import discord

from bot import text
from bot.cogs.client import bot_of
from bot.cogs.locales import user_locale
from bot.cogs.posts import answer, edit, edit_message, edit_original, follow_up, send
from bot.games import GameView, Refusal
from bot.i18n import N_, SOURCE, Text, translate
from engine import DotsError

log = logging.getLogger(__name__)

T = TypeVar("T")

# Ids the database can hold (SQLite's and PostgreSQL's 64-bit integers); Discord's are smaller.
MAX_ID = 2**63 - 1


# Work that answers within this time is answered directly (a refusal then is private from the
# start); slower work gets a deferral first, well within Discord's 3 seconds.
ANSWER_BUDGET = 0.25


# Discord's error code for an interaction whose 3 seconds (or 15 minutes) ran out.
UNKNOWN_INTERACTION = 10062


# The refusal of an interaction that arrives while the bot is closing.
RESTARTING = N_("I am restarting: try again in a minute. Nothing changed.")


# ``interaction.extras`` key: a public "thinking..." deferral not yet filled in.
PUBLIC_DEFERRAL = "dots_public_deferral"


class NoRunningGame(Refusal):
    """The user has no running game in this server (an adapter-side refusal)."""


class SeveralGames(Exception):  # noqa: N818 (a question to ask, not an error)
    """The user has several running games and did not say which one: ask with a menu."""

    def __init__(self, games: Sequence[GameView]) -> None:
        super().__init__("several running games")
        self.games = list(games)


def sentence(message: str, locale: str = SOURCE) -> str:
    """A refusal's message as a sentence: capital first letter, final full stop."""
    message = message.strip()
    if not message:
        return translate(locale, N_("That did not work."))
    message = message[0].upper() + message[1:]
    return message if message[-1] in ".!?" else message + "."


def is_id(value: int) -> bool:
    """Whether ``value`` can be the id of a game or a challenge (a forged one may not)."""
    return 0 < value <= MAX_ID


async def public_locale(interaction: discord.Interaction[Any]) -> str:
    """The language of a public answer to ``interaction``: its server's (see
    ``Locales.of_guild``), the user's own outside a server."""
    if interaction.guild_id is None:
        return user_locale(interaction)
    return await bot_of(interaction).locales.of_guild(interaction.guild_id)


async def defer(
    interaction: discord.Interaction[Any], *, ephemeral: bool = False, update: bool = False
) -> bool:
    """Acknowledge the interaction now, before any slow work, so Discord's 3 seconds never
    run out: "thinking..." (a command), or for ``update`` a silent deferral of a click that
    edits its message (then ``edit_original``). False when the 3 seconds had run out already
    (the work must still be shown)."""
    try:
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(thinking=True, ephemeral=ephemeral)
    except discord.NotFound:
        log.warning("interaction %s expired before it was acknowledged", interaction.id)
        return False
    if not ephemeral and not update:
        interaction.extras[PUBLIC_DEFERRAL] = True
    return True


async def in_time(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
    update: bool = False,
) -> tuple[T, bool | None]:
    """Run ``work`` (a service call that may wait in a queue), deferring the interaction (see
    ``defer``) if it is not done within ``ANSWER_BUDGET`` (at once when the bot is ``busy``).
    Its result, and None when it was done in time (nothing is sent yet: answer directly),
    True when the interaction was deferred, False when it expired (show the work elsewhere).

    Raises:
        whatever ``work`` raises: before any deferral, or after it (``refuse`` then clears a
        public deferral so the refusal stays private).
    """
    task = asyncio.ensure_future(work)
    budget = 0 if bot_of(interaction).busy else ANSWER_BUDGET
    done, _ = await asyncio.wait({task}, timeout=budget)
    if done:
        return task.result(), None
    deferred = await defer(interaction, ephemeral=ephemeral, update=update)
    return await task, deferred


async def deferred_if_slow(
    interaction: discord.Interaction[Any],
    work: Awaitable[T],
    *,
    ephemeral: bool = False,
    update: bool = False,
    contended: bool = False,
) -> tuple[T, bool]:
    """Run ``work`` for an answer that takes further slow work (pictures, threads), so its
    first answer is a deferral (see ``defer``): sent at once, while ``work`` runs (waiting
    for ``work`` first would queue the answer behind the database under a burst); but when
    ``contended`` (the game is being changed by another action right now, so ``work`` may well
    be refused) as ``in_time`` does, so that a quick refusal is private from the start. Its
    result, and whether the interaction is acknowledged (False: it expired, show the work
    elsewhere).

    Raises:
        whatever ``work`` raises (``refuse`` then clears a public deferral so the refusal
        stays private).
    """
    if contended:
        result, deferred = await in_time(interaction, work, ephemeral=ephemeral, update=update)
        if deferred is None:
            deferred = await defer(interaction, ephemeral=ephemeral, update=update)
        return result, deferred
    task = asyncio.ensure_future(work)
    try:
        deferred = await defer(interaction, ephemeral=ephemeral, update=update)
    except discord.HTTPException as error:
        # Discord refused the deferral (not only as expired): the work is shown elsewhere.
        log.warning("interaction %s: deferral refused (%s)", interaction.id, error.status)
        deferred = False
    except BaseException:
        # The handler is cancelled (closing): so is the work (its transaction rolls back).
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        raise
    return await task, deferred


async def update_clicked(
    interaction: discord.Interaction[Any], deferred: bool | None, content: str, **fields: Any
) -> None:
    """Edit the message whose button was clicked, as ``in_time`` left the interaction: the
    click's answer (None), an edit of the deferral (True) or of the message itself (False)."""
    if deferred is None:
        try:
            await edit(interaction, content, **fields)
            return
        except discord.NotFound:
            # Its 3 seconds ran out while the work was done: the message is edited directly.
            log.warning("interaction %s expired before it was answered", interaction.id)
    elif deferred:
        await edit_original(interaction, content, **fields)
        return
    if interaction.message is not None:
        await edit_message(interaction.message, content, **fields)


async def reply(
    interaction: discord.Interaction[Any],
    deferred: bool | None,
    content: str | None = None,
    **fields: Any,
) -> None:
    """Answer as ``in_time`` left the interaction: the first answer (None) or the deferral's
    follow-up (True); nothing when it expired (False: logged by ``defer``)."""
    if deferred is None:
        await answer(interaction, content, **fields)
    elif deferred:
        await follow_up(interaction, content, **fields)
        interaction.extras.pop(PUBLIC_DEFERRAL, None)


async def post_answer(
    interaction: discord.Interaction[Any], deferred: bool | None, content: str, **fields: Any
) -> discord.Message | discord.PartialMessage | None:
    """A public answer, as ``in_time`` left the interaction: the first answer (None), the
    deferral's follow-up (True) or, when the interaction expired (False), a post in its
    channel. The message (to open a thread from), when Discord says which."""
    if deferred is None:
        try:
            response = await answer(interaction, content, **fields)
        except discord.NotFound:
            # Its 3 seconds ran out while the work was done: the work is shown all the same.
            log.warning("interaction %s expired before it was answered", interaction.id)
            deferred = False
        else:
            resource = response.resource
            if isinstance(resource, discord.Message):
                return resource
            return await interaction.original_response()
    if interaction.channel_id is None:
        return None
    bot = bot_of(interaction)
    channel = bot.get_partial_messageable(interaction.channel_id, guild_id=interaction.guild_id)
    if deferred:
        message = await follow_up(interaction, content, wait=True, **fields)
        interaction.extras.pop(PUBLIC_DEFERRAL, None)
        # A follow-up does not know its server: the same message, through its channel.
        return channel.get_partial_message(message.id)
    return await send(channel, content, **fields)  # type: ignore[no-any-return]


async def clear_deferral(interaction: discord.Interaction[Any]) -> None:
    """Take away a public "thinking..." deferral not filled in, so that the next follow-up can
    be private: Discord gives the first follow-up the deferral's visibility, so the deferral is
    filled first (an edit), then deleted."""
    if not interaction.extras.pop(PUBLIC_DEFERRAL, False):
        return
    try:
        await edit_original(interaction, "…")
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.info("could not clear the deferral of interaction %s", interaction.id)


async def refuse(interaction: discord.Interaction[Any], message: Text) -> None:
    """Answer privately (ephemeral) with ``message`` in the user's language, whether or not we
    responded already (after a public deferral too)."""
    locale = user_locale(interaction)
    content = sentence(translate(locale, message), locale)
    try:
        await clear_deferral(interaction)
        if interaction.response.is_done():
            await follow_up(interaction, content, ephemeral=True)
        else:
            await answer(interaction, content, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not send a refusal for interaction %s", interaction.id)


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer privately for any error a handler raised: refusals and bad input get their own
    message, anything else a short apology (and a log entry with the traceback)."""
    if isinstance(error, SeveralGames):
        await refuse(interaction, N_("You have several running games: say which one with `game`."))
    elif isinstance(error, Refusal):
        await refuse(interaction, error.render(user_locale(interaction)))
    elif isinstance(error, DotsError):
        await refuse(interaction, text.error_message(error))
    elif isinstance(error, discord.Forbidden):
        await refuse(interaction, N_("I am not allowed to do that here (missing permissions)."))
    elif isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION:
        # Discord's 3 seconds ran out (the bot was busy): no answer can be sent any more.
        log.warning("interaction %s expired before it was answered", interaction.id)
    else:
        log.error("unexpected error in interaction %s", interaction.id, exc_info=error)
        await refuse(interaction, N_("Sorry, something went wrong on my side. It has been logged."))
