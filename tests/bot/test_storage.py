"""Storage: the real migrations (Alembic) on real databases (SQLite files, and PostgreSQL
where installed), a file made before Alembic, the runner's rollback, durability pragmas,
writes that return the stored row, ratings passed in, and transactions of coroutines."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy.exc import IntegrityError

from bot.games import GameService
from bot.games.challenges import UserLimits
from bot.ratings import Rating, rate_stored
from bot.storage import Store, migrate
from bot.storage.migrate import MigrationError, default_location, head
from bot.storage.rows import ActionRow, ChallengeRow, Finish, GameRow, RatingRow
from bot.storage.store import OverLimitError, StaleWriteError
from tests.postgres import Cluster

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
MAIN_V3 = Path(__file__).resolve().parent / "data" / "main-v3.sqlite3"
TABLES = {"guilds", "players", "challenges", "games", "actions", "ratings", "rating_changes"}


@pytest_asyncio.fixture(name="store")
async def store_fixture(database: str | Path) -> AsyncIterator[Store]:
    """A store on a fresh database of each kind, closed even when the test fails."""
    store = await Store.open(database)
    yield store
    await store.close()


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def a_game(**changes: object) -> GameRow:
    values: dict[str, object] = {
        "game_id": 0, "guild_id": 1, "channel_id": 2, "thread_id": None, "message_id": None,
        "challenge_id": None, "pink_id": 10, "blue_id": 20, "width": 10, "height": 10,
        "rules": "standard", "start": "empty", "start_dots": "", "seed": None, "clock": 60,
        "rated": False, "status": "running", "winner": None, "pink_score": None,
        "blue_score": None, "reason": None, "moves": 0, "created": 100.0, "started": 100.0,
        "finished": None, "deadline": 160.0, "reminder_sent": False,
    }  # fmt: skip
    values.update(changes)
    return GameRow(**values)  # type: ignore[arg-type]


def copy_migrations(tmp_path: Path) -> Path:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


async def test_real_migrations_apply_in_order_once(database: str | Path) -> None:
    store = await Store.open(database)
    latest = int(head())
    assert latest >= 3
    assert await store.version() == latest
    names = {r[0] for r in await store.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        if store.db.dialect == "postgresql" else "SELECT name FROM sqlite_master"
    )}  # fmt: skip
    assert TABLES | {"alembic_version"} <= names
    await store.close()
    again = await Store.open(database)  # nothing left to apply
    assert await again.version() == latest
    await again.close()


async def test_processes_starting_at_once_on_a_new_postgresql_database_migrate_it_once(
    postgres_cluster: Cluster,
) -> None:
    # Several `dots-bot` processes started together on a new database (the README's way to
    # run shards): one migrates, the others wait for it and find nothing left to do.
    url = postgres_cluster.create_database()
    opened = await asyncio.wait_for(  # at once, their DDL raced: errors, or a hang
        asyncio.gather(*(Store.open(url) for _ in range(4)), return_exceptions=True), 60
    )
    stores = [s for s in opened if isinstance(s, Store)]
    try:
        assert len(stores) == 4, [str(e) for e in opened if not isinstance(e, Store)]
        latest = int(head())
        for store in stores:
            assert await store.version() == latest
        assert await stores[0].execute("SELECT count(*) FROM alembic_version") == [(1,)]
    finally:
        for store in stores:
            await store.close()


async def test_sqlite_pragmas(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "dots.sqlite3")
    assert await store.execute("PRAGMA journal_mode") == [("wal",)]
    assert await store.execute("PRAGMA foreign_keys") == [(1,)]
    assert await store.execute("PRAGMA synchronous") == [(1,)]  # NORMAL
    await store.close()


async def test_snowflakes_are_64_bit(store: Store) -> None:
    big = 1_288_457_123_456_789_012  # a 2026 Discord snowflake: beyond 32 bits
    stored = await store.games.create_game(a_game(guild_id=big, channel_id=big, pink_id=big + 1))
    assert (stored.guild_id, stored.pink_id) == (big, big + 1)
    again = await store.games.game(stored.game_id)
    assert again is not None and again.guild_id == big and again.pink_id == big + 1


def test_every_revision_says_its_purpose_and_follows_the_one_before() -> None:
    files = sorted((MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))
    numbers = [int(f.name[:4]) for f in files]
    assert numbers == list(range(1, len(files) + 1))
    for before, n, file in zip([None, *numbers], numbers, files, strict=False):
        text = file.read_text()
        assert text.startswith(f'"""{file.stem}: ')
        assert f'revision = "{n:04d}"' in text
        down = "down_revision = None" if before is None else f'down_revision = "{before:04d}"'
        assert down in text


