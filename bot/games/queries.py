"""Queries: a game, a player's running games, leaderboard (all time or this month), stats,
history."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal

from bot.games import convert
from bot.games.convert import to_dt
from bot.games.core import GameCore, Live
from bot.games.errors import NoSuchGame
from bot.games.models import GameView, HistoryEntry, LeaderboardRow, PlayerStats
from bot.i18n import N_, _
from bot.ratings import PROVISIONAL_RD, Rating
from bot.storage.rows import GameStatus, MonthRow
from engine import Player


class Period(enum.StrEnum):
    """A leaderboard's period: all time (by rating) or the current calendar month in UTC (by
    points)."""

    ALL_TIME = "all-time"
    MONTH = "month"

    @property
    def label(self) -> str:
        """The period as players read it: ``"all time"``, ``"this month"``."""
        return N_("all time") if self is Period.ALL_TIME else N_("this month")


@dataclass(frozen=True, slots=True)
class MonthStanding(MonthRow):
    """A player's place in a server's table of this month (their ``MonthRow`` with a rank and
    points): 1 point a win and half a point a draw in rated games finished this month; equal
    points are ranked by rating gained this month (players equal in both share a rank)."""

    rank: int
    points: float


@dataclass(frozen=True, slots=True)
class MonthTable:
    """The best of a server's table of the month from ``start`` until before ``end`` (UTC)."""

    start: datetime
    end: datetime
    rows: tuple[MonthStanding, ...]


