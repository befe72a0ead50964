"""A challenge declined or withdrawn whose post a kill interrupted: the real `dots-bot` process
on PostgreSQL is SIGKILLed after the decline (or withdrawal) is committed and before the
challenge's message says so. Restarted, it says so once: the message shows who declined (or
withdrew) with its buttons disabled, and nothing else is posted."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage import Store
from tests.bot.test_posts_after_a_kill import CALLBACK, count, process
from tests.e2e.helpers import make_server
from tests.e2e.shard_worker import BotProcess
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord", "process"]  # the fixtures are used by name


@pytest.mark.parametrize(
    ("action", "status", "said"),
    [("decline", "declined", "declined the challenge"), ("cancel", "cancelled", "withdrew")],
)
async def test_a_challenge_called_off_before_a_kill_says_so_once_after_the_restart(
    fake_discord: FakeDiscord, process: BotProcess, action: str, status: str, said: str
) -> None:
    fake = fake_discord
    server = make_server(fake, Path("unused.sqlite3"))
    await process.start()
    store = await Store.open(str(process.database))
    try:
        challenge = await (
            await fake.slash(server.alice, "challenge", channel=server.general, opponent=server.bob)
        ).reply(timeout=30)
        button = next(
            c for c in challenge.custom_ids() if c.startswith(f"dots:challenge:{action}:")
        )
        clicker = server.bob if action == "decline" else server.alice
        before = len(fake.posted(server.general))
        # The click's answer (the edit of the challenge's message) is held back: the process
        # dies after the commit, before Discord shows it.
        fake.faults.slow("POST", CALLBACK, 120)
        await fake.click(clicker, challenge, button)
        for _ in range(300):
            closed = await count(store, "SELECT COUNT(*) FROM challenges WHERE status = ?", status)
            if closed:
                break
            await asyncio.sleep(0.05)
        assert closed == 1
        assert await count(store, "SELECT COUNT(*) FROM outbox WHERE kind = 'closed'") == 1
        process.kill()
        fake.faults.clear()
        await asyncio.sleep(0.2)
        assert said not in challenge.content
        assert not all(b.get("disabled") for b in challenge.buttons())

        await process.start()
        await fake.wait_until(lambda: said in challenge.content, timeout=30, poll=None)
        for _ in range(100):
            if not await count(store, "SELECT COUNT(*) FROM outbox"):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # a second post would come now
        assert all(b.get("disabled") for b in challenge.buttons())
        assert len(fake.posted(server.general)) == before  # an edit, no new message
        assert not any(said in m.content for m in fake.posted(server.general) if m is not challenge)
        assert await count(store, "SELECT COUNT(*) FROM outbox") == 0
    finally:
        await store.close()
