"""The core of the game service: the running games (cache, per-game locks, ``running()``),
the commit of an action with its ordered commit hooks, and the event bus.

The use-cases live in collaborators that take this core in their constructors
(``bot.games.service.GameService`` builds them). Consistency: every action on a game runs under
that game's asyncio lock. The move is applied to the cached position, then committed; if the
commit fails the cached game is dropped (to be rebuilt from the database), so under the lock
memory never differs from the database, and every reader of a running game takes the lock too.
"""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypedDict

from bot.games import convert
from bot.games.convert import to_dt, to_ts
from bot.games.errors import GameChanged, GameOver, IllegalMove, NoSuchGame, NotYourGame
from bot.games.events import EventBus
from bot.games.game_clock import ClockState, TimeUpError
from bot.games.models import ClockChange, GameView, MoveOutcome
from bot.games.stickers import StickerNews
from bot.i18n import N_, Message, _
from bot.option_words import name_of
from bot.ratings import rate_stored
from bot.storage import Store
from bot.storage.errors import StaleWriteError
from bot.storage.rows import ActionRow, Finish, GameRow, GameStatus, StickerRow
from engine import Action, ActionKind, EndReason, Game, Placement, Player, Result

log = logging.getLogger(__name__)

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


@dataclass(slots=True)
class Commit:
    """An action of a running game on its way to the database, as the commit hooks see it:
    the hooks before the write add what is stored with it (``stickers``) and what its post
    announces (``news``); the hooks after it see the ``outcome`` and may replace it."""

    live: Live
    action: Action
    placement: Placement | None
    at: float  # unix seconds
    stickers: list[StickerRow] = field(default_factory=list)
    news: tuple[StickerNews, ...] = ()
    outcome: MoveOutcome | None = None


CommitHook = Callable[[Commit], Awaitable[None]]


class CoreOptions(TypedDict, total=False):
    """What ``GameCore`` takes besides the store (see there; ``GameService`` passes them on)."""

    now: Callable[[], datetime]
    rng: random.Random | None
    max_cached: int
    owns: Callable[[int | None], bool] | None


