"""The game service: every use-case of a game, from challenge to rating, over the Store.

Each use-case checks who may act, writes to SQLite in one transaction, and only returns once
that transaction is committed. A refusal (``bot.games.errors.Refusal``) changes nothing.
Knows nothing of Discord: the Discord adapter and the terminal are thin layers over it.

Consistency: every action on a game runs under that game's asyncio lock. The move is applied
to the cached position, then committed; if the commit fails the cached game is dropped (to be
rebuilt from the database), so under the lock memory never differs from the database, and
every reader of a running game (``game``, ``running_games``) takes the lock too.
"""

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
from typing import Literal

from bot.games import convert
from bot.games.convert import to_dt, to_ts
from bot.games.errors import (
    CannotChallengeBot,
    CannotChallengeSelf,
    ChallengeClosed,
    ChallengeExists,
    GameChanged,
    GameOver,
    IllegalMove,
    NoSuchChallenge,
    NoSuchGame,
    NotYourChallenge,
    NotYourGame,
    NotYourTurn,
    OptionOutOfRange,
    TooLateToAbort,
)
from bot.games.models import (
    CHALLENGE_TTL,
    DEFAULT_CLOCK,
    Challenge,
    ChallengeExpired,
    ClockChange,
    Event,
    GameOptions,
    GameView,
    GuildSettings,
    HeadToHead,
    HistoryEntry,
    LeaderboardRow,
    MoveOutcome,
    PlayerStats,
    RatingChange,
    Reminder,
    TimedOut,
)
from bot.ratings import PROVISIONAL_RD, Rating
from bot.storage import Store
from bot.storage.rows import ActionRow, ChallengeRow, Finish, GameRow
from bot.storage.store import StaleWriteError
from engine import (
    Action,
    DotsError,
    Game,
    GameOverError,
    NotYourTurnError,
    Placement,
    Player,
)
from engine.starts import start_dots

log = logging.getLogger(__name__)

Subscriber = Callable[[Event], Awaitable[None] | None]

# Deadlines are compared after a round trip through unix seconds (floats).
_SAME_INSTANT = 0.001


def utc_now() -> datetime:
    """The current instant as an aware UTC datetime."""
    return datetime.now(UTC)


@dataclass(slots=True)
class _Live:
    """A running game in the cache: its row (kept equal to the database) and its position."""

    row: GameRow
    game: Game


