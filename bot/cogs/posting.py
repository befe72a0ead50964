"""Posting in a game: where it is played, its picture and status text, posts in its thread
(with a shorter post when Discord refuses the full one), and the turn's direct messages."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta
from typing import Any

import discord

from bot import text
from bot.cogs.client import GameBot
from bot.cogs.names import mentions, picture_names
from bot.cogs.on_card import lives_on_card, post_on_card
from bot.cogs.posts import is_refused_body, send
from bot.games import GameStatus, GameView, is_computer, utc_now
from bot.i18n import N_, SOURCE, _, translate, words
from bot.pictures import PICTURES
from engine import Point, StopPreview

log = logging.getLogger(__name__)

# Clocks this long or longer get direct messages on the player's turn: a shorter turn is
# over before a direct message would help.
DM_MIN_CLOCK_SECONDS = 3600


def in_game_channel(interaction: discord.Interaction[Any], view: GameView) -> bool:
    """Whether the interaction happened where ``view``'s game is played."""
    return interaction.channel_id == game_channel_id(view)


def game_channel_id(view: GameView) -> int:
    """The channel (thread, or the channel itself) a game is played in."""
    return view.thread_id or view.channel_id


def jump_url(view: GameView) -> str:
    """A link to the game's thread (or channel; ``@me`` for a game outside a server)."""
    where = "@me" if lives_on_card(view) else view.guild_id
    return f"https://discord.com/channels/{where}/{game_channel_id(view)}"


def clock_left(view: GameView) -> timedelta | None:
    """The time left for the player to move, for the picture; None when the game is over."""
    if not view.is_running or view.deadline is None:
        return None
    return max(view.deadline - utc_now(), timedelta(0))


async def picture_file(
    bot: GameBot,
    view: GameView,
    *,
    marks: Iterable[Point] = (),
    name: str = "",
    preview: StopPreview | None = None,
    locale: str | None = None,
) -> discord.File:
    """The game's picture as a file to attach, rendered off the event loop (``preview``: what
    that stop would do, see ``bot.pictures.game_png``), its header in ``locale`` (default: the
    server's); in the picture worker processes."""
    if locale is None:
        locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    names = await picture_names(bot, view, locale)
    times = view.times_left(bot.service.now()) if view.is_running else None
    png = await PICTURES.png(
        view.game,
        names,
        clock=clock_left(view),
        marks=tuple(marks),
        preview=preview,
        words=words(locale),
        times=times,
    )
    filename = name or f"dots-{view.game_id}-{len(view.game.actions):03d}.png"
    return discord.File(io.BytesIO(png), filename=filename)


async def replay_file(bot: GameBot, view: GameView, locale: str = SOURCE) -> discord.File:
    """The game's animated replay as a file to attach, rendered in a picture worker."""
    names = await picture_names(bot, view, locale)
    gif = await PICTURES.gif(view.game, names, words=words(locale))
    return discord.File(io.BytesIO(gif), filename=f"dots-{view.game_id}.gif")


def status_text(view: GameView, *, headline: str = "", locale: str = SOURCE) -> str:
    """The message under a picture: what happened, scores, whose turn and the time left."""
    game = view.game
    names = mentions(view, locale)
    left = text.time_left(view.deadline, utc_now(), locale=locale) if view.is_running else ""
    lines = [translate(locale, _("**Game #{game_id}**", game_id=view.game_id))]
    if headline:
        lines.append(headline)
    lines.append(text.scores_line(game, locale=locale))
    if view.status == GameStatus.ABORTED:
        lines.append(translate(locale, N_("The game was aborted: no result, no rating change.")))
    else:
        lines.append(text.turn_line(game, names, left=left, locale=locale))
    if view.game_clock is not None and view.clock_state is not None:
        lines.append(
            text.game_clock_line(view.game_clock, view.clock_state, utc_now(), locale=locale)
        )
    play_on = text.play_on_line(game, move_hint="`/move`", end_hint="`/end`", locale=locale)
    if play_on and not is_computer(view.to_move_id):  # the computer needs no instructions
        lines.append(play_on)
    return "\n".join(lines)


def buttons_field(buttons: discord.ui.View | None) -> dict[str, Any]:
    """``view=buttons`` for a post that has buttons, nothing for one that has none."""
    return {} if buttons is None else {"view": buttons}


async def send_to_game(
    bot: GameBot,
    view: GameView,
    content: str,
    *,
    files: Sequence[discord.File] = (),
    minimal: str = "",
    buttons: discord.ui.View | None = None,
) -> discord.Message | None:
    """Post in a game's thread (or channel), with ``buttons`` if given; None when Discord
    refuses. When it refuses the post for what it holds, ``minimal`` (the same news without
    extras) is posted instead. A post with pictures is the game's card when cards are on
    (``GameBot.post_card``). A game that lives on its card gets no post of the bot's own
    (``bot.cogs.on_card``)."""
    if files and bot.post_card is not None:
        return await bot.post_card(bot, view, content, files, buttons)
    if lives_on_card(view):
        return await post_on_card(bot, view, content, content=content, files=files)
    channel = bot.get_partial_messageable(game_channel_id(view), guild_id=view.guild_id)
    try:
        return await send(  # type: ignore[no-any-return]
            channel, content, files=list(files), **buttons_field(buttons)
        )
    except discord.HTTPException as error:
        if minimal and is_refused_body(error):
            log.warning(
                "game %s: post refused (%s); posting it without extras", view.game_id, error
            )
            try:
                shorter = await send(channel, minimal, **buttons_field(buttons))
                return shorter  # type: ignore[no-any-return]
            except discord.HTTPException:
                pass
        log.warning("could not post in the thread of game %s", view.game_id)
        return None


async def notify_turn(
    bot: GameBot,
    view: GameView,
    user_id: int,
    *,
    reminder: Callable[[str], str] | None = None,
) -> None:
    """DM ``user_id`` that it is their turn (long clocks, opted in), in the language their
    client last showed; in the thread (in the server's) when DMs fail. ``reminder`` writes
    another message in a given language. Never the computer (it has no account)."""
    if is_computer(user_id) or view.clock.total_seconds() < DM_MIN_CLOCK_SECONDS:
        return
    if not await bot.service.wants_notify(user_id=user_id):
        return

    def message(locale: str) -> str:
        if reminder is not None:
            return reminder(locale)
        left = text.time_left(view.deadline, utc_now(), locale=locale)
        turn = _(
            "Your turn in Dots game #{game_id} ({left} left): {url}",
            game_id=view.game_id,
            left=left,
            url=jump_url(view),
        )
        return translate(locale, turn)

    try:
        user = bot.get_user(user_id) or await bot.fetch_user(user_id)
        await send(user, message(await bot.locales.of_user(user_id)))
    except discord.HTTPException:
        # Closed DMs (Forbidden) or an unknown user: say it in the thread instead.
        there = message(await bot.locales.of_place(view.guild_id, view.channel_id))
        await send_to_game(bot, view, f"<@{user_id}> {there}")
