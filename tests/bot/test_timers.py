"""The timers table on both databases: a timer is written with the change that sets
it, fires exactly once when claimers race, fires again after a crash before its commit, is
claimed only by its shard's process, and a nearer deadline wakes a sleeping claimer early."""

from __future__ import annotations

import asyncio
import shutil
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.clocks import MAX_NAP, Clocks
from bot.games import Event, GameOptions, GameService, Reminder, TimedOut
from bot.storage import Store
from bot.storage.rows import ActionRow, Finish, TimerRow
from bot.storage.store import StaleWriteError
from bot.storage.timers import Shards, claiming, current_claim
from tests.bot.service_fakes import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    FakeTime,
    eventually,
    new_game,
    open_service,
)
from tests.bot.test_storage import MIGRATIONS, a_game

MINUTE = timedelta(minutes=1)
SHARD_1_OF_2 = (1 << 22) + 7  # (guild_id >> 22) % 2 == 1


async def timers_of(service: GameService) -> dict[tuple[str, int], float]:
    return {(t.kind, t.ref_id): t.due for t in await service.store.timers.timers()}


async def time_actions(service: GameService, game_id: int) -> int:
    rows = await service.store.execute(
        "SELECT count(*) FROM actions WHERE game_id = ? AND kind = 'time'", (game_id,)
    )
    return int(rows[0][0])


def ts(moment: datetime) -> float:
    return moment.timestamp()


async def test_a_timer_is_written_with_the_change_that_sets_it(database: str | Path) -> None:
    clock = FakeTime()
    service = await open_service(database, clock)
    try:
        made = await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
        )
        assert await timers_of(service) == {("challenge", made.challenge_id): ts(made.expires)}
        view = await service.accept(challenge_id=made.challenge_id, user_id=BOB)
        deadline = ts(clock.now() + MINUTE)
        assert await timers_of(service) == {("game", view.game_id): pytest.approx(deadline)}
        clock.advance(timedelta(seconds=10))
        await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
        assert await timers_of(service) == {
            ("game", view.game_id): pytest.approx(ts(clock.now() + MINUTE))
        }
        await service.resign(game_id=view.game_id, user_id=BOB)
        assert await timers_of(service) == {}
        # A clock of three hours: the timer fires first for the reminder, an hour before.
        long = await new_game(service, options=GameOptions(clock=timedelta(hours=3)))
        remind = ts(clock.now() + timedelta(hours=2))
        assert await timers_of(service) == {("game", long.game_id): pytest.approx(remind)}
        declined = await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=33
        )
        await service.decline(challenge_id=declined.challenge_id, user_id=33)
        assert ("challenge", declined.challenge_id) not in await timers_of(service)
    finally:
        await service.close()


async def test_a_reminder_then_the_time_out_fire_from_one_timer(database: str | Path) -> None:
    clock = FakeTime()
    service = await open_service(database, clock)
    events: list[Event] = []
    service.subscribe(events.append)
    clocks = Clocks(service, sleep=clock.sleep)
    try:
        view = await new_game(service, options=GameOptions(clock=timedelta(hours=3)))
        await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
        await clocks.start()
        clock.advance(timedelta(hours=2))
        await eventually(lambda: any(isinstance(e, Reminder) for e in events))
        deadline = ts(clock.now() + timedelta(hours=1))
        await eventually(lambda: clocks.fired == 1)
        assert await timers_of(service) == {("game", view.game_id): pytest.approx(deadline)}
        clock.advance(timedelta(hours=1))
        await eventually(lambda: any(isinstance(e, TimedOut) for e in events))
        assert await time_actions(service, view.game_id) == 1
        assert [type(e) for e in events] == [Reminder, TimedOut]
    finally:
        await clocks.stop()
        await service.close()


async def test_two_claimers_racing_fire_a_timer_once(database: str | Path) -> None:
    """Two services on one database (two processes' connections) fire the same due timer at
    once, turn after turn: one time-out each turn, never two."""
    clock = FakeTime()
    one = await open_service(database, clock)
    two = await open_service(database, clock)
    events: list[Event] = []
    one.subscribe(events.append)
    two.subscribe(events.append)
    clocks = [Clocks(one, sleep=clock.sleep), Clocks(two, sleep=clock.sleep)]
    try:
        view = await new_game(one)
        await one.place(game_id=view.game_id, user_id=ALICE, point="C3")
        # Blue runs out, then Pink (playing alone) runs out too: over on time.
        for turn in (1, 2):
            clock.advance(MINUTE)
            (timer,) = await one.store.timers.due_timers(ts(clock.now()))
            fired = await asyncio.gather(*(c._fire(timer) for c in clocks))
            assert await time_actions(one, view.game_id) == turn
            assert len(events) == turn
            assert sum(c.fired for c in clocks) == turn
            assert fired.count(True) >= 1
        assert (await two.game(view.game_id)).status == "over"
        assert await one.store.timers.timers() == []
    finally:
        await one.close()
        await two.close()


