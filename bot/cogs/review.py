"""/review and /puzzle: the computer's review of a finished game, and puzzles to solve.

/review posts, in the server's language, the graph of the estimate, each player's summary and
turning points (each with a picture of the position before it); the message shows the search's
progress while the review is made (in the review worker pool: bot/games/reviews.py), and a
review made once is shown again at once. /puzzle gives the caller a puzzle privately, and
``/puzzle answer:E5`` judges their answer by the exact search's solutions.
"""

from __future__ import annotations

import io
import time
from collections.abc import Mapping
from functools import partial
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ai import review as ai_review
from ai.puzzles import Puzzle
from ai.review import BLUNDER, MISTAKE, Summary, TurningPoint
from bot.cogs.client import GameBot, bot_of
from bot.cogs.interactions import defer, in_time, public_locale, reply
from bot.cogs.locales import user_locale
from bot.cogs.names import picture_names
from bot.cogs.persistent import CustomId, PersistentItem
from bot.cogs.posts import edit_original, follow_up
from bot.games import GameView, Refusal
from bot.games.errors import NoSuchGame
from bot.games.puzzles import GivenPuzzle, Judged
from bot.i18n import N_, SOURCE, Message, _, ngettext, translate, words
from engine import Player
from renderer.review import GraphWords, Mark, render_before, render_graph, render_position

# The progress line is edited at most this often (Discord's rate limit on edits).
PROGRESS_EVERY = 1.0

WHICH_GAME = N_("say which game to review with `game` (its number is in /history)")


class WhichGame(Refusal):
    """/review outside a game's thread without a game number."""


def percent(chance: float) -> str:
    """A chance as players read it: ``"63%"``."""
    return f"{round(chance * 100)}%"


def colour_word(player: Player) -> Message:
    """The colour's name, to translate."""
    return _("Pink") if player is Player.PINK else _("Blue")


def summary_line(summary: Summary, name: str, locale: str) -> str:
    """One player's summary: their moves, mistakes and blunders."""
    return translate(
        locale,
        _(
            "**{name}**: {moves}; {mistakes}, {blunders}",
            name=name,
            mistakes=ngettext("{n} mistake", "{n} mistakes", summary.mistakes),
            blunders=ngettext("{n} blunder", "{n} blunders", summary.blunders),
            moves=ngettext("{n} move", "{n} moves", summary.moves),
        ),
    )


def gain_text(point: TurningPoint) -> Message:
    """What the preferred move does, as the engine found it."""
    preferred = point.preferred.name if point.preferred else "?"
    n = point.wins.dots
    if point.wins.kind == "capture":
        return ngettext(
            "{point} closes a ring around {n} dot", "{point} closes a ring around {n} dots", n,
            point=preferred,
        )  # fmt: skip
    if point.wins.kind == "ladder":
        return ngettext(
            "{point} starts a ladder that captures {n} dot",
            "{point} starts a ladder that captures {n} dots", n, point=preferred,
        )  # fmt: skip
    if point.wins.kind == "save":
        return ngettext(
            "{point} saves {n} dot from capture", "{point} saves {n} dots from capture", n,
            point=preferred,
        )  # fmt: skip
    return _("the computer prefers {point}", point=preferred)


def turning_text(point: TurningPoint, names: Mapping[Player, str], locale: str) -> str:
    """A turning point in one line: the move, the chance before and after, what was better
    and what the move left to the opponent."""
    line = _(
        "Move {move}: {name} played {played} ({before} → {after}); {better}.",
        move=point.move,
        name=names[point.player],
        played=point.played.name,
        before=percent(point.before),
        after=percent(point.after),
        better=gain_text(point),
    )
    text = translate(locale, line)
    if point.left is not None:
        left = ngettext(
            "After {played}, {name} could capture {n} dot at {point}.",
            "After {played}, {name} could capture {n} dots at {point}.",
            point.left.dots,
            played=point.played.name,
            name=names[point.player.opponent],
            point=point.left.point.name,
        )
        text += " " + translate(locale, left)
    return text


def picture_status(point: TurningPoint, locale: str) -> str:
    """The line on a turning point's picture: which ring is which."""
    return translate(
        locale,
        _(
            "Move {move}: {played} played (coloured ring), {preferred} preferred (black ring)",
            move=point.move,
            played=point.played.name,
            preferred=point.preferred.name if point.preferred else "?",
        ),
    )


def goal_text(puzzle: Puzzle, locale: str) -> str:
    """The puzzle's goal: ``"Pink to play and capture 3 dots"``."""
    player = colour_word(puzzle.player)
    if puzzle.depth == 1:
        goal = ngettext(
            "{player} to play and capture {n} dot", "{player} to play and capture {n} dots",
            puzzle.goal, player=player,
        )  # fmt: skip
    else:
        goal = ngettext(
            "{player} to play and capture {n} dot within two moves, whatever {other} answers",
            "{player} to play and capture {n} dots within two moves, whatever {other} answers",
            puzzle.goal, player=player, other=colour_word(puzzle.player.opponent),
        )  # fmt: skip
    return translate(locale, goal)


def picture_goal(puzzle: Puzzle, locale: str) -> str:
    """The goal in the puzzle's picture (shorter: it fits a 10x10 picture's header)."""
    if puzzle.depth == 1:
        return goal_text(puzzle, locale)
    goal = ngettext(
        "{player} to play and capture {n} dot in two moves",
        "{player} to play and capture {n} dots in two moves",
        puzzle.goal, player=colour_word(puzzle.player),
    )  # fmt: skip
    return translate(locale, goal)


