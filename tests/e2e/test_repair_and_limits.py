"""Through the real bot and the strict fake Discord: the start-up repair of half-started games,
confirmations for one position, exports, and per-user limits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.cogs import start_repair
from tests.e2e.helpers import (
    Server,
    ShiftedClock,
    actions,
    bot_on,
    make_server,
    query,
    quiet,
    start_game,
)
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Message

__all__ = ["fake_discord"]  # the fixture is used by name


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob, carol and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """ERROR records (a bug, by the project's rule) and records with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


# -- a start a hard kill interrupted is finished at start-up --------------------------


def killed_after(target: Any, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``target.name`` does its work, then the process "dies": the handler stops there, as
    under a hard kill (nothing after it runs; CancelledError is not an error to log)."""
    real = getattr(target, name)

    async def then_die(*args: Any, **kwargs: Any) -> Any:
        await real(*args, **kwargs)
        raise asyncio.CancelledError

    monkeypatch.setattr(target, name, then_die)


def execute(database: Path, sql: str) -> None:
    """Change the bot's database while the bot is down (what a kill left)."""
    with contextlib.closing(sqlite3.connect(database)) as con, con:
        con.execute(sql)


async def start_killed(
    server: Server, kill: str, monkeypatch: pytest.MonkeyPatch
) -> Message | None:
    """A bot starts a game (a challenge accepted, or one against the computer) and is "killed"
    at ``kill``; the challenge message, or None for a game against the computer."""
    fake, db = server.fake, server.database
    async with bot_on(fake, db) as first:
        with monkeypatch.context() as patch:
            if kill.startswith("after-accept"):
                killed_after(first.service, "accept", patch)
            elif kill == "after-thread":
                killed_after(first.service, "set_game_thread", patch)
            else:
                killed_after(first.service, "start_computer_game", patch)
            if kill.startswith("computer"):
                start = await fake.slash(
                    server.alice, "play-computer", channel=server.general, colour="pink"
                )
                challenge = None
            else:
                start = await fake.slash(
                    server.alice, "challenge", channel=server.general, opponent=server.bob,
                    colour="pink",
                )  # fmt: skip
                challenge = await start.reply()
                await quiet(db)
                accept = next(c for c in challenge.custom_ids() if ":accept:" in c)
                await fake.click(server.bob, challenge, accept)
            await fake.wait_until(lambda: query(db, "SELECT count(*) FROM games") == [(1,)])
            await asyncio.sleep(0.3)  # what else the handler would have done (nothing)
    return challenge


@pytest.mark.parametrize(
    "kill",
    ["after-accept", "after-accept-no-message-id", "after-thread", "computer-after-start"],
)
async def test_a_start_interrupted_by_a_kill_is_finished_at_start_up(
    server: Server,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    kill: str,
) -> None:
    fake, db = server.fake, server.database
    challenge = await start_killed(server, kill, monkeypatch)
    ((game_id, thread_id, message_id),) = query(
        db, "SELECT game_id, thread_id, message_id FROM games"
    )
    assert message_id is None  # no first picture
    assert (thread_id is not None) == (kill == "after-thread")
    if kill == "after-accept-no-message-id":
        execute(db, "UPDATE challenges SET message_id = NULL")

    async with bot_on(fake, db):
        await quiet(db)
        ((thread_id, message_id),) = query(db, "SELECT thread_id, message_id FROM games")
        thread = fake.channels[thread_id]
        (opening,) = fake.posted(thread)
        assert opening.id == message_id and "The game starts" in opening.content
        assert opening.attachments and opening.attachments[0].is_png
        if challenge is not None:
            shown = fake.messages[challenge.id]
            assert f"Game #{game_id}" in shown.content and "accepted" in shown.content
            assert all(b.get("disabled") for b in shown.buttons())
            assert query(db, "SELECT message_id, answer_shown FROM challenges") == [
                (challenge.id, 1)
            ]
        # The game is played on in its thread.
        move = await (await fake.slash(server.alice, "move", channel=thread, point="E5")).reply()
        assert "plays E5" in move.content
    threads, posts = len(fake.threads()), len(fake.posted(thread))

    async with bot_on(fake, db):  # nothing left to finish: nothing posted again
        await asyncio.sleep(0.5)
        assert (len(fake.threads()), len(fake.posted(thread))) == (threads, posts)
    assert errors(caplog) == []


async def test_an_open_challenge_without_its_message_id_gets_it_at_start_up(
    server: Server,
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        challenge = await (
            await fake.slash(server.alice, "challenge", channel=server.general, opponent=server.bob)
        ).reply()
        await quiet(db)
    execute(db, "UPDATE challenges SET message_id = NULL")  # killed before it was recorded
    async with bot_on(fake, db):
        await quiet(db)
        assert query(db, "SELECT message_id FROM challenges") == [(challenge.id,)]


async def test_a_close_during_the_repair_waits_for_it(
    server: Server, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The repair runs from ``on_ready``, outside any interaction: a bot closed while it is
    under way finishes it before the database closes (it was left reading a closed one)."""
    fake, db = server.fake, server.database
    challenge = await start_killed(server, "after-accept", monkeypatch)
    assert challenge is not None
    real, repairing = start_repair.challenge_message, asyncio.Event()

    async def slow(*args: Any) -> Any:
        repairing.set()
        await asyncio.sleep(0.5)  # Discord slow to show the channel
        return await real(*args)

    monkeypatch.setattr(start_repair, "challenge_message", slow)
    async with bot_on(fake, db):
        await asyncio.wait_for(repairing.wait(), timeout=5)
    # Closed during the repair: it was finished all the same.
    assert query(db, "SELECT answer_shown FROM challenges") == [(1,)]
    ((message_id,),) = query(db, "SELECT message_id FROM games")
    assert message_id is not None and "accepted" in fake.messages[challenge.id].content
    assert errors(caplog) == []


# -- a confirmation is for the position it was shown for, and expires ----------------


async def test_a_stale_resign_is_refused_with_a_fresh_confirmation(
    server: Server,
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        game = await start_game(server, server.alice, server.bob)
        await (await fake.slash(server.alice, "move", channel=game.thread, point="E5")).reply()
        prompt = await (await fake.slash(server.alice, "resign", channel=game.thread)).reply()
        resign = next(c for c in prompt.custom_ids() if ":resign:" in c)
        await (await fake.slash(server.bob, "move", channel=game.thread, point="F5")).reply()
        answer = await (await fake.click(server.alice, prompt, resign)).reply()
        assert "moved on" in answer.content and answer.is_ephemeral
        assert actions(db, game.game_id) == [("dot", 1, "E5"), ("dot", 2, "F5")]
        fresh = next(c for c in answer.custom_ids() if ":resign:" in c)
        assert fresh != resign
        done = await (await fake.click(server.alice, answer, fresh)).reply()
        assert done.content == "You resigned."
        assert actions(db, game.game_id)[-1] == ("resign", 1, None)


async def test_a_confirmation_expires_after_ten_minutes(server: Server) -> None:
    fake, db = server.fake, server.database
    clock = ShiftedClock()
    async with bot_on(fake, db, now=clock):
        game = await start_game(server, server.alice, server.bob, clock=3600)
        await (await fake.slash(server.alice, "move", channel=game.thread, point="E5")).reply()
        await (await fake.slash(server.bob, "move", channel=game.thread, point="F5")).reply()
        prompt = await (await fake.slash(server.alice, "end", channel=game.thread)).reply()
        end = next(c for c in prompt.custom_ids() if ":end:" in c)
        clock.offset = timedelta(minutes=10, seconds=5)
        answer = await (await fake.click(server.alice, prompt, end)).reply()
        assert "expired" in answer.content and answer.is_ephemeral
        assert [kind for kind, _, _ in actions(db, game.game_id)] == ["dot", "dot"]
        fresh = next(c for c in answer.custom_ids() if ":end:" in c)
        assert (await (await fake.click(server.alice, answer, fresh)).reply()).content == (
            "You ended."
        )
        assert actions(db, game.game_id)[-1] == ("end", 1, None)


# -- per-user limits, set by the server's admins, with a friendly refusal -----------


async def test_limits_set_by_an_admin_refuse_the_next_challenge_politely(
    server: Server,
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        shown = await (
            await fake.slash(
                server.admin,
                "dots-admin settings",
                channel=server.general,
                max_challenges=1,
                max_computer_games=1,
            )
        ).reply()
        assert shown.is_ephemeral and "at most 1 open challenges" in shown.content
        assert "25 running games and 1 games against the computer" in shown.content
        await (
            await fake.slash(server.alice, "challenge", channel=server.general, opponent=server.bob)
        ).reply()
        posts = len(fake.posted(server.general))
        again = await (
            await fake.slash(
                server.alice, "challenge", channel=server.general, opponent=server.carol
            )
        ).reply()
        assert again.is_ephemeral and "1 open challenge in" in again.content
        assert "withdraw" in again.content and "wrong" not in again.content
        assert server.carol.mention not in again.content
        assert len(fake.posted(server.general)) == posts  # nobody pinged
        assert query(db, "SELECT count(*) FROM challenges") == [(1,)]
        # Games against the computer: the second is refused, no thread opened for it.
        await (
            await fake.slash(server.carol, "play-computer", channel=server.general, colour="pink")
        ).reply()
        await quiet(db)
        threads = len(fake.threads())
        second = await (
            await fake.slash(server.carol, "play-computer", channel=server.general, colour="pink")
        ).reply()
        assert second.is_ephemeral and "1 game against the computer" in second.content
        await quiet(db)
        assert len(fake.threads()) == threads == 1
        assert query(db, "SELECT count(*) FROM games") == [(1,)]


# -- /export keeps a finished game's replay, renders off the loop, has limits -------


async def test_export_keeps_a_finished_games_replay_and_fits_the_upload_limit(
    server: Server,
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        game = await start_game(server, server.alice, server.bob)
        await (await fake.slash(server.alice, "move", channel=game.thread, point="E5")).reply()
        # A running game's replay is rendered, not kept (it will change).
        running = await (
            await fake.slash(server.carol, "export", channel=server.general, game=game.game_id)
        ).reply(timeout=30)
        assert [a.filename for a in running.attachments][-1].endswith(".gif")
        assert query(db, "SELECT count(*) FROM replays") == [(0,)]
        prompt = await (await fake.slash(server.alice, "resign", channel=game.thread)).reply()
        resign = next(c for c in prompt.custom_ids() if ":resign:" in c)
        await (await fake.click(server.alice, prompt, resign)).reply()
        await fake.wait_until(
            lambda: query(db, "SELECT status FROM games") == [("over",)], poll=None
        )
        await quiet(db)  # the result's post is out before the upload limit shrinks below

        first = await (
            await fake.slash(server.alice, "export", channel=server.general, game=game.game_id)
        ).reply(timeout=30)
        sgf, gif = first.attachments
        assert sgf.filename.endswith(".sgf") and gif.data.startswith(b"GIF8")
        assert query(db, "SELECT gif FROM replays") == [(gif.data,)]
        # The kept replay is what later exports send: nothing is rendered again.
        marker = b"GIF89a kept replay " * 8
        execute(db, f"UPDATE replays SET gif = x'{marker.hex()}'")
        second = await (
            await fake.slash(server.bob, "export", channel=server.general, game=game.game_id)
        ).reply(timeout=30)
        assert second.attachments[1].data == marker

        # One export per member every 30 seconds, refused privately.
        again = await (
            await fake.slash(server.alice, "export", channel=server.general, game=game.game_id)
        ).reply()
        assert again.is_ephemeral and "One export every 30 seconds" in again.content
        assert not again.attachments

        # The replay is left out when the upload limit the interaction reports is too small.
        fake.upload_limit = len(sgf.data) + len(marker) - 1
        small = await (
            await fake.slash(server.admin, "export", channel=server.general, game=game.game_id)
        ).reply(timeout=30)
        assert [a.filename for a in small.attachments] == [sgf.filename]
        assert "over this server's upload limit" in small.content
    assert [r for r in fake.requests if r.status in (400, 413)] == []
