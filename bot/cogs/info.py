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
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import text
from bot.cogs.common import GameBot, bot_of, in_time, mention, picture_names, reply
from bot.cogs.posts import answer, follow_up, plain_name
from bot.games import NoSuchGame, PlayerStats, Refusal
from bot.games.queries import MonthStanding, MonthTable, Period
from bot.pictures import game_gif, game_png
from engine import Game, Player, Point, sgf

log = logging.getLogger(__name__)

EXPORT_COOLDOWN_SECONDS = 30.0
"""How often one member may use /export (a replay can take seconds to render and megabytes
to upload)."""


class ExportTooSoon(Refusal):
    """The member used /export less than ``EXPORT_COOLDOWN_SECONDS`` ago."""


HELP = """\
**Dots**: surround your opponent's dots to capture them. `/rules` explains the game.
- `/challenge @someone`: challenge a member (size, rules, start position, move clock, colour).
- `/play-computer [level]`: a game against the computer (easy, medium or hard; unrated). \
Challenging the bot itself does the same at medium. `/undo` takes back your last move and \
the computer's reply.
- `/move B7`: place a dot (in the game's thread; `game:` picks one if you play several).
- `/end`: make no more moves (asks first); `/resign`: give up (asks first).
- `/board`, `/games`: the current picture; your running games with links.
- `/notify on`: a direct message when it is your turn in games with a clock of an hour or more.
- `/leaderboard [period]`, `/stats`, `/history`: this server's ratings and records (all \
time, or this month's table by points).
- `/stickers [user]`: a player's sticker book.
- `/export game:12`: a game's record (SGF) and an animated replay.
Admins (Manage Server): `/dots-admin cancel`, `/dots-admin settings`."""

NAMES = {Player.PINK: "Pink", Player.BLUE: "Blue"}


def rule_examples() -> list[tuple[str, Game, tuple[Point, ...]]]:
    """The key cases of the rules as small games, with a caption and crosses to draw."""
    capture = Game(5, 5)
    for point in ("C4", "C3", "B3", "A1", "D3", "E1", "C2"):
        capture.place(point)
    empty = Game(5, 5)
    for point in ("C4", "A1", "B3", "E1", "D3", "A5", "C2", "C3"):
        empty.place(point)
    stop = Game(7, 7, rules="grounding")
    for point in ("A4", "G1", "B4", "G2", "D4", "G3", "E4", "G4", "E5", "G5"):
        stop.place(point)
    handed = stop.stop_preview(Player.PINK).dots
    return [
        ("Pink closes a ring around Blue's dot: a base, Pink scores 1.", capture, ()),
        ("Blue plays into Pink's empty ring and is captured at once: Pink scores 1.", empty, ()),
        (
            f"Grounding rules: a stop by Pink now would hand Blue the {len(handed)} crossed "
            "dots, which are not linked to the edge.",
            stop,
            handed,
        ),
    ]


