"""Discord failing the ways it does, survived by the real bot: rate limits and server errors
on posting a picture (retried; the move recorded once, one message posted), a dropped
gateway (resumed; the next command works) and an expired interaction (logged; the move
stands)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from bot.cogs.client import BUSY_HANDLERS
from tests.e2e.helpers import actions, bot_on, make_server, query, start_game
from tests.fakediscord.faults import CALLBACK, CHANNEL_MESSAGES, FOLLOWUP
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Records at ERROR or above, or carrying a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize(("status", "code"), [(429, 0), (500, 0)])
async def test_a_failed_upload_of_a_moves_picture_is_retried_and_the_move_counted_once(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    status: int,
    code: int,
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        game = await start_game(s, s.alice, s.bob)
        fault = fake.fail_next("POST", FOLLOWUP, status=status, code=code, retry_after=0.2)
        move = await fake.slash(s.alice, "move", channel=game.thread, point="E5")
        reply = await move.reply(timeout=8)
        assert fault.fired == 1
        assert (await move.failed()).status == status
        posts = [r for r in fake.requests_to("POST", FOLLOWUP) if move.token in r.path]
        assert [r.status for r in posts] == [status, 200]
        assert all(r.files and r.files[0].is_png for r in posts)  # the picture went again
        if status == 429:
            assert posts[1].at - posts[0].at >= 0.2  # retry_after was honoured
        assert actions(db, game.game_id) == [("dot", 1, "E5")]
        shown = [m for m in fake.posted(game.thread) if "plays E5" in m.content]
        assert shown == [reply] and reply.attachments[0].is_png
        # The game goes on.
        nxt = await (await fake.slash(s.bob, "move", channel=game.thread, point="F5")).reply()
        assert "plays F5" in nxt.content
        assert actions(db, game.game_id) == [("dot", 1, "E5"), ("dot", 2, "F5")]
    assert errors(caplog) == []
    assert fake.unrouted == []


async def test_a_rate_limited_announcement_in_the_thread_is_retried(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The /end announcement goes to the thread through the channel API, not the
    interaction: a 429 there is retried too, and posted once."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        game = await start_game(s, s.alice, s.bob)
        await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        prompt = await (await fake.slash(s.bob, "end", channel=game.thread)).reply()
        fault = fake.fail_next("POST", CHANNEL_MESSAGES, status=429, retry_after=0.1)
        await (await fake.click(s.bob, prompt, prompt.custom_ids()[0])).reply()
        await fake.wait_until(
            lambda: any("ends" in m.content for m in fake.posted(game.thread)), poll=None
        )
        assert fault.fired == 1
        assert len([m for m in fake.posted(game.thread) if "ends" in m.content]) == 1
        assert actions(db, game.game_id) == [("dot", 1, "E5"), ("end", 2, None)]
    assert errors(caplog) == []


@pytest.mark.parametrize("resumable", [True, False])
async def test_the_gateway_drops_mid_game_and_the_bot_comes_back(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture, resumable: bool
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        game = await start_game(s, s.alice, s.bob)
        await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        await fake.drop_gateway(resumable=resumable)
        if resumable:
            # Sent while the bot is away: replayed by the RESUME, answered in time.
            move = await fake.slash(s.bob, "move", channel=game.thread, point="F5")
            await fake.wait_until(lambda: fake.resumes == 1, timeout=5, poll=None)
            assert fake.identifies == 1
        else:
            await fake.wait_until(lambda: fake.identifies == 2, timeout=5, poll=None)
            move = await fake.slash(s.bob, "move", channel=game.thread, point="F5")
        reply = await move.reply()
        latency, deadline = move.response_latency, fake.callback_deadline
        assert "plays F5" in reply.content
        assert latency is not None and deadline is not None and latency < deadline
        after = await (await fake.slash(s.alice, "move", channel=game.thread, point="G5")).reply()
        assert "plays G5" in after.content
        assert actions(db, game.game_id) == [
            ("dot", 1, "E5"),
            ("dot", 2, "F5"),
            ("dot", 1, "G5"),
        ]
    assert errors(caplog) == []


async def test_an_expired_interaction_is_logged_and_the_move_stands(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db) as bot:
        game = await start_game(s, s.alice, s.bob)
        # Discord refuses every answer to an expired interaction.
        fault = fake.fail_next("POST", CALLBACK, status=404, code=10062, times=2)
        move = await fake.slash(s.alice, "move", channel=game.thread, point="E5")
        failed = await move.failed()
        assert failed.status == 404
        # The bot does not answer it again: the move goes to the thread instead.
        await fake.wait_until(
            lambda: (
                any("plays E5" in m.content for m in fake.posted(game.thread)) or bot.is_closed()
            ),
            timeout=3,
        )
        fault.times = 0
        assert not bot.is_closed()
        assert actions(db, game.game_id) == [("dot", 1, "E5")]  # the move stands
        logged = [r for r in caplog.records if str(move.id) in r.getMessage()]
        assert logged, "the failed interaction was not logged"
        # Nothing crashed: the game goes on and the next picture shows E5 taken.
        nxt = await (await fake.slash(s.bob, "move", channel=game.thread, point="F5")).reply()
        assert "plays F5" in nxt.content and nxt.attachments[0].is_png
        refusal = await (await fake.slash(s.bob, "move", channel=game.thread, point="E5")).reply()
        assert refusal.is_ephemeral
        assert actions(db, game.game_id) == [("dot", 1, "E5"), ("dot", 2, "F5")]


async def test_an_expired_move_still_shows_in_the_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    s = make_server(fake, tmp_path / "db.sqlite3")
    async with bot_on(fake, tmp_path / "db.sqlite3"):
        game = await start_game(s, s.alice, s.bob)
        fake.fail_next("POST", CALLBACK, status=404, code=10062, times=2)
        await fake.slash(s.alice, "move", channel=game.thread, point="E5")
        await fake.wait_until(
            lambda: any("plays E5" in m.content for m in fake.posted(game.thread)), timeout=2
        )


async def test_a_rate_limited_first_answer_is_retried_in_time(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A 429 on the interaction callback itself (the defer of a move): retried after
    retry_after, well within Discord's 3 seconds; the move counted once."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        game = await start_game(s, s.alice, s.bob)
        fault = fake.fail_next("POST", CALLBACK, status=429, retry_after=0.3)
        move = await fake.slash(s.alice, "move", channel=game.thread, point="E5")
        reply = await move.reply()
        assert fault.fired == 1 and "plays E5" in reply.content
        assert [c.name for c in move.callbacks] == ["deferred message"]
        latency, deadline = move.response_latency, fake.callback_deadline
        assert latency is not None and deadline is not None and 0.3 <= latency < deadline
        assert actions(db, game.game_id) == [("dot", 1, "E5")]
        assert len([m for m in fake.posted(game.thread) if "plays E5" in m.content]) == 1
    assert errors(caplog) == []


async def test_a_refused_deferral_still_shows_the_move(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord refuses a move's deferral, not as expired (here 400, code 40060 "already
    acknowledged"): the move is stored all the same, so it is shown in the game's thread."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        game = await start_game(s, s.alice, s.bob)
        fault = fake.fail_next("POST", CALLBACK, status=400, code=40060)
        await fake.slash(s.alice, "move", channel=game.thread, point="E5")
        await fake.wait_until(
            lambda: any("plays E5" in m.content for m in fake.posted(game.thread)), timeout=5
        )
        assert fault.fired == 1
        assert actions(db, game.game_id) == [("dot", 1, "E5")]
    assert errors(caplog) == []


async def test_double_submits_count_once(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Impatient players: two /move at once by the player to move, and a double click on
    Accept. One move and one game; the other answer is private and changes nothing."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        handle = await fake.slash(s.alice, "challenge", channel=s.general, opponent=s.bob)
        challenge = await handle.reply()
        accept = challenge.custom_ids()[0]
        clicks = [await fake.click(s.bob, challenge, accept) for _ in range(2)]
        answers = [await click.response() for click in clicks]
        assert sorted(a.name for a in answers) == ["message", "update message"]
        refusal = next(a for a in answers if a.name == "message")
        assert refusal.is_ephemeral
        await fake.wait_until(lambda: fake.threads() and fake.posted(fake.threads()[0]))
        assert len(fake.threads()) == 1
        assert query(db, "SELECT COUNT(*) FROM games") == [(1,)]
        ((game_id, pink_id),) = query(db, "SELECT game_id, pink_id FROM games")
        pink = s.alice if pink_id == s.alice.id else s.bob
        thread = fake.threads()[0]
        moves = [
            await fake.slash(pink, "move", channel=thread, point=point) for point in ("E5", "F6")
        ]
        firsts = [await m.response() for m in moves]
        played = [m for m, f in zip(moves, firsts, strict=True) if not f.is_ephemeral]
        refused = [f for f in firsts if f.is_ephemeral]
        assert len(played) == 1 and len(refused) == 1
        assert "not your turn" in str(refused[0].data.get("content", "")).lower()
        point = "E5" if played[0] is moves[0] else "F6"
        assert actions(db, game_id) == [("dot", 1, point)]
        await played[0].reply()
    assert errors(caplog) == []


async def test_a_challenge_answered_too_late_is_posted_in_its_channel(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The challenge is stored in time, but its answer reaches Discord after the 3 seconds
    (10062): it is posted in the channel instead, with its buttons, and can be accepted (it
    was stored but shown nowhere, and blocked a new challenge between the two)."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        fault = fake.fail_next("POST", CALLBACK, status=404, code=10062)
        await fake.slash(s.alice, "challenge", channel=s.general, opponent=s.bob)
        posted = await fake.wait_until(
            lambda: next((m for m in fake.posted(s.general) if m.custom_ids()), None), timeout=5
        )
        assert fault.fired == 1
        assert "challenges" in posted.content and s.bob.mention in posted.content
        accept = next(c for c in posted.custom_ids() if c.startswith("dots:challenge:accept:"))
        await fake.click(s.bob, posted, accept)
        await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM games") == [(1,)])
    assert errors(caplog) == []


async def test_a_busy_bot_defers_at_once_even_quick_work(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """With more interactions under way than BUSY_HANDLERS, a quick command is deferred
    before its work (its first answer must not queue behind the others' work); otherwise it
    is answered directly."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db) as bot:
        quiet = await fake.slash(s.alice, "challenge", channel=s.general, opponent=s.bob)
        assert (await quiet.response()).name == "message"
        others = {asyncio.get_running_loop().create_future() for _ in range(BUSY_HANDLERS + 1)}
        bot._handlers |= others
        try:
            busy = await fake.slash(s.carol, "challenge", channel=s.general, opponent=s.bob)
            assert (await busy.response()).name == "deferred message"
            assert s.bob.mention in (await busy.reply()).content
        finally:
            bot._handlers -= others