async def test_a_claimer_holding_its_claim_keeps_the_other_out(database: str | Path) -> None:
    """While one process's claim is open (not yet committed) the other fires nothing; then
    the first commits: one time-out."""
    clock = FakeTime()
    one = await open_service(database, clock)
    two = await open_service(database, clock)
    inside, release = asyncio.Event(), asyncio.Event()
    original = one.store.timers.game_timer

    async def slow(conn: Any, stored: Any) -> None:
        await original(conn, stored)
        claim = current_claim()
        if claim is not None and claim.used:
            inside.set()
            await release.wait()

    one.store.timers.game_timer = slow  # type: ignore[method-assign]
    try:
        view = await new_game(one)
        await one.place(game_id=view.game_id, user_id=ALICE, point="C3")
        clock.advance(MINUTE)
        (timer,) = await one.store.timers.due_timers(ts(clock.now()))
        first = asyncio.create_task(Clocks(one)._fire(timer))
        await asyncio.wait_for(inside.wait(), 5)
        second = asyncio.create_task(Clocks(two)._fire(timer))
        await asyncio.sleep(0.2)
        release.set()
        assert await first is True
        await second
        assert await time_actions(two, view.game_id) == 1
    finally:
        release.set()
        await one.close()
        await two.close()


async def test_a_crash_between_claim_and_commit_fires_the_timer_again(
    database: str | Path,
) -> None:
    clock = FakeTime()
    service = await open_service(database, clock)
    original = service.store.timers.game_timer

    async def crash(conn: Any, stored: Any) -> None:
        await original(conn, stored)  # claimed, time-out and timer written...
        raise ConnectionResetError("the process died before its commit")

    try:
        view = await new_game(service)
        await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
        clock.advance(MINUTE)
        (timer,) = await service.store.timers.due_timers(ts(clock.now()))
        service.store.timers.game_timer = crash  # type: ignore[method-assign]
        with pytest.raises(ConnectionResetError), claiming(timer, post="time_out"):
            await service.time_out(game_id=view.game_id, deadline=clock.now())
        # Nothing of it was committed: no time-out, no post, the timer as it was.
        assert await time_actions(service, view.game_id) == 0
        assert await service.store.timers.unsent_posts() == []
        assert await service.store.timers.due_timers(ts(clock.now())) == [timer]
        service.store.timers.game_timer = original  # type: ignore[method-assign]
        # The next claim (this process restarted, or another) fires it, once.
        clocks = Clocks(service, sleep=clock.sleep)
        await clocks.start()
        await eventually(lambda: clocks.fired == 1)
        await clocks.stop()
        assert await time_actions(service, view.game_id) == 1
        # Firing the old timer again changes nothing: it was claimed and moved on.
        with claiming(timer) as claim:
            assert await service.time_out(game_id=view.game_id, deadline=clock.now()) is None
        assert not claim.won and await time_actions(service, view.game_id) == 1
    finally:
        await service.close()


async def test_a_stale_claim_writes_nothing(database: str | Path) -> None:
    store = await Store.open(database)
    try:
        game = await store.games.create_game(a_game())
        old = TimerRow("game", game.game_id, game.guild_id, 1.0)  # no such due
        with claiming(old):
            assert await store.games.finish_game(game.game_id, Finish("aborted"), at=200.0) is None
        assert (await store.games.game(game.game_id)).status == "running"  # type: ignore[union-attr]
        with claiming(old), pytest.raises(StaleWriteError):
            await store.games.record_action(
                game.game_id, ActionRow(0, "time", 1, None, 200.0), deadline=220.0
            )
        assert (await store.games.game(game.game_id)).moves == 0  # type: ignore[union-attr]
    finally:
        await store.close()


async def test_a_process_claims_only_the_timers_of_its_shards(database: str | Path) -> None:
    store = await Store.open(database)
    try:
        ours = await store.games.create_game(a_game(guild_id=GUILD, deadline=150.0))
        theirs = await store.games.create_game(a_game(guild_id=SHARD_1_OF_2, deadline=140.0))
        direct = await store.games.create_game(a_game(guild_id=1, deadline=130.0))  # the terminal
        zero, one = Shards.of(2, [0]), Shards.of(2, [1])
        assert [t.ref_id for t in await store.timers.due_timers(200.0, shards=zero)] == [
            direct.game_id, ours.game_id,
        ]  # fmt: skip
        assert [t.ref_id for t in await store.timers.due_timers(200.0, shards=one)] == [
            theirs.game_id
        ]
        assert len(await store.timers.due_timers(200.0)) == 3
        assert await store.timers.next_due(shards=one) == 140.0
        assert zero.owns(None) and not zero.owns(SHARD_1_OF_2) and one.owns(SHARD_1_OF_2)
        with pytest.raises(ValueError, match=r"within 0\.\.1"):
            Shards.of(2, [2])
    finally:
        await store.close()


