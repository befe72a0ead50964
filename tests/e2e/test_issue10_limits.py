"""Issue 10's items 3, 9, 11 and 12 through the real bot and the strict fake Discord:
confirmations for one position, the repair of half-started games, exports, per-user limits."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tests.e2e.helpers import Server, ShiftedClock, actions, bot_on, make_server, start_game
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord

__all__ = ["fake_discord"]  # the fixture is used by name


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob, carol and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


# -- item 9: a confirmation is for the position it was shown for, and expires ----------------


async def test_issue10_item9_a_stale_resign_is_refused_with_a_fresh_confirmation(
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


async def test_issue10_item9_a_confirmation_expires_after_ten_minutes(server: Server) -> None:
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