def test_the_default_location_is_the_top_level_folder() -> None:
    assert default_location().resolve() == MIGRATIONS.resolve()


async def test_a_file_made_before_alembic_is_stamped_keeps_its_games_and_plays_on(
    tmp_path: Path,
) -> None:
    # Made by main before Alembic (see tests/bot/data): user_version 3, three games.
    path = tmp_path / "old.sqlite3"
    shutil.copy(MAIN_V3, path)
    with sqlite3.connect(path) as conn:
        before = conn.execute("SELECT * FROM games ORDER BY game_id").fetchall()
        actions_before = conn.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()
        schema_before = conn.execute("SELECT name, sql FROM sqlite_master").fetchall()
    assert len(before) == 3 and "alembic_version" not in tables(path)
    service = await GameService.open(path)
    assert await service.store.version() == int(head())
    with sqlite3.connect(path) as conn:
        # Stamped, not rebuilt: the old tables are as they were, but for the columns that
        # revisions 0004, 0006 and 0017 added at their end (in place: SQLite's ADD COLUMN)
        # and the actions, which 0014 copies to allow a draw by agreement (rows kept, below).
        schema_after = dict(conn.execute("SELECT name, sql FROM sqlite_master").fetchall())
        for name, sql in schema_before:
            if name == "actions":
                assert "'draw'" in schema_after[name] and "'draw'" not in sql
                continue
            assert schema_after[name].startswith(sql.removesuffix(")")), name
        grown = {name for name, sql in schema_before if schema_after[name] != sql}
        assert grown == {"guilds", "challenges", "games", "actions", "players"}
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [(head(),)]
        # 0004: the old challenges (all accepted) count as shown; the limits are the defaults.
        assert (
            conn.execute("SELECT status, answer_shown FROM challenges").fetchall()
            == [("accepted", 1)] * 3
        )
        with pytest.raises(sqlite3.IntegrityError, match="ck_max_running_games"):
            conn.execute(
                "INSERT INTO guilds (guild_id, max_running_games, updated) VALUES (5, 0, 1)"
            )
        with pytest.raises(sqlite3.IntegrityError, match="ck_answer_shown"):
            conn.execute("UPDATE challenges SET answer_shown = 2")
    assert await service.store.challenges.unshown_accepts() == []
    assert await service.store.settings.limits(1) == (None, None, None)
    assert await service.user_limits(guild_id=1) == UserLimits()
    assert await service.store.games.save_replay(2, b"GIF89a-old") is True
    assert await service.store.games.replay(2) == b"GIF89a-old"
    running = await service.game(1)
    assert running.is_running and len(running.game.actions) == 4
    mover = running.to_move_id
    assert mover is not None
    outcome = await service.place(game_id=1, user_id=mover, point="H8")
    assert len(outcome.view.game.actions) == 5
    over = await service.game(2)
    assert not over.is_running
    board = await service.leaderboard(guild_id=1)
    assert len(board) == 2
    await service.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT moves FROM games WHERE game_id = 1").fetchone() == (5,)
        kept = conn.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()
    assert set(actions_before) < set(kept) and len(kept) == len(actions_before) + 1
    again = await Store.open(path)  # the second start finds it up to date
    assert await again.version() == int(head())
    await again.close()


async def test_an_unknown_old_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "odd.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE games (x)")
        conn.execute("PRAGMA user_version = 9")
    with pytest.raises(MigrationError, match="unknown schema version 9"):
        await Store.open(path)


