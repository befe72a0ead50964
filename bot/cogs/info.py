"""Reading: /rules, /help, /notify, /leaderboard, /stats, /history and /export."""

from __future__ import annotations

import asyncio
import io
import logging
import multiprocessing
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
from typing import Any

import discord
from babel.dates import format_date
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.client import GameBot, bot_of
from bot.cogs.interactions import in_time, public_locale, reply
from bot.cogs.locales import user_locale
from bot.cogs.mentions import with_mentions
from bot.cogs.names import mention, picture_names
from bot.cogs.posts import follow_up, plain_name
from bot.games import NoSuchGame, PlayerStats, Refusal
from bot.games.queries import MonthStanding, MonthTable, Period
from bot.i18n import N_, SOURCE, _, ngettext, pgettext, translate, words
from bot.option_words import name_of
from bot.pictures import game_gif
from engine import EndReason, Game, Player, Point, Rules, sgf
from renderer.png import render_png
from renderer.words import ENGLISH, Words

log = logging.getLogger(__name__)

EXPORT_COOLDOWN_SECONDS = 30.0
"""How often one member may use /export (a replay can take seconds to render and megabytes
to upload)."""


class ExportTooSoon(Refusal):
    """The member used /export less than ``EXPORT_COOLDOWN_SECONDS`` ago."""


# /notify's reminders: each choice's words and how often (None: once, a third of the clock
# before the deadline; zero: never), as ``GameService.set_reminders`` takes it.
REMINDERS: dict[str, tuple[str, timedelta | None]] = {
    "never": (N_("never"), timedelta(0)),
    "once": (N_("once, when a third of the clock is left"), None),
    "6h": (N_("every 6 hours"), timedelta(hours=6)),
    "12h": (N_("every 12 hours"), timedelta(hours=12)),
    "day": (N_("every day"), timedelta(days=1)),
}


def reminders_said(locale: str, every: timedelta | None, *, changed: bool) -> str:
    """How often a player's turn is reminded, as /notify answers (``changed``: just chosen)."""
    how = next((name for name, value in REMINDERS.values() if value == every), None)
    shown = translate(locale, how) if how else text.format_duration(every, locale=locale)
    if changed:
        return translate(
            locale,
            _("From your next turn in each game with a clock of an hour or more, I will remind "
              "you of your turn: {how}.", how=shown),
        )  # fmt: skip
    return translate(
        locale,
        _("Reminders of your turn in games with a clock of an hour or more: {how}.", how=shown),
    )


HELP = N_("""\
**Dots**: surround your opponent's dots to capture them. `/rules` explains the game.
- `/challenge @someone`: challenge a member (size, rules, start position, move clock, colour).
- `/play-computer [level]`: a game against the computer (easy, medium or hard; unrated). \
Challenging the bot itself does the same at medium. `/undo` takes back your last move and \
the computer's reply.
- `/move B7`: place a dot (in the game's thread; `game:` picks one if you play several).
- `/end`: make no more moves (asks first); `/resign`: give up (asks first).
- `/draw`: offer your opponent a draw (accepted or declined; it lapses with the next move).
- `/board`, `/games`: the current picture; your running games with links.
- `/notify on`: a direct message when it is your turn in games with a clock of an hour or \
more; `/notify reminders`: how often your turn is reminded there.
- `/leaderboard [period]`, `/stats`, `/history`: this server's ratings and records (all \
time, or this month's table by points).
- `/stickers [user]`: a player's sticker book.
- `/export game:12`: a game's record (SGF) and an animated replay.
Admins (Manage Server): `/dots-admin cancel`, `/dots-admin settings`.""")


