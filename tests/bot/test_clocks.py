"""Turn clocks with a fake clock: time-outs, reminders, expiries, races and restarts."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.clocks import Clocks
from bot.games import (
    ChallengeExpired,
    Event,
    GameOptions,
    GameService,
    NotYourTurn,
    Reminder,
    TimedOut,
)
from bot.games.convert import to_ts
from bot.storage.rows import TimerRow
from engine import Game
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

MINUTE = timedelta(minutes=1)


async def actions(service: GameService, game_id: int) -> list[tuple[object, ...]]:
    return await service.store.execute(
        "SELECT kind, player, point FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
    )


async def timer_of(rig: Rig, game_id: int) -> TimerRow | None:
    found = [t for t in await rig.clocks.pending() if (t.kind, t.ref_id) == ("game", game_id)]
    return found[0] if found else None


async def pending(rig: Rig, count: int) -> bool:
    return len(await rig.clocks.pending()) == count


async def eventually_async(check: Callable[[], Awaitable[bool]], timeout: float = 5.0) -> None:
    """Wait (really) until ``await check()`` holds; fail after ``timeout`` seconds."""
    for _ in range(int(timeout / 0.01)):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not reached in time")


def memory_actions(game: Game) -> list[tuple[object, ...]]:
    return [(a.kind, int(a.player), a.point.name if a.point else None) for a in game.actions]


class Rig:
    """A service with clocks on a fake clock, collecting events."""

    def __init__(self, path: Path, clock: FakeTime) -> None:
        self.path, self.clock = path, clock
        self.events: list[Event] = []

    async def __aenter__(self) -> Rig:
        self.service = await open_service(self.path, self.clock)
        self.service.subscribe(self.events.append)
        self.clocks = Clocks(self.service, sleep=self.clock.sleep)
        self.armed_at_start = await self.clocks.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.clocks.stop()
        await self.service.close()

    def of(self, kind: type) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]

    async def advance(self, delta: timedelta, *, settle: int = 0) -> None:
        """Move time, then wait until the woken clocks have gone back to sleep or finished."""
        self.clock.advance(delta)
        await eventually(lambda: self.clock.sleepers >= settle)
        await asyncio.sleep(0.02)


async def test_time_out_ends_the_turn_and_rearms_for_the_other(
    tmp_path: Path,
) -> None:
    async with Rig(tmp_path / "d.sqlite3", FakeTime()) as rig:
        view = await new_game(rig.service)
        await rig.service.place(game_id=view.game_id, user_id=ALICE, point="C3")
        await rig.advance(59 * timedelta(seconds=1), settle=1)
        assert rig.of(TimedOut) == []
        await rig.advance(timedelta(seconds=1), settle=1)
        await eventually(lambda: len(rig.of(TimedOut)) == 1)
        outcome = rig.of(TimedOut)[0].outcome  # type: ignore[attr-defined]
        assert not outcome.is_over and outcome.next_user_id == ALICE
        assert await actions(rig.service, view.game_id) == [("dot", 1, "C3"), ("time", 2, None)]
        assert await timer_of(rig, view.game_id) is not None
        # Pink plays alone, then runs out too: the game is over on time.
        await rig.service.place(game_id=view.game_id, user_id=ALICE, point="D4")
        await rig.advance(MINUTE)
        await eventually(lambda: len(rig.of(TimedOut)) == 2)
        last = rig.of(TimedOut)[1].outcome  # type: ignore[attr-defined]
        assert last.is_over and last.result.reason == "time"
        assert await timer_of(rig, view.game_id) is None
        assert (await rig.service.game(view.game_id)).status == "over"


async def test_a_move_before_the_deadline_moves_the_clock(tmp_path: Path) -> None:
    async with Rig(tmp_path / "d.sqlite3", FakeTime()) as rig:
        view = await new_game(rig.service)
        await rig.advance(timedelta(seconds=50), settle=1)
        await rig.service.place(game_id=view.game_id, user_id=ALICE, point="C3")
        await rig.advance(timedelta(seconds=15), settle=1)  # past Pink's old deadline
        assert rig.of(TimedOut) == []
        await rig.advance(timedelta(seconds=45))
        await eventually(lambda: len(rig.of(TimedOut)) == 1)
        assert (await actions(rig.service, view.game_id))[-1] == ("time", 2, None)


async def test_no_first_move_aborts_the_game(tmp_path: Path) -> None:
    async with Rig(tmp_path / "d.sqlite3", FakeTime()) as rig:
        view = await new_game(rig.service)
        await rig.advance(MINUTE)
        await eventually(lambda: len(rig.of(TimedOut)) == 1)
        outcome = rig.of(TimedOut)[0].outcome  # type: ignore[attr-defined]
        assert outcome.aborted and outcome.result is None
        assert (await rig.service.game(view.game_id)).status == "aborted"
        assert await actions(rig.service, view.game_id) == []


async def test_reminder_once_at_a_third_left_even_across_a_restart(tmp_path: Path) -> None:
    clock = FakeTime()
    path = tmp_path / "d.sqlite3"
    async with Rig(path, clock) as rig:
        view = await new_game(rig.service, options=GameOptions(clock=timedelta(hours=3)))
        short = await new_game(rig.service, pink=33, blue=44)
        await rig.advance(timedelta(hours=1, minutes=59), settle=1)
        assert rig.of(Reminder) == []
        await rig.advance(timedelta(minutes=1), settle=1)
        await eventually(lambda: len(rig.of(Reminder)) == 1)
        reminder = rig.of(Reminder)[0]
        assert reminder.user_id == ALICE and reminder.left == timedelta(hours=1)  # type: ignore[attr-defined]
        assert short.game_id != view.game_id
    async with Rig(path, clock) as again:
        await again.advance(timedelta(minutes=30), settle=1)
        assert again.of(Reminder) == []  # already sent this turn
        await again.service.place(game_id=view.game_id, user_id=ALICE, point="A1")
        await again.advance(timedelta(hours=2), settle=1)
        await eventually(lambda: len(again.of(Reminder)) == 1)
        assert again.of(Reminder)[0].user_id == BOB  # type: ignore[attr-defined]


async def test_unanswered_challenge_expires(tmp_path: Path) -> None:
    async with Rig(tmp_path / "d.sqlite3", FakeTime()) as rig:
        made = await rig.service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=BOB
        )
        await rig.advance(timedelta(minutes=9), settle=1)
        assert rig.of(ChallengeExpired) == []
        await rig.advance(MINUTE)
        await eventually(lambda: len(rig.of(ChallengeExpired)) == 1)
        assert (await rig.service.get_challenge(made.challenge_id)).status == "expired"
        assert await rig.clocks.pending() == []


async def test_restart_rearms_every_clock_and_fires_missed_deadlines(tmp_path: Path) -> None:
    clock = FakeTime()
    path = tmp_path / "d.sqlite3"
    async with Rig(path, clock) as rig:
        ids = []
        for n in range(5):
            view = await new_game(
                rig.service, pink=100 + n, blue=200 + n,
                options=GameOptions(clock=timedelta(minutes=10 * (n + 1))),
            )  # fmt: skip
            await rig.service.place(game_id=view.game_id, user_id=100 + n, point="E5")
            ids.append(view.game_id)
        assert len(await rig.clocks.pending()) == 5
    # Down for 25 minutes: the 10- and 20-minute clocks ran out meanwhile.
    clock.advance(timedelta(minutes=25))
    async with Rig(path, clock) as again:
        assert again.armed_at_start == 5
        await eventually(lambda: len(again.of(TimedOut)) == 2)
        timed = sorted(e.outcome.view.game_id for e in again.of(TimedOut))  # type: ignore[attr-defined]
        assert timed == ids[:2]
        # The two re-armed for Pink, three still waiting.
        await eventually_async(lambda: pending(again, 5))
        await again.advance(timedelta(minutes=30))
        # Games 3-5 run out for Blue; games 1-2 run out for Pink too (at 35 and 45 minutes).
        await eventually(lambda: len(again.of(TimedOut)) == 7)
        await eventually_async(lambda: pending(again, 3))
        for game_id in ids:
            view = await again.service.game(game_id)
            assert memory_actions(view.game) == [
                (a, p, pt) for a, p, pt in await actions(again.service, game_id)
            ]


@pytest.mark.parametrize("move_first", [True, False])
async def test_a_move_racing_its_own_time_out_has_one_outcome(
    tmp_path: Path, move_first: bool
) -> None:
    clock = FakeTime()
    path = tmp_path / "d.sqlite3"
    service = await open_service(path, clock)
    view = await new_game(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
    deadline = (await service.game(view.game_id)).deadline
    assert deadline is not None
    clock.advance(MINUTE)  # Blue's deadline has come, and Blue moves just now
    move = service.place(game_id=view.game_id, user_id=BOB, point="D4")
    timeout = service.time_out(game_id=view.game_id, deadline=deadline)
    if move_first:
        placed, timed = await asyncio.gather(move, timeout, return_exceptions=True)
        assert timed is None and not isinstance(placed, BaseException)
    else:
        timed, placed = await asyncio.gather(timeout, move, return_exceptions=True)
        assert isinstance(placed, NotYourTurn) and timed is not None
    in_memory = memory_actions((await service.game(view.game_id)).game)
    in_db = [tuple(r) for r in await actions(service, view.game_id)]
    assert in_memory == in_db and len(in_db) == 2
    await service.close()
    again = await open_service(path, clock)
    assert memory_actions((await again.game(view.game_id)).game) == in_db
    await again.close()


async def test_a_move_racing_the_clock_task(tmp_path: Path) -> None:
    async with Rig(tmp_path / "d.sqlite3", FakeTime()) as rig:
        view = await new_game(rig.service)
        await rig.service.place(game_id=view.game_id, user_id=ALICE, point="C3")
        rig.clock.advance(MINUTE)  # the clock task wakes while Blue's move arrives
        try:
            await rig.service.place(game_id=view.game_id, user_id=BOB, point="D4")
            moved = True
        except NotYourTurn:
            moved = False
        await asyncio.sleep(0.05)
        rows = await actions(rig.service, view.game_id)
        assert len(rows) == 2 and (rows[1][0] == "dot") == moved
        assert len(rig.of(TimedOut)) == (0 if moved else 1)
        assert memory_actions((await rig.service.game(view.game_id)).game) == [
            tuple(r) for r in rows
        ]


class MovesWhenRead(FakeTime):
    """A fake clock that, once armed, moves on the next turn of the event loop after it is
    read: the clock moving between the clocks' reading it and their falling asleep."""

    def __init__(self) -> None:
        super().__init__()
        self.jump: timedelta | None = None

    def now(self) -> datetime:
        if self.jump is not None:
            asyncio.get_running_loop().call_soon(self.advance, self.jump)
            self.jump = None
        return super().now()


