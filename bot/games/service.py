"""The game service: every use-case of a game, from challenge to rating, over the Store.

Each use-case checks who may act, writes to SQLite in one transaction, and only returns once
that transaction is committed. A refusal (``bot.games.errors.Refusal``) changes nothing.
Knows nothing of Discord: the Discord adapter and the terminal are thin layers over it.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.games.models import (
    Challenge,
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
)
from bot.storage import Store

Subscriber = Callable[[Event], Awaitable[None] | None]


def utc_now() -> datetime:
    """The current instant as an aware UTC datetime."""
    return datetime.now(UTC)


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
    ) -> None:
        raise NotImplementedError

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        now: Callable[[], datetime] = utc_now,
        rng: random.Random | None = None,
    ) -> GameService:
        """Open (creating and migrating as needed) the database at ``path`` and a service on it."""
        raise NotImplementedError

    async def close(self) -> None:
        """Close the database (after stopping the clocks)."""
        raise NotImplementedError

    # -- events ----------------------------------------------------------------------------

    def subscribe(self, callback: Subscriber) -> None:
        """Call ``callback(event)`` for each TimedOut, Reminder and ChallengeExpired event.

        A coroutine callback is awaited; its exceptions are logged, never raised to the clock.
        """
        raise NotImplementedError

    def watch_clocks(self, listener: Callable[[ClockChange], None]) -> None:
        """Call ``listener`` (synchronously, under the game's lock) whenever a deadline is set,
        moved or cleared; ``bot.clocks.Clocks`` uses this to arm its tasks."""
        raise NotImplementedError

    async def pending_clocks(self) -> list[ClockChange]:
        """Every running game's deadline and every open challenge's expiry, from the database."""
        raise NotImplementedError

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

        Raises:
            CannotChallengeSelf, CannotChallengeBot, ChallengeExists, OptionOutOfRange.
        """
        raise NotImplementedError

    async def accept(self, *, challenge_id: int, user_id: int) -> GameView:
        """The challenged player accepts: the game starts and Pink's clock runs.

        Raises:
            NoSuchChallenge, NotYourChallenge, ChallengeClosed (also when it has expired).
        """
        raise NotImplementedError

    async def decline(self, *, challenge_id: int, user_id: int) -> Challenge:
        """The challenged player declines.

        Raises:
            NoSuchChallenge, NotYourChallenge, ChallengeClosed.
        """
        raise NotImplementedError

    async def cancel(self, *, challenge_id: int, user_id: int) -> Challenge:
        """The challenger withdraws the challenge.

        Raises:
            NoSuchChallenge, NotYourChallenge, ChallengeClosed.
        """
        raise NotImplementedError

    async def expire(self, *, challenge_id: int) -> Challenge | None:
        """Expire the challenge if it is still open and its time has come; else None.

        Publishes ChallengeExpired when it expires.
        """
        raise NotImplementedError

    async def expire_challenges(self) -> list[Challenge]:
        """Expire every open challenge whose time has come."""
        raise NotImplementedError

    async def set_challenge_message(self, *, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows the challenge (for the adapter to edit it later)."""
        raise NotImplementedError

    async def get_challenge(self, challenge_id: int) -> Challenge:
        """A challenge by id.

        Raises:
            NoSuchChallenge.
        """
        raise NotImplementedError

    async def open_challenges(self, *, user_id: int, guild_id: int | None = None) -> list[Challenge]:
        """The open challenges made by or to ``user_id`` (in one server if given)."""
        raise NotImplementedError

    # -- playing ---------------------------------------------------------------------------

    async def place(self, *, game_id: int, user_id: int, point: str) -> MoveOutcome:
        """Place a dot at ``point`` (a name like ``"B7"``) for ``user_id``.

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotYourTurn, IllegalMove (engine's message).
        """
        raise NotImplementedError

    async def end(self, *, game_id: int, user_id: int) -> MoveOutcome:
        """End for ``user_id`` (rule 6.1; a stop under grounding rules, rule 8.2).

        Raises:
            NoSuchGame, NotYourGame, GameOver, NotYourTurn, IllegalMove (a stop too early).
        """
        raise NotImplementedError

    async def resign(self, *, game_id: int, user_id: int) -> MoveOutcome:
        """``user_id`` resigns (rule 6.4), on their turn or not.

        Raises:
            NoSuchGame, NotYourGame, GameOver.
        """
        raise NotImplementedError

    async def time_out(self, *, game_id: int, deadline: datetime) -> MoveOutcome | None:
        """The clock of the player to move ran out at ``deadline`` (rule 7.2).

        Does nothing and returns None unless the game is running and its deadline is still
        ``deadline`` and has passed (a move that beat the clock wins the race). A game in which
        no action was ever made is aborted instead. Publishes TimedOut when it acts.
        """
        raise NotImplementedError

    async def remind(self, *, game_id: int, deadline: datetime) -> bool:
        """Publish a Reminder for the player to move, once per turn; False if already sent,
        the deadline moved or the game is over."""
        raise NotImplementedError

    async def abort(self, *, game_id: int, user_id: int) -> GameView:
        """Either player aborts a game before its first move: no result, no rating change.

        Raises:
            NoSuchGame, NotYourGame, GameOver, TooLateToAbort.
        """
        raise NotImplementedError

    async def admin_cancel(self, *, game_id: int, guild_id: int) -> GameView:
        """A server admin aborts a running game of that server (the adapter checks the
        permission): no result, no rating change.

        Raises:
            NoSuchGame (also for a game of another server), GameOver.
        """
        raise NotImplementedError

    async def set_game_thread(
        self, *, game_id: int, thread_id: int | None = None, message_id: int | None = None
    ) -> None:
        """Remember the thread a game is played in and/or the message showing its picture.

        Raises:
            NoSuchGame.
        """
        raise NotImplementedError

    # -- settings --------------------------------------------------------------------------

    async def set_notify(self, *, user_id: int, on: bool) -> None:
        """Set whether ``user_id`` wants a direct message when it is their turn."""
        raise NotImplementedError

    async def wants_notify(self, *, user_id: int) -> bool:
        """Whether ``user_id`` wants a direct message when it is their turn (default False)."""
        raise NotImplementedError

    async def guild_settings(self, *, guild_id: int) -> GuildSettings:
        """A server's settings (defaults if never set)."""
        raise NotImplementedError

    async def set_guild_settings(
        self,
        *,
        guild_id: int,
        game_channel_id: int | None = None,
        default_clock: timedelta | None = None,
    ) -> GuildSettings:
        """Change a server's game channel and/or default move clock (a ``timedelta``).

        Raises:
            OptionOutOfRange: a clock outside 30 seconds to 7 days.
        """
        raise NotImplementedError

    # -- queries ---------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameView:
        """A snapshot of a game (running, over or aborted).

        Raises:
            NoSuchGame.
        """
        raise NotImplementedError

    async def running_games(self, *, user_id: int, guild_id: int | None = None) -> list[GameView]:
        """The running games of ``user_id`` (in one server if given), oldest first."""
        raise NotImplementedError

    async def leaderboard(self, *, guild_id: int, limit: int = 10) -> list[LeaderboardRow]:
        """A server's players by rating, best first (provisional ratings are marked)."""
        raise NotImplementedError

    async def stats(self, *, guild_id: int, user_id: int) -> PlayerStats:
        """A player's rating, record and rank in a server."""
        raise NotImplementedError

    async def history(self, *, guild_id: int, user_id: int, limit: int = 10) -> list[HistoryEntry]:
        """A player's finished and aborted games in a server, newest first."""
        raise NotImplementedError

    async def head_to_head(self, *, guild_id: int, a: int, b: int) -> HeadToHead:
        """Two players' record against each other in a server."""
        raise NotImplementedError