def month_of(now: datetime) -> tuple[datetime, datetime]:
    """The calendar month (UTC) holding ``now``: its first instant and the next month's."""
    now = now.astimezone(UTC)
    start = datetime(now.year, now.month, 1, tzinfo=UTC)
    end = datetime(now.year + now.month // 12, now.month % 12 + 1, 1, tzinfo=UTC)
    return start, end


def month_ranking(rows: list[MonthRow]) -> list[MonthStanding]:
    """Players ranked by points (1 a win, half a draw), then rating gained; equal in both,
    equal rank (1, 2, 2, 4)."""

    def key(row: MonthRow) -> tuple[float, float]:
        return (-(row.wins + row.draws / 2), -round(row.gained, 6))

    ordered = sorted(rows, key=lambda row: (*key(row), row.user_id))
    out: list[MonthStanding] = []
    for place, row in enumerate(ordered, start=1):
        rank = out[-1].rank if out and key(ordered[place - 2]) == key(row) else place
        out.append(
            MonthStanding(
                row.user_id, row.games, row.wins, row.losses, row.draws, row.gained,
                rank=rank, points=row.wins + row.draws / 2,
            )
        )  # fmt: skip
    return out


class Queries:
    """Read-only use-cases (a running game is read under its lock, from the cache)."""

    def __init__(self, core: GameCore) -> None:
        self.core = core

    async def game(self, game_id: int) -> GameView:
        """A snapshot of a game (running, over or aborted).

        Raises:
            NoSuchGame.
        """
        async with self.core.lock(game_id):
            live = self.core.cached_game(game_id)
            if live is not None:
                return convert.game_view(live.row, live.game)
            loaded = await self.core.store.games.game_with_actions(game_id)
            if loaded is None:
                raise NoSuchGame(_("there is no game #{game_id}", game_id=game_id))
            row, actions = loaded
            game = convert.rebuild(row, actions)
            if row.status == GameStatus.RUNNING:
                self.core.remember(Live(row, game))
            return convert.game_view(row, game)

    async def running_deadline(self, *, game_id: int) -> datetime | None:
        """A running game's deadline as stored (no lock, no rebuild: what the clocks read);
        None when the game is over, unknown or has no deadline."""
        row = await self.core.store.games.game(game_id)
        if row is None or row.status != GameStatus.RUNNING or row.deadline is None:
            return None
        return to_dt(row.deadline)

    async def game_in_thread(self, *, thread_id: int) -> GameView | None:
        """The game played in thread ``thread_id`` (over or not), or None."""
        game_id = self.core.cached_in_thread(thread_id)
        if game_id is None:
            game_id = await self.core.store.games.game_id_in_thread(thread_id)
        return None if game_id is None else await self.game(game_id)

    async def running_games(self, *, user_id: int, guild_id: int | None = None) -> list[GameView]:
        """The running games of ``user_id`` (in one server if given), oldest first."""
        views = []
        for game_id in await self.core.store.games.running_game_ids(user_id, guild_id):
            view = await self.game(game_id)
            if view.is_running:
                views.append(view)
        return views

    async def unstarted_games(self) -> list[GameView]:
        """The running games whose first picture was never posted (the bot was stopped
        between the accept and that post), oldest first: the adapter finishes their start."""
        views = []
        for game_id in await self.core.store.games.unstarted_games():
            view = await self.game(game_id)
            if view.is_running and self.core.owns(view.guild_id):
                views.append(view)
        return views

    async def stored_replay(self, *, game_id: int) -> bytes | None:
        """A finished game's animated replay as rendered once before, or None."""
        return await self.core.store.games.replay(game_id)

    async def store_replay(self, *, game_id: int, gif: bytes) -> bool:
        """Keep a finished game's replay for the next export (a finished game never changes);
        False (nothing kept) for a running game."""
        return await self.core.store.games.save_replay(game_id, gif)

    async def leaderboard(self, *, guild_id: int, limit: int = 10) -> list[LeaderboardRow]:
        """A server's players by rating, best first (provisional ratings are marked)."""
        rows = await self.core.store.ratings.leaderboard(guild_id, limit)
        return [
            LeaderboardRow(
                rank,
                r.user_id,
                r.rating,
                r.rd,
                r.rd > PROVISIONAL_RD,
                r.games,
                r.wins,
                r.losses,
                r.draws,
            )
            for rank, r in enumerate(rows, start=1)
        ]

    async def _month(self, guild_id: int) -> tuple[datetime, datetime, list[MonthStanding]]:
        start, end = month_of(self.core.now())
        rows = await self.core.store.ratings.period_table(
            guild_id, start=start.timestamp(), end=end.timestamp()
        )
        return start, end, month_ranking(rows)

    async def month_leaderboard(self, *, guild_id: int, limit: int = 10) -> MonthTable:
        """A server's table of the current calendar month (UTC), best first (see
        ``MonthStanding`` for the ranking)."""
        start, end, ranked = await self._month(guild_id)
        return MonthTable(start, end, tuple(ranked[:limit]))

    async def month_standing(self, *, guild_id: int, user_id: int) -> MonthStanding | None:
        """A player's place in a server's table of this month; None without a rated game
        finished this month."""
        _, _, ranked = await self._month(guild_id)
        return next((row for row in ranked if row.user_id == user_id), None)

    async def stats(self, *, guild_id: int, user_id: int) -> PlayerStats:
        """A player's rating, record and rank in a server."""
        found = await self.core.store.ratings.rating(guild_id, user_id)
        running = await self.core.store.games.count_running(guild_id, user_id)
        if found is None:
            fresh = Rating()
            return PlayerStats(
                guild_id,
                user_id,
                fresh.rating,
                fresh.rd,
                fresh.volatility,
                True,
                0,
                0,
                0,
                0,
                None,
                running,
            )
        r, rank = found
        return PlayerStats(
            guild_id,
            user_id,
            r.rating,
            r.rd,
            r.volatility,
            r.rd > PROVISIONAL_RD,
            r.games,
            r.wins,
            r.losses,
            r.draws,
            rank,
            running,
        )

    async def history(self, *, guild_id: int, user_id: int, limit: int = 10) -> list[HistoryEntry]:
        """A player's finished and aborted games in a server, newest first."""
        entries = []
        for row, delta in await self.core.store.games.finished_games(
            guild_id, user_id, limit=limit
        ):
            colour = Player.PINK if row.pink_id == user_id else Player.BLUE
            opponent = row.blue_id if colour is Player.PINK else row.pink_id
            mine = row.pink_score if colour is Player.PINK else row.blue_score
            theirs = row.blue_score if colour is Player.PINK else row.pink_score
            outcome: Literal["win", "loss", "draw", "aborted"]
            if row.status == GameStatus.ABORTED:
                outcome = "aborted"
            elif row.winner is None:
                outcome = "draw"
            else:
                outcome = "win" if row.winner == int(colour) else "loss"
            entries.append(
                HistoryEntry(
                    row.game_id,
                    opponent,
                    colour,
                    outcome,
                    mine or 0,
                    theirs or 0,
                    row.reason,
                    row.rated,
                    delta,
                    row.width,
                    row.height,
                    to_dt(row.finished or row.started),
                )
            )
        return entries