async def test_a_failing_migration_rolls_back_to_the_previous_revision(
    database: str | Path, tmp_path: Path
) -> None:
    folder = copy_migrations(tmp_path)
    latest = head()
    broken = folder / "versions" / f"{int(latest) + 1:04d}_broken.py"
    # The first statement succeeds, the second fails: the first must not survive.
    broken.write_text(
        f'"""{broken.stem}: a table, then an error."""\n'
        "import sqlalchemy as sa\nfrom alembic import op\n"
        f'revision = "{int(latest) + 1:04d}"\ndown_revision = "{latest}"\n'
        "def upgrade():\n"
        '    op.create_table("half_done", sa.Column("x", sa.Integer))\n'
        '    op.execute("INSERT INTO nowhere VALUES (1)")\n'
    )
    with pytest.raises(MigrationError, match=broken.stem):
        await Store.open(database, migrations=folder)
    store = await Store.open(database)  # the project's own revisions: all there
    assert await store.version() == int(latest)
    with pytest.raises(Exception, match="half_done"):
        await store.execute("SELECT * FROM half_done")
    await store.close()
    # Fixing the file lets the next start apply it.
    broken.write_text(
        broken.read_text().replace('op.execute("INSERT INTO nowhere VALUES (1)")', "pass")
    )
    store = await Store.open(database, migrations=folder)
    assert await store.version() == int(latest) + 1
    assert await store.execute("SELECT * FROM half_done") == []
    await store.close()


async def test_a_failing_first_migration_leaves_an_empty_database(tmp_path: Path) -> None:
    folder = copy_migrations(tmp_path)
    first = folder / "versions" / "0001_initial.py"
    players = '    op.create_table(\n        "players",'
    failing = '    op.execute("INSERT INTO nowhere VALUES (1)")\n'
    first.write_text(first.read_text().replace(players, failing + players, 1))
    path = tmp_path / "dots.sqlite3"
    with pytest.raises(MigrationError, match="0001_initial"):
        await Store.open(path, migrations=folder)
    assert tables(path) <= {"alembic_version"}
    with sqlite3.connect(path) as conn:
        if "alembic_version" in tables(path):
            assert conn.execute("SELECT * FROM alembic_version").fetchall() == []


async def test_two_heads_are_refused(tmp_path: Path) -> None:
    folder = copy_migrations(tmp_path)
    (folder / "versions" / "0002_other.py").write_text(
        '"""0002_other: a second child of 0001."""\nrevision = "9002"\ndown_revision = "0001"\n'
        "def upgrade():\n    pass\n"
    )
    with pytest.raises(MigrationError, match="one head"):
        await Store.open(tmp_path / "dots.sqlite3", migrations=folder)


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(IntegrityError):
        await store.execute(
            "INSERT INTO actions (game_id, seq, kind, player, point, at) "
            "VALUES (42, 0, 'dot', 1, 'A1', 0)"
        )


def test_installed_migrations_package_is_found_without_a_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As in an installed wheel: no migrations folder beside the bot package, only the
    # ``migrations`` package (importable here because the project root is on sys.path).
    fake = tmp_path / "site" / "bot" / "storage" / "migrate.py"
    monkeypatch.setattr(migrate, "__file__", str(fake))
    assert default_location().resolve() == MIGRATIONS.resolve()


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
    assert path.is_file() and tables(path) >= TABLES


async def test_writes_return_the_stored_row(store: Store) -> None:
    game = await store.games.create_game(a_game())
    assert game.game_id > 0 and game.rated is False and game.reminder_sent is False
    moved, changes = await store.games.record_action(
        game.game_id, ActionRow(0, "dot", 1, "C3", 110.0), deadline=170.0
    )
    assert (moved.moves, moved.deadline, changes) == (1, 170.0, ())
    assert moved == await store.games.game(game.game_id)
    reminded = await store.games.mark_reminded(game.game_id, 170.0, at=150.0)
    assert reminded is not None and reminded.reminder_sent is True
    assert await store.games.mark_reminded(game.game_id, 170.0, at=151.0) is None  # already sent
    assert reminded == await store.games.game(game.game_id)
    threaded = await store.games.set_game_thread(game.game_id, thread_id=77, message_id=None)
    assert threaded is not None and (threaded.thread_id, threaded.message_id) == (77, None)
    back = await store.games.take_back(game.game_id, moves=1, keep=0, deadline=200.0)
    assert back is not None and (back.moves, back.deadline, back.reminder_sent) == (0, 200.0, False)
    assert await store.games.take_back(game.game_id, moves=1, keep=0, deadline=200.0) is None
    aborted = await store.games.finish_game(game.game_id, Finish("aborted"), at=210.0)
    assert aborted is not None and (aborted.status, aborted.finished, aborted.deadline) == (
        "aborted", 210.0, None,
    )  # fmt: skip
    assert aborted == await store.games.game(game.game_id)
    assert await store.games.finish_game(game.game_id, Finish("aborted"), at=220.0) is None


