"""Takebacks by consent through the real bot and the fake Discord: asked and
accepted, asked and declined (database and picture checked), the refusals (each private,
nothing changed), and a request that outlives a restart of the bot."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.e2e.helpers import (
    Server,
    actions,
    bot_on,
    decode_png,
    make_server,
    query,
    snapshot,
    start_game,
)
from tests.e2e.test_game import refused
from tests.e2e.test_interactions import FORGED_ID, forged_click
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message

__all__ = ["fake_discord"]  # the fixture is used by name


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob, carol (a bystander) and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


def no_errors(caplog: pytest.LogCaptureFixture) -> None:
    assert [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info] == []


async def ask(server: Server, thread: Channel) -> Message:
    """Alice asks for a takeback in the game's thread: the public request with its buttons."""
    request = await (await server.fake.slash(server.alice, "takeback", channel=thread)).reply()
    assert not request.is_ephemeral and server.bob.mention in request.content
    await noted(server)
    return request


async def noted(server: Server) -> None:
    """Wait until the bot noted the request's message (just after posting it)."""
    await server.fake.wait_until(
        lambda: query(server.database, "SELECT 1 FROM takebacks WHERE message_id IS NOT NULL")
    )
    # and its post is done (its outbox row deleted just after).
    await server.fake.wait_until(lambda: not query(server.database, "SELECT 1 FROM outbox"))


def stored_request(server: Server, game_id: int) -> list[tuple[object, ...]]:
    return query(
        server.database,
        "SELECT asker_id, moves, status FROM takebacks WHERE game_id = ?",
        (game_id,),
    )