def streak_text(given: GivenPuzzle | Judged, locale: str) -> str:
    """The player's streak line."""
    streak = given.streak
    return translate(
        locale,
        _(
            "Streak: {streak} (best {best}); solved {solved} of {tried}.",
            streak=streak.streak,
            best=streak.best,
            solved=streak.solved,
            tried=streak.tried,
        ),
    )


async def post_review(bot: GameBot, interaction: discord.Interaction[Any], game_id: int) -> None:
    """The review of game ``game_id`` as the answer to ``interaction`` (a command or a click):
    refused privately, or made now (the answer shows the progress) or shown at once."""
    view, deferred = await in_time(interaction, checked(bot, interaction, game_id))
    if deferred is None:
        deferred = await defer(interaction)
    if not deferred:
        return
    locale = await public_locale(interaction)
    last = 0.0

    async def progress(done: int, total: int) -> None:
        nonlocal last
        if time.monotonic() - last < PROGRESS_EVERY and done < total:
            return
        last = time.monotonic()
        line = _(
            "Reviewing game #{game_id}: {done} of {total} positions searched…",
            game_id=game_id, done=done, total=total,
        )  # fmt: skip
        await edit_original(interaction, translate(locale, line))

    made = await bot.service.review(game_id=game_id, user_id=interaction.user.id, progress=progress)
    await post(bot, interaction, view, made, locale)


async def checked(bot: GameBot, interaction: discord.Interaction[Any], game_id: int) -> GameView:
    """The game to review, checked (quick reads: a refusal is private from the start).

    Raises:
        NoSuchGame, NotReviewable, TooManyReviews.
    """
    service = bot.service
    view = await service.reviewable(game_id=game_id)
    if view.guild_id != interaction.guild_id:
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
) -> None:
    """Post the review: the graph and the summaries in the answer, then each player's
    turning points with their pictures (rendered in the review worker pool)."""
    service = bot.service
    names = await picture_names(bot, view, locale)
    title = translate(
        locale,
        _(
            "#{game_id} {pink} vs {blue}: the chance that {colour} wins",
            game_id=view.game_id, pink=names[Player.PINK], blue=names[Player.BLUE],
            colour=colour_word(Player.PINK),
        ),
    )  # fmt: skip
    graph = await service.reviews.reviewer.run(
        partial(
            render_graph,
            made.estimates,
            captures=[(c.move, c.player, c.dots) for c in made.captures],
            marks=[Mark(t.move, t.player) for t in made.turning],
            words=GraphWords(title, translate(locale, _("move"))),
        )
    )
    head = translate(
        locale,
        _(
            "**Review of game #{game_id}**: the computer's estimate of the chance that "
            "{colour} wins, after each move ({iterations} iterations of its search a "
            "position). A mistake loses {mistake} more of the chance than the player's "
            "usual move, a blunder {blunder} more.",
            game_id=view.game_id, colour=colour_word(Player.PINK),
            iterations=made.iterations, mistake=percent(MISTAKE), blunder=percent(BLUNDER),
        ),
    )  # fmt: skip
    lines = [head, *(summary_line(s, names[s.player], locale) for s in made.summaries)]
    file = discord.File(io.BytesIO(graph), filename=f"review-{view.game_id}.png")
    await edit_original(interaction, "\n".join(lines), attachments=[file])
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
        heading = translate(locale, _("**Turning points of {name}**", name=names[player]))
        await follow_up(interaction, "\n".join([heading, *texts]), files=files)


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


class Review(commands.Cog):
    """/review and /puzzle."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

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
            await self._show(interaction, deferred, given, locale)
            return
        judged, deferred = await in_time(
            interaction,
            service.answer_puzzle(user_id=interaction.user.id, point=answer, attempt_id=number),
            ephemeral=True,
        )
        await reply(interaction, deferred, self._judged(judged, locale), ephemeral=True)

    async def _show(
        self,
        interaction: discord.Interaction[Any],
        deferred: bool | None,
        given: GivenPuzzle,
        locale: str,
    ) -> None:
        if deferred is None:
            deferred = await defer(interaction, ephemeral=True)
        goal = goal_text(given.puzzle, locale)
        png = await self.bot.service.reviews.reviewer.run(
            partial(
                render_position,
                given.puzzle.record,
                status=picture_goal(given.puzzle, locale),
                words=words(locale),
            )
        )
        first = (
            _("You still have puzzle #{number} to answer.", number=given.attempt_id)
            if given.again
            else _("Puzzle #{number}.", number=given.attempt_id)
        )
        lines = [
            translate(locale, first) + " " + goal + ".",
            translate(locale, _("Answer with `/puzzle answer:E5` (a point of your choice).")),
            streak_text(given, locale),
        ]
        file = discord.File(io.BytesIO(png), filename=f"puzzle-{given.attempt_id}.png")
        await reply(interaction, deferred, "\n".join(lines), files=[file], ephemeral=True)

    def _judged(self, judged: Judged, locale: str) -> str:
        line = ", ".join(p.name for p in judged.puzzle.line)
        if judged.solved:
            verdict = _("Right: {point} does it. The line: {line}.", point=judged.point.name,
                        line=line)  # fmt: skip
        else:
            verdict = _(
                "Not this time: {point} does not do it. The answer: {answers}; the line: {line}.",
                point=judged.point.name,
                answers=", ".join(p.name for p in judged.puzzle.solutions),
                line=line,
            )
        return translate(locale, verdict) + "\n" + streak_text(judged, locale)
