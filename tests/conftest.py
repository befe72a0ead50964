"""Fixtures shared by the test folders: a fake clock and a game service on a fresh database.

Test modules ask for them by name (``clock``, ``service``); a module may override one with a
fixture of the same name (tests/bot/test_computer.py gives the computer a tiny budget).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.games import GameService
from tests.bot.service_fakes import FakeTime, open_service


@pytest_asyncio.fixture(name="clock")
async def clock_fixture() -> FakeTime:
    """A fake clock."""
    return FakeTime()


@pytest_asyncio.fixture(name="service")
async def service_fixture(tmp_path: Path, clock: FakeTime) -> AsyncIterator[GameService]:
    """A service on a fresh SQLite file migrated by the real migrations."""
    svc = await open_service(tmp_path / "dots.sqlite3", clock)
    yield svc
    await svc.close()
