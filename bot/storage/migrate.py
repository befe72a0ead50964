"""The migrations runner: applies ``NNNN_name.sql`` files in order, one transaction each.

Each file runs in one transaction together with ``PRAGMA user_version = NNNN``, so a failing
migration leaves the database exactly at the previous version.

Where the files are: the top-level ``migrations`` folder. In a checkout (and an editable
install) it is found beside the ``bot`` package; in an installed wheel it is the ``migrations``
package (it has an ``__init__.py`` and the .sql files are its package data).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from bot.storage.database import Database, fetch_one

_FILE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class MigrationError(RuntimeError):
    """A migration failed; the database was left at the version before it."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered migration file."""

    version: int
    name: str
    sql: str


def default_location() -> Traversable:
    """The ``migrations`` folder: beside the ``bot`` package in a checkout, else the installed
    ``migrations`` package."""
    checkout = Path(__file__).resolve().parents[2] / "migrations"
    if (checkout / "0001_initial.sql").is_file():
        return checkout
    try:
        installed = resources.files("migrations")
    except ModuleNotFoundError:
        installed = None
    if installed is not None and installed.joinpath("0001_initial.sql").is_file():
        return installed
    raise MigrationError("cannot find the migrations folder (0001_initial.sql)")


def load(location: Traversable | Path | None = None) -> list[Migration]:
    """The migrations in ``location`` (default: ``default_location()``), by version.

    Raises:
        MigrationError: two files with one number, or a gap in the numbers.
    """
    folder = location if location is not None else default_location()
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration {migration.name}: expected number {expected:04d}")
    return found


def statements(sql: str) -> list[str]:
    """The statements of a script, cut where SQLite's own parser says one is complete (so a
    semicolon in a string, a comment or a trigger body does not cut)."""
    found: list[str] = []
    start = 0
    for end, char in enumerate(sql):
        if char == ";" and sqlite3.complete_statement(sql[start : end + 1]):
            found.append(sql[start : end + 1])
            start = end + 1
    if sql[start:].strip():
        found.append(sql[start:])  # the last statement may lack its semicolon
    return found


async def user_version(db: Database) -> int:
    """The schema version recorded in the database."""
    async with db.reading() as conn:
        row = await fetch_one(conn, "PRAGMA user_version")
    assert row is not None
    return int(row[0])


async def migrate(db: Database, migrations: list[Migration]) -> int:
    """Apply the migrations newer than the database, each in its own transaction; the version.

    Raises:
        MigrationError: a migration failed (that one is rolled back; earlier ones stay).
    """
    version = await user_version(db)
    for migration in migrations:
        if migration.version <= version:
            continue
        # One execute per statement inside our BEGIN ... COMMIT: executescript() would commit
        # the open transaction first, and a failing script could then not be rolled back.
        try:
            async with db.transaction() as conn:
                for statement in statements(migration.sql):
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {migration.version}")
        except sqlite3.Error as error:
            raise MigrationError(f"migration {migration.name} failed: {error}") from error
        version = migration.version
    return version
