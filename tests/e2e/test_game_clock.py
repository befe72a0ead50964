"""Game clocks through the real bot and the fake Discord: a 5+5 game whose
clock runs out (a time-out, rule 7.2) across a restart that keeps the exact times, the times in
/board, and the refusal of a game clock that is no game clock.

Time: the service runs on the real clock plus an offset the test moves (``ShiftedClock``, as
the restart tests do), so five minutes pass in an instant."""

from __future__ import annotations

import logging
import time
from datetime import timedelta
from pathlib import Path

import pytest

from tests.e2e.helpers import ShiftedClock, actions, bot_on, make_server, query, start_game
from tests.e2e.test_game import refused
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name

CLOCK_COLUMNS = "gc_total_ms, gc_increment_ms, gc_pink_ms, gc_blue_ms, gc_runner, gc_since_ms"


async def test_a_5_plus_5_game_clock_runs_out_after_a_restart_with_exact_times(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    s = make_server(fake, tmp_path / "db.sqlite3")
    clock = ShiftedClock()
    async with bot_on(fake, s.database, now=clock):
        challenge = await (
            await fake.slash(s.alice, "challenge", channel=s.general, opponent=s.carol, time="1")
        ).reply()
        assert "game clock 1+0 (1 minute each, nothing added a move)" in challenge.content
        game = await start_game(s, s.alice, s.bob, time="5+5")
        clock.offset += timedelta(seconds=20)
        moved = await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        # Pink spent 20 s and got 5 back; Blue's whole five minutes run.
        assert "Game clock 5+5: Pink 4:4" in moved.content and "Blue 5:00" in moved.content
        assert moved.attachments[0].is_png
        ((total, inc, pink, blue, runner, since),) = query(
            s.database, f"SELECT {CLOCK_COLUMNS} FROM games WHERE game_id = ?", (game.game_id,)
        )
        assert (total, inc, blue, runner) == (300_000, 5_000, 300_000, 2)
        assert 284_000 <= pink <= 285_000
        board = await (await fake.slash(s.bob, "board", channel=game.thread)).reply()
        assert "Game clock 5+5" in board.content and board.attachments[0].is_png
    stored = query(s.database, f"SELECT {CLOCK_COLUMNS} FROM games")
    ((deadline,),) = query(
        s.database, "SELECT deadline FROM games WHERE game_id = ?", (game.game_id,)
    )
    assert deadline == pytest.approx((since + blue) / 1000, abs=0.002)
    # The bot is down while Blue's time runs to less than a second before its end.
    clock.offset = timedelta(seconds=deadline - time.time() - 0.8)
    async with bot_on(fake, s.database, now=clock):
        assert query(s.database, f"SELECT {CLOCK_COLUMNS} FROM games") == stored
        await fake.wait_until(
            lambda: any("ran out of time" in m.content for m in fake.posted(game.thread)),
            timeout=5,
            poll=None,
        )
        assert actions(s.database, game.game_id) == [("dot", 1, "E5"), ("time", 2, None)]
        ((pink_after, blue_after, runner_after),) = query(
            s.database,
            "SELECT gc_pink_ms, gc_blue_ms, gc_runner FROM games WHERE game_id = ?",
            (game.game_id,),
        )
        assert (pink_after, blue_after, runner_after) == (pink, 0, 1)
        # Pink plays on alone on her own time.
        alone = await (await fake.slash(s.alice, "move", channel=game.thread, point="D4")).reply()
        assert "plays D4" in alone.content and "Blue 0:00" in alone.content
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


async def test_a_game_clock_that_is_no_game_clock_is_refused_privately(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    s = make_server(fake, tmp_path / "db.sqlite3")
    async with bot_on(fake, s.database):
        junk = await fake.slash(s.alice, "challenge", channel=s.general, opponent=s.bob, time="x")
        await refused(junk, says="write it like 5+5")
        both = await fake.slash(
            s.alice, "challenge", channel=s.general, opponent=s.bob, time="5+5", clock=60
        )
        await refused(both, says="not both")
        computer = await fake.slash(s.alice, "play-computer", channel=s.general, time="0+5")
        await refused(computer, says="at least 10 seconds")
        assert query(s.database, "SELECT COUNT(*) FROM challenges") == [(0,)]
        assert query(s.database, "SELECT COUNT(*) FROM games") == [(0,)]


@pytest.mark.parametrize(
    ("locale", "says", "never"),
    [
        ("en-US", "game clock 5+5 (5 minutes each, 5 seconds more a move)", "a move,"),
        ("pl", "5+5", "na ruch,"),
    ],
)
async def test_play_computer_with_a_game_clock_announces_the_game_clock(
    fake_discord: FakeDiscord, tmp_path: Path, locale: str, says: str, never: str
) -> None:
    """/play-computer time:5+5 is a game clock of 5 minutes and 5 seconds a move, and its
    start message says so, not a move clock."""
    fake = fake_discord
    s = make_server(fake, tmp_path / "db.sqlite3")
    fake.set_guild_locale(s.guild, locale)
    async with bot_on(fake, s.database):
        start = await fake.slash(s.alice, "play-computer", channel=s.general, time="5+5")
        message = await start.reply()
        assert not message.is_ephemeral
        assert says in message.content, message.content
        assert never not in message.content, message.content
    assert query(s.database, "SELECT gc_total_ms, gc_increment_ms FROM games") == [(300_000, 5_000)]
