"""A player's move whose post a kill interrupted: the real `dots-bot` process on PostgreSQL is
SIGKILLed after the move is committed and before its posts reach Discord. Restarted, it posts
the move's game card exactly once in the game's thread, and fills the interaction's private
"thinking..." placeholder with a link to it while Discord still accepts its token."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.storage import Store
from tests.e2e.helpers import Server, make_server
from tests.e2e.shard_worker import BotProcess
from tests.fakediscord.drivers import InteractionHandle
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel
from tests.postgres import Cluster

__all__ = ["fake_discord"]  # the fixture is used by name

# The requests held back until the process is killed: the follow-up that fills the move's
# placeholder, the card posted in the game's thread, or the placeholder (the deferral) itself.
FOLLOW_UP = r"^/webhooks/\d+/[^/]+$"
CALLBACK = r"^/interactions/\d+/[^/]+/callback$"


def held_path(held: str, thread: Channel) -> str:
    """The path (a regex) of the requests ``held`` names."""
    return {
        "follow-up": FOLLOW_UP,
        "card": rf"^/channels/{thread.id}/messages$",
        "deferral": CALLBACK,
    }[held]


@pytest.fixture
def process(
    fake_discord: FakeDiscord, postgres_cluster: Cluster, tmp_path: Path
) -> Iterator[BotProcess]:
    """A `dots-bot` process (not started) on a new PostgreSQL database; ended after."""
    logs = tmp_path / "logs"
    logs.mkdir()
    bot = BotProcess(fake_discord, postgres_cluster.create_database(), logs)
    try:
        yield bot
    finally:
        bot.stop()


async def count(store: Store, sql: str, *args: object) -> int:
    """The one number a query returns."""
    ((value,),) = await store.execute(sql, args)
    return int(value)


async def open_game(server: Server, store: Store) -> tuple[int, Channel]:
    """alice challenges bob (alice Pink), bob accepts: the game's id and its thread."""
    fake = server.fake
    challenge = await (
        await fake.slash(
            server.alice, "challenge", channel=server.general, opponent=server.bob, colour="pink"
        )
    ).reply(timeout=30)
    accept = next(c for c in challenge.custom_ids() if c.startswith("dots:challenge:accept:"))
    await fake.click(server.bob, challenge, accept)
    thread: Channel = await fake.wait_until(
        lambda: next((t for t in fake.threads() if fake.posted(t)), None), timeout=30, poll=None
    )
    rows = await store.execute("SELECT game_id FROM games WHERE thread_id = ?", (thread.id,))
    return int(rows[0][0]), thread


@pytest.mark.parametrize("held", ["follow-up", "card", "deferral"])
async def test_a_move_committed_before_a_kill_is_posted_once_after_the_restart(
    fake_discord: FakeDiscord, process: BotProcess, held: str
) -> None:
    fake = fake_discord
    server = make_server(fake, Path("unused.sqlite3"))
    await process.start()
    store = await Store.open(str(process.database))
    try:
        game_id, thread = await open_game(server, store)
        fake.faults.slow("POST", held_path(held, thread), 120)
        move: InteractionHandle = await fake.slash(server.alice, "move", channel=thread, point="E5")
        # Committed (with the post it owes), not yet shown: the process dies now.
        for _ in range(300):
            stored = await count(store, "SELECT COUNT(*) FROM actions WHERE game_id = ?", game_id)
            if stored:
                break
            await asyncio.sleep(0.05)
        assert stored == 1
        assert await count(store, "SELECT COUNT(*) FROM outbox WHERE kind = 'action'") == 1
        if held == "follow-up":  # the card went out before the link that was held
            await fake.wait_until(
                lambda: any("plays E5" in m.text() for m in fake.posted(thread)),
                timeout=30,
                poll=None,
            )
        else:
            assert not any("plays E5" in m.text() for m in fake.posted(thread))
        process.kill()
        fake.faults.clear()
        await asyncio.sleep(0.2)
        if held != "follow-up":
            assert not any("plays E5" in m.text() for m in fake.posted(thread))

        await process.start()
        await fake.wait_until(
            lambda: any("plays E5" in m.text() for m in fake.posted(thread)),
            timeout=30,
            poll=None,
        )
        for _ in range(100):
            if not await count(store, "SELECT COUNT(*) FROM outbox"):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # a second post would come now
        shown = [m for m in fake.posted(thread) if "plays E5" in m.text()]
        assert len(shown) == 1, [m.text() for m in fake.posted(thread)]
        assert shown[0].components and shown[0].content == ""  # a card
        assert shown[0].attachments and shown[0].attachments[0].is_png
        if held != "deferral":
            # The placeholder is filled: the player's "thinking..." does not spin forever, and
            # it points to the card.
            assert move.original is not None and not move.original.is_loading
            await fake.wait_until(lambda: "Played E5" in move.original.content, poll=None)
            assert move.original.is_ephemeral and str(thread.id) in move.original.content
        assert await count(store, "SELECT COUNT(*) FROM outbox") == 0
        assert await count(store, "SELECT COUNT(*) FROM actions WHERE game_id = ?", game_id) == 1
    finally:
        await store.close()
