"""/review and /puzzle: the computer's review of a finished game, and puzzles to solve.

/review posts, in the server's language, the graph of the estimate, each player's summary and
turning points (each with a picture of the position before it); the message shows the search's
progress while the review is made (in the review worker pool: bot/games/reviews.py), and a
review made once is shown again at once. /puzzle gives the caller a puzzle privately, and
``/puzzle answer:E5`` judges their answer by the exact search's solutions. Under each
player's turning points, Replay my mistakes gives that player (only) their next turning point
as a puzzle of their own, answered by ``/puzzle answer:`` too (bot/games/reviews.py judges it).
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Awaitable
from functools import partial
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from ai import review as ai_review
from bot.cogs.client import GameBot, bot_of
from bot.cogs.interactions import defer, in_time, public_locale, reply
from bot.cogs.locales import user_locale
from bot.cogs.names import picture_names
from bot.cogs.on_card import lives_on_card
from bot.cogs.persistent import CustomId, PersistentItem
from bot.cogs.posts import edit_original, follow_up, send
from bot.games import GameView, PostKind, Refusal
from bot.games.errors import NoSuchGame
from bot.games.puzzles import DailyPuzzle, GivenPuzzle
from bot.i18n import N_, SOURCE, _, translate, words
from bot.outbox import delivering
from bot.review_text import (
    goal_text,
    graph_title,
    head_text,
    judged_text,
    picture_status,
    progress_text,
    puzzle_lines,
    puzzle_picture,
    summary_line,
    turning_heading,
    turning_text,
)
from engine import Player
from renderer.review import GraphWords, Mark, render_before, render_graph

log = logging.getLogger(__name__)


# The progress line is edited at most this often (Discord's rate limit on edits).
PROGRESS_EVERY = 1.0
# An interaction's token lasts 15 minutes: a review that took longer (a long 39x32 game on a
# loaded machine) is posted in the channel instead of as the command's answer.
TOKEN_LIFETIME = 14 * 60.0

WHICH_GAME = N_("say which game to review with `game` (its number is in /history)")


class WhichGame(Refusal):
    """/review outside a game's thread without a game number."""


async def post_review(bot: GameBot, interaction: discord.Interaction[Any], game_id: int) -> None:
    """The review of game ``game_id`` as the answer to ``interaction`` (a command or a click):
    refused privately, or made now (the answer shows the progress) or shown at once."""
    view, deferred = await in_time(interaction, checked(bot, interaction, game_id))
    if deferred is None:
        deferred = await defer(interaction)
    if not deferred:
        return
    locale = await public_locale(interaction)
    started = last = time.monotonic()

    async def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - started > TOKEN_LIFETIME or (now - last < PROGRESS_EVERY and done < total):
            return
        last = now
        await edit_original(interaction, progress_text(game_id, done, total, locale))

    made = await bot.service.review(game_id=game_id, user_id=interaction.user.id, progress=progress)
    if time.monotonic() - started > TOKEN_LIFETIME:
        if lives_on_card(view):  # no post of the bot's own there: the next click shows it
            log.info("game %s: its review outlived the click that asked for it", game_id)
            return
        where = interaction.channel_id or view.thread_id or view.channel_id
        channel = bot.get_partial_messageable(where, guild_id=view.guild_id)
        await post(bot, interaction, view, made, locale, channel=channel)
    else:
        await post(bot, interaction, view, made, locale)


async def checked(bot: GameBot, interaction: discord.Interaction[Any], game_id: int) -> GameView:
    """The game to review, checked (quick reads: a refusal is private from the start).

    Raises:
        NoSuchGame, NotReviewable, TooManyReviews.
    """
    service = bot.service
    view = await service.reviewable(game_id=game_id)
    # A game that lived on its card is reviewed where it was played (its DM, its group DM).
    if view.guild_id != interaction.guild_id and not (
        lives_on_card(view) and view.channel_id == interaction.channel_id
    ):
        raise NoSuchGame(_("there is no game #{game_id} in this server", game_id=game_id))
    if await service.stored_review(game_id=game_id) is None:
        await service.reviews.check_limit(user_id=interaction.user.id)
    return view


