"""A rematch offer to a player goes through the outbox, through the real bot and the fake
Discord: the offer is stored with the post it owes, posted with that post's nonce, and a bot
stopped while the offer's post was on its way posts it once at its next start (filling the
Rematch click's "thinking..." placeholder while Discord allows it); an offer that expired
meanwhile is not posted, nor one Discord took before its message was stored."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import time
from datetime import timedelta
from pathlib import Path

import pytest

from bot.cogs.client import BUSY_HANDLERS
from tests.e2e.helpers import Server, ShiftedClock, StartedGame, bot_on, make_server, query
from tests.e2e.test_rematch import errors, finished_game, rematch_id
from tests.fakediscord.drivers import InteractionHandle
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Message

__all__ = ["fake_discord"]  # the fixture is used by name


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob, carol and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


def offers(server: Server) -> list[Message]:
    """The rematch offers posted in #general."""
    return [m for m in server.fake.posted(server.general) if "for a rematch of game" in m.content]


def general_posts(server: Server) -> str:
    """The path of a post in #general (the rematch offer's)."""
    return rf"^/channels/{server.general.id}/messages$"


async def owed_offers(server: Server) -> list[tuple[int, int, str | None]]:
    """(post id, game id, token) of the outbox's rematch offers, once there is one."""
    await server.fake.wait_until(
        lambda: (
            query(server.database, "SELECT COUNT(*) FROM outbox WHERE kind = 'offered'") == [(1,)]
        ),
        timeout=10,
    )
    return query(server.database, "SELECT post_id, ref_id, token FROM outbox")


async def test_a_rematch_offer_is_posted_with_the_nonce_of_its_outbox_row(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        game, result = await finished_game(server)
        fake.faults.slow("POST", general_posts(server), 0.8)  # time to see the row
        click = await fake.click(server.bob, result, rematch_id(result))
        ((post_id, ref_id, token),) = await owed_offers(server)
        assert ref_id == game.game_id and token == click.token
        answer = await click.reply(timeout=10)
        assert "for a rematch" in answer.content
        (offer,) = offers(server)
        (sent,) = fake.requests_to("POST", general_posts(server))
        assert sent.json["nonce"] == f"d{post_id}.1" and sent.json["enforce_nonce"]
        await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
        assert query(db, "SELECT message_id FROM challenges WHERE rematch_of = ?",
                     (game.game_id,)) == [(offer.id,)]  # fmt: skip
    assert errors(caplog) == []


async def offer_stopped_on_its_way(
    server: Server, *, now: ShiftedClock | None = None, busy: bool = False
) -> tuple[StartedGame, InteractionHandle]:
    """A game finished, bob's click on Rematch, and the bot stopped with the offer's post on
    its way (Discord never gets it): the game and the click. ``busy``: the bot defers the
    click first, so its "thinking..." placeholder waits for the offer."""
    fake = server.fake
    async with bot_on(fake, server.database, now=now) as bot:
        game, result = await finished_game(server)
        loop = asyncio.get_running_loop()
        others = {loop.create_future() for _ in range(BUSY_HANDLERS + 1)} if busy else set()
        bot._handlers |= others
        fake.faults.slow("POST", general_posts(server), 30)
        click = await fake.click(server.bob, result, rematch_id(result))
        if busy:
            assert (await click.response()).name == "deferred message"
        await owed_offers(server)
        bot._handlers -= others
    fake.faults.clear()
    return game, click


async def test_a_rematch_offer_stopped_on_its_way_is_posted_once_at_the_next_start(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    game, click = await offer_stopped_on_its_way(server, busy=True)
    assert offers(server) == []
    assert query(db, "SELECT COUNT(*) FROM outbox WHERE kind = 'offered'") == [(1,)]

    async with bot_on(fake, db):
        answer = await click.reply(timeout=15)
        await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
        await asyncio.sleep(0.3)  # a second post would come now
        (offer,) = offers(server)
        assert f"<@{server.alice.id}>" in offer.content
        assert any(c.startswith("dots:challenge:accept:") for c in offer.custom_ids())
        # The placeholder says where the offer is.
        assert "for a rematch" in answer.content and str(offer.id) in answer.content
        assert query(db, "SELECT message_id FROM challenges WHERE rematch_of = ?",
                     (game.game_id,)) == [(offer.id,)]  # fmt: skip
    assert errors(caplog) == []


async def test_a_rematch_offer_that_expired_before_the_next_start_is_not_posted(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ShiftedClock()
    await offer_stopped_on_its_way(server, now=clock)
    clock.offset = timedelta(minutes=10, seconds=1)
    db = server.database
    with caplog.at_level(logging.INFO):
        async with bot_on(server.fake, db, now=clock):
            await server.fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
            await asyncio.sleep(0.3)  # a post would come now
            assert offers(server) == []
            statuses = query(db, "SELECT status FROM challenges WHERE rematch_of IS NOT NULL")
            assert statuses == [("expired",)]
    assert errors(caplog) == []


async def test_a_rematch_offer_posted_before_its_message_was_stored_is_not_posted_again(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """A stop after Discord took the offer and before its message id was stored (made here
    by forgetting the id and the delivery): the next start finds the offer by its Accept
    button, stores its message and posts nothing."""
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        game, result = await finished_game(server)
        await (await fake.click(server.bob, result, rematch_id(result))).reply()
        (offer,) = offers(server)
        await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
    with contextlib.closing(sqlite3.connect(db)) as con, con:
        con.execute("UPDATE challenges SET message_id = NULL WHERE rematch_of = ?", (game.game_id,))
        con.execute(
            "INSERT INTO outbox (kind, ref_id, guild_id, created) VALUES ('offered', ?, ?, ?)",
            (game.game_id, server.guild.id, time.time()),
        )

    async with bot_on(fake, db):
        await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
        await asyncio.sleep(0.3)  # a second post would come now
        assert offers(server) == [offer]
        assert query(db, "SELECT message_id FROM challenges WHERE rematch_of = ?",
                     (game.game_id,)) == [(offer.id,)]  # fmt: skip
    assert errors(caplog) == []