async def test_a_nearer_deadline_wakes_a_sleeping_claimer(database: str | Path) -> None:
    """A claimer asleep with nothing due (it would sleep MAX_NAP) wakes when a timer comes due
    soon: on PostgreSQL by NOTIFY from another process's connection, on SQLite in-process."""
    sleeper = await GameService.open(database)
    fired: list[Event] = []
    sleeper.subscribe(fired.append)
    clocks = Clocks(sleeper)
    # The writer's clock runs 29.6 s behind: its 30-second move clock runs out in 0.4 s.
    behind = timedelta(seconds=29.6)
    postgres = isinstance(database, str)
    writer = await GameService.open(database, now=lambda: datetime.now(UTC) - behind)
    if not postgres:
        await writer.close()
        writer = sleeper  # one process on SQLite: its own writes wake its clocks
    try:
        await clocks.start()
        await asyncio.sleep(0.1)
        assert clocks._target is None  # nothing due: asleep for MAX_NAP
        assert MAX_NAP >= 300
        started = time.monotonic()
        game = await writer.start_game(
            guild_id=GUILD, channel_id=CHANNEL, pink_id=ALICE, blue_id=BOB,
            options=GameOptions(clock=timedelta(seconds=30)),
        )  # fmt: skip
        if not postgres:
            # SQLite's writer is the sleeper's own service, on the real clock: move its
            # timer to the writer's instant (what the other clock would have written).
            await sleeper.store.execute("UPDATE timers SET due = due - 29.6")
            await sleeper.store.execute("UPDATE games SET deadline = deadline - 29.6")
            sleeper.core.forget_all()
            clocks.wake()
        await eventually(lambda: len(fired) == 1, timeout=10)
        assert time.monotonic() - started < 5
        assert isinstance(fired[0], TimedOut) and fired[0].outcome.aborted
        assert fired[0].outcome.view.game_id == game.game_id
    finally:
        await clocks.stop()
        if writer is not sleeper:
            await writer.close()
        await sleeper.close()


async def test_migration_0008_makes_timers_for_running_games_and_open_challenges(
    database: str | Path, tmp_path: Path
) -> None:
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, folder, ignore=shutil.ignore_patterns("__pycache__"))
    for later in (folder / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"):
        if int(later.name[:4]) >= 8:  # 0008 and the revisions after it
            later.unlink()
    before = await Store.open(database, migrations=folder)
    assert await before.version() == 7  # every revision before 0008
    insert = (
        "INSERT INTO games (game_id, guild_id, channel_id, pink_id, blue_id, width, height, "
        "rules, start, start_dots, clock, rated, status, moves, created, started, deadline, "
        "reminder_sent) VALUES (?, ?, 2, 10, 20, 10, 10, 'standard', 'empty', '', ?, ?, ?, 0, "
        "100, 100, ?, ?)"
    )
    running, over = "running", "over"
    await before.execute(insert, (1, GUILD, 60, False, running, 160.0, False))
    await before.execute(insert, (2, SHARD_1_OF_2, 10800, False, running, 10900.0, False))
    await before.execute(insert, (3, GUILD, 10800, False, running, 10900.0, True))
    await before.execute(insert, (4, GUILD, 60, False, over, None, False))
    await before.execute(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, width, "
        "height, rules, start, colour, rated, status, created, expires) VALUES "
        "(?, 2, 10, 20, 10, 10, 'standard', 'empty', 'random', ?, ?, 100, 700)",
        (GUILD, False, "open"),
    )
    await before.close()
    store = await Store.open(database)
    try:
        assert await store.version() >= 8
        got = {(t.kind, t.ref_id): (t.guild_id, t.due) for t in await store.timers.timers()}
        challenge_id = next(ref for kind, ref in got if kind == "challenge")
        assert got == {
            ("game", 1): (GUILD, 160.0),
            ("game", 2): (SHARD_1_OF_2, 10900.0 - 3600.0),  # its reminder first
            ("game", 3): (GUILD, 10900.0),  # reminded already
            ("challenge", challenge_id): (GUILD, 700.0),
        }
    finally:
        await store.close()
