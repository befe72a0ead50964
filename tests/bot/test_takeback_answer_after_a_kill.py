"""A takeback request, and its answer, whose post a kill interrupted: the real `dots-bot` process
on PostgreSQL is SIGKILLed after the request (or the answer) is committed and before Discord
shows it. Restarted, it shows it once: the request is posted in the game's thread with its
buttons; the request's message says accepted (or declined) with its buttons disabled, and an
accepted takeback's picture is posted in the game's thread exactly once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage import Store
from tests.bot.test_posts_after_a_kill import CALLBACK, count, process
from tests.e2e.helpers import Server, make_server
from tests.e2e.shard_worker import BotProcess
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message

__all__ = ["fake_discord", "process"]  # the fixtures are used by name


async def posted_with(fake: FakeDiscord, channel: Channel, text: str, after: int = 0) -> Message:
    """The first message of ``channel`` (from its ``after``-th on) saying ``text``."""
    found: Message = await fake.wait_until(
        lambda: next((m for m in fake.posted(channel)[after:] if text in m.text()), None),
        timeout=30,
        poll=None,
    )
    return found


async def start(fake: FakeDiscord, server: Server) -> Channel:
    """alice (Pink) challenges bob to an unrated game, bob accepts, alice plays E5: its thread."""
    challenge = await (
        await fake.slash(
            server.alice,
            "challenge",
            channel=server.general,
            opponent=server.bob,
            colour="pink",
            rated=False,
        )
    ).reply(timeout=30)
    accept = next(c for c in challenge.custom_ids() if c.startswith("dots:challenge:accept:"))
    await fake.click(server.bob, challenge, accept)
    thread: Channel = await fake.wait_until(
        lambda: next((t for t in fake.threads() if fake.posted(t)), None), timeout=30, poll=None
    )
    await fake.slash(server.alice, "move", channel=thread, point="E5")
    await posted_with(fake, thread, "plays E5")
    return thread


async def test_a_takeback_request_committed_before_a_kill_is_posted_once_after_the_restart(
    fake_discord: FakeDiscord, process: BotProcess
) -> None:
    fake = fake_discord
    server = make_server(fake, Path("unused.sqlite3"))
    await process.start()
    store = await Store.open(str(process.database))
    try:
        thread = await start(fake, server)
        before = len(fake.posted(thread))
        # The request's answer (its post in the thread) is held back: the process dies after
        # the commit, before Discord shows it.
        fake.faults.slow("POST", CALLBACK, 120)
        await fake.slash(server.alice, "takeback", channel=thread)
        for _ in range(300):
            asked = await count(store, "SELECT COUNT(*) FROM takebacks WHERE status = 'pending'")
            if asked:
                break
            await asyncio.sleep(0.05)
        assert asked == 1
        assert await count(store, "SELECT COUNT(*) FROM outbox WHERE kind = 'asked'") == 1
        process.kill()
        fake.faults.clear()
        await asyncio.sleep(0.2)
        assert not any("take back E5" in m.content for m in fake.posted(thread)[before:])

        await process.start()
        request = await posted_with(fake, thread, "take back E5", after=before)
        for _ in range(100):
            if not await count(store, "SELECT COUNT(*) FROM outbox"):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # a second post would come now
        asked_posts = [m for m in fake.posted(thread)[before:] if "take back E5" in m.content]
        assert asked_posts == [request]
        assert any(c.startswith("dots:takeback:accept:") for c in request.custom_ids())
        assert (
            await count(store, "SELECT COUNT(*) FROM takebacks WHERE message_id = ?", request.id)
            == 1
        )
        assert await count(store, "SELECT COUNT(*) FROM outbox") == 0
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("action", "status", "said"),
    [("accept", "accepted", "accepted"), ("decline", "declined", "declined to take back")],
)
async def test_a_takeback_answered_before_a_kill_is_shown_once_after_the_restart(
    fake_discord: FakeDiscord, process: BotProcess, action: str, status: str, said: str
) -> None:
    fake = fake_discord
    server = make_server(fake, Path("unused.sqlite3"))
    await process.start()
    store = await Store.open(str(process.database))
    try:
        thread = await start(fake, server)
        await fake.slash(server.alice, "takeback", channel=thread)
        request = await posted_with(fake, thread, "take back E5")
        for _ in range(300):
            if await count(store, "SELECT COUNT(*) FROM takebacks WHERE message_id IS NOT NULL"):
                break
            await asyncio.sleep(0.05)
        button = next(c for c in request.custom_ids() if c.startswith(f"dots:takeback:{action}:"))
        before = len(fake.posted(thread))
        # The click's answer is held back: the process dies after the commit, before Discord
        # shows it.
        fake.faults.slow("POST", CALLBACK, 120)
        await fake.click(server.bob, request, button)
        for _ in range(300):
            answered = await count(store, "SELECT COUNT(*) FROM takebacks WHERE status = ?", status)
            if answered:
                break
            await asyncio.sleep(0.05)
        assert answered == 1
        assert await count(store, "SELECT COUNT(*) FROM outbox WHERE kind = 'takeback'") == 1
        process.kill()
        fake.faults.clear()
        await asyncio.sleep(0.2)
        assert said not in request.content

        await process.start()
        await fake.wait_until(lambda: said in request.content, timeout=30, poll=None)
        if action == "accept":
            await posted_with(fake, thread, "took back E5", after=before)
        for _ in range(100):
            if not await count(store, "SELECT COUNT(*) FROM outbox"):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # a second post would come now
        assert all(b.get("disabled") for b in request.buttons())
        new = fake.posted(thread)[before:]
        taken = [m for m in new if "took back E5" in m.text()]
        if action == "accept":
            assert len(taken) == 1, [m.text() for m in new]
            assert taken[0].attachments and taken[0].attachments[0].is_png
            assert len(new) == 1
        else:
            assert new == []
        assert await count(store, "SELECT COUNT(*) FROM outbox") == 0
    finally:
        await store.close()