class GameService:
    """The use-cases of Dots games, stored in SQLite, one asyncio lock per game.

    ``now`` is the clock (aware UTC); ``rng`` draws random colours and four-crosses seeds.
    Running games are cached in memory and rebuilt lazily (replaying their actions) on first
    use after a restart; the clocks need only the game rows (see ``bot.clocks.Clocks``).
    """

    def __init__(
        self,
        store: Store,
        *,
        now: Callable[[], datetime] = utc_now,
        rng: random.Random | None = None,
        max_cached: int = 2000,
    ) -> None:
        self.store = store
        self.max_cached = max_cached
        self.now = now
        self._rng = rng or random.Random()
        # Least recently used first; a game dropped from here is rebuilt from the database.
        self._cache: OrderedDict[int, _Live] = OrderedDict()
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
    ) -> GameService:
        """Open (creating and migrating as needed) the database at ``path`` and a service on it."""
        return cls(await Store.open(path), now=now, rng=rng)

    async def close(self) -> None:
        """Close the database (after stopping the clocks)."""
        await self.store.close()

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
        """Every running game's deadline and every open challenge's expiry, from the database."""
        changes = [
            ClockChange(
                r.game_id,
                None,
                to_dt(r.deadline),
                convert.remind_at(r.deadline, r.clock, r.reminder_sent),
            )
            for r in await self.store.running_clocks()
        ]
        changes += [
            ClockChange(None, cid, to_dt(expires))
            for cid, expires in await self.store.challenge_expiries()
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

    # -- challenges ------------------------------------------------------------------------

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenger_id: int,
        opponent_id: int,
        options: GameOptions | None = None,
        opponent_is_bot: bool = False,
    ) -> Challenge:
        """Challenge ``opponent_id`` to a game; it expires unanswered after 10 minutes.

        A clock of None in the options becomes the server's default move clock now.

        Raises:
            CannotChallengeSelf, CannotChallengeBot, ChallengeExists, OptionOutOfRange.
        """
        options = options or GameOptions()
        if opponent_id == challenger_id:
            raise CannotChallengeSelf("you cannot challenge yourself")
        if opponent_is_bot:
            raise CannotChallengeBot("you cannot challenge a bot")
        await asyncio.to_thread(convert.check_options, options)
        clock = options.clock
        if clock is None:
            clock = (await self.guild_settings(guild_id=guild_id)).default_clock
        seconds = convert.clock_seconds(clock)
        now = self.now()
        row = ChallengeRow(
            challenge_id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            message_id=None,
            challenger_id=challenger_id,
            opponent_id=opponent_id,
            width=options.width,
            height=options.height,
            rules=options.rules,
            start=options.start,
            clock=seconds,
            colour=options.colour,
            rated=options.rated,
            status="open",
            created=to_ts(now),
            expires=to_ts(now + CHALLENGE_TTL),
            game_id=None,
        )
        stored = await self.store.create_challenge(row, now=to_ts(now))
        if stored is None:
            raise ChallengeExists("there is already an open challenge between you two")
        self._clock_changed(ClockChange(None, stored.challenge_id, to_dt(stored.expires)))
        return convert.challenge_value(stored)

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id.

        Raises:
            NoSuchChallenge.
        """
        return convert.challenge_value(await self._challenge_row(challenge_id))

    async def _challenge_row(self, challenge_id: int) -> ChallengeRow:
        row = await self.store.challenge(challenge_id)
        if row is None:
            raise NoSuchChallenge(f"there is no challenge #{challenge_id}")
        return row

    async def accept(self, *, challenge_id: int, user_id: int) -> GameView:
        """The challenged player accepts: the game starts and Pink's clock runs.

        Raises:
            NoSuchChallenge, NotYourChallenge, ChallengeClosed (also when it has expired).
        """
        ch = await self._challenge_row(challenge_id)
        if user_id != ch.opponent_id:
            raise NotYourChallenge("only the challenged player can accept this challenge")
        now = self.now()
        if ch.status != "open" or ch.expires <= to_ts(now):
            raise ChallengeClosed(_closed_message(ch, now))
        challenger_pink = ch.colour == "pink" or (
            ch.colour == "random" and self._rng.random() < 0.5
        )
        pink, blue = (
            (ch.challenger_id, ch.opponent_id)
            if challenger_pink
            else (ch.opponent_id, ch.challenger_id)
        )
        row = await self._new_game_row(
            guild_id=ch.guild_id,
            channel_id=ch.channel_id,
            challenge_id=ch.challenge_id,
            pink_id=pink,
            blue_id=blue,
            options=convert.challenge_value(ch).options,
            clock=ch.clock or round(DEFAULT_CLOCK.total_seconds()),
            created=ch.created,
            now=to_ts(now),
        )
        stored = await self.store.accept_challenge(challenge_id, row, now=to_ts(now))
        if stored is None:
            raise ChallengeClosed(_closed_message(await self._challenge_row(challenge_id), now))
        self._clock_changed(ClockChange(None, challenge_id, None))
        async with self._lock(stored.game_id):
            live = _Live(stored, convert.rebuild(stored, []))
            self._remember(live)
            self._game_clock(stored)
            return convert.game_view(stored, live.game)

    async def start_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        pink_id: int,
        blue_id: int,
        options: GameOptions | None = None,
    ) -> GameView:
        """Start a game between two players directly, without a challenge (the terminal mode,
        imports, and later the computer player).

        Raises:
            CannotChallengeSelf, OptionOutOfRange.
        """
        options = options or GameOptions()
        if pink_id == blue_id:
            raise CannotChallengeSelf("you cannot play against yourself")
        await asyncio.to_thread(convert.check_options, options)
        seconds = convert.clock_seconds(options.clock or DEFAULT_CLOCK)
        now = to_ts(self.now())
        row = await self._new_game_row(
            guild_id=guild_id,
            channel_id=channel_id,
            challenge_id=None,
            pink_id=pink_id,
            blue_id=blue_id,
            options=options,
            clock=seconds,
            created=now,
            now=now,
        )
        stored = await self.store.create_game(row)
        async with self._lock(stored.game_id):
            live = _Live(stored, convert.rebuild(stored, []))
            self._remember(live)
            self._game_clock(stored)
            return convert.game_view(stored, live.game)

    async def _new_game_row(
        self,
        *,
        guild_id: int,
        channel_id: int,
        challenge_id: int | None,
        pink_id: int,
        blue_id: int,
        options: GameOptions,
        clock: int,
        created: float,
        now: float,
    ) -> GameRow:
        """The row of a game starting now, Pink's clock running; draws four crosses if asked
        (off the event loop: the engine's draw can take a moment on a tight board)."""
        seed = self._rng.randrange(2**31) if options.start == "four-crosses" else None
        dots = await asyncio.to_thread(
            start_dots, options.start, options.width, options.height, seed
        )
        return GameRow(
            game_id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
            message_id=None,
            challenge_id=challenge_id,
            pink_id=pink_id,
            blue_id=blue_id,
            width=options.width,
            height=options.height,
            rules=options.rules,
            start=options.start,
            start_dots=convert.encode_start_dots(dots),
            seed=seed,
            clock=clock,
            rated=options.rated,
            status="running",
            winner=None,
            pink_score=None,
            blue_score=None,
            reason=None,
            moves=0,
            created=created,
            started=now,
            finished=None,
            deadline=now + clock,
            reminder_sent=False,
        )

    async def decline(self, *, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player declines.

        Raises:
            NoSuchChallenge, NotYourChallenge, ChallengeClosed.
        """
        ch = await self._challenge_row(challenge_id)
        if user_id != ch.opponent_id:
            raise NotYourChallenge("only the challenged player can decline this challenge")
        return await self._close_challenge(ch, "declined")

    async def cancel(self, *, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the challenge.

        Raises:
            NoSuchChallenge, NotYourChallenge, ChallengeClosed.
        """
        ch = await self._challenge_row(challenge_id)
        if user_id != ch.challenger_id:
            raise NotYourChallenge("only the challenger can cancel this challenge")
        return await self._close_challenge(ch, "cancelled")

    async def _close_challenge(self, ch: ChallengeRow, status: str) -> Challenge:
        now = self.now()
        if ch.status == "open" and ch.expires <= to_ts(now):
            await self.expire(challenge_id=ch.challenge_id)
            raise ChallengeClosed("this challenge has expired")
        closed = await self.store.close_challenge(ch.challenge_id, status=status, now=to_ts(now))
        if closed is None:
            raise ChallengeClosed(_closed_message(await self._challenge_row(ch.challenge_id), now))
        self._clock_changed(ClockChange(None, ch.challenge_id, None))
        return convert.challenge_value(closed)

    async def expire(self, *, challenge_id: int) -> Challenge | None:
        """Expire the challenge if it is still open and its time has come; else None.

        Publishes ChallengeExpired when it expires.
        """
        closed = await self.store.close_challenge(
            challenge_id, status="expired", now=to_ts(self.now()), due_only=True
        )
        if closed is None:
            return None
        self._clock_changed(ClockChange(None, challenge_id, None))
        challenge = convert.challenge_value(closed)
        await self._publish(ChallengeExpired(challenge))
        return challenge

    async def expire_challenges(self) -> list[Challenge]:
        """Expire every open challenge whose time has come."""
        expired = []
        for challenge_id in await self.store.due_challenges(to_ts(self.now())):
            challenge = await self.expire(challenge_id=challenge_id)
            if challenge is not None:
                expired.append(challenge)
        return expired

    async def set_challenge_message(self, *, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge (for the adapter to edit it later).

        Raises:
            NoSuchChallenge.
        """
        if not await self.store.set_challenge_message(challenge_id, message_id):
            raise NoSuchChallenge(f"there is no challenge #{challenge_id}")

    async def open_challenges(
        self, *, user_id: int, guild_id: int | None = None
    ) -> list[Challenge]:
        """The open challenges made by or to ``user_id`` (in one server if given)."""
        rows = await self.store.open_challenges(user_id, guild_id)
        return [convert.challenge_value(r) for r in rows]

    # -- playing ---------------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def _running(self, game_id: int) -> _Live:
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
            raise NoSuchGame(f"there is no game #{game_id}")
        row, actions = loaded
        if row.status != "running":
            raise GameOver(_over_message(row))
        live = _Live(row, convert.rebuild(row, actions))
        self._remember(live)
        return live

    def _remember(self, live: _Live) -> None:
        """Cache a running game, dropping the least recently used beyond ``max_cached``.

        Dropping is safe at any moment: every use of a game happens under its lock and
        rebuilds it from the database (committed before any lock is released) when missing.
        """
        self._cache[live.row.game_id] = live
        self._cache.move_to_end(live.row.game_id)
        while len(self._cache) > self.max_cached:
            self._cache.popitem(last=False)

    @staticmethod
    def _colour(live: _Live, user_id: int) -> Player:
        if user_id == live.row.pink_id:
            return Player.PINK
        if user_id == live.row.blue_id:
            return Player.BLUE
        raise NotYourGame("you are not playing in this game")

    async def _commit(
        self, live: _Live, action: Action, placement: Placement | None
    ) -> MoveOutcome:
        """Store the action the cached game just applied; on failure forget the cached game."""
        row, game = live.row, live.game
        now = to_ts(self.now())
        seq = row.moves
        finish = None
        deadline: float | None = None
        if game.is_over:
            result = game.result
            assert result is not None
            finish = Finish(
                "over",
                int(result.winner) if result.winner else None,
                result.pink,
                result.blue,
                result.reason,
            )
        else:
            deadline = now + row.clock
        stored = ActionRow(
            seq, action.kind, int(action.player), action.point.name if action.point else None, now
        )
        try:
            updates = await self.store.record_action(
                row.game_id, stored, deadline=deadline, finish=finish
            )
        except StaleWriteError:
            # Another process wrote to this game (e.g. the terminal mode on the same file).
            self._cache.pop(row.game_id, None)
            raise GameChanged("the game changed meanwhile: look at it again and retry") from None
        except BaseException:
            # The cached position is ahead of the database: rebuild it on next use.
            self._cache.pop(row.game_id, None)
            raise
        row.moves = seq + 1
        row.deadline = deadline
        row.reminder_sent = False
        if finish is not None:
            row.status, row.winner, row.reason = finish.status, finish.winner, finish.reason
            row.pink_score, row.blue_score, row.finished = finish.pink_score, finish.blue_score, now
            self._cache.pop(row.game_id, None)
        self._game_clock(row)
        view = convert.game_view(row, game)
        return MoveOutcome(
            view=view,
            action=action,
            placement=placement,
            is_over=finish is not None,
            result=game.result,
            rating_changes=tuple(
                RatingChange(u.user_id, u.before, u.after, u.rd, u.provisional) for u in updates
            ),
            next_user_id=view.to_move_id,
            deadline=view.deadline,
        )

    async def place(self, *, game_id: int, user_id: int, point: str) -> MoveOutcome:
        """Place a dot at ``point`` (a name like ``"B7"``) for ``user_id``.

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotYourTurn, IllegalMove (engine's message),
            GameChanged (another process played in this game meanwhile).
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
            colour = self._colour(live, user_id)
            self._check_turn(live, colour)
            try:
                placement = live.game.place(point, colour)
            except DotsError as error:
                raise _refusal(error) from None
            return await self._commit(live, live.game.actions[-1], placement)

    async def end(self, *, game_id: int, user_id: int) -> MoveOutcome:
        """End for ``user_id`` (rule 6.1; a stop under grounding rules, rule 8.2).

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotYourTurn, IllegalMove (a stop too early),
            GameChanged.
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
            colour = self._colour(live, user_id)
            self._check_turn(live, colour)
            try:
                live.game.end(colour)
            except DotsError as error:
                raise _refusal(error) from None
            return await self._commit(live, live.game.actions[-1], None)

    async def resign(self, *, game_id: int, user_id: int) -> MoveOutcome:
        """``user_id`` resigns (rule 6.4), on their turn or not.

        Raises:
            NoSuchGame, NotYourGame, GameOver, GameChanged.
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
            colour = self._colour(live, user_id)
            try:
                live.game.resign(colour)
            except DotsError as error:
                raise _refusal(error) from None
            return await self._commit(live, live.game.actions[-1], None)

    @staticmethod
    def _check_turn(live: _Live, colour: Player) -> None:
        to_move = live.game.to_move
        if to_move is None:
            raise GameOver("the game is over")
        if to_move is not colour:
            raise NotYourTurn(f"it is not your turn: {to_move.label} is to move")

    async def time_out(self, *, game_id: int, deadline: datetime) -> MoveOutcome | None:
        """The clock of the player to move ran out at ``deadline`` (rule 7.2).

        Does nothing and returns None unless the game is running and its deadline is still
        ``deadline`` and has passed (a move that beat the clock wins the race). A game in which
        no action was ever made is aborted instead. Publishes TimedOut when it acts.
        """
        async with self._lock(game_id):
            try:
                live = await self._running(game_id)
            except (NoSuchGame, GameOver):
                return None
            row = live.row
            due = to_ts(deadline)
            if row.deadline is None or abs(row.deadline - due) > _SAME_INSTANT:
                return None
            if to_ts(self.now()) < row.deadline - _SAME_INSTANT:
                return None
            if row.moves == 0:
                view = await self._abort(live)
                outcome = MoveOutcome(view, None, None, True, None, aborted=True)
            else:
                live.game.time_out()
                outcome = await self._commit(live, live.game.actions[-1], None)
        await self._publish(TimedOut(outcome))
        return outcome

    async def remind(self, *, game_id: int, deadline: datetime) -> bool:
        """Publish a Reminder for the player to move, once per turn; False if already sent,
        the deadline moved or the game is over."""
        async with self._lock(game_id):
            try:
                live = await self._running(game_id)
            except (NoSuchGame, GameOver):
                return False
            row = live.row
            if row.deadline is None or abs(row.deadline - to_ts(deadline)) > _SAME_INSTANT:
                return False
            if row.reminder_sent or not await self.store.mark_reminded(game_id, row.deadline):
                return False
            row.reminder_sent = True
            view = convert.game_view(row, live.game)
        user_id = view.to_move_id
        assert user_id is not None and view.deadline is not None
        await self._publish(Reminder(view, user_id, view.deadline, view.deadline - self.now()))
        return True

    async def _abort(self, live: _Live) -> GameView:
        """Abort a running game (call under its lock): no result, no rating change."""
        row = live.row
        now = to_ts(self.now())
        await self.store.finish_game(row.game_id, Finish("aborted"), at=now)
        self._cache.pop(row.game_id, None)
        row.status, row.finished, row.deadline = "aborted", now, None
        self._game_clock(row)
        return convert.game_view(row, live.game)

    async def abort(self, *, game_id: int, user_id: int) -> GameView:
        """Either player aborts a game before its first move: no result, no rating change.

        Raises:
            NoSuchGame, NotYourGame, GameOver, TooLateToAbort.
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
            self._colour(live, user_id)
            if live.row.moves > 0:
                raise TooLateToAbort("a game can be aborted only before its first move")
            return await self._abort(live)

    async def admin_cancel(self, *, game_id: int, guild_id: int) -> GameView:
        """A server admin aborts a running game of that server (the adapter checks the
        permission): no result, no rating change.

        Raises:
            NoSuchGame (also for a game of another server), GameOver.
        """
        async with self._lock(game_id):
            live = await self._running(game_id)
            if live.row.guild_id != guild_id:
                raise NoSuchGame(f"there is no game #{game_id} in this server")
            return await self._abort(live)

    async def set_game_thread(
        self, *, game_id: int, thread_id: int | None = None, message_id: int | None = None
    ) -> None:
        """Remember the thread a game is played in and/or the message showing its picture.

        Raises:
            NoSuchGame.
        """
        async with self._lock(game_id):
            if not await self.store.set_game_thread(
                game_id, thread_id=thread_id, message_id=message_id
            ):
                raise NoSuchGame(f"there is no game #{game_id}")
            live = self._cache.get(game_id)
            if live is not None:
                if thread_id is not None:
                    live.row.thread_id = thread_id
                if message_id is not None:
                    live.row.message_id = message_id

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

    # -- queries ---------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameView:
        """A snapshot of a game (running, over or aborted).

        Raises:
            NoSuchGame.
        """
        async with self._lock(game_id):
            live = self._cache.get(game_id)
            if live is not None:
                return convert.game_view(live.row, live.game)
            loaded = await self.store.game_with_actions(game_id)
            if loaded is None:
                raise NoSuchGame(f"there is no game #{game_id}")
            row, actions = loaded
            game = convert.rebuild(row, actions)
            if row.status == "running":
                self._remember(_Live(row, game))
            return convert.game_view(row, game)

    async def running_games(self, *, user_id: int, guild_id: int | None = None) -> list[GameView]:
        """The running games of ``user_id`` (in one server if given), oldest first."""
        views = []
        for game_id in await self.store.running_game_ids(user_id, guild_id):
            view = await self.game(game_id)
            if view.is_running:
                views.append(view)
        return views

    async def leaderboard(self, *, guild_id: int, limit: int = 10) -> list[LeaderboardRow]:
        """A server's players by rating, best first (provisional ratings are marked)."""
        rows = await self.store.leaderboard(guild_id, limit)
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

    async def stats(self, *, guild_id: int, user_id: int) -> PlayerStats:
        """A player's rating, record and rank in a server."""
        found = await self.store.rating(guild_id, user_id)
        running = await self.store.count_running(guild_id, user_id)
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
        for row, delta in await self.store.finished_games(guild_id, user_id, limit=limit):
            colour = Player.PINK if row.pink_id == user_id else Player.BLUE
            opponent = row.blue_id if colour is Player.PINK else row.pink_id
            mine = row.pink_score if colour is Player.PINK else row.blue_score
            theirs = row.blue_score if colour is Player.PINK else row.pink_score
            outcome: Literal["win", "loss", "draw", "aborted"]
            if row.status == "aborted":
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

    async def head_to_head(self, *, guild_id: int, a: int, b: int) -> HeadToHead:
        """Two players' record against each other in a server."""
        a_wins = b_wins = draws = 0
        ids = []
        for row in await self.store.games_between(guild_id, a, b):
            ids.append(row.game_id)
            if row.winner is None:
                draws += 1
            elif (row.pink_id if row.winner == int(Player.PINK) else row.blue_id) == a:
                a_wins += 1
            else:
                b_wins += 1
        return HeadToHead(a, b, a_wins, b_wins, draws, tuple(ids))


def _refusal(error: DotsError) -> Exception:
    if isinstance(error, GameOverError):
        return GameOver(str(error))
    if isinstance(error, NotYourTurnError):
        return NotYourTurn(str(error))
    return IllegalMove(str(error))


def _over_message(row: GameRow) -> str:
    if row.status == "aborted":
        return "this game was aborted"
    result = convert.stored_result(row)
    return f"the game is over: {result.describe()}" if result else "the game is over"


def _closed_message(ch: ChallengeRow, now: datetime) -> str:
    if ch.status == "open" and ch.expires <= to_ts(now):
        return "this challenge has expired"
    return f"this challenge was already {ch.status}"


__all__ = ["GameService", "OptionOutOfRange", "utc_now"]
