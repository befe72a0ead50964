"""Turn clocks: one asyncio task per running game (and per open challenge), keyed by its id.

The deadline lives in the game row; a task sleeps until it, then asks the service to time the
game out, which re-reads the game under its lock and does nothing if a move beat the clock.
At start every deadline is re-armed from the database; one that passed while the bot was down
fires at once. Time is injected (``now`` and ``sleep``) so tests move it without waiting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime

from bot.games import ClockChange, GameService

Sleep = Callable[[float], Awaitable[None]]


class Clocks:
    """Arms, moves and cancels the timers of a GameService (time-outs, reminders, expiries).

    Usage: ``clocks = Clocks(service); await clocks.start()`` ... ``await clocks.stop()``.
    """

    def __init__(
        self,
        service: GameService,
        *,
        now: Callable[[], datetime] | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        raise NotImplementedError

    async def start(self) -> int:
        """Re-arm every running game's clock and every open challenge's expiry; how many."""
        raise NotImplementedError

    async def stop(self) -> None:
        """Cancel every task (the deadlines stay in the database for the next start)."""
        raise NotImplementedError

    def arm(self, change: ClockChange) -> None:
        """Set, move or clear (``change.due is None``) one timer."""
        raise NotImplementedError

    @property
    def armed(self) -> int:
        """How many timers are armed."""
        raise NotImplementedError