async def post(
    bot: GameBot,
    interaction: discord.Interaction[Any],
    view: GameView,
    made: ai_review.Review,
    locale: str,
    *,
    channel: Any = None,
) -> None:
    """Post the review: the graph and the summaries in the answer (or, given a ``channel``,
    there), then each player's turning points with their pictures (rendered in the review
    worker pool)."""
    service = bot.service
    names = await picture_names(bot, view, locale)
    title = graph_title(view.game_id, names, locale)
    graph = await service.reviews.reviewer.run(
        partial(
            render_graph,
            made.estimates,
            captures=[(c.move, c.player, c.dots) for c in made.captures],
            marks=[Mark(t.move, t.player) for t in made.turning],
            words=GraphWords(title, translate(locale, _("move"))),
        )
    )
    head = head_text(made, view.game_id, locale)
    lines = [head, *(summary_line(s, names[s.player], locale) for s in made.summaries)]
    file = discord.File(io.BytesIO(graph), filename=f"review-{view.game_id}.png")
    if channel is None:
        await edit_original(interaction, "\n".join(lines), attachments=[file])
    else:
        await send(channel, "\n".join(lines), files=[file])
    for player in (Player.PINK, Player.BLUE):
        turning = made.turning_of(player)
        if not turning:
            continue
        texts, files = [], []
        for n, point in enumerate(turning, start=1):
            texts.append(f"{n}. " + turning_text(point, names, locale))
            png = await service.reviews.reviewer.run(
                partial(
                    render_before,
                    view.game.record,
                    point.move,
                    preferred=point.preferred,
                    names=names,
                    status=picture_status(point, locale),
                    words=words(locale),
                )
            )
            files.append(
                discord.File(io.BytesIO(png), filename=f"review-{view.game_id}-{point.move}.png")
            )
        heading = turning_heading(names[player], locale)
        buttons = discord.ui.View(timeout=None)
        if any(point.preferred is not None for point in turning):
            buttons.add_item(ReplayButton("game", view.game_id, player=int(player), locale=locale))
        if channel is None:
            await follow_up(interaction, "\n".join([heading, *texts]), files=files, view=buttons)
        else:
            await send(channel, "\n".join([heading, *texts]), files=files, view=buttons)


class ReviewButton(
    PersistentItem[discord.ui.Button[Any]],
    custom_id=CustomId("dots:review", ("game",)),
):
    """Review (under a result; the key is the finished game's id), for anyone in the server."""

    def component(self, *, locale: str = SOURCE, **options: Any) -> discord.ui.Button[Any]:
        """The button, its label in ``locale``."""
        return discord.ui.Button(
            label=translate(locale, N_("Review")),
            style=discord.ButtonStyle.secondary,
            custom_id=self.made_id(),
        )

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Post the game's review (as /review does)."""
        await post_review(bot_of(interaction), interaction, self.key)


