"""Leaderboard periods through the real bot and the fake Discord: the table of
this month (points, then rating gained) leaves out last month's games, the all-time table keeps
them, and /stats says the player's place this month."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.e2e.helpers import Server, ShiftedClock, bot_on, make_server, query, start_game
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import User

__all__ = ["fake_discord"]  # the fixture is used by name


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob (DMs closed), carol and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


async def confirm(server: Server, user: User, thread: object, command: str) -> None:
    """``/end`` or ``/resign`` by ``user``, confirmed with its button."""
    fake = server.fake
    prompt = await (await fake.slash(user, command, channel=thread)).reply()
    button = next(c for c in prompt.custom_ids() if f":{command}:" in c)
    await (await fake.click(user, prompt, button)).reply()


async def decided(server: Server, pink: User, blue: User, loser: User | None) -> None:
    """A rated game of one dot each, then ``loser`` resigns (None: both end, a 0-0 draw)."""
    fake = server.fake
    game = await start_game(server, pink, blue)
    await (await fake.slash(pink, "move", channel=game.thread, point="E5")).reply()
    await (await fake.slash(blue, "move", channel=game.thread, point="F6")).reply()
    if loser is None:
        await confirm(server, pink, game.thread, "end")
        await confirm(server, blue, game.thread, "end")
    else:
        await confirm(server, loser, game.thread, "resign")
    await fake.wait_until(
        lambda: query(server.database, "SELECT status FROM games WHERE game_id = ?",
                      (game.game_id,)) == [("over",)]
    )  # fmt: skip


async def test_this_month_leaves_out_last_month_and_stats_say_the_place(server: Server) -> None:
    fake, alice, bob, carol = server.fake, server.alice, server.bob, server.carol
    clock = ShiftedClock()
    now = datetime.now(UTC)
    # The middle of last month: alice beats bob twice then.
    last_month = (now.replace(day=1, hour=12) - timedelta(days=15)).replace(tzinfo=UTC)
    clock.offset = last_month - now
    async with bot_on(fake, server.database, now=clock):
        await decided(server, alice, bob, loser=bob)
        await decided(server, alice, bob, loser=bob)
        clock.offset = timedelta(0)
        # This month: bob beats alice, carol and alice draw.
        await decided(server, bob, alice, loser=alice)
        await decided(server, carol, alice, loser=None)

        month = await (
            await fake.slash(carol, "leaderboard", channel=server.general, period="month")
        ).reply()
        assert not month.is_ephemeral
        (embed,) = month.embeds
        assert embed["title"] == f"Dots leaderboard: {now:%B %Y}"
        lines = embed["description"].splitlines()
        assert len(lines) == 3
        assert lines[0].startswith(f"1. {bob.mention} **1** point: 1 game: 1 won, 0 lost, 0 drawn")
        # Equal on half a point: carol (one draw) before alice (a loss and a draw), by the
        # rating each gained this month.
        assert lines[1].startswith(f"2. {carol.mention} **½** point: 1 game: 0 won, 0 lost, 1")
        assert lines[2].startswith(f"3. {alice.mention} **½** point: 2 games: 0 won, 1 lost, 1")
        gained = [int(line.rsplit(", ", 1)[1].removesuffix(" rating")) for line in lines]
        assert gained[0] > 0 and gained[1] > gained[2]
        assert "1 point a win" in embed["footer"]["text"]

        # All time (the default, by rating) counts last month's games too.
        ever = await (await fake.slash(carol, "leaderboard", channel=server.general)).reply()
        ever_lines = ever.embeds[0]["description"].splitlines()
        assert len(ever_lines) == 3 and "points" not in ever.text()
        (mine,) = [line for line in ever_lines if alice.mention in line]
        assert mine.endswith("4 games: 2 won, 1 lost, 1 drawn")
        (bobs,) = [line for line in ever_lines if bob.mention in line]
        assert bobs.endswith("3 games: 1 won, 2 lost, 0 drawn")

        stats = await (await fake.slash(alice, "stats", channel=server.general)).reply()
        assert "This month: #3, ½ point (2 games)" in stats.text()
        assert "4 games: 2 won, 1 lost, 1 drawn" in stats.text()
        nobody = await (
            await fake.slash(alice, "stats", channel=server.general, user=server.admin)
        ).reply()
        assert "This month: no rated game finished yet." in nobody.text()


async def test_an_empty_month_says_so(server: Server) -> None:
    fake = server.fake
    async with bot_on(fake, server.database):
        month = await (
            await fake.slash(server.alice, "leaderboard", channel=server.general, period="month")
        ).reply()
    assert "No rated game finished this month yet" in month.embeds[0]["description"]
