"""The bot process restarts mid-game: a new bot on the same database file re-arms the move
clocks (a short clock runs out after the restart), the buttons made before the restart
still work, and the games go on.

Time: the service runs on the real clock plus an offset that the test moves while the bot
is down, so a 30-second move clock runs out within a second of the restart.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from datetime import timedelta
from pathlib import Path

import pytest

from tests.e2e.helpers import (
    ShiftedClock,
    actions,
    bot_on,
    make_server,
    query,
    quiet,
    start_game,
)
from tests.e2e.shard_worker import BotProcess
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message

__all__ = ["fake_discord"]  # the fixture is used by name


@pytest.mark.parametrize(
    "deadline_passed_while_down",
    [False, True],
    ids=["clock-runs-out-after-restart", "clock-ran-out-while-down"],
)
async def test_a_restart_mid_game_keeps_clocks_buttons_and_games(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    deadline_passed_while_down: bool,
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    clock = ShiftedClock()
    async with bot_on(fake, db, now=clock) as first:
        # Game A (5 minutes a move): alice asks to end; the confirmation is left unanswered.
        a = await start_game(s, s.alice, s.bob, clock=300)
        await (await fake.slash(s.alice, "move", channel=a.thread, point="E5")).reply()
        await (await fake.slash(s.bob, "move", channel=a.thread, point="F5")).reply()
        prompt = await (await fake.slash(s.alice, "end", channel=a.thread)).reply()
        assert prompt.custom_ids()[0].startswith(f"dots:confirm:end:{a.game_id}:")
        # Game B (30 seconds a move): carol plays, the admin's clock runs.
        b = await start_game(s, s.carol, s.admin, clock=30)
        await (await fake.slash(s.carol, "move", channel=b.thread, point="C3")).reply()
        # An open challenge, answered only after the restart.
        challenge = await (
            await fake.slash(s.bob, "challenge", channel=s.general, opponent=s.carol)
        ).reply()
    assert first.is_closed()
    ((deadline,),) = query(db, "SELECT deadline FROM games WHERE game_id = ?", (b.game_id,))
    # Time passes while the bot is down: past B's deadline, or to just before it.
    ahead = -1.0 if deadline_passed_while_down else 0.8
    clock.offset = timedelta(seconds=deadline - time.time() - ahead)

    async with bot_on(fake, db, now=clock) as second:
        assert second is not first and fake.identifies == 2
        # The clock of B was re-armed from the database and ran out: the admin has ended.
        await fake.wait_until(
            lambda: any("ran out of time" in m.content for m in fake.posted(b.thread)),
            # The first picture after a start waits for the picture workers to spawn, which
            # takes seconds on a loaded 2-core machine.
            timeout=15,
            poll=None,
        )
        assert actions(db, b.game_id) == [("dot", 1, "C3"), ("time", 2, None)]
        timed_out = next(m for m in fake.posted(b.thread) if "ran out of time" in m.content)
        assert "Pink may play on alone" in timed_out.content and timed_out.attachments[0].is_png
        # B goes on: carol plays on alone.
        await (await fake.slash(s.carol, "move", channel=b.thread, point="D3")).reply()
        assert actions(db, b.game_id)[-1] == ("dot", 1, "D3")

        # A's confirmation from before the restart still works; the game goes on.
        done = await fake.click(s.alice, prompt, prompt.custom_ids()[0])
        assert (await done.reply()).content == "You ended."
        more = await (await fake.slash(s.bob, "move", channel=a.thread, point="G5")).reply()
        assert not more.is_ephemeral and "plays G5" in more.content
        end = await (await fake.slash(s.bob, "end", channel=a.thread)).reply()
        await (await fake.click(s.bob, end, end.custom_ids()[0])).reply()
        await fake.wait_until(
            lambda: any("(both ended)" in m.content for m in fake.posted(a.thread)), poll=None
        )
        assert actions(db, a.game_id) == [
            ("dot", 1, "E5"),
            ("dot", 2, "F5"),
            ("end", 1, None),
            ("dot", 2, "G5"),
            ("end", 2, None),
        ]
        assert query(db, "SELECT status FROM games WHERE game_id = ?", (a.game_id,)) == [("over",)]

        # The challenge made before the restart is accepted after it: a new game starts.
        threads = len(fake.threads())
        accept = await fake.click(s.carol, challenge, challenge.custom_ids()[0])
        # Deferred when the accept takes over the answer budget (the picture workers may still
        # be spawning on a loaded machine): the message is edited either way.
        assert (await accept.response()).name in {"update message", "deferred update"}
        await fake.wait_until(
            lambda: len(fake.threads()) == threads + 1 and fake.posted(fake.threads()[-1]),
            poll=None,
        )
        assert query(db, "SELECT COUNT(*) FROM games WHERE status = 'running'") == [(2,)]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []
    assert fake.unrouted == []


async def test_a_challenge_expires_while_the_bot_is_down(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Ten minutes pass with the bot down: on start the challenge expires at once, its
    message says so and its buttons are disabled; a click that was already on its way is
    refused privately."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    clock = ShiftedClock()
    async with bot_on(fake, db, now=clock):
        handle = await fake.slash(s.alice, "challenge", channel=s.general, opponent=s.bob)
        challenge = await handle.reply()
        await quiet(db)
    clock.offset = timedelta(minutes=10, seconds=1)
    async with bot_on(fake, db, now=clock):
        await fake.wait_until(lambda: "expired" in challenge.content, poll=None)
        assert all(button["disabled"] for button in challenge.buttons())
        assert query(db, "SELECT status FROM challenges") == [("expired",)]
        # A click sent before the edit reached bob's screen.
        challenge.components[0]["components"][0]["disabled"] = False
        late = await fake.click(s.bob, challenge, challenge.custom_ids()[0])
        reply = await late.reply()
        assert reply.is_ephemeral and "expired" in reply.content
        assert query(db, "SELECT COUNT(*) FROM games") == [(0,)]


async def test_closing_finishes_the_interactions_under_way_and_refuses_new_ones(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot is told to stop while a move is being recorded: the move is committed and
    answered before the database closes, and a command that arrives meanwhile is refused in
    words (nothing changes, nothing is logged as an error)."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db) as bot:
        game = await start_game(s, s.alice, s.bob)
        entered, release = asyncio.Event(), asyncio.Event()
        place = bot.service.place

        async def held_place(**kwargs: object) -> object:
            entered.set()
            await release.wait()
            return await place(**kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(bot.service, "place", held_place)
        move = await fake.slash(s.alice, "move", channel=game.thread, point="E5")
        await asyncio.wait_for(entered.wait(), 5)
        closing = asyncio.create_task(bot.close())
        await fake.wait_until(lambda: bot.closing)
        late = await (await fake.slash(s.bob, "board", channel=game.thread)).reply()
        assert late.is_ephemeral and "restarting" in late.content
        assert not closing.done()  # it waits for the move
        release.set()
        reply = await move.reply()
        assert "plays E5" in reply.content and reply.attachments[0].is_png
        await asyncio.wait_for(closing, 10)
    assert actions(db, game.game_id) == [("dot", 1, "E5")]
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


async def test_sigterm_stops_the_bot_process_cleanly(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A real `dots-bot` process told to stop by the system (SIGTERM: systemd, Docker) closes
    as Ctrl-C does: it exits with 0 and no traceback, the move it acknowledged is stored, and
    the next start plays on."""
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    process = BotProcess(fake, db, tmp_path)
    await process.start()
    try:
        await fake.wait_until(lambda: fake.global_commands, timeout=30, poll=0.05)
        game = await start_game(s, s.alice, s.bob)
        # The private answer follows the card's post (a busy machine delays both).
        moved = await fake.slash(s.alice, "move", channel=game.thread, point="E5")
        reply = await moved.reply(timeout=30)
        assert "Played E5" in reply.content  # its card is in the thread
        await shown_on_a_card(fake, game.thread, "plays E5")
        assert process.proc is not None
        process.proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(process.proc.wait, 30) == 0
        log = process.read_log()
        assert "SIGTERM: stopping" in log and "Traceback" not in log, log[-2000:]
        assert actions(db, game.game_id) == [("dot", 1, "E5")]
        await process.start()
        more = await (await fake.slash(s.bob, "move", channel=game.thread, point="F5")).reply(
            timeout=30
        )
        assert "Played F5" in more.content
        await shown_on_a_card(fake, game.thread, "plays F5")
    finally:
        process.stop()


async def shown_on_a_card(fake: FakeDiscord, thread: Channel, said: str) -> Message:
    """The game card in ``thread`` saying ``said``, with the game's picture (the running bot
    posts its positions as cards)."""
    card: Message = await fake.wait_until(
        lambda: next((m for m in fake.posted(thread) if said in m.text()), None),
        timeout=30,
        poll=None,
    )
    assert card.components and card.content == "" and card.attachments[0].is_png
    return card
