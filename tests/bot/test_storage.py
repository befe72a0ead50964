"""Storage: the real migrations on real SQLite files, the runner's rollback, durability pragmas,
and transactions of coroutines sharing the one connection."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.storage import Store, migrate
from bot.storage.migrate import MigrationError, default_location, load

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


@pytest_asyncio.fixture(name="store")
async def store_fixture(tmp_path: Path) -> AsyncIterator[Store]:
    """A store on a fresh file, closed even when the test fails (its thread would keep the
    process alive)."""
    store = await Store.open(tmp_path / "dots.sqlite3")
    yield store
    await store.close()


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


async def test_real_migrations_apply_in_order_once(tmp_path: Path) -> None:
    path = tmp_path / "dots.sqlite3"
    store = await Store.open(path)
    latest = len(load(MIGRATIONS))
    assert latest >= 2
    assert await store.version() == latest
    assert await store.execute("PRAGMA journal_mode") == [("wal",)]
    assert await store.execute("PRAGMA foreign_keys") == [(1,)]
    assert await store.execute("PRAGMA synchronous") == [(1,)]  # NORMAL
    await store.close()
    assert {"guilds", "players", "challenges", "games", "actions", "ratings"} <= tables(path)
    again = await Store.open(path)  # nothing left to apply
    assert await again.version() == latest
    await again.close()


async def test_every_migration_file_starts_with_its_purpose() -> None:
    for migration in load(MIGRATIONS):
        first = migration.sql.splitlines()[0]
        assert first.startswith(f"-- {migration.name.removesuffix('.sql')}: ")


def test_the_default_location_is_the_top_level_folder() -> None:
    found = default_location()
    assert sorted(m.name for m in load(found)) == sorted(m.name for m in load(MIGRATIONS))


async def test_a_failing_migration_rolls_back_to_the_previous_version(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    shutil.copy(MIGRATIONS / "0001_initial.sql", folder)
    # The first statement succeeds, the second fails: the first must not survive.
    (folder / "0002_broken.sql").write_text(
        "-- 0002_broken: a table, then a syntax error.\n"
        "CREATE TABLE half_done (x INTEGER);\n"
        "ALTER TABLE games ADD COLUMN extra INTEGER;\n"
        "CREATE TABLEE nope (y);\n"
    )
    path = tmp_path / "dots.sqlite3"
    with pytest.raises(MigrationError, match="0002_broken"):
        await Store.open(path, migrations=folder)
    assert version(path) == 1
    assert "half_done" not in tables(path) and "games" in tables(path)
    with sqlite3.connect(path) as conn:
        columns = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
    assert "extra" not in columns
    # Fixing the file lets the next start apply it.
    (folder / "0002_broken.sql").write_text("-- 0002_broken: fixed.\nCREATE TABLE done (x);\n")
    store = await Store.open(path, migrations=folder)
    assert await store.version() == 2
    await store.close()
    assert "done" in tables(path)


async def test_a_failing_first_migration_leaves_an_empty_database(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "0001_initial.sql").write_text(
        "CREATE TABLE a (x);\nINSERT INTO nowhere VALUES (1);\n"
    )
    path = tmp_path / "dots.sqlite3"
    with pytest.raises(MigrationError):
        await Store.open(path, migrations=folder)
    assert version(path) == 0 and tables(path) == set()


def test_numbering_gaps_are_refused(tmp_path: Path) -> None:
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="0003_c"):
        load(tmp_path)


async def test_foreign_keys_are_enforced(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "dots.sqlite3")
    with pytest.raises(sqlite3.IntegrityError):
        await store.execute(
            "INSERT INTO actions (game_id, seq, kind, player, point, at) "
            "VALUES (42, 0, 'dot', 1, 'A1', 0)"
        )
    await store.close()


def test_installed_migrations_package_is_found_without_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As in an installed wheel: no migrations folder beside the bot package, only the
    # ``migrations`` package (importable here because the project root is on sys.path).
    fake = tmp_path / "site" / "bot" / "storage" / "migrate.py"
    monkeypatch.setattr(migrate, "__file__", str(fake))
    found = default_location()
    assert Path(str(found)).resolve() == MIGRATIONS.resolve()
    assert [m.version for m in load(found)] == [m.version for m in load(MIGRATIONS)]


def test_no_migrations_anywhere_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(migrate, "__file__", str(tmp_path / "a" / "b" / "c.py"))
    monkeypatch.setattr(migrate.resources, "files", lambda name: tmp_path)
    with pytest.raises(MigrationError, match="cannot find"):
        default_location()


async def test_the_database_folder_is_created(tmp_path: Path) -> None:
    path = tmp_path / "data" / "bot" / "dots.sqlite3"
    store = await Store.open(path)
    await store.close()
    assert path.is_file() and version(path) >= 2


async def test_a_migration_splits_only_between_whole_statements(tmp_path: Path) -> None:
    folder = tmp_path / "migrations"
    folder.mkdir()
    shutil.copy(MIGRATIONS / "0001_initial.sql", folder)
    # Semicolons inside a string and a trigger body; the last statement has none.
    (folder / "0002_notes.sql").write_text(
        "-- 0002_notes: a trigger and strings with semicolons.\n"
        "CREATE TABLE notes (text TEXT NOT NULL DEFAULT 'a; b');\n"
        "CREATE TRIGGER notes_seen AFTER INSERT ON notes BEGIN\n"
        "    INSERT INTO seen VALUES (new.text);\n"
        "    INSERT INTO seen VALUES ('x; y');\n"
        "END;\n"
        "CREATE TABLE seen (text TEXT)\n"
        "-- a closing comment\n"
    )
    store = await Store.open(tmp_path / "dots.sqlite3", migrations=folder)
    assert await store.version() == 2
    await store.execute("INSERT INTO notes DEFAULT VALUES")
    assert await store.execute("SELECT text FROM seen ORDER BY rowid") == [("a; b",), ("x; y",)]
    await store.close()


async def test_transactions_of_coroutines_do_not_interleave(store: Store) -> None:
    inside, go_on = asyncio.Event(), asyncio.Event()

    async def failing() -> None:
        async with store.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO players (user_id, dm_on_turn, updated) VALUES (1, 1, 0)"
            )
            inside.set()
            await go_on.wait()
            raise RuntimeError("boom")

    task = asyncio.create_task(failing())
    await inside.wait()
    # Another coroutine's read does not see the uncommitted row (nor wait for it); its write
    # waits for the open transaction, and does not become part of it (and be rolled back).
    assert await store.notify(1) is False
    writer = asyncio.create_task(store.set_notify(2, on=True, at=0))
    await asyncio.sleep(0.05)
    assert not writer.done()
    go_on.set()
    with pytest.raises(RuntimeError, match="boom"):
        await task
    await writer
    assert await store.notify(1) is False
    assert await store.notify(2) is True


async def test_a_cancelled_transaction_rolls_back_and_frees_the_database(
    store: Store, tmp_path: Path
) -> None:
    path = tmp_path / "dots.sqlite3"
    inside = asyncio.Event()

    async def stuck() -> None:
        async with store.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO players (user_id, dm_on_turn, updated) VALUES (1, 1, 0)"
            )
            inside.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(stuck())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.notify(1) is False
    # No write lock is left behind: another connection can write at once.
    with sqlite3.connect(path, timeout=0, isolation_level=None) as other:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
    await store.set_notify(1, on=True, at=0)
    assert await store.notify(1) is True
