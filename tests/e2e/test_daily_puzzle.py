"""The puzzle of the day through the real bot and the fake Discord: an admin sets its channel,
the bot posts a puzzle there at once and then once a day (the day moved by the test's clock),
each post once across a restart; a player solves it privately and answers with /puzzle; a
channel the bot cannot post in is logged, not an error; turning it off removes its timer."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest

from ai.puzzles import Puzzle
from tests.e2e.helpers import Server, ShiftedClock, bot_on, make_server, query
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message

__all__ = ["fake_discord"]  # the fixture is used by name

DAY = timedelta(days=1, seconds=5)


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    return make_server(fake_discord, tmp_path / "db.sqlite3")


def days_posted(server: Server, channel: Channel, day: int) -> list[Message]:
    return [m for m in server.fake.posted(channel) if f"Puzzle of the day #{day}**" in m.content]


async def posted_day(server: Server, channel: Channel, day: int) -> Message:
    found: Message = await server.fake.wait_until(
        lambda: next(iter(days_posted(server, channel, day)), None), timeout=20
    )
    return found


def solve_id(message: Message) -> str:
    return next(c for c in message.custom_ids() if c.startswith("dots:daily:solve:"))


async def test_the_puzzle_of_the_day_is_posted_daily_once_and_solved_privately(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    puzzles = fake.create_channel(server.guild, "puzzles")
    clock = ShiftedClock()
    async with bot_on(fake, db, now=clock) as bot:
        refused = await fake.slash(
            server.alice,
            "dots-admin daily-puzzle",
            channel=server.general,
            opts={"channel": puzzles},
        )
        answer = await refused.reply()
        assert answer.is_ephemeral and "Manage Server" in answer.content
        assert query(db, "SELECT count(*) FROM daily_puzzles") == [(0,)]
        handle = await fake.slash(
            server.admin,
            "dots-admin daily-puzzle",
            channel=server.general,
            opts={"channel": puzzles},
        )
        answer = await handle.reply()
        assert answer.is_ephemeral and f"posted in <#{puzzles.id}>" in answer.content
        first = await posted_day(server, puzzles, 1)
        assert "to play and capture" in first.content and first.attachments
        assert solve_id(first) == f"dots:daily:solve:{server.guild.id}:1"
        # A day later the next one, once; the first one's button is refused privately.
        clock.offset += DAY
        assert bot.clocks is not None
        bot.clocks.wake()
        second = await posted_day(server, puzzles, 2)
        late = await (await fake.click(server.alice, first, solve_id(first))).reply()
        assert late.is_ephemeral and "no longer the puzzle of the day" in late.content
        shown = await (await fake.click(server.alice, second, solve_id(second))).reply()
        assert shown.is_ephemeral and "Puzzle #" in shown.content and shown.attachments
        (data,) = query(db, "SELECT data FROM daily_puzzles")[0]
        solution = Puzzle.from_json(json.loads(data)).solutions[0].name
        judged = await (
            await fake.slash(server.alice, "puzzle", channel=server.general, answer=solution)
        ).reply()
        assert judged.is_ephemeral and "Right" in judged.content and "Streak: 1" in judged.content
        again = await (await fake.click(server.alice, second, solve_id(second))).reply()
        assert again.is_ephemeral and "already" in again.content
    # A restart keeps the timer: the third day comes once, the days before are not posted again.
    async with bot_on(fake, db, now=clock) as bot:
        clock.offset += DAY
        assert bot.clocks is not None
        bot.clocks.wake()
        await posted_day(server, puzzles, 3)
        off = await fake.slash(server.admin, "dots-admin daily-puzzle", channel=server.general,
                               off=True)  # fmt: skip
        assert "is off" in (await off.reply()).content
        assert query(db, "SELECT count(*) FROM timers WHERE kind = 'daily'") == [(0,)]
    assert [len(days_posted(server, puzzles, day)) for day in (1, 2, 3)] == [1, 1, 1]
    assert query(db, "SELECT count(*) FROM outbox") == [(0,)]
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


async def test_a_channel_the_bot_cannot_post_in_is_logged_not_an_error(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    closed = fake.create_channel(server.guild, "announcements")
    fake.fail_next("POST", rf"/channels/{closed.id}/messages", status=403, code=50013)
    async with bot_on(fake, db):
        handle = await fake.slash(
            server.admin,
            "dots-admin daily-puzzle",
            channel=server.general,
            opts={"channel": closed},
        )
        assert f"<#{closed.id}>" in (await handle.reply()).content
        await fake.wait_until(
            lambda: (
                query(db, "SELECT day FROM daily_puzzles") == [(1,)]
                and query(db, "SELECT count(*) FROM outbox") == [(0,)]
            ),
            timeout=20,
        )
    assert days_posted(server, closed, 1) == []
    assert any("cannot be posted" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    # The next day is still due (an admin may choose another channel meanwhile).
    assert query(db, "SELECT count(*) FROM timers WHERE kind = 'daily'") == [(1,)]