def rule_examples(locale: str = SOURCE) -> list[tuple[str, Game, tuple[Point, ...]]]:
    """The key cases of the rules as small games, with a caption and crosses to draw."""
    capture = Game(5, 5)
    for point in ("C4", "C3", "B3", "A1", "D3", "E1", "C2"):
        capture.place(point)
    empty = Game(5, 5)
    for point in ("C4", "A1", "B3", "E1", "D3", "A5", "C2", "C3"):
        empty.place(point)
    stop = Game(7, 7, rules=Rules.GROUNDING)
    for point in ("A4", "G1", "B4", "G2", "D4", "G3", "E4", "G4", "E5", "G5"):
        stop.place(point)
    handed = stop.stop_preview(Player.PINK).dots
    grounding = ngettext(
        "Grounding rules: a stop by Pink now would hand Blue the {n} crossed dot, which is not "
        "linked to the edge.",
        "Grounding rules: a stop by Pink now would hand Blue the {n} crossed dots, which are "
        "not linked to the edge.",
        len(handed),
    )
    return [
        (
            translate(locale, N_("Pink closes a ring around Blue's dot: a base, Pink scores 1.")),
            capture,
            (),
        ),
        (
            translate(
                locale,
                N_("Blue plays into Pink's empty ring and is captured at once: Pink scores 1."),
            ),
            empty,
            (),
        ),
        (translate(locale, grounding), stop, handed),
    ]


def rule_pictures(locale: str) -> list[tuple[str, bytes]]:
    """The captions and PNGs of ``/rules``. A picture's header names the colours, their scores
    and the picture's number: whose turn it would be in the example says nothing of the rule,
    so the board is drawn without a turn."""
    header = words(locale)
    names = {Player.PINK: header.pink, Player.BLUE: header.blue}
    return [
        (
            caption,
            render_png(
                game.board,
                names=names,
                marks=marks,
                status=translate(locale, _("Picture {n}", n=n)),
                words=header,
            ),
        )
        for n, (caption, game, marks) in enumerate(rule_examples(locale), 1)
    ]


