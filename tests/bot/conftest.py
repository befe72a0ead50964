"""Fixtures of the bot's tests: the database a test runs on (SQLite or PostgreSQL), and the
Discord adapter in-process (``world``).

``database`` gives each test that asks for it a fresh database of each kind: a SQLite file in
``tmp_path``, and a new database in the session's private PostgreSQL cluster (see
``tests/postgres.py``; skipped, with how to enable it, where PostgreSQL is not installed).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.games import GameService, Thinker
from tests import postgres
from tests.bot.discord_inprocess import Clock, Harness, World
from tests.postgres import HOW_TO_ENABLE, Cluster


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


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """The session's PostgreSQL cluster (skips the test where PostgreSQL is not installed)."""
    binaries = postgres.find_binaries()
    if binaries is None:
        pytest.skip(HOW_TO_ENABLE)
    cluster = Cluster.start(binaries)
    try:
        yield cluster
    finally:
        cluster.stop()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line at the end saying how to run the PostgreSQL tests, when they were skipped."""
    skipped = terminalreporter.stats.get("skipped", [])
    if any(HOW_TO_ENABLE in str(getattr(r, "longrepr", "")) for r in skipped):
        terminalreporter.write_line(HOW_TO_ENABLE, yellow=True)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """A fresh database: a SQLite file, or a ``postgresql://`` URL of a new database."""
    if request.param == "sqlite":
        return tmp_path / "dots.sqlite3"
    cluster: Cluster = request.getfixturevalue("postgres_cluster")
    return cluster.create_database()
