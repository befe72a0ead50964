"""Draws by agreement through the real bot and the fake Discord: offered with /draw and
accepted (the game ends drawn and is rated as a draw), declined, lapsed with the next move,
the refusals (each private, nothing changed), and the card's Offer a draw button."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.helpers import Server, bot_on, make_server, query, snapshot, start_game
from tests.e2e.test_click_play import SLOW, card_bot, card_for
from tests.e2e.test_game import refused
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message

__all__ = ["fake_discord"]  # the fixture is used by name


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob, carol (a bystander) and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


async def offer(server: Server, thread: Channel) -> Message:
    """Alice offers a draw in the game's thread: the public offer with its buttons."""
    made = await (await server.fake.slash(server.alice, "draw", channel=thread)).reply()
    assert not made.is_ephemeral and server.bob.mention in made.content
    assert "offers a draw" in made.content and bob_pinged(server, made)
    return made


def bob_pinged(server: Server, message: Message) -> bool:
    return server.bob.id in message.pinged


def result(server: Server, game_id: int) -> tuple[object, ...]:
    ((row),) = query(
        server.database,
        "SELECT status, winner, reason, pink_score, blue_score FROM games WHERE game_id = ?",
        (game_id,),
    )
    return tuple(row)


async def test_a_draw_offered_and_accepted_ends_the_game_drawn_and_rated_as_a_draw(
    server: Server,
) -> None:
    s, fake = server, server.fake
    async with bot_on(fake, s.database):
        game = await start_game(s, s.alice, s.bob)
        await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        await (await fake.slash(s.bob, "move", channel=game.thread, point="F5")).reply()
        made = await offer(s, game.thread)
        accept, decline = made.custom_ids()
        assert accept == f"dots:draw:accept:{game.game_id}:2:{s.alice.id}"
        assert decline == f"dots:draw:decline:{game.game_id}:2:{s.alice.id}"

        before = snapshot(s.database)
        await refused(await fake.click(s.carol, made, accept), says="not playing")
        await refused(await fake.click(s.alice, made, accept), says="only your opponent")
        await refused(await fake.click(s.alice, made, decline), says="only your opponent")
        assert snapshot(s.database) == before and "offers a draw" in made.content

        clicked = await fake.click(s.bob, made, accept)
        await clicked.response()
        await fake.wait_until(lambda: "accepted the draw" in made.content, timeout=SLOW, poll=None)
        assert made.buttons() == []
        shown = await fake.wait_until(
            lambda: next(
                (m for m in fake.posted(game.thread) if "accepts the offer of a draw" in m.text()),
                None,
            ),
            timeout=SLOW,
            poll=None,
        )
        assert "by agreement" in shown.text() and shown.attachments[0].is_png
        assert result(s, game.game_id) == ("over", None, "agreement", 0, 0)
        kinds = query(
            s.database, "SELECT kind, player FROM actions WHERE game_id = ? ORDER BY seq",
            (game.game_id,),
        )  # fmt: skip
        assert kinds[-1] == ("draw", 2)  # Blue (2) accepted
        ratings = query(
            s.database, "SELECT user_id, rating, games, wins, losses, draws FROM ratings "
            "ORDER BY user_id",
        )  # fmt: skip
        assert [row[2:] for row in ratings] == [(1, 0, 0, 1), (1, 0, 0, 1)]
        assert ratings[0][1] == ratings[1][1]  # equal before, a draw keeps them equal
        # An offer in a game that is over is refused.
        await refused(await fake.slash(s.bob, "draw", channel=game.thread), says="over")


async def test_a_draw_offer_is_declined_or_lapses_with_the_next_move(server: Server) -> None:
    s, fake = server, server.fake
    async with bot_on(fake, s.database):
        game = await start_game(s, s.alice, s.bob, rated=False)
        await (await fake.slash(s.alice, "move", channel=game.thread, point="E5")).reply()
        first = await offer(s, game.thread)
        declined = await fake.click(s.bob, first, first.custom_ids()[1])
        await declined.response()
        assert "declined the draw" in first.content and first.buttons() == []

        # Offered from elsewhere: the offer goes to the game's thread, the link privately.
        there = await (await fake.slash(s.alice, "draw", channel=s.general)).reply()
        assert there.is_ephemeral and f"/{game.thread.id}" in there.content
        second = await fake.wait_until(
            lambda: next(
                (m for m in fake.posted(game.thread)[::-1] if "offers a draw" in m.content), None
            ),
            poll=None,
        )
        assert second is not first and bob_pinged(s, second)
        await (await fake.slash(s.bob, "move", channel=game.thread, point="F5")).reply()
        before = snapshot(s.database)
        late = await fake.click(s.bob, second, second.custom_ids()[0])
        await refused(late, says="lapsed")
        assert snapshot(s.database) == before
        assert result(s, game.game_id)[0] == "running"


async def test_the_card_offers_a_draw_between_people_only(server: Server) -> None:
    s, fake = server, server.fake
    async with card_bot(s):
        game = await start_game(s, s.alice, s.bob, rated=False)
        card = await card_for(s, game.thread, game.game_id, 0)
        draw = f"dots:card:draw:{game.game_id}:0"
        assert draw in card.custom_ids()
        # Bob, not to move, may offer too: the offer goes to Alice.
        made = await (await fake.click(s.bob, card, draw)).reply(timeout=SLOW)
        assert not made.is_ephemeral and s.alice.mention in made.content
        assert made.custom_ids()[0] == f"dots:draw:accept:{game.game_id}:0:{s.bob.id}"
        await refused(await fake.click(s.carol, card, draw), says="not playing")

        await (
            await fake.slash(
                s.alice, "play-computer", channel=s.general, level="easy", colour="pink"
            )
        ).reply(timeout=SLOW)
        ((computer_game, thread_id),) = await fake.wait_until(
            lambda: query(
                s.database,
                "SELECT game_id, thread_id FROM games "
                "WHERE game_id != ? AND message_id IS NOT NULL",
                (game.game_id,),
            ),
            timeout=SLOW,
        )
        thread = fake.channels[thread_id]
        computer_card = await card_for(s, thread, computer_game, 0)
        assert not any(c.startswith("dots:card:draw") for c in computer_card.custom_ids())
        await refused(await fake.slash(s.alice, "draw", channel=thread), says="computer")
