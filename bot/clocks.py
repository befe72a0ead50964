"""Turn clocks: one asyncio task per running game (and per open challenge), keyed by its id.

The deadline lives in the game row; a task sleeps until it, then asks the service to time the
game out, which re-reads the game under its lock and does nothing if a move beat the clock.
At start every deadline is re-armed from the database; one that passed while the bot was down
fires at once. Clocks of an hour or more first wake for the reminder (a third of the time
left), which the service sends once per turn and remembers in the game row, and never for a
deadline that has passed. Time is injected
(``now`` and ``sleep``) so tests move it without waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.games import ClockChange, GameService

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
Key = tuple[str, int]


class Clocks:
    """Arms, moves and cancels the timers of a GameService (time-outs, reminders, expiries).

    Usage: ``clocks = Clocks(service); await clocks.start()`` ... ``await clocks.stop()``.
    ``now`` defaults to the service's clock. A task costs about 2 KB; 10,000 running games
    are 10,000 sleeping tasks.
    """

    def __init__(
        self,
        service: GameService,
        *,
        now: Callable[[], datetime] | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.service = service
        self._now = now or service.now
        self._sleep = sleep
        self._tasks: dict[Key, asyncio.Task[None]] = {}
        service.watch_clocks(self.arm)

    async def start(self) -> int:
        """Re-arm every running game's clock and every open challenge's expiry; how many."""
        changes = await self.service.pending_clocks()
        for change in changes:
            self.arm(change)
        return len(changes)

    async def stop(self) -> None:
        """Cancel every task (the deadlines stay in the database for the next start)."""
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def arm(self, change: ClockChange) -> None:
        """Set, move or clear (``change.due is None``) one timer."""
        if change.game_id is not None:
            key: Key = ("game", change.game_id)
        elif change.challenge_id is not None:
            key = ("challenge", change.challenge_id)
        else:
            return
        old = self._tasks.pop(key, None)
        # The task that fired is the one asking (through the service) to be re-armed: let it
        # finish its own work instead of cancelling it mid-way.
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if change.due is not None:
            task = asyncio.get_running_loop().create_task(self._run(key, change))
            self._tasks[key] = task

    @property
    def armed(self) -> int:
        """How many timers are armed."""
        return len(self._tasks)

    def due(self, *, game_id: int) -> bool:
        """Whether a timer is armed for this game."""
        return ("game", game_id) in self._tasks

    async def _sleep_until(self, when: datetime) -> None:
        # Loop: a real sleep may wake a little early, and a fake one whenever time moves.
        while True:
            left = (when - self._now()).total_seconds()
            if left <= 0:
                return
            await self._sleep(left)

    async def _run(self, key: Key, change: ClockChange) -> None:
        assert change.due is not None
        try:
            kind, ident = key
            if kind == "game":
                if change.remind_at is not None and change.remind_at < change.due:
                    await self._sleep_until(change.remind_at)
                    # A deadline that passed while the bot was down gets no "0 s left".
                    if self._now() < change.due:
                        await self.service.remind(game_id=ident, deadline=change.due)
                await self._sleep_until(change.due)
                await self.service.time_out(game_id=ident, deadline=change.due)
            else:
                await self._sleep_until(change.due)
                await self.service.expire(challenge_id=ident)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("clock %s failed", key)
        finally:
            if self._tasks.get(key) is asyncio.current_task():
                del self._tasks[key]