async def test_a_rated_game_is_rated_by_the_rules_passed_in(store: Store) -> None:
    game = await store.games.create_game(a_game(rated=True))
    with pytest.raises(ValueError, match="rating rules"):
        await store.games.record_action(
            game.game_id, ActionRow(0, "resign", 2, None, 120.0), deadline=None,
            finish=Finish("over", winner=1, reason="resign"),
        )  # fmt: skip
    assert (await store.games.game(game.game_id)).status == "running"  # type: ignore[union-attr]
    seen: list[tuple[RatingRow | None, RatingRow | None, float]] = []

    def rules(pink: RatingRow | None, blue: RatingRow | None, score: float):  # type: ignore[no-untyped-def]
        seen.append((pink, blue, score))
        return rate_stored(pink, blue, score)

    over, changes = await store.games.record_action(
        game.game_id, ActionRow(0, "resign", 2, None, 120.0), deadline=None,
        finish=Finish("over", winner=1, reason="resign"), rate=rules,
    )  # fmt: skip
    assert seen == [(None, None, 1.0)]
    assert over.status == "over" and over.winner == 1 and over.finished == 120.0
    pink, blue = changes
    assert (pink.user_id, blue.user_id) == (10, 20)
    assert pink.before == blue.before == Rating().rating
    assert pink.after > pink.before > blue.after and pink.delta == pink.after - pink.before
    found = await store.ratings.rating(1, 10)
    assert found is not None and found[0].rating == pink.after and found[0].wins == 1
    # The next game of the pair starts from the stored ratings.
    second = await store.games.create_game(a_game(rated=True))
    await store.games.record_action(
        second.game_id, ActionRow(0, "resign", 1, None, 130.0), deadline=None,
        finish=Finish("over", winner=2, reason="resign"), rate=rules,
    )  # fmt: skip
    assert seen[1][0] == found[0] and seen[1][2] == 0.0


async def test_a_stale_write_changes_nothing(store: Store) -> None:
    game = await store.games.create_game(a_game())
    with pytest.raises(StaleWriteError):
        await store.games.record_action(
            game.game_id, ActionRow(3, "dot", 1, "C3", 110.0), deadline=1.0
        )
    assert await store.games.game(game.game_id) == game
    assert await store.execute("SELECT count(*) FROM actions") == [(0,)]


async def test_transactions_of_coroutines_do_not_interleave(store: Store) -> None:
    inside, go_on = asyncio.Event(), asyncio.Event()

    async def failing() -> None:
        async with store.db.transaction() as conn:
            await conn.exec_driver_sql(
                "INSERT INTO players (user_id, dm_on_turn, updated) VALUES (1, true, 0)"
            )
            inside.set()
            await go_on.wait()
            raise RuntimeError("boom")

    task = asyncio.create_task(failing())
    await inside.wait()
    # Another coroutine's read does not see the uncommitted row (nor wait for it); its write
    # does not become part of the open transaction (and is not rolled back with it).
    assert await store.settings.notify(1) is False
    writer = asyncio.create_task(store.settings.set_notify(2, on=True, at=0))
    await asyncio.sleep(0.05)
    if store.db.dialect == "sqlite":
        assert not writer.done()  # one writer at a time
    go_on.set()
    with pytest.raises(RuntimeError, match="boom"):
        await task
    await writer
    assert await store.settings.notify(1) is False
    assert await store.settings.notify(2) is True


async def test_a_cancelled_transaction_rolls_back_and_frees_the_database(
    store: Store,
) -> None:
    inside = asyncio.Event()

    async def stuck() -> None:
        async with store.db.transaction() as conn:
            await conn.exec_driver_sql(
                "INSERT INTO players (user_id, dm_on_turn, updated) VALUES (1, true, 0)"
            )
            inside.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(stuck())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.settings.notify(1) is False
    await asyncio.wait_for(store.settings.set_notify(1, on=True, at=0), 5)
    assert await store.settings.notify(1) is True


