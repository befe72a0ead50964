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


def user_version(conn: sqlite3.Connection) -> int:
    """The schema version recorded in the database."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, migrations: list[Migration]) -> int:
    """Apply the migrations newer than the database, each in its own transaction; the version.

    ``conn`` must be in autocommit mode (``isolation_level=None``).

    Raises:
        MigrationError: a migration failed (that one is rolled back; earlier ones stay).
    """
    version = user_version(conn)
    for migration in migrations:
        if migration.version <= version:
            continue
        # executescript runs the statements one by one; the explicit BEGIN makes them one
        # transaction with the version bump, and the ROLLBACK below undoes a partial script.
        script = f"BEGIN IMMEDIATE;\n{migration.sql}\n;PRAGMA user_version = {migration.version};"
        try:
            conn.executescript(script)
            conn.execute("COMMIT")
        except sqlite3.Error as error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise MigrationError(f"migration {migration.name} failed: {error}") from error
        version = migration.version
    return version
