"""The outbox: the post a fired timer owes is committed with its change, survives a
process that dies before (or just after) posting it, and is shown once.

Service-level tests run on both databases; the end-to-end ones drive the real bot against the
project's fake Discord, which honours ``nonce`` with ``enforce_nonce`` as Discord does.
"""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot import outbox as outbox_module
from bot.clocks import Clocks
from bot.cogs import events as events_cog
from bot.computer_turns import ComputerTurns
from bot.games import (
    ChallengeExpired,
    ComputerMoved,
    Event,
    GameOptions,
    Reminder,
    Thinker,
    TimedOut,
)
from bot.outbox import Outbox, delivering, next_nonce, nonce
from tests.bot.service_fakes import (
    ALICE,
    CHANNEL,
    GUILD,
    FakeTime,
    eventually,
    new_game,
    open_service,
)
from tests.e2e.helpers import ShiftedClock, bot_on, make_server, query, start_game
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name

MINUTE = timedelta(minutes=1)


class Deliverer:
    """An adapter stand-in: delivers each event inside ``delivering`` and notes its nonces."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox
        self.delivered: list[tuple[type, int | None, list[str]]] = []

    async def __call__(self, event: Event) -> None:
        kinds = {
            TimedOut: "time_out", Reminder: "reminder", ChallengeExpired: "expired",
            ComputerMoved: "computer",
        }  # fmt: skip
        kind = kinds.get(type(event))
        if kind is None:
            return
        async with delivering(self.outbox, kind) as post_id:
            nonces = [n for n in (next_nonce(), next_nonce()) if n is not None]
        self.delivered.append((type(event), post_id, nonces))


async def test_each_fired_timer_commits_its_post_with_its_change(database: str | Path) -> None:
    clock = FakeTime()
    service = await open_service(database, clock)
    events: list[Event] = []
    service.subscribe(events.append)
    clocks = Clocks(service, sleep=clock.sleep, outbox=True)
    try:
        await service.challenge(
            guild_id=GUILD, channel_id=CHANNEL, challenger_id=ALICE, opponent_id=33
        )
        long = await new_game(service, options=GameOptions(clock=timedelta(hours=3)))
        short = await new_game(service, pink=44, blue=55)
        await service.place(game_id=short.game_id, user_id=44, point="C3")
        await clocks.start()
        clock.advance(timedelta(minutes=10))  # the short clock and the challenge run out
        await eventually(lambda: clocks.fired == 2)
        # The long clock's reminder; Pink of the short game runs out too (it is over).
        clock.advance(timedelta(hours=2))
        await eventually(lambda: clocks.fired == 4)
        posts = await service.store.timers.unsent_posts()
        assert sorted((p.kind, p.ref_id, p.seq) for p in posts) == sorted([
            ("time_out", short.game_id, 2), ("time_out", short.game_id, 3), ("expired", 1, None),
            ("reminder", long.game_id, 0),
        ])  # fmt: skip
        # Each event published is the one its row stands for (nobody delivered them).
        assert sorted(type(e).__name__ for e in events) == [
            "ChallengeExpired", "Reminder", "TimedOut", "TimedOut",
        ]  # fmt: skip
    finally:
        await clocks.stop()
        await service.close()


async def test_unsent_posts_survive_a_restart_and_are_delivered_once(
    database: str | Path,
) -> None:
    clock = FakeTime()
    service = await open_service(database, clock)
    clocks = Clocks(service, sleep=clock.sleep, outbox=True)
    view = await new_game(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
    await clocks.start()
    clock.advance(MINUTE)
    await eventually(lambda: clocks.fired == 1)
    # The process dies before anything is posted: the row is all that is left.
    await clocks.stop()
    await service.close()

    again = await open_service(database, clock)
    outbox = Outbox(again)
    deliverer = Deliverer(outbox)
    again.subscribe(deliverer)
    try:
        ((post,),) = [await outbox.pending()]
        assert await outbox.start() == 1
        assert deliverer.delivered == [
            (TimedOut, post.post_id, [nonce(post.post_id, 1), nonce(post.post_id, 2)])
        ]
        assert await outbox.pending() == []
        # Started again: nothing more to send.
        assert await outbox.start() == 0
        assert len(deliverer.delivered) == 1
    finally:
        await again.close()


async def test_a_post_the_computer_inherits_is_not_delivered_twice(database: str | Path) -> None:
    """A task started while a time-out was being fired (the computer's turn) inherits its
    claim: it delivers nothing of that post, which belongs to the time-out's listener."""
    clock = FakeTime()
    service = await open_service(database, clock)
    clocks = Clocks(service, sleep=clock.sleep, outbox=True)
    outbox = Outbox(service)
    seen: list[int | None] = []

    async def timed_out(event: Event) -> None:
        if isinstance(event, TimedOut):
            seen.append(outbox_module.current_post("time_out"))

            async def other_task() -> None:
                seen.append(outbox_module.current_post("reminder"))

            await asyncio.create_task(other_task())

    service.subscribe(timed_out)
    try:
        view = await new_game(service)
        await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
        await clocks.start()
        clock.advance(MINUTE)
        await eventually(lambda: len(seen) == 2)
        ((post,),) = [await outbox.pending()]
        assert seen == [post.post_id, None]
    finally:
        await clocks.stop()
        await service.close()


async def test_the_computer_s_move_owes_its_post_until_delivered(database: str | Path) -> None:
    """The computer's move and its post are committed together; a crash before the post
    leaves the row, and the next start delivers that move once."""
    clock = FakeTime()
    service = await open_service(database, clock)
    service.thinker = Thinker(processes=False, iterations=10)
    moved: list[Event] = []
    service.subscribe(lambda e: moved.append(e) if isinstance(e, ComputerMoved) else None)
    turns = ComputerTurns(service, outbox=True)
    await turns.start()
    view = await service.start_computer_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, level="easy",
        options=GameOptions(colour="blue"),
    )  # fmt: skip
    await eventually(lambda: len(moved) == 1)
    await turns.stop()
    ((post,),) = [await service.store.timers.unsent_posts()]
    assert (post.kind, post.ref_id, post.seq) == ("computer", view.game_id, 1)
    await service.close()  # nobody posted it: the process died first

    again = await open_service(database, clock)
    again.thinker = Thinker(processes=False, iterations=10)
    outbox = Outbox(again)
    deliverer = Deliverer(outbox)
    again.subscribe(deliverer)
    try:
        assert await outbox.start() == 1
        assert [(kind, post_id) for kind, post_id, _ in deliverer.delivered] == [
            (ComputerMoved, post.post_id)
        ]
        assert await outbox.pending() == []
        # A move of the computer delivered at once leaves nothing behind.
        turns = ComputerTurns(again, outbox=True)
        await turns.start()
        await again.place(game_id=view.game_id, user_id=ALICE, point="E5")
        await eventually(lambda: len(deliverer.delivered) == 2)
        await turns.stop()
        assert deliverer.delivered[1][0] is ComputerMoved and deliverer.delivered[1][1]
        assert await outbox.pending() == []
    finally:
        await again.close()