class GameCore:
    """The running games of one database: the store, the clock (``now``, aware UTC), the
    random source, the cache of running games with their locks, the event bus and the commit
    hooks (``before_commit``, ``after_commit``: called in order, under the game's lock)."""

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
        self.rng = rng or random.Random()
        self.events = EventBus()
        self.before_commit: list[CommitHook] = []
        self.after_commit: list[CommitHook] = []
        # Least recently used first; a game dropped from here is rebuilt from the database.
        self._cache: OrderedDict[int, Live] = OrderedDict()
        # The cached games by their thread (a command in a game's thread finds it without a
        # read, so a busy bot's deferral is not queued behind the database).
        self._threads: dict[int, int] = {}
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    @property
    def cached(self) -> int:
        """How many running games are in memory."""
        return len(self._cache)

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock of a game: every use of a game happens under it."""
        found = self._locks.get(game_id)
        if found is None:
            found = asyncio.Lock()
            self._locks[game_id] = found
        return found

    async def running(self, game_id: int) -> Live:
        """The cached running game, rebuilt from the database if needed; call under its lock.

        Raises:
            NoSuchGame, GameOver.
        """
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            return live
        loaded = await self.store.games.game_with_actions(game_id)
        if loaded is None:
            raise NoSuchGame(_("there is no game #{game_id}", game_id=game_id))
        row, actions = loaded
        if row.status != GameStatus.RUNNING:
            raise GameOver(over_message(row))
        live = Live(row, convert.rebuild(row, actions))
        self.remember(live)
        return live

    def cached_game(self, game_id: int) -> Live | None:
        """The running game if it is in memory (no read); call under its lock."""
        return self._cache.get(game_id)

    def remember(self, live: Live) -> None:
        """Cache a running game, dropping the least recently used beyond ``max_cached``.

        Dropping is safe at any moment: every use of a game happens under its lock and
        rebuilds it from the database (committed before any lock is released) when missing.
        """
        self._cache[live.row.game_id] = live
        self._cache.move_to_end(live.row.game_id)
        if live.row.thread_id is not None:
            self._threads[live.row.thread_id] = live.row.game_id
        while len(self._cache) > self.max_cached:
            self.forget(next(iter(self._cache)))

    def forget(self, game_id: int) -> None:
        """Drop a game from the cache (it is over, or rebuilt from the database on next use)."""
        live = self._cache.pop(game_id, None)
        if live is not None and live.row.thread_id is not None:
            self._threads.pop(live.row.thread_id, None)

    def forget_all(self) -> None:
        """Drop every cached game (each is rebuilt from the database on next use)."""
        self._cache.clear()
        self._threads.clear()

    def cached_in_thread(self, thread_id: int) -> int | None:
        """The id of the cached game played in thread ``thread_id``, if any."""
        game_id = self._threads.get(thread_id)
        live = None if game_id is None else self._cache.get(game_id)
        return None if live is None or live.row.thread_id != thread_id else game_id

    @staticmethod
    def colour(live: Live, user_id: int) -> Player:
        """``user_id``'s colour in a game.

        Raises:
            NotYourGame.
        """
        if user_id == live.row.pink_id:
            return Player.PINK
        if user_id == live.row.blue_id:
            return Player.BLUE
        raise NotYourGame(N_("you are not playing in this game"))

    async def started(self, stored: GameRow) -> GameView:
        """Cache a game just stored as started and publish its clock; the game as shown."""
        async with self.lock(stored.game_id):
            live = Live(stored, convert.rebuild(stored, []))
            self.remember(live)
            await self.clock_changed(stored)
            return convert.game_view(stored, live.game)

    async def clock_changed(self, row: GameRow) -> None:
        """Publish a game's deadline as stored (cleared once it is over) for the clocks."""
        due = to_dt(row.deadline) if row.status == GameStatus.RUNNING and row.deadline else None
        await self.events.publish(
            ClockChange(
                row.game_id,
                None,
                due,
                convert.remind_at(row) if due else None,
            )
        )

    async def challenge_clock(self, challenge_id: int, expires: float | None) -> None:
        """Publish a challenge's expiry (None: it no longer expires) for the clocks."""
        due = None if expires is None else to_dt(expires)
        await self.events.publish(ClockChange(None, challenge_id, due))

    async def wake_clocks(self, commit: Commit) -> None:
        """Commit hook: the committed action's deadline, for the clocks."""
        await self.clock_changed(commit.live.row)

    # -- the commit of an action -----------------------------------------------------------

    async def commit(self, live: Live, action: Action, placement: Placement | None) -> MoveOutcome:
        """Store the action the cached game just applied, with what the hooks before the write
        add, then run the hooks after it; on failure forget the cached game.

        Raises:
            GameChanged: another process wrote to this game meanwhile.
            IllegalMove: the mover's time had run out on a game clock.
        """
        row, game = live.row, live.game
        instant = self.now()
        now = to_ts(instant)
        finish = None
        deadline: float | None = None
        clock = self.clock_after(live, action, instant)
        if game.is_over:
            result = game.result
            assert result is not None
            finish = Finish(
                GameStatus.OVER,
                int(result.winner) if result.winner else None,
                result.pink,
                result.blue,
                result.reason,
            )
        elif clock is not None:
            due = clock.deadline()
            assert due is not None
            deadline = to_ts(due)
        else:
            deadline = now + row.clock
        stored = ActionRow(
            row.moves,
            action.kind,
            int(action.player),
            action.point.name if action.point else None,
            now,
        )
        commit = Commit(live, action, placement, now)
        try:
            for hook in self.before_commit:
                await hook(commit)
            row, rating_changes = await self.store.games.record_action(
                row.game_id,
                stored,
                deadline=deadline,
                finish=finish,
                rate=rate_stored,
                clock=convert.clock_columns(clock),
                earned=commit.stickers,
                mover=convert.mover_id(row, game),
            )
        except StaleWriteError:
            # Another process wrote to this game (e.g. the terminal mode on the same file).
            self.forget(row.game_id)
            raise GameChanged(
                N_("the game changed meanwhile: look at it again and retry")
            ) from None
        except BaseException:
            # The cached position is ahead of the database: rebuild it on next use.
            self.forget(row.game_id)
            raise
        live.row = row
        if finish is not None:
            self.forget(row.game_id)
        view = convert.game_view(row, game)
        commit.outcome = MoveOutcome(
            view=view,
            action=action,
            placement=placement,
            is_over=finish is not None,
            result=game.result,
            rating_changes=rating_changes,
            next_user_id=view.to_move_id,
            deadline=view.deadline,
            stickers=commit.news,
        )
        for hook in self.after_commit:
            await hook(commit)
        return commit.outcome

    def clock_after(self, live: Live, action: Action, now: datetime) -> ClockState | None:
        """The game clock's state after ``action``, which the cached game just applied (None
        without a game clock): the mover's time spent taken off and the increment added, the
        clock of the player to move next running (rule 7.1: the same player when playing
        alone), none once the game is over; a time-out leaves the one who ran out at zero.

        Raises:
            IllegalMove: the mover's time had run out (the clocks time them out at once); the
                cached game is dropped, so the action is not kept.
        """
        state = convert.clock_state(live.row)
        if state is None:
            return None
        game = live.game
        next_runner = game.to_move if not game.is_over else None
        if action.kind in {"time", "resign"} or next_runner is None:
            return state.resumed(next_runner, now)
        try:
            return state.after_move(now, next_runner=next_runner)
        except TimeUpError as error:
            self.forget(live.row.game_id)
            raise IllegalMove(str(error)) from None

    @staticmethod
    def clock_taken_back(
        live: Live, taken: tuple[Action, ...], now: datetime
    ) -> tuple[float, dict[str, int | None] | None]:
        """The deadline and game clock columns once ``taken`` (the game's last actions) are
        taken back: the clock restarts for the player to move then; on a game clock, time
        spent stays spent and each dot taken back returns its increment."""
        state = convert.clock_state(live.row)
        runner = taken[0].player
        if state is None:
            return to_ts(now) + live.row.clock, None
        state = state.taken_back(now, [a.player for a in taken if a.kind == ActionKind.DOT], runner)
        due = state.deadline()
        assert due is not None
        return to_ts(due), convert.clock_columns(state)


def wake_at(row: GameRow) -> float | None:
    """When a game's timer fires (``bot.storage.rows.WakeRule``): its next reminder, if one is
    due this turn (``convert.remind_at``), else its deadline; None once no clock runs."""
    if row.status != GameStatus.RUNNING or row.deadline is None:
        return None
    remind = convert.remind_at(row)
    return row.deadline if remind is None else to_ts(remind)


def over_message(row: GameRow) -> Message:
    """Why a finished game takes no more actions, with its result (in the reader's language)."""
    if row.status == GameStatus.ABORTED:
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