async def test_a_clock_that_moves_as_the_clocks_fall_asleep_still_wakes_them(
    tmp_path: Path,
) -> None:
    clock = MovesWhenRead()
    service = await open_service(tmp_path / "d.sqlite3", clock)
    clocks = Clocks(service, sleep=clock.sleep)
    # A nap until a minute from now: the clock moves past it as the nap begins.
    clock.jump = MINUTE
    await asyncio.wait_for(clocks._sleep_until(to_ts(clock.current + MINUTE)), timeout=2)
    assert clock.jump is None and clock.sleepers == 0
    await service.close()


async def test_stop_cancels_tasks_but_keeps_deadlines(tmp_path: Path) -> None:
    clock = FakeTime()
    async with Rig(tmp_path / "d.sqlite3", clock) as rig:
        await new_game(rig.service)
        assert rig.clocks.running and len(await rig.clocks.pending()) == 1
        await rig.clocks.stop()
        assert not rig.clocks.running
        assert len(await rig.clocks.pending()) == 1


async def test_real_sleep_fires_a_past_deadline(tmp_path: Path) -> None:
    service = await GameService.open(tmp_path / "d.sqlite3")
    clocks = Clocks(service)
    fired: list[Event] = []
    service.subscribe(fired.append)
    view = await service.start_game(guild_id=GUILD, channel_id=CHANNEL, pink_id=1, blue_id=2)
    await service.place(game_id=view.game_id, user_id=1, point="A1")
    # Move the stored deadline into the past, as if the bot had been down.
    await service.store.execute("UPDATE games SET deadline = deadline - 120")
    await service.store.execute("UPDATE timers SET due = due - 120")
    fresh = await GameService.open(tmp_path / "d.sqlite3")
    fresh.subscribe(fired.append)
    await clocks.stop()
    await service.close()
    clocks = Clocks(fresh)
    await clocks.start()
    await eventually(lambda: len(fired) == 1)
    await clocks.stop()
    await fresh.close()


async def test_no_reminder_for_a_deadline_that_passed_while_down(
    tmp_path: Path,
) -> None:
    clock = FakeTime()
    path = tmp_path / "d.sqlite3"
    async with Rig(path, clock) as rig:
        view = await new_game(rig.service, options=GameOptions(clock=timedelta(hours=3)))
        await rig.service.place(game_id=view.game_id, user_id=ALICE, point="E5")
    # Down for four hours: Blue's 3-hour clock ran out meanwhile, its reminder never sent.
    clock.advance(timedelta(hours=4))
    async with Rig(path, clock) as again:
        await eventually(lambda: len(again.of(TimedOut)) == 1)
        await asyncio.sleep(0.02)
        assert again.of(Reminder) == []
        # The service refuses such a reminder too, whoever asks.
        deadline = (await again.service.game(view.game_id)).deadline
        assert deadline is not None
        await again.clocks.stop()
        clock.advance(timedelta(hours=3, seconds=1))
        assert not await again.service.remind(game_id=view.game_id, deadline=deadline)