class Replays:
    """Renders games' animated replays in one worker process, one render per game at a time.

    A long 52x52 game's GIF takes seconds of CPU: in the bot's process (even in a thread) it
    would hold the interpreter and delay every other game's pictures. Exports queue for the
    one worker; several exports of one game share its render. If the worker dies the render
    is done in a thread instead, and a new worker is started for the next one.
    """

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._rendering: dict[int, asyncio.Future[bytes]] = {}

    async def render(
        self, game_id: int, game: Game, names: Mapping[Player, str], header: Words = ENGLISH
    ) -> bytes:
        """The replay (GIF bytes) of ``game`` (game number ``game_id``), its headers in
        ``header``'s words."""
        shared = self._rendering.get(game_id)
        if shared is not None:
            return await asyncio.shield(shared)
        future = asyncio.ensure_future(self._render(game, dict(names), header))
        self._rendering[game_id] = future
        try:
            return await asyncio.shield(future)
        finally:
            if self._rendering.get(game_id) is future:
                del self._rendering[game_id]

    async def _render(self, game: Game, names: dict[Player, str], header: Words) -> bytes:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._pool, game_gif, game, names, header
            )
        except BrokenProcessPool:
            log.warning("the replay worker died; rendering in a thread")
            self._pool = None
            return await asyncio.to_thread(game_gif, game, names, header)

    def close(self) -> None:
        """Stop the worker (renders under way are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class Info(commands.Cog):
    """Rules, help, notifications, leaderboard, stats, history, export."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._rule_pictures: dict[str, list[tuple[str, bytes]]] = {}  # by locale
        self.replays = Replays()
        self._exported: dict[int, float] = {}  # user id: time.monotonic() of the last export

    async def cog_unload(self) -> None:
        """Stop the replay worker."""
        self.replays.close()

    @app_commands.command(name="rules", description=N_("How to play Dots, with pictures"))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """A short explanation of the rules with pictures of the key cases, in the user's
        language."""
        await interaction.response.defer(thinking=True, ephemeral=True)
        locale = user_locale(interaction)
        if locale not in self._rule_pictures:
            self._rule_pictures[locale] = await asyncio.to_thread(rule_pictures, locale)
        pictures = self._rule_pictures[locale]
        captions = "\n".join(
            translate(locale, _("Picture {n}: {caption}", n=n, caption=caption))
            for n, (caption, _png) in enumerate(pictures, 1)
        )
        files = [
            discord.File(io.BytesIO(png), filename=f"rules-{n}.png")
            for n, (_caption, png) in enumerate(pictures, 1)
        ]
        summary = translate(locale, text.RULES_SUMMARY)
        await follow_up(interaction, f"{summary}\n\n{captions}", files=files, ephemeral=True)

    @app_commands.command(name="help", description=N_("The bot's commands"))
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """List the commands, each a mention a player can click."""
        ids, deferred = await in_time(interaction, self.bot.command_mentions(), ephemeral=True)
        shown = with_mentions(translate(user_locale(interaction), HELP), ids)
        await reply(interaction, deferred, shown, ephemeral=True)

    @app_commands.command(
        name="notify", description=N_("Direct messages on my turn, and how often I am reminded")
    )
    @app_commands.describe(
        setting=N_("on: DM me on my turn (clocks of an hour or more); off: don't"),
        reminders=N_("How often to remind me of my turn in games with a clock of an hour or more"),
    )
    @app_commands.choices(
        setting=[
            app_commands.Choice(name=N_("on"), value="on"),
            app_commands.Choice(name=N_("off"), value="off"),
        ],
        reminders=[
            app_commands.Choice(name=name, value=key) for key, (name, _every) in REMINDERS.items()
        ],
    )
    async def notify(
        self,
        interaction: discord.Interaction[Any],
        setting: str | None = None,
        reminders: str | None = None,
    ) -> None:
        """Turn turn notifications on or off and choose how often turns are reminded; with
        neither, show both."""
        service, user_id = self.bot.service, interaction.user.id

        async def work() -> tuple[bool, timedelta | None]:
            if setting is not None:
                await service.set_notify(user_id=user_id, on=setting == "on")
            if setting == "on":  # the language of the direct messages
                await service.remember_locale(user_id=user_id, locale=user_locale(interaction))
            if reminders is not None:
                await service.set_reminders(user_id=user_id, every=REMINDERS[reminders][1])
            return await service.wants_notify(user_id=user_id), await service.reminders(
                user_id=user_id
            )

        (on, every), deferred = await in_time(interaction, work(), ephemeral=True)
        locale = user_locale(interaction)
        lines = []
        if setting is not None or reminders is None:
            if on:
                dms = N_(
                    "I will DM you when it is your turn in games with a clock of an hour or more."
                )
            else:
                dms = N_("No more DMs on your turn.") if setting else N_("No DMs on your turn.")
            lines.append(translate(locale, dms))
        if reminders is not None or setting is None:
            lines.append(reminders_said(locale, every, changed=reminders is not None))
        shown = "\n".join(lines)
        await reply(interaction, deferred, shown, ephemeral=True)

    @app_commands.command(name="leaderboard", description=N_("This server's best players"))
    @app_commands.guild_only()
    @app_commands.describe(period=N_("All time (by rating, the default) or this month (by points)"))
    @app_commands.choices(period=[app_commands.Choice(name=p.label, value=p.value) for p in Period])
    async def leaderboard(
        self, interaction: discord.Interaction[Any], period: str = Period.ALL_TIME.value
    ) -> None:
        """The server's top players: all time by rating (games, wins, losses, draws), or this
        month's table by points."""
        assert interaction.guild_id is not None
        if period == Period.MONTH:
            table, deferred = await in_time(
                interaction,
                self.bot.service.month_leaderboard(guild_id=interaction.guild_id, limit=10),
            )
            locale = await public_locale(interaction)
            await reply(interaction, deferred, embed=month_embed(table, locale))
            return
        rows, deferred = await in_time(
            interaction, self.bot.service.leaderboard(guild_id=interaction.guild_id, limit=10)
        )
        locale = await public_locale(interaction)
        lines = [
            f"{row.rank}. {mention(row.user_id, locale)} **{round(row.rating)}**"
            f"{'?' if row.provisional else ''}: "
            + text.record_line(
                games=row.games, wins=row.wins, losses=row.losses, draws=row.draws, locale=locale
            )
            for row in rows
        ]
        embed = discord.Embed(
            title=translate(locale, N_("Dots leaderboard")),
            description="\n".join(lines)
            or translate(locale, N_("No rated games yet: `/challenge` someone!")),
        )
        if any(row.provisional for row in rows):
            embed.set_footer(text=translate(locale, N_("? = provisional rating (few games yet)")))
        await reply(interaction, deferred, embed=embed)

    @app_commands.command(name="stats", description=N_("A player's rating and record"))
    @app_commands.guild_only()
    @app_commands.describe(user=N_("Whose stats (default: yours)"))
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        """A player's rating, rank and record in this server."""
        assert interaction.guild_id is not None
        who = user or interaction.user
        (s, month), deferred = await in_time(
            interaction, stats_and_month(self.bot, guild_id=interaction.guild_id, user_id=who.id)
        )
        locale = await public_locale(interaction)
        rank = f"#{s.rank}" if s.rank else translate(locale, N_("unranked"))
        if s.provisional:
            rating = _(
                "Rating **{rating}** ± {rd} (provisional), {rank}",
                rating=round(s.rating),
                rd=round(s.rd),
                rank=rank,
            )
        else:
            rating = _(
                "Rating **{rating}** ± {rd}, {rank}",
                rating=round(s.rating),
                rd=round(s.rd),
                rank=rank,
            )
        record = text.record_line(
            games=s.games, wins=s.wins, losses=s.losses, draws=s.draws, locale=locale
        )
        running = translate(locale, _("{record}; {n} running", record=record, n=s.running))
        embed = discord.Embed(
            title=translate(locale, _("Dots: {name}", name=plain_name(who.display_name))),
            description=translate(locale, rating)
            + "\n"
            + running
            + "\n"
            + month_line(month, locale),
        )
        await reply(interaction, deferred, embed=embed)

    @app_commands.command(name="history", description=N_("A player's last games"))
    @app_commands.guild_only()
    @app_commands.describe(user=N_("Whose games (default: yours)"))
    async def history(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        """A player's last finished games in this server."""
        assert interaction.guild_id is not None
        who = user or interaction.user
        entries, deferred = await in_time(
            interaction, self.bot.service.history(guild_id=interaction.guild_id, user_id=who.id)
        )
        locale = await public_locale(interaction)
        lines = []
        for e in entries:
            delta = f", {round(e.rating_delta):+d}" if e.rating_delta is not None else ""
            reason = ""
            if e.reason:
                reason = f" ({translate(locale, name_of(e.reason, EndReason))})"
            size, when = f"{e.width}×{e.height}", f"<t:{int(e.finished.timestamp())}:R>"
            entry = _(
                "#{game_id} {outcome} {score}–{opponent_score} vs {opponent} as {colour}, "
                "{size}{reason}{delta} {when}",
                game_id=e.game_id,
                outcome=OUTCOMES.get(e.outcome, e.outcome),
                score=e.score,
                opponent_score=e.opponent_score,
                opponent=mention(e.opponent_id, locale),
                colour=text.label(e.colour, locale),
                size=size,
                reason=reason,
                delta=delta,
                when=when,
            )
            lines.append(translate(locale, entry))
        embed = discord.Embed(
            title=translate(locale, _("Dots games of {name}", name=plain_name(who.display_name))),
            description="\n".join(lines) or translate(locale, N_("No finished games yet.")),
        )
        await reply(interaction, deferred, embed=embed)

    @app_commands.command(
        name="export", description=N_("A game's record (SGF) and animated replay")
    )
    @app_commands.guild_only()
    @app_commands.describe(game=N_("Game number (see /games or /history)"))
    async def export(self, interaction: discord.Interaction[Any], game: int) -> None:
        """Send the SGF file and the GIF replay of a game of this server (the replay only if
        both fit the upload limit Discord gives this interaction). A finished game's replay
        is rendered once and kept; one export per member every 30 seconds."""
        view = await self.bot.service.game(game)
        if view.guild_id != interaction.guild_id:
            raise NoSuchGame(_("there is no game #{game_id} in this server", game_id=game))
        now = time.monotonic()
        since = now - self._exported.get(interaction.user.id, -EXPORT_COOLDOWN_SECONDS)
        if since < EXPORT_COOLDOWN_SECONDS:
            every, wait = round(EXPORT_COOLDOWN_SECONDS), round(EXPORT_COOLDOWN_SECONDS - since)
            raise ExportTooSoon(
                _("one export every {every} seconds: try again in {wait} s", every=every, wait=wait)
            )
        self._exported[interaction.user.id] = now
        await interaction.response.defer(thinking=True, ephemeral=True)
        bot = bot_of(interaction)
        service = bot.service
        locale = await bot.locales.of_place(view.guild_id, view.channel_id)
        names = await picture_names(bot, view, locale)
        record = sgf.dumps(view.game, pink=names[Player.PINK], blue=names[Player.BLUE]).encode()
        gif = None if view.is_running else await service.stored_replay(game_id=view.game_id)
        if gif is None:
            header = words(locale)
            gif = await self.replays.render(view.game_id, view.game, names, header)
            if not view.is_running:
                await service.store_replay(game_id=view.game_id, gif=gif)
        files = [discord.File(io.BytesIO(record), filename=f"dots-{view.game_id}.sgf")]
        limit = interaction.filesize_limit
        if len(record) + len(gif) <= limit:
            files.append(discord.File(io.BytesIO(gif), filename=f"dots-{view.game_id}.gif"))
            content = _("Game #{game_id}: the record (SGF) and the replay.", game_id=view.game_id)
        else:
            content = _(
                "Game #{game_id}: the record (SGF). The replay ({size}) is over this server's "
                "upload limit ({limit}).",
                game_id=view.game_id,
                size=megabytes(len(gif)),
                limit=megabytes(limit),
            )
        locale = user_locale(interaction)
        await follow_up(interaction, translate(locale, content), files=files, ephemeral=True)


OUTCOMES = {"win": N_("win"), "loss": N_("loss"), "draw": N_("draw"), "aborted": N_("aborted")}


# -- leaderboard periods: every word of the monthly table here ------------------------------

MONTH_RULE = N_(
    "This month (UTC), rated games: 1 point a win, ½ a draw; equal points: more rating "
    "gained this month first."
)
MONTH_EMPTY = N_("No rated game finished this month yet: `/challenge` someone!")


def points_text(points: float) -> str:
    """Points as players write them: ``"3"``, ``"2½"``, ``"½"``."""
    whole, half = divmod(round(points * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def points_phrase(points: float, locale: str = SOURCE, *, bold: bool = False) -> str:
    """Points with their word: ``"1 point"``, ``"3 points"``, ``"½ point"``, ``"2½ points"``
    (a fraction takes its own form in Polish, Russian and Ukrainian); ``bold``: the number."""
    shown = points_text(points)
    shown = f"**{shown}**" if bold else shown
    if round(points * 2) % 2 == 0:
        return translate(
            locale, ngettext("{points} point", "{points} points", round(points), points=shown)
        )
    if points <= 1:
        return translate(locale, pgettext("a fraction", "{points} point", points=shown))
    return translate(locale, pgettext("a fraction", "{points} points", points=shown))


def month_embed(table: MonthTable, locale: str = SOURCE) -> discord.Embed:
    """The monthly table: rank, player, points, record and rating gained; the rule below."""
    lines = [
        translate(
            locale,
            _(
                "{rank}. {player} {points}: {record}, {gained} rating",
                rank=row.rank,
                player=mention(row.user_id, locale),
                points=points_phrase(row.points, locale, bold=True),
                record=text.record_line(
                    games=row.games,
                    wins=row.wins,
                    losses=row.losses,
                    draws=row.draws,
                    locale=locale,
                ),
                gained=f"{round(row.gained):+d}",
            ),
        )
        for row in table.rows
    ]
    month = format_date(table.start, "LLLL yyyy", locale=babel_locale(locale))
    embed = discord.Embed(
        title=translate(locale, _("Dots leaderboard: {month}", month=month)),
        description="\n".join(lines) or translate(locale, MONTH_EMPTY),
    )
    embed.set_footer(text=translate(locale, MONTH_RULE))
    return embed


def month_line(month: MonthStanding | None, locale: str = SOURCE) -> str:
    """A player's place this month for /stats."""
    if month is None:
        return translate(locale, N_("This month: no rated game finished yet."))
    games = translate(locale, ngettext("{n} game", "{n} games", month.games))
    return translate(
        locale,
        _(
            "This month: #{rank}, {points} ({games})",
            rank=month.rank,
            points=points_phrase(month.points, locale),
            games=games,
        ),
    )


def babel_locale(locale: str) -> str:
    """Babel's name of a bot locale (English is en_US)."""
    return "en_US" if locale == SOURCE else locale


async def stats_and_month(
    bot: GameBot, *, guild_id: int, user_id: int
) -> tuple[PlayerStats, MonthStanding | None]:
    """A player's stats and place in this month's table (one piece of work for in_time)."""
    service = bot.service
    return (
        await service.stats(guild_id=guild_id, user_id=user_id),
        await service.month_standing(guild_id=guild_id, user_id=user_id),
    )


def megabytes(size: int) -> str:
    """A size in bytes for people: "3.2 MB"."""
    return f"{size / 1_000_000:.1f} MB"
