"""The core of the game service: the database, the cache of running games and their locks,
events and clock listeners, and the settings use-cases."""

from __future__ import annotations

import asyncio
import inspect
import logging
import random
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Self

from bot.games import convert
from bot.games.convert import to_dt, to_ts
from bot.games.errors import GameOver, NoSuchGame, NotYourGame
from bot.games.models import ClockChange, Event, GuildSettings
from bot.i18n import N_, Message, _
from bot.option_words import name_of
from bot.storage import Store
from bot.storage.rows import GameRow
from engine import EndReason, Game, Player, Result

log = logging.getLogger(__name__)

Subscriber = Callable[[Event], Awaitable[None] | None]

# Deadlines are compared after a round trip through unix seconds (floats).
SAME_INSTANT = 0.001


def _everything(guild_id: int | None) -> bool:
    """One process owns every server's games (no sharding)."""
    return True


def utc_now() -> datetime:
    """The current instant as an aware UTC datetime."""
    return datetime.now(UTC)


@dataclass(slots=True)
class Live:
    """A running game in the cache: its row (kept equal to the database) and its position."""

    row: GameRow
    game: Game


class ServiceCore:
    """State shared by the use-cases: store, clock, random source, cache, locks, listeners.

    Not used alone: ``bot.games.service.GameService`` combines it with the use-cases.
    """

    def __init__(
        self,
        store: Store,
        *,
        now: Callable[[], datetime] = utc_now,
        rng: random.Random | None = None,
        max_cached: int = 2000,
        owns: Callable[[int | None], bool] | None = None,
    ) -> None:
        self.store = store
        # The timers table follows each game write; reminders are the service's rule.
        store.wake = wake_at
        # Whether this process owns a server's games (its shard: bot.storage.timers.Shards);
        # only their clocks, computer's turns and interrupted starts are re-armed at start.
        self.owns: Callable[[int | None], bool] = owns or _everything
        self.max_cached = max_cached
        self.now = now
        self._rng = rng or random.Random()
        # Least recently used first; a game dropped from here is rebuilt from the database.
        self._cache: OrderedDict[int, Live] = OrderedDict()
        # The cached games by their thread (a command in a game's thread finds it without a
        # read, so a busy bot's deferral is not queued behind the database).
        self._threads: dict[int, int] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._subscribers: list[Subscriber] = []
        self._clock_listeners: list[Callable[[ClockChange], None]] = []

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        now: Callable[[], datetime] = utc_now,
        rng: random.Random | None = None,
        owns: Callable[[int | None], bool] | None = None,
    ) -> Self:
        """Open (creating and migrating as needed) the database at ``path`` and a service on it
        (``owns``: whether this process owns a server's games; default all)."""
        return cls(await Store.open(path), now=now, rng=rng, owns=owns)

    async def close(self) -> None:
        """Close the database (after stopping the clocks)."""
        await self.store.close()

    async def claim_one_off_jobs(self) -> bool:
        """Whether this process, of all sharing the database, runs the one-off jobs (the
        command sync); see ``Store.claim_one_off_jobs``."""
        return await self.store.claim_one_off_jobs()

    @property
    def cached(self) -> int:
        """How many running games are in memory."""
        return len(self._cache)

    # -- events ----------------------------------------------------------------------------

    def subscribe(self, callback: Subscriber) -> None:
        """Call ``callback(event)`` for each TimedOut, Reminder and ChallengeExpired event.

        A coroutine callback is awaited; its exceptions are logged, never raised to the clock.
        """
        self._subscribers.append(callback)

    def watch_clocks(self, listener: Callable[[ClockChange], None]) -> None:
        """Call ``listener`` (synchronously, under the game's lock) whenever a deadline is set,
        moved or cleared; ``bot.clocks.Clocks`` uses this to arm its tasks."""
        self._clock_listeners.append(listener)

    async def pending_clocks(self) -> list[ClockChange]:
        """Every running game's deadline and every open challenge's expiry, from the database
        (of the servers this process owns: see ``owns``)."""
        changes = [
            ClockChange(
                r.game_id,
                None,
                to_dt(r.deadline),
                convert.remind_at(r.deadline, r.clock, r.reminder_sent),
            )
            for r in await self.store.running_clocks()
            if self.owns(r.guild_id)
        ]
        changes += [
            ClockChange(None, cid, to_dt(expires))
            for cid, expires, guild_id in await self.store.challenge_expiries()
            if self.owns(guild_id)
        ]
        return changes

    async def _publish(self, event: Event) -> None:
        for callback in list(self._subscribers):
            try:
                result = callback(event)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log.exception("event subscriber failed on %r", type(event).__name__)

    def _clock_changed(self, change: ClockChange) -> None:
        for listener in self._clock_listeners:
            try:
                listener(change)
            except Exception:
                log.exception("clock listener failed")

    def _game_clock(self, row: GameRow) -> None:
        due = to_dt(row.deadline) if row.status == "running" and row.deadline else None
        self._clock_changed(
            ClockChange(
                row.game_id,
                None,
                due,
                convert.remind_at(row.deadline, row.clock, row.reminder_sent) if due else None,
            )
        )

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def _running(self, game_id: int) -> Live:
        """The cached running game, rebuilt from the database if needed; call under its lock.

        Raises:
            NoSuchGame, GameOver.
        """
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            return live
        loaded = await self.store.game_with_actions(game_id)
        if loaded is None:
            raise NoSuchGame(_("there is no game #{game_id}", game_id=game_id))
        row, actions = loaded
        if row.status != "running":
            raise GameOver(over_message(row))
        live = Live(row, convert.rebuild(row, actions))
        self._remember(live)
        return live

    def _remember(self, live: Live, *, new: bool = False) -> None:
        """Cache a running game, dropping the least recently used beyond ``max_cached``;
        ``new``: a game just started, with no history to read (see ``StickerCases``).

        Dropping is safe at any moment: every use of a game happens under its lock and
        rebuilds it from the database (committed before any lock is released) when missing.
        """
        self._cache[live.row.game_id] = live
        self._cache.move_to_end(live.row.game_id)
        if live.row.thread_id is not None:
            self._threads[live.row.thread_id] = live.row.game_id
        while len(self._cache) > self.max_cached:
            self._forget(next(iter(self._cache)))

    def _forget(self, game_id: int) -> None:
        """Drop a game from the cache (it is over, or rebuilt from the database on next use)."""
        live = self._cache.pop(game_id, None)
        if live is not None and live.row.thread_id is not None:
            self._threads.pop(live.row.thread_id, None)

    def _cached_in_thread(self, thread_id: int) -> int | None:
        """The id of the cached game played in thread ``thread_id``, if any."""
        game_id = self._threads.get(thread_id)
        live = None if game_id is None else self._cache.get(game_id)
        return None if live is None or live.row.thread_id != thread_id else game_id

    @staticmethod
    def _colour(live: Live, user_id: int) -> Player:
        if user_id == live.row.pink_id:
            return Player.PINK
        if user_id == live.row.blue_id:
            return Player.BLUE
        raise NotYourGame(N_("you are not playing in this game"))

    # -- settings --------------------------------------------------------------------------

    async def set_notify(self, *, user_id: int, on: bool) -> None:
        """Set whether ``user_id`` wants a direct message when it is their turn."""
        await self.store.set_notify(user_id, on=on, at=to_ts(self.now()))

    async def wants_notify(self, *, user_id: int) -> bool:
        """Whether ``user_id`` wants a direct message when it is their turn (default False)."""
        return await self.store.notify(user_id)

    async def guild_settings(self, *, guild_id: int) -> GuildSettings:
        """A server's settings (defaults if never set)."""
        stored = await self.store.guild(guild_id)
        if stored is None:
            return GuildSettings(guild_id)
        channel, clock = stored
        return GuildSettings(guild_id, channel, timedelta(seconds=clock))

    async def set_guild_settings(
        self,
        *,
        guild_id: int,
        game_channel_id: int | None = None,
        default_clock: timedelta | None = None,
    ) -> GuildSettings:
        """Change a server's game channel and/or default move clock (None leaves it).

        Raises:
            OptionOutOfRange: a clock outside 30 seconds to 7 days.
        """
        current = await self.guild_settings(guild_id=guild_id)
        clock = current.default_clock if default_clock is None else default_clock
        seconds = convert.clock_seconds(clock)
        channel = current.game_channel_id if game_channel_id is None else game_channel_id
        await self.store.set_guild(
            guild_id, game_channel_id=channel, default_clock=seconds, at=to_ts(self.now())
        )
        return GuildSettings(guild_id, channel, timedelta(seconds=seconds))


def wake_at(row: GameRow) -> float | None:
    """When a game's timer fires (``bot.storage.rows.WakeRule``): its reminder, if one is due
    this turn, else its deadline; None once no clock runs."""
    if row.status != "running" or row.deadline is None:
        return None
    remind = convert.remind_at(row.deadline, row.clock, row.reminder_sent)
    return row.deadline if remind is None else to_ts(remind)


def over_message(row: GameRow) -> Message:
    """Why a finished game takes no more actions, with its result (in the reader's language)."""
    if row.status == "aborted":
        return _("this game was aborted")
    result = convert.stored_result(row)
    if result is None:
        return _("the game is over")
    return _("the game is over: {result}", result=result_message(result))


def result_message(result: Result) -> Message:
    """``result.describe()`` (the engine's English) as a catalogue sentence."""
    why = Message(name_of(result.reason, EndReason))
    if result.winner is None:
        return _("Draw {pink}–{blue} ({why})", pink=result.pink, blue=result.blue, why=why)
    winner = Message(N_("Pink") if result.winner is Player.PINK else N_("Blue"))
    won, lost = result.score(result.winner), result.score(result.winner.opponent)
    return _("{winner} wins {won}–{lost} ({why})", winner=winner, won=won, lost=lost, why=why)