async def test_a_takeback_asked_and_accepted(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    s, fake = server, server.fake
    async with bot_on(fake, s.database):
        game = await start_game(s, s.alice, s.bob, rated=False)
        first = await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        await (await fake.slash(s.bob, "move", channel=game.thread, point="F5")).reply()
        moved = await (await fake.slash(s.alice, "move", channel=game.thread, point="D4")).reply()
        request = await ask(s, game.thread)
        assert "take back D4" in request.content
        accept, decline = request.custom_ids()
        ((asked,),) = query(s.database, "SELECT asked FROM takebacks")
        assert accept == f"dots:takeback:accept:{game.game_id}:3:{int(asked)}"
        assert decline == f"dots:takeback:decline:{game.game_id}:3:{int(asked)}"
        assert stored_request(s, game.game_id) == [(s.alice.id, 3, "pending")]
        # A bystander's click, and the asker's own, are refused privately.
        await refused(await fake.click(s.carol, request, accept), says="only")
        await refused(await fake.click(s.alice, request, accept), says="your opponent answers")
        assert len(actions(s.database, game.game_id)) == 3
        posted = len(fake.posted(game.thread))
        await (await fake.click(s.bob, request, accept)).response()
        after = await fake.wait_until(
            lambda: next(
                (m for m in fake.posted(game.thread)[posted:] if "took back D4" in m.content),
                None,
            ),
            poll=None,
        )
        assert "Pink to move" in after.content
        assert actions(s.database, game.game_id) == [("dot", 1, "E5"), ("dot", 2, "F5")]
        assert stored_request(s, game.game_id) == [(s.alice.id, 3, "accepted")]
        # The new picture is the position after F5 again: as big as the one then, and not
        # the one with D4 on it.
        picture = after.attachments[0]
        assert picture.is_png and decode_png(picture.data) == decode_png(moved.attachments[0].data)
        assert picture.data != moved.attachments[0].data
        assert first.attachments[0].is_png
        answered = fake.messages[request.id]
        assert "accepted" in answered.content
        assert all(c.get("disabled") for row in answered.components for c in row["components"])
        # Alice plays again where she likes.
        again = await (await fake.slash(s.alice, "move", channel=game.thread, point="C3")).reply()
        assert "plays C3" in again.content
    no_errors(caplog)


async def test_a_takeback_asked_and_declined_changes_nothing_else(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    s, fake = server, server.fake
    async with bot_on(fake, s.database):
        game = await start_game(s, s.alice, s.bob, rated=False)
        moved = await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        request = await ask(s, game.thread)
        before = snapshot(s.database)
        answer = await fake.click(s.bob, request, request.custom_ids()[1])
        await answer.response()
        await fake.wait_until(lambda: "declined" in fake.messages[request.id].content, poll=None)
        await fake.wait_until(lambda: not query(s.database, "SELECT 1 FROM outbox"), poll=None)
        after = snapshot(s.database)
        # The answer's post went through the outbox (its row gone once shown; SQLite counts the
        # ids it used, never to reuse one).
        assert {t for t in after if after[t] != before[t]} == {"takebacks", "sqlite_sequence"}
        assert stored_request(s, game.game_id) == [(s.alice.id, 1, "declined")]
        assert actions(s.database, game.game_id) == [("dot", 1, "E5")]
        # No new picture: the last one in the thread is still the one of E5.
        assert fake.posted(game.thread)[-1].id in {request.id, moved.id}
        # Asking again for the same move is refused.
        again = await fake.slash(s.alice, "takeback", channel=game.thread)
        await refused(again, says="declined")
    no_errors(caplog)


async def test_takeback_refusals_are_private_and_change_nothing(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    s, fake = server, server.fake
    async with bot_on(fake, s.database):
        rated = await start_game(s, s.alice, s.bob)
        await (await fake.slash(s.alice, "move", channel=rated.thread, point="E5")).reply()
        before = snapshot(s.database)
        off = await fake.slash(s.alice, "takeback", channel=rated.thread)
        await refused(off, says="takebacks are off")
        assert snapshot(s.database) == before

        game = await start_game(s, s.carol, s.admin, rated=False)
        before = snapshot(s.database)
        early = await fake.slash(s.carol, "takeback", channel=game.thread)
        await refused(early, says="right after your move")
        await (await fake.slash(s.carol, "move", channel=game.thread, point="E5")).reply()
        before = snapshot(s.database)
        theirs = await fake.slash(s.admin, "takeback", channel=game.thread)
        await refused(theirs, says="right after your move")
        assert snapshot(s.database) == before

        request = await (await fake.slash(s.carol, "takeback", channel=game.thread)).reply()
        await noted(s)
        before = snapshot(s.database)
        twice = await fake.slash(s.carol, "takeback", channel=game.thread)
        await refused(twice, says="already asked")
        assert snapshot(s.database) == before
        # The opponent moves instead of answering: a click then is refused, nothing changes.
        await (await fake.slash(s.admin, "move", channel=game.thread, point="F5")).reply()
        before = snapshot(s.database)
        late = await fake.click(s.admin, request, request.custom_ids()[0])
        await refused(late, says="moved on")
        assert snapshot(s.database) == before
        for custom_id in (f"dots:takeback:accept:{FORGED_ID}:1", "dots:takeback:accept:999:1"):
            await refused(await forged_click(s, custom_id, where=game.thread))
        assert snapshot(s.database) == before
    no_errors(caplog)


async def test_a_takeback_request_survives_a_restart(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    s, fake = server, server.fake
    async with bot_on(fake, s.database):
        game = await start_game(s, s.alice, s.bob, rated=False)
        await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        request = await ask(s, game.thread)
    async with bot_on(fake, s.database):
        posted = len(fake.posted(game.thread))
        await (await fake.click(s.bob, request, request.custom_ids()[0])).response()
        await fake.wait_until(
            lambda: any("took back E5" in m.content for m in fake.posted(game.thread)[posted:]),
            poll=None,
        )
        assert actions(s.database, game.game_id) == []
        assert stored_request(s, game.game_id) == [(s.alice.id, 1, "accepted")]
    no_errors(caplog)
