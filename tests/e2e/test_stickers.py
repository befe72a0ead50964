"""Stickers through the real bot and the fake Discord: a move that earns one
says so in its post (new the first time, named after), nothing is said for a move that earns
none, the book is a picture for any member and survives a restart; refusals are private."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.stickers import Sticker
from tests.e2e.helpers import Server, bot_on, decode_png, make_server, query, snapshot, start_game
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message, User

__all__ = ["fake_discord"]  # the fixture is used by name

# Pink's diamond around Blue's E5 (Blue's other dots far off): Pink's E4 captures, action 6.
CAPTURE = ["E6", "E5", "D5", "A1", "F5", "A2", "E4"]
# Then Blue's empty ring around K5; Pink walks into it and is captured at once: Blue's trap.
TRAP = ["K6", "A3", "J5", "A4", "L5", "A5", "K4", "K5"]


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob (DMs closed), carol and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


async def moves(server: Server, thread: Channel, points: list[str], first: User) -> list[Message]:
    """Alternate ``/move`` commands in a game's thread from ``first``; each move's post."""
    players = [first, server.bob if first is server.alice else server.alice]
    posts = []
    for n, point in enumerate(points):
        handle = await server.fake.slash(players[n % 2], "move", channel=thread, point=point)
        posts.append(await handle.reply())
    return posts


def stickers_of(server: Server, game_id: int) -> list[tuple[int, str, int]]:
    return [
        (int(u), str(s), int(q))
        for u, s, q in query(
            server.database,
            "SELECT user_id, sticker, seq FROM stickers WHERE game_id = ? ORDER BY seq, sticker",
            (game_id,),
        )
    ]


async def test_moves_that_earn_stickers_say_so_and_the_others_do_not(server: Server) -> None:
    fake, alice, bob = server.fake, server.alice, server.bob
    async with bot_on(fake, server.database):
        game = await start_game(server, alice, bob, size="20x20")
        posts = await moves(server, game.thread, CAPTURE + TRAP, alice)
        said = [("sticker" in p.content.lower()) for p in posts]
        capture, trap = len(CAPTURE) - 1, len(CAPTURE + TRAP) - 1
        assert [n for n, s in enumerate(said) if s] == [capture, trap]
        assert f"{alice.mention}: New sticker! {Sticker.FIRST_CAPTURE.label}" in (
            posts[capture].content
        )
        # Blue's trap on Pink's dot: Blue's first capture and trap, both new.
        assert f"{bob.mention}: New sticker! {Sticker.EMPTY_RING_TRAP.label}" in (
            posts[trap].content
        )
        assert f"{bob.mention}: New sticker! {Sticker.FIRST_CAPTURE.label}" in posts[trap].content
        assert not posts[trap].is_ephemeral and len(posts[trap].content) <= 2000
        assert stickers_of(server, game.game_id) == [
            (alice.id, "first_capture", capture),
            (bob.id, "empty_ring_trap", trap),
            (bob.id, "first_capture", trap),
        ]
        # A second game: the same sticker again is named, no longer new.
        second = await start_game(server, alice, bob, size="20x20")
        again = await moves(server, second.thread, CAPTURE, alice)
        assert f"{alice.mention}: Sticker: {Sticker.FIRST_CAPTURE.label}" in again[-1].content
        assert "New sticker" not in again[-1].content
        assert all("sticker" not in p.content.lower() for p in again[:-1])


async def test_full_page_at_the_end_and_none_on_a_smaller_page(server: Server) -> None:
    fake, alice, bob = server.fake, server.alice, server.bob
    async with bot_on(fake, server.database):
        for size, earns in (("39x32", True), ("20x20", False)):
            game = await start_game(server, alice, bob, size=size)
            await moves(server, game.thread, ["T16"], alice)
            prompt = await (await fake.slash(bob, "resign", channel=game.thread)).reply()
            resign = next(c for c in prompt.custom_ids() if ":resign:" in c)
            await (await fake.click(bob, prompt, resign)).reply()
            # The result post (with its replay) says who got the page, or nothing.
            post = await fake.wait_until(
                lambda game=game: next(
                    (m for m in fake.posted(game.thread) if "resign" in m.content.lower()), None
                )
            )
            line = f"{alice.mention}: New sticker! {Sticker.FULL_PAGE.label}"
            assert (line in post.content) is earns, post.content
            # Only Pink placed a dot: Blue gets no page.
            assert stickers_of(server, game.game_id) == (
                [(alice.id, "full_page", 1)] if earns else []
            )


async def test_the_book_for_another_member_survives_a_restart(server: Server) -> None:
    fake, alice, bob, carol = server.fake, server.alice, server.bob, server.carol
    async with bot_on(fake, server.database):
        game = await start_game(server, alice, bob, size="20x20")
        await moves(server, game.thread, CAPTURE, alice)
        empty = await (await fake.slash(carol, "stickers", channel=server.general)).reply()
        assert "has 0 of 9" in empty.content
    async with bot_on(fake, server.database):
        book = await (
            await fake.slash(carol, "stickers", channel=server.general, user=alice)
        ).reply()
    assert not book.is_ephemeral
    assert "has 1 of 9" in book.content and "alice" in book.content
    (picture,) = book.attachments
    assert picture.is_png and decode_png(picture.data) == (832, 606)  # three rows of cards


async def test_the_book_of_a_bot_is_refused_privately(server: Server) -> None:
    fake = server.fake
    robot = fake.create_user("robot", bot=True)
    fake.add_member(server.guild, robot)
    async with bot_on(fake, server.database):
        before = snapshot(server.database)
        answer = await (
            await fake.slash(server.alice, "stickers", channel=server.general, user=robot)
        ).reply()
        assert answer.is_ephemeral and "bots collect no stickers" in answer.content.lower()
        assert answer.attachments == []
        assert snapshot(server.database) == before
