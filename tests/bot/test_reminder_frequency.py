"""Turn reminders at the frequency each player chose (``/notify reminders:``), on both
databases with a fake clock: every so many hours from the turn's start, never at or after the
deadline, never when off, once at a third left by default; each player's own choice on their
turn; each reminder sent once across restarts and between two processes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.clocks import Clocks
from bot.games import Event, GameOptions, GameService, Reminder, TimedOut
from bot.games.convert import remind_at, to_ts
from bot.storage import Store
from bot.storage.rows import ActionRow
from tests.bot.service_fakes import ALICE, BOB, FakeTime, eventually, new_game, open_service
from tests.bot.test_storage import a_game, store_fixture

__all__ = ["store_fixture"]  # the fixture is used by name

HOUR = timedelta(hours=1)
DAY_CLOCK = GameOptions(clock=timedelta(days=1))


class Reminded:
    """Services on one database with their clocks on one fake clock, and the reminders and
    time-outs all of them published."""

    def __init__(self, database: str | Path, clock: FakeTime) -> None:
        self.database, self.clock = database, clock
        self.events: list[Event] = []
        self.services: list[GameService] = []
        self.clocks: list[Clocks] = []

    async def open(self) -> GameService:
        """One more service (a process) with its clocks running."""
        service = await open_service(self.database, self.clock)
        service.subscribe(self.events.append)
        clocks = Clocks(service, sleep=self.clock.sleep)
        await clocks.start()
        self.services.append(service)
        self.clocks.append(clocks)
        return service

    async def close(self) -> None:
        """Stop every clock and close every service (a restart, or the test's end)."""
        for clocks in self.clocks:
            await clocks.stop()
        for service in self.services:
            await service.close()
        self.services, self.clocks = [], []

    def reminders(self) -> list[tuple[int, timedelta]]:
        """Who was reminded, with the time left then, in order."""
        return [(e.user_id, e.left) for e in self.events if isinstance(e, Reminder)]

    async def advance(self, delta: timedelta) -> None:
        """Move time, then let the woken clocks fire and go back to sleep."""
        self.clock.advance(delta)
        await eventually(lambda: self.clock.sleepers >= len(self.clocks))
        await asyncio.sleep(0.05)


@pytest.fixture
async def rig(database: str | Path) -> AsyncIterator[Reminded]:
    rig = Reminded(database, FakeTime())
    yield rig
    await rig.close()


async def test_every_six_hours_on_a_day_clock_reminds_at_6_12_18_hours_only(
    rig: Reminded,
) -> None:
    service = await rig.open()
    await service.set_reminders(user_id=ALICE, every=6 * HOUR)
    await new_game(service, options=DAY_CLOCK)
    await rig.advance(6 * HOUR - timedelta(minutes=1))
    assert rig.reminders() == []
    await rig.advance(timedelta(minutes=1))
    await eventually(lambda: len(rig.reminders()) == 1)
    await rig.advance(6 * HOUR)
    await eventually(lambda: len(rig.reminders()) == 2)
    await rig.advance(6 * HOUR)
    await eventually(lambda: len(rig.reminders()) == 3)
    assert rig.reminders() == [(ALICE, 18 * HOUR), (ALICE, 12 * HOUR), (ALICE, 6 * HOUR)]
    await rig.advance(6 * HOUR - timedelta(seconds=1))
    assert len(rig.reminders()) == 3  # nothing at 24 h: that is the deadline
    await rig.advance(timedelta(seconds=1))
    await eventually(lambda: any(isinstance(e, TimedOut) for e in rig.events))
    assert len(rig.reminders()) == 3


async def test_reminders_off_never_remind(rig: Reminded) -> None:
    service = await rig.open()
    await service.set_reminders(user_id=ALICE, every=timedelta(0))
    await new_game(service, options=DAY_CLOCK)
    for _ in range(23):
        await rig.advance(HOUR)
    assert rig.reminders() == []
    await rig.advance(HOUR)
    await eventually(lambda: any(isinstance(e, TimedOut) for e in rig.events))
    assert rig.reminders() == []


async def test_by_default_and_when_chosen_again_once_at_a_third_left(rig: Reminded) -> None:
    service = await rig.open()
    assert await service.reminders(user_id=ALICE) is None  # the default: once
    await service.set_reminders(user_id=BOB, every=6 * HOUR)
    await service.set_reminders(user_id=BOB, every=None)  # back to once
    game = await new_game(service, options=DAY_CLOCK)
    await rig.advance(16 * HOUR - timedelta(minutes=1))
    assert rig.reminders() == []
    await rig.advance(timedelta(minutes=1))
    await eventually(lambda: rig.reminders() == [(ALICE, 8 * HOUR)])
    await service.place(game_id=game.game_id, user_id=ALICE, point="C3")
    for _ in range(23):
        await rig.advance(HOUR)
    # Bob's reminder is sent by its timer's task: on a loaded machine it may still be on its way.
    await eventually(lambda: rig.reminders() == [(ALICE, 8 * HOUR), (BOB, 8 * HOUR)])


async def test_each_player_is_reminded_at_their_own_frequency_on_their_turn(
    rig: Reminded,
) -> None:
    service = await rig.open()
    await service.set_reminders(user_id=ALICE, every=6 * HOUR)
    await service.set_reminders(user_id=BOB, every=12 * HOUR)
    game = await new_game(service, options=DAY_CLOCK)
    await rig.advance(6 * HOUR)  # Pink: reminded at 6 h
    await eventually(lambda: rig.reminders() == [(ALICE, 18 * HOUR)])
    await rig.advance(HOUR)
    await service.place(game_id=game.game_id, user_id=ALICE, point="C3")
    await rig.advance(12 * HOUR - timedelta(minutes=1))
    assert len(rig.reminders()) == 1
    await rig.advance(timedelta(minutes=1))  # Blue: 12 h into their turn, once only
    await eventually(lambda: rig.reminders()[1:] == [(BOB, 12 * HOUR)])
    await rig.advance(HOUR)
    await service.place(game_id=game.game_id, user_id=BOB, point="D4")
    await rig.advance(6 * HOUR)  # Pink's turn again: every 6 hours from its start
    await eventually(lambda: rig.reminders()[2:] == [(ALICE, 18 * HOUR)])
    assert [who for who, _left in rig.reminders()] == [ALICE, BOB, ALICE]


async def test_a_restart_and_a_second_process_send_each_reminder_once(rig: Reminded) -> None:
    service = await rig.open()
    await service.set_reminders(user_id=ALICE, every=6 * HOUR)
    game = await new_game(service, options=DAY_CLOCK)
    await rig.advance(6 * HOUR)
    await eventually(lambda: len(rig.reminders()) == 1)
    await rig.close()
    # Restarted as two processes on the same database: the 6 h reminder is not sent again,
    # and the 12 h one is sent by one of them only.
    one, two = await rig.open(), await rig.open()
    await rig.advance(timedelta(minutes=30))
    assert len(rig.reminders()) == 1
    await rig.advance(6 * HOUR - timedelta(minutes=30))
    await eventually(lambda: len(rig.reminders()) == 2)
    await asyncio.sleep(0.1)
    assert rig.reminders() == [(ALICE, 18 * HOUR), (ALICE, 12 * HOUR)]
    stored = await two.store.games.game(game.game_id)
    assert stored is not None and stored.reminded_at == pytest.approx(to_ts(rig.clock.now()))
    # Asking again by hand (a timer fired twice) sends nothing more.
    deadline = (await one.game(game.game_id)).deadline
    assert deadline is not None
    assert not await one.remind(game_id=game.game_id, deadline=deadline)
    assert not await two.remind(game_id=game.game_id, deadline=deadline)
    assert len(rig.reminders()) == 2


async def test_reminders_out_of_range_are_refused(rig: Reminded) -> None:
    service = await rig.open()
    with pytest.raises(ValueError, match="out of range"):
        await service.set_reminders(user_id=ALICE, every=timedelta(minutes=5))
    assert await service.reminders(user_id=ALICE) is None


async def test_every_write_that_starts_a_turn_copies_the_movers_choice(store: Store) -> None:
    await store.settings.set_remind_every(10, 6 * 3600, at=0)  # Pink
    await store.settings.set_remind_every(20, 0, at=0)  # Blue
    game = await store.games.create_game(a_game(clock=86400, deadline=86500.0))
    assert (game.remind_every, game.reminded_at) == (6 * 3600, None)
    reminded = await store.games.mark_reminded(game.game_id, 86500.0, at=21700.0)
    assert reminded is not None and reminded.reminded_at == 21700.0
    moved, _ = await store.games.record_action(
        game.game_id, ActionRow(0, "dot", 1, "C3", 30000.0), deadline=116400.0, mover=20
    )
    assert (moved.remind_every, moved.reminded_at) == (0, None)
    back = await store.games.take_back(game.game_id, moves=1, keep=0, deadline=126400.0, mover=10)
    assert back is not None and (back.remind_every, back.reminded_at) == (6 * 3600, None)
    # The next reminder of a turn follows the one before, never the same one twice.
    first = await store.games.mark_reminded(game.game_id, 126400.0, at=61600.0)
    assert first is not None
    assert await store.games.mark_reminded(game.game_id, 126400.0, at=61601.0) is None
    again = await store.games.mark_reminded(game.game_id, 126400.0, at=83200.0, after=61600.0)
    assert again is not None and again.reminded_at == 83200.0
    assert (
        await store.games.mark_reminded(game.game_id, 126400.0, at=83201.0, after=61600.0) is None
    )


def test_on_a_game_clock_reminders_count_from_the_runners_start() -> None:
    # A 3-day game clock, Blue's running since t=1000 s with 2 days left: every 12 hours
    # from 1000 s, each before the deadline; the first no later than a day before it.
    row = a_game(clock=3 * 86400, deadline=1000.0 + 2 * 86400, remind_every=12 * 3600)
    row.gc_since_ms, row.gc_runner = 1_000_000, 2
    assert remind_at(row) == datetime.fromtimestamp(1000.0 + 12 * 3600, UTC)
    row.reminded_at = 1000.0 + 36 * 3600
    assert remind_at(row) is None  # 48 h is the deadline itself
    row.remind_every = 3 * 86400  # longer than the turn: once, a third of the clock before
    row.reminded_at = None
    assert remind_at(row) == datetime.fromtimestamp(1000.0 + 2 * 86400 - 86400, UTC)
