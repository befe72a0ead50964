"""What a tournament posts, in its own thread: the announcement (settings, entrants), each
round's results and standings (as text and as a picture), each round's pairings with links to
the games' threads (the round's players pinged once, in that post), the end and its winner.

A step's news (``TournamentNews``) is delivered inside ``delivering`` (``bot.outbox``): the row
is deleted once all is posted, so a kill in the middle posts the rest at the next start; each
post carries a nonce naming the step and its place in it, so nothing is posted twice. The
games' threads are opened first, one after another, paced (``ThreadPacer``) within Discord's
rate limits; a game with a thread is skipped, so a repeat opens only the missing ones.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace

import discord

from bot import text
from bot.cogs.client import GameBot
from bot.cogs.names import display_name
from bot.cogs.posting import jump_url, picture_file, status_text
from bot.cogs.posts import fit_list, send
from bot.cogs.starts import open_game_thread
from bot.games import GameView
from bot.games.pairing import Format
from bot.games.standings import Outcome, Standing, format_points
from bot.games.stickers import Sticker, new_sticker_line
from bot.games.tournament_models import Pairing, Tournament, TournamentNews
from bot.i18n import N_, SOURCE, _, ngettext, translate
from renderer.standings import MAX_ROWS, standings_png

log = logging.getLogger(__name__)

# Lines of one post: Discord's 2000 characters with room to spare.
POST_BUDGET = 1900
# Seconds between two game threads opened for a round (Discord limits thread creation; a
# round of 64 players opens 32, well within it at this pace).
THREAD_PACE = 0.5
MENTION = re.compile(r"<@(\d+)>")


class ThreadPacer:
    """Opens threads no faster than one every ``pace`` seconds, across all tournaments."""

    def __init__(self, pace: float = THREAD_PACE) -> None:
        self.pace = pace
        self._lock = asyncio.Lock()
        self._last = 0.0

    async def turn(self) -> None:
        """Wait for the next thread's turn."""
        async with self._lock:
            wait = self._last + self.pace - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            self._last = time.monotonic()


def format_words(tournament: Tournament, locale: str) -> str:
    """A tournament's format in words: "Swiss, 3 rounds", "double round robin"."""
    if tournament.format == Format.SWISS:
        words = ngettext("Swiss, {n} round", "Swiss, {n} rounds", tournament.rounds)
    elif tournament.cycles == 2:
        words = _("double round robin")
    else:
        words = _("round robin")
    return translate(locale, words)


def announcement_text(tournament: Tournament, locale: str = SOURCE) -> str:
    """The announcement: settings, entrants, and how to join."""
    settings = text.describe_game_options(tournament.options, locale, with_takebacks=False)
    if tournament.options.game_clock is None and tournament.options.clock is not None:
        clock = text.format_duration(tournament.options.clock, locale=locale)
        settings += ", " + translate(locale, _("{clock} a move", clock=clock))
    lines = [
        translate(
            locale,
            _(
                "**Tournament #{id}** by <@{creator}>: {format}; {settings}; rounds of "
                "{length}; at most {cap} players.",
                id=tournament.tournament_id,
                creator=tournament.creator_id,
                format=format_words(tournament, locale),
                settings=settings,
                length=text.format_duration(tournament.round_length, locale=locale),
                cap=tournament.max_players,
            ),
        )
    ]
    if not tournament.is_registering:
        lines.append(translate(locale, N_("Registration is closed.")))
    elif tournament.registration_deadline is None:
        lines.append(translate(locale, N_("Registration is open until its creator starts it.")))
    else:
        stamp = int(tournament.registration_deadline.timestamp())
        lines.append(translate(locale, _("Registration closes <t:{t}:R>.", t=stamp)))
    names = [f"<@{user_id}>" for user_id in tournament.entrants]
    if names:
        lines.append(
            translate(locale, ngettext("{n} player:", "{n} players:", len(names)))
            + " "
            + fit_list(names, 1200, locale=locale)
        )
    else:
        lines.append(translate(locale, N_("No players yet.")))
    return "\n".join(lines)


