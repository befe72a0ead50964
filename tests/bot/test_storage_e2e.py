"""End to end on each database: the real bot on the fake Discord plays a rated game from
challenge to leaderboard on a SQLite file and, where installed, on PostgreSQL (the
``database`` fixture); what it stored is read back through a second Store."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.storage import Store
from tests.e2e.helpers import bot_on, make_server
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name

MOVES = ["E6", "E5", "D5", "A1", "F5", "A2", "E4"]  # Pink surrounds Blue's E5


async def rows(store: Store, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Rows read through the Store (``?`` placeholders on either database)."""
    return await store.execute(sql, args)


async def until(store: Store, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` once there are some (the bot writes just after it answers)."""
    for _ in range(250):
        found = await rows(store, sql, args)
        if found:
            return found
        await asyncio.sleep(0.02)
    raise TimeoutError(sql)


async def test_a_rated_game_is_played_and_stored(
    fake_discord: FakeDiscord, database: str | Path
) -> None:
    fake = fake_discord
    s = make_server(fake, Path(str(database)))
    store = await Store.open(database)  # migrated here; the bot finds it up to date
    try:
        async with bot_on(fake, database):  # type: ignore[arg-type]
            handle = await fake.slash(
                s.alice, "challenge", channel=s.general, opponent=s.bob, colour="pink"
            )
            challenge = await handle.reply()
            await fake.click(s.bob, challenge, "dots:challenge:accept:1")
            thread = await fake.wait_until(
                lambda: next((t for t in fake.threads() if fake.posted(t)), None), poll=None
            )
            ((game_id,),) = await until(
                store,
                "SELECT game_id FROM games WHERE thread_id = ? AND message_id IS NOT NULL",
                (thread.id,),
            )
            for n, point in enumerate(MOVES):
                player = s.alice if n % 2 == 0 else s.bob
                reply = await (
                    await fake.slash(player, "move", channel=thread, point=point)
                ).reply()
                assert not reply.is_ephemeral and f"plays {point}" in reply.content
            assert "Pink captures 1" in reply.content
            for n, player in enumerate((s.bob, s.alice)):
                prompt = await (await fake.slash(player, "end", channel=thread)).reply()
                # The button also carries the position it was shown for (moves:instant).
                end = prompt.custom_ids()[0]
                assert end.startswith(f"dots:confirm:end:{game_id}:")
                done = await fake.click(player, prompt, end)
                assert (await done.reply()).content == "You ended."
                await fake.wait_until(
                    lambda posts=9 + n: len(fake.posted(thread)) == posts, poll=None
                )
            final = fake.posted(thread)[-1]
            assert "Pink wins 1–0 (both ended)" in final.content and "Ratings:" in final.content
            board = await (await fake.slash(s.carol, "leaderboard", channel=s.general)).reply()
            lines = board.embeds[0]["description"].splitlines()
            assert lines[0].startswith(f"1. {s.alice.mention}") and "1 won, 0 lost" in lines[0]
        stored = await rows(
            store, "SELECT kind, player, point FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )  # fmt: skip
        assert stored == [
            *(("dot", 1 + n % 2, p) for n, p in enumerate(MOVES)),
            ("end", 2, None),
            ("end", 1, None),
        ]
        assert await rows(store, "SELECT status, winner, pink_score, blue_score FROM games") == [
            ("over", 1, 1, 0)
        ]
        ratings = await rows(store, "SELECT user_id, games, wins FROM ratings ORDER BY wins")
        assert ratings == [(s.bob.id, 1, 0), (s.alice.id, 1, 1)]
        changes = await rows(store, "SELECT count(*) FROM rating_changes WHERE game_id = ?",
                             (game_id,))  # fmt: skip
        assert changes == [(2,)]
    finally:
        await store.close()
    assert fake.unrouted == []