async def test_a_moot_reminder_is_dropped_not_sent(database: str | Path) -> None:
    clock = FakeTime()
    service = await open_service(database, clock)
    clocks = Clocks(service, sleep=clock.sleep, outbox=True)
    view = await new_game(service, options=GameOptions(clock=timedelta(hours=3)))
    await clocks.start()
    clock.advance(timedelta(hours=2))
    await eventually(lambda: clocks.fired == 1)
    await clocks.stop()
    # The player moved before the reminder was posted (then the bot restarted).
    await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
    outbox = Outbox(service)
    deliverer = Deliverer(outbox)
    service.subscribe(deliverer)
    try:
        assert len(await outbox.pending()) == 1
        assert await outbox.start() == 0
        assert deliverer.delivered == [] and await outbox.pending() == []
    finally:
        await service.close()


# -- end to end: the real bot, the fake Discord ---------------------------------------------


class Hang:
    """Stands for a process killed at that point: the coroutine never returns."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()
        self.task: asyncio.Task[Any] | None = None

    async def __call__(self, *_: Any, **__: Any) -> None:
        self.task = asyncio.current_task()
        self.reached.set()
        await asyncio.Event().wait()


@pytest.mark.parametrize("killed", ["before-posting", "after-posting"])
async def test_a_time_out_is_announced_once_across_a_crash(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    killed: str,
) -> None:
    """The time-out is committed; the bot dies before its post, or after the post and before
    forgetting the outbox row. Restarted, the bot posts it: the thread shows it once."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    clock = ShiftedClock()
    hang = Hang()
    with monkeypatch.context() as patch:
        async with bot_on(fake, db, now=clock) as first:
            game = await start_game(s, s.carol, s.admin, clock=30)
            await (await fake.slash(s.carol, "move", channel=game.thread, point="C3")).reply()
            await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
            if killed == "before-posting":
                patch.setattr(events_cog, "announce", hang)
            else:
                patch.setattr(Outbox, "sent", hang)
            ((deadline,),) = query(
                db, "SELECT deadline FROM games WHERE game_id = ?", (game.game_id,)
            )
            clock.offset = timedelta(seconds=deadline - time.time() + 0.1)
            assert first.clocks is not None
            first.clocks.wake()
            await asyncio.wait_for(hang.reached.wait(), 10)
        assert hang.task is not None
        hang.task.cancel()  # what was left of the killed process
    ran_out = [m for m in fake.posted(game.thread) if "ran out of time" in m.content]
    assert len(ran_out) == (0 if killed == "before-posting" else 1)
    assert query(db, "SELECT kind FROM outbox") == [("time_out",)]
    assert query(db, "SELECT kind, seq FROM actions WHERE kind = 'time'") == [("time", 1)]

    async with bot_on(fake, db, now=clock):
        await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
        await asyncio.sleep(0.2)
        ran_out = [m for m in fake.posted(game.thread) if "ran out of time" in m.content]
        assert len(ran_out) == 1
    # One time-out in the database, whatever happened to the posts.
    assert query(db, "SELECT COUNT(*) FROM actions WHERE kind = 'time'") == [(1,)]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_the_fake_discord_returns_the_message_a_nonce_already_made(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Discord's behaviour the outbox relies on: a second post with the same nonce and
    ``enforce_nonce`` returns the first message; without ``enforce_nonce`` it posts again; a
    nonce over 25 characters is refused."""
    import discord  # noqa: PLC0415 (the adapter's library, for this one test)

    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db) as bot:
        channel = bot.get_partial_messageable(s.general.id, guild_id=s.guild.id)
        first = await channel.send("once", nonce="d1.1")  # discord.py sets enforce_nonce
        again = await channel.send("once", nonce="d1.1")
        assert again.id == first.id
        other = await channel.send("twice", nonce="d1.2")
        assert other.id != first.id
        plain = await bot.http.send_message(
            s.general.id, params=discord.http.handle_message_parameters(content="twice")
        )
        assert int(plain["id"]) not in (first.id, other.id)
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("long", nonce="x" * 26)
        assert refused.value.code == 50035
    assert [m.content for m in fake.posted(s.general)] == ["once", "twice", "twice"]


class SlowDeliverer(Deliverer):
    """A deliverer whose deliveries wait for ``release`` inside ``delivering``."""

    def __init__(self, outbox: Outbox) -> None:
        super().__init__(outbox)
        self.release = asyncio.Event()
        self.started = asyncio.Event()

    async def __call__(self, event: Event) -> None:
        async with delivering(self.outbox, "time_out") as post_id:
            self.started.set()
            await self.release.wait()
        self.delivered.append((type(event), post_id, []))


@pytest.mark.parametrize("finishes_in_time", [True, False])
async def test_closing_waits_for_a_delivery_on_its_way_or_keeps_it(
    database: str | Path, finishes_in_time: bool
) -> None:
    """``drain`` (the bot's close, before the database closes) waits for the posts on their
    way; one still going after the wait is stopped and stays in the outbox for the next start
    instead of touching a closed database or a closed HTTP session."""
    clock = FakeTime()
    service = await open_service(database, clock)
    clocks = Clocks(service, sleep=clock.sleep, outbox=True)
    view = await new_game(service)
    await service.place(game_id=view.game_id, user_id=ALICE, point="C3")
    await clocks.start()
    clock.advance(MINUTE)
    await eventually(lambda: clocks.fired == 1)
    await clocks.stop()
    outbox = Outbox(service)
    deliverer = SlowDeliverer(outbox)
    # Each delivery in a task of its own, as discord.py runs each listener.
    deliveries: list[asyncio.Task[None]] = []
    service.subscribe(lambda event: deliveries.append(asyncio.create_task(deliverer(event))))
    try:
        await outbox.start()
        await asyncio.wait_for(deliverer.started.wait(), 5)
        if finishes_in_time:
            asyncio.get_running_loop().call_later(0.05, deliverer.release.set)
            await outbox.drain(timeout=5)
            assert await outbox.pending() == []
            assert len(deliverer.delivered) == 1
        else:
            await outbox.drain(timeout=0.05)
            assert all(task.cancelled() for task in deliveries)
            assert deliverer.delivered == []
            assert len(await outbox.pending()) == 1  # kept for the next start
    finally:
        deliverer.release.set()
        await asyncio.gather(*deliveries, return_exceptions=True)
        await service.close()


async def test_closing_under_slow_posts_stops_sending_and_keeps_them_for_the_next_start(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Three clocks run out at once while Discord answers posts slowly, and the bot closes
    before their posts are through (after its short wait): no traceback, nothing sent on a
    closed session; the posts stay in the outbox and the next start shows each once."""
    caplog.set_level(logging.INFO)
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    clock = ShiftedClock()
    monkeypatch.setattr(outbox_module, "DRAIN_WAIT", 0.2)
    async with bot_on(fake, db, now=clock) as first:
        games = [
            await start_game(s, pink, blue, clock=30)
            for pink, blue in ((s.alice, s.bob), (s.carol, s.admin), (s.bob, s.carol))
        ]
        for game, pink in zip(games, (s.alice, s.carol, s.bob), strict=True):
            await (await fake.slash(pink, "move", channel=game.thread, point="C3")).reply()
        fake.faults.slow("POST", r"/channels/\d+/messages$", 4)
        clock.offset = timedelta(seconds=31)
        assert first.clocks is not None
        first.clocks.wake()
        await fake.wait_until(
            lambda: query(db, "SELECT COUNT(*) FROM actions WHERE kind = 'time'") == [(3,)]
        )
        await asyncio.sleep(0.3)  # the posts are on their way
    await asyncio.sleep(2)  # what the closed bot's tasks would still try
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert logged == [], [r.getMessage() for r in logged]
    assert "Session is closed" not in caplog.text
    assert query(db, "SELECT COUNT(*) FROM outbox") == [(3,)]

    fake.faults.clear()
    async with bot_on(fake, db, now=clock):
        await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
        await asyncio.sleep(0.2)
        for game in games:
            ran_out = [m for m in fake.posted(game.thread) if "ran out of time" in m.content]
            assert len(ran_out) == 1, [m.content for m in fake.posted(game.thread)]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
