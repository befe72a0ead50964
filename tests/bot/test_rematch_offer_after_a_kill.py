"""A rematch offer to a player whose post a kill interrupted: the real `dots-bot` process on
PostgreSQL is SIGKILLed after the offer is committed and before Discord shows it (or after the
offer is posted, before the click is answered). Restarted, it posts the offer once, in the
finished game's channel with the challenge's buttons, and remembers its message (so that
accepting it opens the rematch like any challenge)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.storage import Store
from tests.bot.test_posts_after_a_kill import CALLBACK, count, process
from tests.bot.test_takeback_answer_after_a_kill import posted_with, start
from tests.e2e.helpers import Server, make_server
from tests.e2e.shard_worker import BotProcess
from tests.e2e.test_rematch import rematch_id, resign
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord", "process"]  # the fixtures are used by name

OFFERED = "SELECT COUNT(*) FROM challenges WHERE rematch_of IS NOT NULL"


@asynccontextmanager
async def started(fake: FakeDiscord, process: BotProcess) -> AsyncIterator[tuple[Server, Store]]:
    """The server, the process started on it, and its database open beside it (closed
    after)."""
    server = make_server(fake, Path("unused.sqlite3"))
    await process.start()
    store = await Store.open(str(process.database))
    try:
        yield server, store
    finally:
        await store.close()


async def settled(store: Store, sql: str, want: int, *args: object) -> int:
    """What the count ``sql`` gives once it is ``want`` (or after 15 seconds)."""
    for _ in range(300):
        found = await count(store, sql, *args)
        if found == want:
            break
        await asyncio.sleep(0.05)
    return found


@pytest.mark.parametrize("held", ["the offer", "the answer"])
async def test_a_rematch_offer_committed_before_a_kill_is_posted_once_after_the_restart(
    fake_discord: FakeDiscord, process: BotProcess, held: str
) -> None:
    fake = fake_discord
    async with started(fake, process) as (server, store):
        result = await resign(server, server.bob, await start(fake, server))
        before = len(fake.posted(server.general))
        # The offer's post in the game's channel (or the click's answer after it) is held
        # back: the process dies after the commit, before Discord shows it.
        general = rf"^/channels/{server.general.id}/messages$"
        fake.faults.slow("POST", general if held == "the offer" else CALLBACK, 120)
        await fake.click(server.bob, result, rematch_id(result))
        # Held at the answer: the offer is posted and its message stored first.
        done = OFFERED if held == "the offer" else f"{OFFERED} AND message_id IS NOT NULL"
        assert await settled(store, done, 1) == 1
        assert await count(store, "SELECT COUNT(*) FROM outbox WHERE kind = 'offered'") == 1
        process.kill()
        fake.faults.clear()
        await asyncio.sleep(0.2)
        shown = len(fake.posted(server.general)[before:])
        assert shown == (0 if held == "the offer" else 1)

        await process.start()
        offer = await posted_with(fake, server.general, "for a rematch of game", after=before)
        assert await settled(store, "SELECT COUNT(*) FROM outbox", 0) == 0
        await asyncio.sleep(0.5)  # a second post would come now
        assert fake.posted(server.general)[before:] == [offer]
        assert f"<@{server.alice.id}>" in offer.content
        assert any(c.startswith("dots:challenge:accept:") for c in offer.custom_ids())
        assert await count(store, f"{OFFERED} AND message_id = ?", offer.id) == 1
