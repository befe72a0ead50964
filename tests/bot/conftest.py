"""Fixtures of the bot's tests: the Discord adapter in-process (``world``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.games import GameService, Thinker
from tests.bot.discord_inprocess import Clock, Harness, World


@pytest_asyncio.fixture
async def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    """The bot set up in-process over a fresh database; the computer thinks in a thread with
    a tiny budget (fast, still seeded)."""
    clock = Clock()
    db = tmp_path / "dots.sqlite3"
    service = await GameService.open(db, now=clock)
    service.thinker = Thinker(processes=False, iterations=10)
    harness = await Harness.start(service, monkeypatch)
    try:
        yield World(harness, service, clock, db)
    finally:
        await harness.close()
        await service.close()