async def test_a_cancelled_sqlite_transaction_leaves_no_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "dots.sqlite3"
    store = await Store.open(path)
    inside = asyncio.Event()

    async def stuck() -> None:
        async with store.db.transaction() as conn:
            await conn.exec_driver_sql(
                "INSERT INTO players (user_id, dm_on_turn, updated) VALUES (1, 1, 0)"
            )
            inside.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(stuck())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    with sqlite3.connect(path, timeout=0, isolation_level=None) as other:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
    await store.close()


async def test_two_games_of_one_player_ending_at_once_are_rated_one_after_the_other(
    database: str | Path,
) -> None:
    # Two Stores (two connections, on PostgreSQL two concurrent transactions): the second
    # game must be rated from the rating the first one wrote, not from the same old one.
    first, second = await Store.open(database), await Store.open(database)
    try:
        games = [
            await first.games.create_game(a_game(rated=True, blue_id=blue)) for blue in (20, 30)
        ]
        await asyncio.gather(*(
            store.games.record_action(
                game.game_id, ActionRow(0, "resign", 2, None, 120.0), deadline=None,
                finish=Finish("over", winner=1, reason="resign"), rate=rate_stored,
            )
            for store, game in zip((first, second), games, strict=True)
        ))  # fmt: skip
        found = await first.ratings.rating(1, 10)
        assert found is not None and found[0].games == 2 and found[0].wins == 2
        history = await first.execute(
            "SELECT before, after FROM rating_changes WHERE user_id = 10 ORDER BY after"
        )
        assert len(history) == 2 and history[1][0] == history[0][1]
        assert history[1][1] == found[0].rating
    finally:
        await first.close()
        await second.close()


def a_challenge(**changes: object) -> ChallengeRow:
    values: dict[str, object] = {
        "challenge_id": 0, "guild_id": 1, "channel_id": 2, "message_id": None,
        "challenger_id": 10, "opponent_id": 20, "width": 10, "height": 10, "rules": "standard",
        "start": "empty", "clock": 60, "colour": "pink", "rated": False, "status": "open",
        "created": 100.0, "expires": 1000.0, "game_id": None,
    }  # fmt: skip
    values.update(changes)
    return ChallengeRow(**values)  # type: ignore[arg-type]


async def test_limits_are_stored_beside_the_settings_and_checked(store: Store) -> None:
    assert await store.settings.limits(1) == (None, None, None)
    await store.settings.set_guild(1, game_channel_id=5, default_clock=90, at=1.0)
    await store.settings.set_limits(1, challenges=3, games=None, computer=7, at=2.0)
    assert await store.settings.limits(1) == (3, None, 7)
    assert await store.settings.guild(1) == (5, 90)  # the settings are kept
    await store.settings.set_limits(2, challenges=None, games=4, computer=None, at=3.0)
    assert (await store.settings.limits(2), await store.settings.guild(2)) == (
        (None, 4, None),
        (None, 60),
    )
    with pytest.raises(IntegrityError, match="ck_max_open_challenges"):
        await store.settings.set_limits(1, challenges=1001, games=None, computer=None, at=4.0)
    assert await store.settings.limits(1) == (3, None, 7)


async def test_limit_checked_inserts_return_the_stored_row_or_refuse(store: Store) -> None:
    made = await store.challenges.create_challenge_within(
        a_challenge(), now=100.0, max_challenges=1, max_games=5
    )
    assert made is not None and made.challenge_id > 0 and made.rated is False
    assert made == await store.challenges.challenge(made.challenge_id)
    with pytest.raises(OverLimitError) as over:
        await store.challenges.create_challenge_within(
            a_challenge(opponent_id=30), now=100.0, max_challenges=1, max_games=5
        )
    assert (over.value.kind, over.value.user_id, over.value.limit) == ("challenges", 10, 1)
    # The pair already has one open: None (the clash), as create_challenge.
    assert await store.challenges.create_challenge_within(
        a_challenge(challenger_id=20, opponent_id=10), now=100.0, max_challenges=5, max_games=5
    ) is None  # fmt: skip
    await store.games.create_game(a_game(pink_id=20, blue_id=40))
    with pytest.raises(OverLimitError) as over:
        await store.challenges.accept_challenge_within(
            made.challenge_id, a_game(challenge_id=made.challenge_id), now=100.0, max_games=1
        )
    assert (over.value.kind, over.value.user_id) == ("games", 20)  # the opponent's first
    assert (await store.challenges.challenge(made.challenge_id)).status == "open"  # type: ignore[union-attr]
    game = await store.challenges.accept_challenge_within(
        made.challenge_id, a_game(challenge_id=made.challenge_id), now=100.0, max_games=2
    )
    assert game is not None and game == await store.games.game(game.game_id)
    assert (await store.challenges.challenge(made.challenge_id)).game_id == game.game_id  # type: ignore[union-attr]
    computer = (-1, -2)
    vs = await store.games.create_game_within(
        a_game(pink_id=10, blue_id=-1), user_id=10, max_games=3, max_computer=1,
        computer_ids=computer,
    )  # fmt: skip
    assert vs == await store.games.game(vs.game_id)
    with pytest.raises(OverLimitError, match="1 computer"):
        await store.games.create_game_within(
            a_game(pink_id=-2, blue_id=10), user_id=10, max_games=3, max_computer=1,
            computer_ids=computer,
        )  # fmt: skip
    with pytest.raises(OverLimitError, match="2 games"):
        await store.games.create_game_within(
            a_game(pink_id=10, blue_id=-2), user_id=10, max_games=2, max_computer=5,
            computer_ids=computer,
        )  # fmt: skip
    assert await store.execute("SELECT count(*) FROM games") == [(3,)]


