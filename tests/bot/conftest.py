"""Fixtures of the bot tests: the database a test runs on, SQLite or PostgreSQL.

``database`` gives each test that asks for it a fresh database of each kind: a SQLite file in
``tmp_path``, and a new database in the session's private PostgreSQL cluster (see
``tests/postgres.py``; skipped, with how to enable it, where PostgreSQL is not installed).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import postgres
from tests.postgres import HOW_TO_ENABLE, Cluster


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
