"""The migrations runner: Alembic's revisions in ``migrations/``, applied at start-up.

Each revision runs in its own transaction with its version bump (``alembic_version``), so a
failing revision leaves the database exactly at the one before it.

A SQLite file from before Alembic (``PRAGMA user_version`` 1 to 3, no ``alembic_version``
table) was made by the ``.sql`` files that revisions 0001 to 0003 replace: it is stamped at its
revision, not rebuilt, and the newer revisions are applied to it.

Where the revisions are: the top-level ``migrations`` folder. In a checkout (and an editable
install) it is found beside the ``bot`` package; in an installed wheel it is the ``migrations``
package (its ``env.py``, and ``versions/`` as package data).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text

from bot.storage.database import Database

# The revisions the three .sql migrations of before Alembic became (their user_version).
BEFORE_ALEMBIC = {1: "0001", 2: "0002", 3: "0003"}


class MigrationError(RuntimeError):
    """A migration failed; the database was left at the revision before it."""


def default_location() -> Path:
    """The ``migrations`` folder: beside the ``bot`` package in a checkout, else the installed
    ``migrations`` package.

    Raises:
        MigrationError: neither has an ``env.py``.
    """
    checkout = Path(__file__).resolve().parents[2] / "migrations"
    if (checkout / "env.py").is_file():
        return checkout
    try:
        installed = Path(str(resources.files("migrations")))
    except ModuleNotFoundError:
        installed = None
    if installed is not None and (installed / "env.py").is_file():
        return installed
    raise MigrationError("cannot find the migrations folder (env.py and versions/)")


def config(location: Path | None = None) -> Config:
    """An Alembic configuration for the revisions in ``location`` (default: the project's)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(location or default_location()))
    return cfg


def head(location: Path | None = None) -> str:
    """The newest revision in ``location``.

    Raises:
        MigrationError: the revisions do not form one line (two heads, or none).
    """
    try:
        heads = ScriptDirectory.from_config(config(location)).get_heads()
    except Exception as error:  # Alembic raises its own CommandError and plain errors
        raise MigrationError(f"cannot read the migrations: {error}") from error
    if len(heads) != 1:
        raise MigrationError(f"the migrations must have one head, not {heads or 'none'}")
    return heads[0]


def current(conn: Connection) -> str | None:
    """The revision the database is at (None: none applied)."""
    return MigrationContext.configure(conn).get_current_revision()


def _upgrade(conn: Connection, cfg: Config) -> str | None:
    if conn.dialect.name == "sqlite" and current(conn) is None:
        version = int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())
        conn.rollback()  # end the read's implicit transaction: each revision opens its own
        if version in BEFORE_ALEMBIC and inspect(conn).has_table("games"):
            command.stamp(cfg, BEFORE_ALEMBIC[version])
            if conn.in_transaction():  # Alembic writes a stamp without a transaction of its own
                conn.commit()
        elif version:
            raise MigrationError(f"the database has an unknown schema version {version}")
    if conn.in_transaction():
        conn.rollback()
    command.upgrade(cfg, "head")
    found = current(conn)
    conn.rollback()
    return found


async def migrate(db: Database, location: Path | None = None) -> str | None:
    """Apply the revisions newer than the database, each in its own transaction; the revision
    the database is then at.

    Raises:
        MigrationError: a revision failed (that one is rolled back; earlier ones stay).
    """
    cfg = config(location)
    head(location)  # refuse a broken folder before touching the database
    async with db.migrating() as conn:
        cfg.attributes["connection"] = None

        def run(sync: Connection) -> str | None:
            cfg.attributes["connection"] = sync
            return _upgrade(sync, cfg)

        try:
            return await conn.run_sync(run)
        except MigrationError:
            raise
        except Exception as error:  # the revision's own error, whatever its type
            if conn.in_transaction():
                await conn.rollback()
            failed = _next_after(cfg, await conn.run_sync(current))
            await conn.rollback()
            raise MigrationError(f"migration {failed} failed: {error}") from error


def _next_after(cfg: Config, applied: str | None) -> str:
    """The file name of the revision that follows ``applied``."""
    for script in ScriptDirectory.from_config(cfg).walk_revisions():
        if script.down_revision == applied:
            return Path(script.path).stem
    return "?"


async def revision(db: Database) -> str | None:
    """The revision the database is at (None: none applied)."""
    async with db.reading() as conn:
        return await conn.run_sync(current)


async def user_version(db: Database) -> int:
    """SQLite's ``PRAGMA user_version`` (what marked the schema before Alembic)."""
    async with db.reading() as conn:
        return int((await conn.execute(text("PRAGMA user_version"))).scalar_one())