async def test_unfinished_starts_are_found_until_marked(store: Store) -> None:
    made = await store.challenges.create_challenge_within(
        a_challenge(), now=100.0, max_challenges=10, max_games=10
    )
    assert made is not None
    game = await store.challenges.accept_challenge_within(
        made.challenge_id, a_game(), now=100.0, max_games=10
    )
    assert game is not None
    other = await store.games.create_game(a_game(message_id=55))
    assert await store.games.unstarted_games() == [game.game_id]
    assert [c.challenge_id for c in await store.challenges.unshown_accepts()] == [made.challenge_id]
    assert await store.challenges.mark_answer_shown(made.challenge_id, message_id=None) is True
    assert (await store.challenges.challenge(made.challenge_id)).message_id is None  # type: ignore[union-attr]
    assert await store.challenges.unshown_accepts() == []
    assert await store.challenges.mark_answer_shown(made.challenge_id, message_id=66) is True
    assert (await store.challenges.challenge(made.challenge_id)).message_id == 66  # type: ignore[union-attr]
    assert await store.challenges.mark_answer_shown(999, message_id=1) is False
    await store.games.set_game_thread(game.game_id, thread_id=None, message_id=77)
    await store.games.finish_game(other.game_id, Finish("aborted"), at=120.0)
    assert await store.games.unstarted_games() == []


async def test_a_replay_is_stored_once_and_only_for_a_finished_game(store: Store) -> None:
    game = await store.games.create_game(a_game())
    gif = bytes(range(256)) * 40  # every byte value: stored as binary, not text
    assert await store.games.save_replay(game.game_id, gif) is False  # still running
    assert await store.games.replay(game.game_id) is None
    await store.games.finish_game(game.game_id, Finish("aborted"), at=120.0)
    assert await store.games.save_replay(game.game_id, gif) is True
    assert await store.games.save_replay(game.game_id, b"GIF89a-other") is False  # kept
    assert await store.games.replay(game.game_id) == gif
    assert await store.games.save_replay(999, gif) is False  # no such game


async def test_accepts_of_two_challenges_at_once_keep_the_running_games_limit(
    database: str | Path,
) -> None:
    # Two Stores: on PostgreSQL two concurrent transactions, each counting 0 running games
    # for player 10 unless the count and the insert are serialised per player.
    first, second = await Store.open(database), await Store.open(database)
    try:
        made = [
            await first.challenges.create_challenge_within(
                a_challenge(opponent_id=o), now=100.0, max_challenges=10, max_games=10
            )
            for o in (20, 30)
        ]
        results = await asyncio.gather(
            *(
                store.challenges.accept_challenge_within(
                    c.challenge_id, a_game(blue_id=c.opponent_id, challenge_id=c.challenge_id),
                    now=100.0, max_games=1,
                )
                for store, c in zip((first, second), made, strict=True)
                if c is not None
            ),
            return_exceptions=True,
        )  # fmt: skip
        assert sorted(type(r).__name__ for r in results) == ["GameRow", "OverLimitError"]
        assert await first.games.count_running(1, 10) == 1
    finally:
        await first.close()
        await second.close()