def result_words(pairing: Pairing, locale: str) -> str:
    """A decided board: "<@a> 1–0 <@b>", with how it was decided when not by its game."""
    if pairing.blue_id is None:
        points = format_points(pairing.pink_points or 0.0)
        return translate(
            locale, _("<@{user}>: bye ({points})", user=pairing.pink_id, points=points)
        )
    score = f"{format_points(pairing.pink_points or 0)}–{format_points(pairing.blue_points or 0)}"
    line = f"<@{pairing.pink_id}> {score} <@{pairing.blue_id}>"
    how = OUTCOME_WORDS.get(pairing.outcome) if pairing.outcome else None
    return line if how is None else f"{line} ({translate(locale, how)})"


OUTCOME_WORDS = {
    Outcome.ADJUDICATED: N_("adjudicated by the score at the deadline"),
    Outcome.FORFEIT: N_("forfeit"),
    Outcome.DOUBLE_LOSS: N_("no dot placed: lost by both"),
}


def chunks(lines: Sequence[str], budget: int = POST_BUDGET) -> list[str]:
    """``lines`` gathered into posts of at most ``budget`` characters."""
    posts: list[str] = []
    current: list[str] = []
    for line in lines:
        if current and len("\n".join([*current, line])) > budget:
            posts.append("\n".join(current))
            current = []
        current.append(line[:budget])
    if current:
        posts.append("\n".join(current))
    return posts


def tiebreak_headings(format_: Format, locale: str) -> tuple[str, str | None]:
    """The tiebreak columns' headings (a round robin has one)."""
    if format_ == Format.SWISS:
        return translate(locale, N_("BH-1")), translate(locale, N_("BH"))
    return translate(locale, N_("SB")), None


async def standings_table(
    bot: GameBot, tournament: Tournament, lines: Sequence[Standing], locale: str
) -> tuple[list[str], list[list[str]]]:
    """The standings' headings and rows (names, points, tiebreaks) in ``locale``."""
    names = {line.user_id: await display_name(bot, line.user_id, locale) for line in lines}
    return standings_rows(tournament.format, lines, names, locale)


def standings_rows(
    format_: Format, lines: Sequence[Standing], names: Mapping[int, str], locale: str
) -> tuple[list[str], list[list[str]]]:
    """The standings' headings and rows, the players named by ``names``, in ``locale``."""
    first, second = tiebreak_headings(format_, locale)
    headings = ["#", translate(locale, N_("Player")), translate(locale, N_("Pts")), first]
    if second is not None:
        headings.append(second)
    rows = []
    for line in lines:
        name = names[line.user_id]
        if line.withdrawn:
            name = translate(locale, _("{name} (withdrew)", name=name))
        row = [str(line.rank), name, format_points(line.points), format_points(line.first)]
        if second is not None:
            row.append(format_points(line.second))
        rows.append(row)
    return headings, rows


def standings_text(headings: list[str], rows: list[list[str]]) -> str:
    """The standings as a monospaced table (a code block)."""
    table = [headings, *rows]
    widths = [max(len(r[i]) for r in table) for i in range(len(headings))]
    widths[1] = min(widths[1], 24)
    out = []
    for r in table:
        cells = [r[0].rjust(widths[0]), r[1][: widths[1]].ljust(widths[1])]
        cells += [c.rjust(w) for c, w in zip(r[2:], widths[2:], strict=True)]
        out.append("  ".join(cells))
    return "```\n" + "\n".join(out) + "\n```"


async def standings_post(
    bot: GameBot, tournament: Tournament, lines: Sequence[Standing], round_: int, locale: str
) -> tuple[str, discord.File]:
    """The standings after ``round_``: a text table (what fits) and the picture."""
    headings, rows = await standings_table(bot, tournament, lines, locale)
    title = translate(
        locale,
        _("Tournament #{id}: after round {round}", id=tournament.tournament_id, round=round_),
    )
    shown = rows
    while shown and len(standings_text(headings, shown)) > POST_BUDGET - len(title) - 10:
        shown = shown[:-1]
    body = f"**{title}**\n{standings_text(headings, shown)}"
    png = await asyncio.to_thread(standings_png, title, headings, rows[:MAX_ROWS])
    return body, discord.File(io.BytesIO(png), filename=f"standings-{tournament.tournament_id}.png")


async def open_round_threads(bot: GameBot, boards: Sequence[Pairing], pacer: ThreadPacer) -> None:
    """Open the thread of each game of a round that has none yet, and post its first picture
    there (no ping: the round's post pings its players once)."""
    for board in boards:
        if board.game_id is None:
            continue
        view = await bot.service.game(board.game_id)
        if view.thread_id is not None:
            continue
        await pacer.turn()
        await start_quietly(bot, view)