def _rule_files() -> list[tuple[str, bytes]]:
    return [
        (caption, game_png(game, NAMES, marks=marks)) for caption, game, marks in rule_examples()
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

    async def render(self, game_id: int, game: Game, names: Mapping[Player, str]) -> bytes:
        """The replay (GIF bytes) of ``game`` (game number ``game_id``)."""
        shared = self._rendering.get(game_id)
        if shared is not None:
            return await asyncio.shield(shared)
        future = asyncio.ensure_future(self._render(game, dict(names)))
        self._rendering[game_id] = future
        try:
            return await asyncio.shield(future)
        finally:
            if self._rendering.get(game_id) is future:
                del self._rendering[game_id]

    async def _render(self, game: Game, names: dict[Player, str]) -> bytes:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("spawn")
            )
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._pool, game_gif, game, names
            )
        except BrokenProcessPool:
            log.warning("the replay worker died; rendering in a thread")
            self._pool = None
            return await asyncio.to_thread(game_gif, game, names)

    def close(self) -> None:
        """Stop the worker (renders under way are dropped)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class Info(commands.Cog):
    """Rules, help, notifications, leaderboard, stats, history, export."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._rule_pictures: list[tuple[str, bytes]] | None = None
        self.replays = Replays()
        self._exported: dict[int, float] = {}  # user id: time.monotonic() of the last export

    async def cog_unload(self) -> None:
        """Stop the replay worker."""
        self.replays.close()

    @app_commands.command(name="rules", description="How to play Dots, with pictures")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        """A short explanation of the rules with pictures of the key cases."""
        await interaction.response.defer(thinking=True, ephemeral=True)
        if self._rule_pictures is None:
            self._rule_pictures = await asyncio.to_thread(_rule_files)
        captions = "\n".join(
            f"Picture {n}: {caption}" for n, (caption, _) in enumerate(self._rule_pictures, 1)
        )
        files = [
            discord.File(io.BytesIO(png), filename=f"rules-{n}.png")
            for n, (_, png) in enumerate(self._rule_pictures, 1)
        ]
        await follow_up(
            interaction, f"{text.RULES_SUMMARY}\n\n{captions}", files=files, ephemeral=True
        )

    @app_commands.command(name="help", description="The bot's commands")
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """List the commands."""
        await answer(interaction, HELP, ephemeral=True)

    @app_commands.command(name="notify", description="Direct message me when it is my turn")
    @app_commands.describe(setting="on: DM me on my turn (clocks of an hour or more); off: don't")
    @app_commands.choices(
        setting=[
            app_commands.Choice(name="on", value="on"),
            app_commands.Choice(name="off", value="off"),
        ]
    )
    async def notify(self, interaction: discord.Interaction[Any], setting: str) -> None:
        """Turn turn notifications on or off."""
        on = setting == "on"
        service = self.bot.service
        _, deferred = await in_time(
            interaction, service.set_notify(user_id=interaction.user.id, on=on), ephemeral=True
        )
        message = (
            "I will DM you when it is your turn in games with a clock of an hour or more."
            if on
            else "No more DMs on your turn."
        )
        await reply(interaction, deferred, message, ephemeral=True)

    @app_commands.command(name="leaderboard", description="This server's best players")
    @app_commands.guild_only()
    @app_commands.describe(period="All time (by rating, the default) or this month (by points)")
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
            await reply(interaction, deferred, embed=month_embed(table))
            return
        rows, deferred = await in_time(
            interaction, self.bot.service.leaderboard(guild_id=interaction.guild_id, limit=10)
        )
        lines = [
            f"{row.rank}. {mention(row.user_id)} **{round(row.rating)}**"
            f"{'?' if row.provisional else ''}: "
            + text.record_line(games=row.games, wins=row.wins, losses=row.losses, draws=row.draws)
            for row in rows
        ]
        embed = discord.Embed(
            title="Dots leaderboard",
            description="\n".join(lines) or "No rated games yet: `/challenge` someone!",
        )
        if any(row.provisional for row in rows):
            embed.set_footer(text="? = provisional rating (few games yet)")
        await reply(interaction, deferred, embed=embed)

    @app_commands.command(name="stats", description="A player's rating and record")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose stats (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        """A player's rating, rank and record in this server."""
        assert interaction.guild_id is not None
        who = user or interaction.user
        (s, month), deferred = await in_time(
            interaction, stats_and_month(self.bot, guild_id=interaction.guild_id, user_id=who.id)
        )
        rank = f"#{s.rank}" if s.rank else "unranked"
        embed = discord.Embed(
            title=f"Dots: {plain_name(who.display_name)}",
            description=(
                f"Rating **{round(s.rating)}** ± {round(s.rd)}"
                f"{' (provisional)' if s.provisional else ''}, {rank}\n"
                + text.record_line(games=s.games, wins=s.wins, losses=s.losses, draws=s.draws)
                + f"; {s.running} running\n"
                + month_line(month)
            ),
        )
        await reply(interaction, deferred, embed=embed)

    @app_commands.command(name="history", description="A player's last games")
    @app_commands.guild_only()
    @app_commands.describe(user="Whose games (default: yours)")
    async def history(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        """A player's last finished games in this server."""
        assert interaction.guild_id is not None
        who = user or interaction.user
        entries, deferred = await in_time(
            interaction, self.bot.service.history(guild_id=interaction.guild_id, user_id=who.id)
        )
        lines = []
        for e in entries:
            delta = f", {round(e.rating_delta):+d}" if e.rating_delta is not None else ""
            reason = f" ({e.reason})" if e.reason else ""
            lines.append(
                f"#{e.game_id} {e.outcome} {e.score}–{e.opponent_score} "
                f"vs {mention(e.opponent_id)} as {e.colour.label}, "
                f"{e.width}×{e.height}{reason}{delta} "
                f"<t:{int(e.finished.timestamp())}:R>"
            )
        embed = discord.Embed(
            title=f"Dots games of {plain_name(who.display_name)}",
            description="\n".join(lines) or "No finished games yet.",
        )
        await reply(interaction, deferred, embed=embed)

    @app_commands.command(name="export", description="A game's record (SGF) and animated replay")
    @app_commands.guild_only()
    @app_commands.describe(game="Game number (see /games or /history)")
    async def export(self, interaction: discord.Interaction[Any], game: int) -> None:
        """Send the SGF file and the GIF replay of a game of this server (the replay only if
        both fit the upload limit Discord gives this interaction). A finished game's replay
        is rendered once and kept; one export per member every 30 seconds."""
        view = await self.bot.service.game(game)
        if view.guild_id != interaction.guild_id:
            raise NoSuchGame(f"there is no game #{game} in this server")
        now = time.monotonic()
        since = now - self._exported.get(interaction.user.id, -EXPORT_COOLDOWN_SECONDS)
        if since < EXPORT_COOLDOWN_SECONDS:
            raise ExportTooSoon(
                f"one export every {EXPORT_COOLDOWN_SECONDS:.0f} seconds: try again in "
                f"{EXPORT_COOLDOWN_SECONDS - since:.0f} s"
            )
        self._exported[interaction.user.id] = now
        await interaction.response.defer(thinking=True, ephemeral=True)
        bot = bot_of(interaction)
        service = bot.service
        names = await picture_names(bot, view)
        record = sgf.dumps(view.game, pink=names[Player.PINK], blue=names[Player.BLUE]).encode()
        gif = None if view.is_running else await service.stored_replay(game_id=view.game_id)
        if gif is None:
            gif = await self.replays.render(view.game_id, view.game, names)
            if not view.is_running:
                await service.store_replay(game_id=view.game_id, gif=gif)
        files = [discord.File(io.BytesIO(record), filename=f"dots-{view.game_id}.sgf")]
        limit = interaction.filesize_limit
        if len(record) + len(gif) <= limit:
            files.append(discord.File(io.BytesIO(gif), filename=f"dots-{view.game_id}.gif"))
            content = f"Game #{view.game_id}: the record (SGF) and the replay."
        else:
            content = (
                f"Game #{view.game_id}: the record (SGF). The replay ({megabytes(len(gif))}) "
                f"is over this server's upload limit ({megabytes(limit)})."
            )
        await follow_up(interaction, content, files=files, ephemeral=True)


# -- leaderboard periods (issue 13 item 6): every word of the monthly table here ------------

MONTH_RULE = (
    "This month (UTC), rated games: 1 point a win, ½ a draw; equal points: more rating "
    "gained this month first."
)
MONTH_EMPTY = "No rated game finished this month yet: `/challenge` someone!"


def points_text(points: float) -> str:
    """Points as players write them: ``"3"``, ``"2½"``, ``"½"``."""
    whole, half = divmod(round(points * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def point_word(points: float) -> str:
    """``"point"`` up to one point (``"½ point"``, ``"1 point"``), else ``"points"``."""
    return "point" if points <= 1 else "points"


def month_embed(table: MonthTable) -> discord.Embed:
    """The monthly table: rank, player, points, record and rating gained; the rule below."""
    lines = [
        f"{row.rank}. {mention(row.user_id)} **{points_text(row.points)}** "
        f"{point_word(row.points)}: "
        + text.record_line(games=row.games, wins=row.wins, losses=row.losses, draws=row.draws)
        + f", {round(row.gained):+d} rating"
        for row in table.rows
    ]
    embed = discord.Embed(
        title=f"Dots leaderboard: {table.start:%B %Y}",
        description="\n".join(lines) or MONTH_EMPTY,
    )
    embed.set_footer(text=MONTH_RULE)
    return embed


def month_line(month: MonthStanding | None) -> str:
    """A player's place this month for /stats."""
    if month is None:
        return "This month: no rated game finished yet."
    return (
        f"This month: #{month.rank}, {points_text(month.points)} "
        f"{point_word(month.points)} "
        f"({text.plural(month.games, '{n} game', '{n} games')})"
    )


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
