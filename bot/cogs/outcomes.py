"""Announcing an outcome (a move, an end, a time-out, the computer's reply): its text and
pictures, posted as the interaction's answer or in the game's thread, shown another way when
Discord refuses the post (the action is stored whatever Discord does with it)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import text
from bot.cogs.client import GameBot
from bot.cogs.interactions import PUBLIC_DEFERRAL, clear_deferral
from bot.cogs.names import mention, mentions
from bot.cogs.posting import (
    buttons_field,
    notify_turn,
    picture_file,
    replay_file,
    send_to_game,
    status_text,
)
from bot.cogs.posts import edit_original, follow_up, is_refused_body
from bot.cogs.rematch import result_buttons
from bot.games import MoveOutcome
from bot.games.stickers import new_sticker_line
from bot.i18n import N_, SOURCE, _, translate

log = logging.getLogger(__name__)


async def outcome_message(
    bot: GameBot, outcome: MoveOutcome, *, earlier: str = "", locale: str | None = None
) -> tuple[str, list[discord.File]]:
    """The text and files announcing an outcome: picture, and at the end ratings and replay;
    ``earlier`` says what happened before this action (moves not announced one by one). In
    ``locale``, by default the server's."""
    view = outcome.view
    if locale is None:
        locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    nobody = translate(locale, N_("Nobody moved in time."))
    if outcome.aborted:
        return status_text(view, headline=nobody, locale=locale), []
    headline = (
        text.action_line(view.game, mentions(view, locale), locale=locale) if outcome.action else ""
    )
    if earlier:
        headline = f"{earlier}\n{headline}" if headline else earlier
    content = status_text(view, headline=with_stickers(headline, outcome, locale), locale=locale)
    files = [await picture_file(bot, view, locale=locale)]
    if outcome.is_over:
        content += rating_line(outcome, locale)
        files.append(await replay_file(bot, view, locale))
    return content, files


def rating_line(outcome: MoveOutcome, locale: str = SOURCE) -> str:
    """The rating changes at the end of a rated game, on a line of their own (or nothing)."""
    changes = [
        (mention(change.user_id, locale), change.before, change.after, change.provisional)
        for change in outcome.rating_changes
    ]
    if not changes:
        return ""
    lines = "; ".join(text.rating_lines(changes, locale=locale))
    return "\n" + translate(locale, _("Ratings: {lines}", lines=lines))


def minimal_message(outcome: MoveOutcome, locale: str = SOURCE) -> str:
    """An outcome without its extras (what came before it, pictures): what is posted when
    Discord refuses the full post, so that the result is never lost with it."""
    view = outcome.view
    if outcome.aborted:
        nobody = translate(locale, N_("Nobody moved in time."))
        return status_text(view, headline=nobody, locale=locale)
    headline = (
        text.action_line(view.game, mentions(view, locale), locale=locale) if outcome.action else ""
    )
    headline = with_stickers(headline, outcome, locale)
    extra = rating_line(outcome, locale) if outcome.is_over else ""
    return status_text(view, headline=headline, locale=locale) + extra


def with_stickers(headline: str, outcome: MoveOutcome, locale: str = SOURCE) -> str:
    """``headline`` and a line for each sticker the action earned: ``"<@1>: New sticker!
    Trap"`` (the first of its kind for that player) or ``"<@1>: Sticker: Trap"``."""
    lines = [headline] if headline else []
    lines += [
        f"{mention(news.user_id, locale)}: "
        + new_sticker_line(news.sticker, first_ever=news.first_ever, locale=locale)
        for news in outcome.stickers
    ]
    return "\n".join(lines)


async def announce(
    bot: GameBot,
    outcome: MoveOutcome,
    *,
    interaction: discord.Interaction[Any] | None = None,
    earlier: str = "",
) -> None:
    """Post an outcome in the game's thread (as the interaction's answer when given), then
    direct-message the player to move if they asked for it on a long clock. (The computer's
    turn needs nothing from here: the service arms it when the move is committed.)

    The action is stored whatever Discord does with the post: a refused answer is shown
    another way (an edit of the deferral, a post in the thread, a post without extras)."""
    view = outcome.view
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    content, files = await outcome_message(bot, outcome, earlier=earlier, locale=locale)
    minimal = minimal_message(outcome, locale)
    buttons = result_buttons(view, locale) if outcome.is_over else None
    if interaction is None:
        await send_to_game(bot, view, content, files=files, minimal=minimal, buttons=buttons)
    else:
        try:
            await follow_up(interaction, content, files=files, **buttons_field(buttons))
            interaction.extras.pop(PUBLIC_DEFERRAL, None)
        except discord.NotFound:
            # The interaction's token expired: the action stands, so post it in the thread
            # (with fresh files: the failed upload has read the first ones).
            content, files = await outcome_message(bot, outcome, earlier=earlier)
            await send_to_game(bot, view, content, files=files, minimal=minimal, buttons=buttons)
        except discord.HTTPException as error:
            log.warning(
                "game %s: the answer to interaction %s was refused (%s); shown another way",
                view.game_id,
                interaction.id,
                error.code or error.status,
            )
            await answer_instead(bot, interaction, outcome, earlier, minimal, error)
    if outcome.next_user_id is not None and not outcome.is_over:
        await notify_turn(bot, view, outcome.next_user_id)


async def answer_instead(  # noqa: PLR0917 (the pieces of one answer)
    bot: GameBot,
    interaction: discord.Interaction[Any],
    outcome: MoveOutcome,
    earlier: str,
    minimal: str,
    error: discord.HTTPException,
) -> None:
    """Show an outcome whose follow-up Discord refused: in the deferral itself (an edit, not
    a follow-up: the refused post is then not asked again), else in the game's thread."""
    view = outcome.view
    buttons = (
        result_buttons(view, await bot.locales.of_place(view.guild_id, view.channel_id))
        if outcome.is_over
        else None
    )
    try:
        if is_refused_body(error):
            await edit_original(interaction, minimal, attachments=[], **buttons_field(buttons))
        else:
            content, files = await outcome_message(bot, outcome, earlier=earlier)
            await edit_original(interaction, content, attachments=files, **buttons_field(buttons))
        interaction.extras.pop(PUBLIC_DEFERRAL, None)
        return
    except discord.HTTPException:
        await clear_deferral(interaction)
    content, files = await outcome_message(bot, outcome, earlier=earlier)
    await send_to_game(bot, view, content, files=files, minimal=minimal, buttons=buttons)
