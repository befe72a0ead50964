"""Helpers for the game-service tests: a fake clock that tests move by hand, a service on it, a
new game (the fixtures built on them are in tests/conftest.py)."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.games import Challenge, GameOptions, GameService, GameView

GUILD = 1000
CHANNEL = 2000
ALICE, BOB, CAROL = 11, 22, 33


class FakeTime:
    """A clock that moves only when told; sleepers wake whenever it moves and re-check."""

    def __init__(self, start: datetime | None = None) -> None:
        self.current = start or datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
        self._waiters: set[asyncio.Future[None]] = set()

    def now(self) -> datetime:
        """The fake instant."""
        return self.current

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock is next moved (the caller loops until its time has come)."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.add(fut)
        try:
            await fut
        finally:
            self._waiters.discard(fut)

    def advance(self, delta: timedelta) -> None:
        """Move the clock forward and wake every sleeper."""
        self.current += delta
        for fut in list(self._waiters):
            if not fut.done():
                fut.set_result(None)

    @property
    def sleepers(self) -> int:
        """How many tasks are asleep on this clock."""
        return len(self._waiters)


async def eventually(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait (really) until ``check()`` holds; fail after ``timeout`` seconds."""
    limit = time.monotonic() + timeout
    while not check():
        if time.monotonic() > limit:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.002)


async def open_service(path: Path | str, clock: FakeTime, seed: int = 1) -> GameService:
    """A service on the database ``path`` (a SQLite file or a PostgreSQL URL), fake clock."""
    return await GameService.open(path, now=clock.now, rng=random.Random(seed))


async def new_game(
    service: GameService,
    *,
    pink: int = ALICE,
    blue: int = BOB,
    options: GameOptions | None = None,
) -> GameView:
    """A game between ``pink`` and ``blue`` started through challenge and accept."""
    options = options or GameOptions()
    challenge: Challenge = await service.challenge(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger_id=pink,
        opponent_id=blue,
        options=replace(options, colour="pink"),
    )
    return await service.accept(challenge_id=challenge.challenge_id, user_id=blue)