async def start_quietly(bot: GameBot, view: GameView) -> None:
    """A tournament game's thread and first picture, mentioning nobody."""
    thread_id = await open_game_thread(bot, None, view, None)
    if thread_id is None:
        return
    await bot.service.set_game_thread(game_id=view.game_id, thread_id=thread_id)
    locale = await bot.locales.of_place(view.guild_id, view.channel_id)
    headline = translate(locale, N_("The game starts. Play with `/move` (e.g. `/move E5`)."))
    view = replace(view, thread_id=thread_id)
    picture = await picture_file(bot, view, locale=locale)
    channel = bot.get_partial_messageable(thread_id, guild_id=view.guild_id)
    try:
        posted = await send(
            channel,
            status_text(view, headline=headline, locale=locale),
            files=[picture],
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not post the start of game %s", view.game_id)
        return
    await bot.service.set_game_thread(game_id=view.game_id, message_id=posted.id)


async def pairing_lines(bot: GameBot, news: TournamentNews, locale: str) -> list[str]:
    """The round's boards, each with the link to its game's thread."""
    lines = [
        translate(
            locale,
            _(
                "**Round {round}** of tournament #{id}: play by <t:{t}:f>.",
                round=news.paired,
                id=news.tournament.tournament_id,
                t=int(news.tournament.round_deadline.timestamp())
                if news.tournament.round_deadline
                else 0,
            ),
        )
    ]
    for board in news.boards:
        if board.blue_id is None:
            lines.append(result_words(board, locale))
            continue
        if board.game_id is None:
            lines.append(result_words(board, locale))
            continue
        view = await bot.service.game(board.game_id)
        lines.append(
            translate(
                locale,
                _(
                    "{board}. <@{pink}> (Pink) – <@{blue}> (Blue): {url}",
                    board=board.board,
                    pink=board.pink_id,
                    blue=board.blue_id,
                    url=jump_url(view),
                ),
            )
        )
    return lines


async def deliver(bot: GameBot, news: TournamentNews) -> None:
    """Post a step's news in the tournament's thread (see the module's docstring); its
    games' threads are opened first (``open_round_threads``)."""
    tournament = news.tournament
    locale = await bot.locales.of_guild(tournament.guild_id)
    where = bot.get_partial_messageable(
        tournament.thread_id or tournament.channel_id, guild_id=tournament.guild_id
    )
    quiet = discord.AllowedMentions.none()
    # Each post's nonce names the step and its place in it: a delivery repeated after a kill
    # gets back the posts already made (Discord keeps a nonce for a few minutes).
    counter = iter(range(1, 10_000))

    def nonce() -> str:
        step = f"{tournament.tournament_id}.{news.closed}.{news.paired}"
        return f"t{step}.{next(counter)}"[:25]

    if news.is_cancelled:
        await send(
            where,
            translate(
                locale,
                _(
                    "Tournament #{id} is cancelled: fewer than two players joined.",
                    id=tournament.tournament_id,
                ),
            ),
            nonce=nonce(),
            allowed_mentions=quiet,
        )
        return
    if news.closed:
        results = [translate(locale, _("**Round {round}: results**", round=news.closed))]
        results += [result_words(b, locale) for b in news.closed_boards]
        for post in chunks(results):
            await send(where, post, allowed_mentions=quiet, nonce=nonce())
        body, picture = await standings_post(bot, tournament, news.standings, news.closed, locale)
        await send(where, body, files=[picture], allowed_mentions=quiet, nonce=nonce())
    if news.boards:
        for post in chunks(await pairing_lines(bot, news, locale)):
            pinged = [int(m) for m in _mentioned(post)]
            await send(
                where,
                post,
                nonce=nonce(),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(u) for u in pinged]
                ),
            )
    if news.is_over and news.standings:
        winner = news.standings[0].user_id
        over = _(
            "Tournament #{id} is over. The winner: <@{user}>!",
            id=tournament.tournament_id,
            user=winner,
        )
        sticker = new_sticker_line(Sticker.TOURNAMENT_WIN, first_ever=False, locale=locale)
        await send(where, f"{translate(locale, over)}\n<@{winner}>: {sticker}", nonce=nonce())


def _mentioned(post: str) -> list[str]:
    return sorted(set(MENTION.findall(post)))