class PuzzleButton(PersistentItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button that gives the presser a puzzle privately (``give``), answered by ``/puzzle
    answer:``; its label ``LABEL``, the number its custom id carries ``NUMBER`` (kept as
    ``number``)."""

    LABEL: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary
    NUMBER: ClassVar[str]

    def __init__(self, action: str, key: Any, /, **options: Any) -> None:
        self.number = int(options.pop(self.NUMBER, None) or 0)
        super().__init__(action, key, **options)

    def component(self, *, locale: str = SOURCE, **options: Any) -> discord.ui.Button[Any]:
        """The button, its label in ``locale``."""
        return discord.ui.Button(
            label=translate(locale, self.LABEL),
            style=self.STYLE,
            custom_id=self.made_id(**{self.NUMBER: self.number}),
        )

    def give(self, bot: GameBot, user_id: int) -> Awaitable[GivenPuzzle]:
        """The use-case that gives ``user_id`` the puzzle."""
        raise NotImplementedError

    async def run(self, interaction: discord.Interaction[Any]) -> None:
        """Give the presser the puzzle, privately (a refusal is private from the start)."""
        bot = bot_of(interaction)
        given, deferred = await in_time(
            interaction, self.give(bot, interaction.user.id), ephemeral=True
        )
        await show_puzzle(bot, interaction, deferred, given, user_locale(interaction))


class ReplayButton(
    PuzzleButton, custom_id=CustomId("dots:replay", ("game",), fields=(("player", "[0-9]{1,12}"),))
):
    """Replay my mistakes (under a player's turning points; the key is the game's id and the
    number the player's colour): the next of them given privately to that player as a
    puzzle; anyone else's press is refused privately."""

    LABEL = N_("Replay my mistakes")
    NUMBER = "player"

    def give(self, bot: GameBot, user_id: int) -> Awaitable[GivenPuzzle]:
        """The presser's next turning point.

        Raises:
            Refusal: the custom id names no colour (forged).
        """
        if self.number not in (Player.PINK, Player.BLUE):
            raise Refusal(N_("this button is not one I know: nothing changed"))
        return bot.service.replay_mistake(
            game_id=self.key, user_id=user_id, player=Player(self.number)
        )


async def show_puzzle(
    bot: GameBot,
    interaction: discord.Interaction[Any],
    deferred: bool | None,
    given: GivenPuzzle,
    locale: str,
) -> None:
    """Answer ``interaction`` privately with the puzzle given: its picture, what it asks, how
    to answer (and the streak, for a proved puzzle)."""
    if deferred is None:
        deferred = await defer(interaction, ephemeral=True)
    png = await bot.service.reviews.reviewer.run(puzzle_picture(given.puzzle, locale))
    lines = puzzle_lines(given, locale)
    file = discord.File(io.BytesIO(png), filename=f"puzzle-{given.attempt_id}.png")
    await reply(interaction, deferred, "\n".join(lines), files=[file], ephemeral=True)


class DailyButton(
    PuzzleButton,
    custom_id=CustomId("dots:daily", ("solve",), fields=(("day", "[0-9]{1,12}"),)),
):
    """Solve (under a server's puzzle of the day; the key is the server, the number the day):
    the day's puzzle given privately to the presser."""

    LABEL = N_("Solve")
    STYLE = discord.ButtonStyle.primary
    NUMBER = "day"

    def give(self, bot: GameBot, user_id: int) -> Awaitable[GivenPuzzle]:
        """The day's puzzle, if it is still the server's day."""
        return bot.service.give_daily_puzzle(guild_id=self.key, user_id=user_id, day=self.number)


async def post_daily(bot: GameBot, daily: DailyPuzzle) -> None:
    """Post a server's puzzle of the day in its channel: the picture stating the goal and the
    Solve button. A channel the bot cannot post in (gone, or no permission) is logged, not
    retried: the next day tries again (an admin may choose another channel meanwhile)."""
    locale = await bot.locales.of_guild(daily.guild_id)
    png = await bot.service.reviews.reviewer.run(puzzle_picture(daily.puzzle, locale))
    content = translate(
        locale,
        _(
            "**Puzzle of the day #{day}**: {goal}. Press Solve to take it, then answer with "
            "`/puzzle answer:E5`; it counts in your streak.",
            day=daily.day,
            goal=goal_text(daily.puzzle, locale),
        ),
    )
    buttons = discord.ui.View(timeout=None)
    buttons.add_item(DailyButton("solve", daily.guild_id, day=daily.day, locale=locale))
    channel = bot.get_partial_messageable(daily.channel_id, guild_id=daily.guild_id)
    file = discord.File(io.BytesIO(png), filename=f"puzzle-of-the-day-{daily.day}.png")
    try:
        await send(channel, content, files=[file], view=buttons)
    except (discord.Forbidden, discord.NotFound) as error:
        log.warning(
            "the puzzle of the day of server %s cannot be posted in channel %s: %s",
            daily.guild_id,
            daily.channel_id,
            error.text or error.status,
        )


class Review(commands.Cog):
    """/review and /puzzle."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_dots_daily_puzzle(self, daily: DailyPuzzle) -> None:
        """Post a server's puzzle of the day (with the nonces of its outbox row)."""
        async with delivering(self.bot.outbox, PostKind.DAILY):
            await post_daily(self.bot, daily)

    @app_commands.command(name="review", description=N_("The computer's review of a finished game"))
    @app_commands.guild_only()
    @app_commands.describe(game=N_("Game number (default: the game of this thread)"))
    async def review(self, interaction: discord.Interaction[Any], game: int | None = None) -> None:
        """Post the review of a finished game of this server: made now (the message shows
        the progress) or the stored one at once."""
        game_id = await self._game_id(interaction, game)
        await post_review(self.bot, interaction, game_id)

    async def _game_id(self, interaction: discord.Interaction[Any], game: int | None) -> int:
        if game is not None:
            return game
        channel = interaction.channel_id
        found = None
        if channel is not None:
            found = await self.bot.service.game_in_thread(thread_id=channel)
        if found is None:
            raise WhichGame(WHICH_GAME)
        return found.game_id

    @app_commands.command(name="puzzle", description=N_("A puzzle to solve, or your answer to it"))
    @app_commands.describe(
        answer=N_("Your answer: a point such as E5"),
        number=N_("The puzzle's number (default: your puzzle waiting for an answer)"),
    )
    async def puzzle(
        self,
        interaction: discord.Interaction[Any],
        answer: str | None = None,
        number: int | None = None,
    ) -> None:
        """Give the caller a puzzle privately, or judge their answer."""
        service = self.bot.service
        locale = user_locale(interaction)
        if answer is None:
            given, deferred = await in_time(
                interaction, service.give_puzzle(user_id=interaction.user.id), ephemeral=True
            )
            await show_puzzle(self.bot, interaction, deferred, given, locale)
            return
        judged, deferred = await in_time(
            interaction,
            service.answer_puzzle(user_id=interaction.user.id, point=answer, attempt_id=number),
            ephemeral=True,
        )
        await reply(interaction, deferred, judged_text(judged, locale), ephemeral=True)
