"""Games where the app is used as a user's install (a DM with the bot, a group DM, a server
that never added the bot), through the real bot and the fake Discord: the game lives on its
card, each card a follow-up of a player's click, with no thread and no post of the bot's own
where Discord forbids one; a stranger's click is refused privately; each interaction's first
answer comes within 3 seconds and every card passes the fake's Components V2 rules."""

from __future__ import annotations

import asyncio
import logging
import time
from datetime import timedelta
from pathlib import Path

import pytest

from bot.cogs import on_card
from bot.cogs.client import BUSY_HANDLERS
from engine import Point
from tests.e2e.helpers import Server, ShiftedClock, make_server, query
from tests.e2e.test_click_play import (
    SLOW,
    answered_in_time,
    card_bot,
    card_for,
    confirm_from_card,
    moves_of,
    play_by_clicks,
    shown_text,
    status,
)
from tests.fakediscord.faults import FOLLOWUP
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.installs import create_group_dm
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message, User

__all__ = ["fake_discord"]  # the fixture is used by name

FORBIDDEN = 403


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    return make_server(fake_discord, tmp_path / "db.sqlite3")


@pytest.fixture
def group(server: Server) -> Channel:
    """A group DM of Alice and Bob (the bot is not in it)."""
    return create_group_dm(server.fake, server.alice, server.bob)


@pytest.fixture
def trio(server: Server) -> Channel:
    """A group DM of Alice, Bob and Carol (the bot is not in it)."""
    return create_group_dm(server.fake, server.alice, server.bob, server.carol)


def errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


def assert_clean(server: Server, channel: Channel, caplog: pytest.LogCaptureFixture) -> None:
    """No request about ``channel`` was refused for want of access, and no ERROR logged."""
    assert refused_requests(server, channel) == []
    assert errors(caplog) == []


def refused_requests(server: Server, channel: Channel) -> list[str]:
    """The bot's requests about ``channel`` that Discord refused for want of access."""
    return [
        f"{r.method} {r.path}"
        for r in server.fake.requests
        if r.status == FORBIDDEN and f"/channels/{channel.id}" in r.path
    ]


def game_where(server: Server, channel: Channel) -> tuple[int, object, object, object] | None:
    """The (game id, server, thread, rated) of the game played in ``channel``, once stored."""
    found = query(
        server.database,
        "SELECT game_id, guild_id, thread_id, rated FROM games WHERE channel_id = ?",
        (channel.id,),
    )
    if not found:
        return None
    ((game_id, guild_id, thread_id, rated),) = found
    return int(game_id), guild_id, thread_id, rated


async def resign_by_card(server: Server, channel: Channel, game_id: int, user: User) -> None:
    """``user`` resigns from the card and its private confirmation: the game is over."""
    await confirm_from_card(server, channel, game_id, user, "resign")
    assert status(server, game_id) == "over"


async def game_on_card(server: Server, channel: Channel) -> int:
    """The game started in ``channel`` (once stored): it lives on its card, with no server,
    no thread and no rating."""
    game_id, guild_id, thread_id, rated = await server.fake.wait_until(
        lambda: game_where(server, channel), timeout=SLOW
    )
    assert (guild_id, thread_id, bool(rated)) == (0, None, False)
    return game_id


async def challenge_accepted(
    server: Server, channel: Channel, pink: User, blue: User, **options: object
) -> int:
    """``pink`` challenges ``blue`` in ``channel`` (with ``options``) and ``blue`` accepts:
    the game's id."""
    fake = server.fake
    asked = await fake.slash(
        pink, "challenge", channel=channel, opponent=blue, colour="pink", **options
    )
    challenge = await asked.reply(timeout=SLOW)
    await answered_in_time(asked)
    assert not challenge.is_ephemeral
    accept = next(c for c in challenge.custom_ids() if c.startswith("dots:challenge:accept:"))
    await answered_in_time(await fake.click(blue, challenge, accept))
    return await game_on_card(server, channel)


async def no_card_buttons_left(server: Server, channel: Channel) -> None:
    """Every card in ``channel`` lost its buttons (the last one has none: the game is over)."""
    await server.fake.wait_until(
        lambda: (
            not any(
                c.startswith("dots:card:")
                for m in server.fake.posted(channel)
                for c in m.custom_ids()
            )
        ),
        timeout=SLOW,
        poll=None,
    )


@pytest.mark.parametrize("place", ["dm", "server without the bot"])
async def test_a_game_against_the_computer_outside_a_server_with_the_bot_is_played_by_clicks(
    server: Server, caplog: pytest.LogCaptureFixture, place: str
) -> None:
    fake = server.fake
    if place == "dm":
        channel = fake.open_dm(server.alice)
    else:
        channel = fake.channel_named("general", fake.create_guild("No bot", with_bot=False))
    async with card_bot(server):
        started = await fake.slash(
            server.alice, "play-computer", channel=channel, level="easy", colour="pink"
        )
        await started.reply(timeout=SLOW)
        await answered_in_time(started)
        game_id = await game_on_card(server, channel)
        for turn, point in enumerate((Point(4, 4), Point(2, 7), Point(7, 2))):
            await play_by_clicks(server, channel, game_id, server.alice, point, (10, 10))
            # The computer's reply is a card too, following the same click (counted from the
            # turn: the reply may be stored already).
            await card_for(server, channel, game_id, 2 * turn + 2)
        await resign_by_card(server, channel, game_id, server.alice)
        await no_card_buttons_left(server, channel)
    assert fake.threads() == []
    assert_clean(server, channel, caplog)


async def test_a_challenge_in_a_group_dm_is_played_by_clicks_and_a_stranger_is_refused(
    server: Server, trio: Channel, caplog: pytest.LogCaptureFixture
) -> None:
    fake, group = server.fake, trio
    alice, bob, carol = server.alice, server.bob, server.carol
    async with card_bot(server):
        game_id = await challenge_accepted(server, group, alice, bob)
        card = await card_for(server, group, game_id, 0)
        assert "buttons" in shown_text(card) and "/move" not in shown_text(card)  # none here
        # Carol sees the card in the group DM, but none of its buttons is hers.
        before = query(server.database, "SELECT moves, message_id FROM games")
        for action in ("move", "board", "resign"):
            handle = await fake.click(carol, card, f"dots:card:{action}:{game_id}:0")
            refusal: Message = await handle.reply(timeout=SLOW)
            await answered_in_time(handle)
            assert refusal.is_ephemeral and "not playing" in refusal.content
        assert query(server.database, "SELECT moves, message_id FROM games") == before
        players = (alice, bob)
        for number, point in enumerate([Point(4, 4), Point(5, 5), Point(3, 6), Point(6, 3)]):
            await play_by_clicks(server, group, game_id, players[number % 2], point, (10, 10))
        await resign_by_card(server, group, game_id, alice)
        await no_card_buttons_left(server, group)
    assert fake.threads() == []
    assert_clean(server, group, caplog)


async def test_a_card_game_where_no_click_is_recent_tells_the_players_and_the_next_click_shows_it(
    server: Server,
    group: Channel,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = server.fake
    alice, bob = server.alice, server.bob
    async with card_bot(server):
        game_id = await challenge_accepted(server, group, alice, bob)
        first = await card_for(server, group, game_id, 0)
        # As if every click were older than its token's 15 minutes: Alice's move has no
        # interaction to follow, so its news goes to the players' DMs (Bob's are closed).
        monkeypatch.setattr(on_card, "TOKEN_LIFE", -1.0)
        opening = await fake.click(alice, first, f"dots:card:move:{game_id}:0")
        picker = await opening.reply(timeout=SLOW)
        dot = next(c for c in picker.custom_ids() if c.endswith(":5:5"))
        await answered_in_time(await fake.click(alice, picker, dot))
        await fake.wait_until(lambda: moves_of(server, game_id) == 1, timeout=SLOW, poll=None)
        dm = fake.open_dm(alice)
        news = await fake.wait_until(lambda: fake.posted(dm), timeout=SLOW, poll=None)
        assert f"#{game_id}" in news[-1].content and "F6" in news[-1].content
        cards = [m.id for m in fake.posted(group) if "dots:card:" in " ".join(m.custom_ids())]
        assert cards == [first.id]  # nothing was posted in the group DM
        # Bob's click on the card he still sees is refused privately, and brings the new one.
        monkeypatch.setattr(on_card, "TOKEN_LIFE", 14 * 60.0)
        stale = await fake.click(bob, first, f"dots:card:move:{game_id}:0")
        refusal = await stale.reply(timeout=SLOW)
        await answered_in_time(stale)
        assert refusal.is_ephemeral and "old" in refusal.content
        newest = await card_for(server, group, game_id, 1)
        await play_by_clicks(server, group, game_id, bob, Point(6, 6), (10, 10))
        assert newest.id != first.id
    assert_clean(server, group, caplog)


async def test_a_group_dm_game_goes_on_after_a_restart_from_its_newest_card(
    server: Server, group: Channel, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob = server.alice, server.bob
    async with card_bot(server):
        game_id = await challenge_accepted(server, group, alice, bob)
        await play_by_clicks(server, group, game_id, alice, Point(4, 4), (10, 10))
        newest = await card_for(server, group, game_id, 1)
    async with card_bot(server):  # the interactions it followed are gone with the process
        await play_by_clicks(server, group, game_id, bob, Point(6, 6), (10, 10))
        after = await card_for(server, group, game_id, 2)
        assert after.id != newest.id
    assert_clean(server, group, caplog)


async def test_a_time_out_while_the_bot_was_down_reaches_the_dms_and_the_next_click(
    server: Server, group: Channel, caplog: pytest.LogCaptureFixture
) -> None:
    fake = server.fake
    alice, bob = server.alice, server.bob
    clock = ShiftedClock()
    async with card_bot(server, now=clock):
        game_id = await challenge_accepted(server, group, alice, bob, clock=30)
        await play_by_clicks(server, group, game_id, alice, Point(4, 4), (10, 10))
        newest = await card_for(server, group, game_id, 1)
    ((deadline,),) = query(server.database, "SELECT deadline FROM games")
    clock.offset = timedelta(seconds=deadline - time.time() + 1)  # Bob's clock ran out
    async with card_bot(server, now=clock):
        await fake.wait_until(lambda: moves_of(server, game_id) == 2, timeout=SLOW, poll=None)
        # No click to follow: the news goes to the DMs (Bob's are closed), and the bot does
        # not try again.
        dm = fake.open_dm(alice)
        news = await fake.wait_until(lambda: fake.posted(dm), timeout=SLOW, poll=None)
        assert "ran out of time" in news[-1].content
        await fake.wait_until(
            lambda: query(server.database, "SELECT COUNT(*) FROM outbox") == [(0,)], poll=None
        )
        # Alice's next click on the card she sees shows the game as it is now.
        stale = await fake.click(alice, newest, f"dots:card:move:{game_id}:1")
        assert (await stale.reply(timeout=SLOW)).is_ephemeral
        await answered_in_time(stale)
        shown = await card_for(server, group, game_id, 2)
        assert "ran out of time" not in shown_text(shown)  # the card says how it stands
        assert "may play on alone" in shown_text(shown)
    assert_clean(server, group, caplog)


def rematch_button(server: Server, channel: Channel, game_id: int) -> Message | None:
    """The message in ``channel`` with the Rematch button of game ``game_id``, once posted."""
    wanted = f"dots:rematch:offer:{game_id}"
    return next((m for m in server.fake.posted(channel) if wanted in m.custom_ids()), None)


async def test_a_card_game_ends_with_a_rematch_offered_and_played_on_its_card(
    server: Server, trio: Channel, caplog: pytest.LogCaptureFixture
) -> None:
    fake, group = server.fake, trio
    alice, bob, carol = server.alice, server.bob, server.carol
    async with card_bot(server):
        game_id = await challenge_accepted(server, group, alice, bob)
        await play_by_clicks(server, group, game_id, alice, Point(4, 4), (10, 10))
        await resign_by_card(server, group, game_id, bob)
        final = await fake.wait_until(
            lambda: rematch_button(server, group, game_id), timeout=SLOW, poll=None
        )
        rematch = f"dots:rematch:offer:{game_id}"
        # Carol sees the result but the rematch is not hers to ask for.
        before = query(server.database, "SELECT COUNT(*) FROM challenges")
        stranger = await fake.click(carol, final, rematch)
        refusal = await stranger.reply(timeout=SLOW)
        await answered_in_time(stranger)
        assert refusal.is_ephemeral
        assert query(server.database, "SELECT COUNT(*) FROM challenges") == before
        # Bob asks: the offer is the public answer to his click, pinging Alice.
        asked = await fake.click(bob, final, rematch)
        offer = await asked.reply(timeout=SLOW)
        await answered_in_time(asked)
        assert not offer.is_ephemeral and f"<@{alice.id}>" in offer.content
        assert "rematch of game" in offer.content
        accept = next(c for c in offer.custom_ids() if c.startswith("dots:challenge:accept:"))
        await answered_in_time(await fake.click(alice, offer, accept))
        new_id = await fake.wait_until(
            lambda: (
                query(server.database, "SELECT MAX(game_id) FROM games")[0][0] != game_id
                and query(server.database, "SELECT MAX(game_id) FROM games")[0][0]
            ),
            timeout=SLOW,
        )
        ((pink, blue, guild, thread),) = query(
            server.database,
            "SELECT pink_id, blue_id, guild_id, thread_id FROM games WHERE game_id = ?",
            (new_id,),
        )
        # Colours swapped, and the new game lives on its card too: Bob (Pink now) plays first.
        assert (pink, blue, guild, thread) == (bob.id, alice.id, 0, None)
        await play_by_clicks(server, group, new_id, bob, Point(5, 5), (10, 10))
        # The finished game's Review is answered where it was played.
        review = await fake.click(carol, final, f"dots:review:game:{game_id}")
        await review.reply(timeout=SLOW)
        await answered_in_time(review)
        shown = await fake.wait_until(
            lambda: next(
                (m for m in fake.posted(group) if m.attachments and "Review" in m.content), None
            ),
            timeout=SLOW,
            poll=None,
        )
        assert f"#{game_id}" in shown.content
    assert fake.threads() == []
    assert_clean(server, group, caplog)


async def test_a_rematch_against_the_computer_on_a_card_starts_at_once(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    fake = server.fake
    channel = fake.open_dm(server.alice)
    async with card_bot(server):
        started = await fake.slash(
            server.alice, "play-computer", channel=channel, level="easy", colour="pink"
        )
        await started.reply(timeout=SLOW)
        game_id = await game_on_card(server, channel)
        await resign_by_card(server, channel, game_id, server.alice)
        final = await fake.wait_until(
            lambda: rematch_button(server, channel, game_id), timeout=SLOW, poll=None
        )
        again = await fake.click(server.alice, final, f"dots:rematch:offer:{game_id}")
        answer = await again.reply(timeout=SLOW)
        await answered_in_time(again)
        assert not answer.is_ephemeral and "you play Blue" in answer.content
        ((new_id, pink, blue, guild),) = await fake.wait_until(
            lambda: query(
                server.database,
                "SELECT game_id, pink_id, blue_id, guild_id FROM games WHERE game_id != ?",
                (game_id,),
            ),
            timeout=SLOW,
        )
        assert (blue, guild) == (server.alice.id, 0) and pink < 0
        # The computer (Pink) opens, and Alice answers from the new game's card.
        await card_for(server, channel, new_id, 1)
        await play_by_clicks(server, channel, new_id, server.alice, Point(2, 2), (10, 10))
    assert fake.threads() == []
    assert_clean(server, channel, caplog)


async def test_a_card_games_rematch_offer_stopped_on_its_way_fills_the_clicks_placeholder(
    server: Server, group: Channel, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    alice, bob = server.alice, server.bob
    async with card_bot(server) as bot:
        game_id = await challenge_accepted(server, group, alice, bob)
        await resign_by_card(server, group, game_id, alice)
        final = await fake.wait_until(
            lambda: rematch_button(server, group, game_id), timeout=SLOW, poll=None
        )
        # The bot is busy, so it defers Bob's click; then it stops while the offer (the
        # click's follow-up) is on its way: Discord never gets it.
        loop = asyncio.get_running_loop()
        others = {loop.create_future() for _ in range(BUSY_HANDLERS + 1)}
        bot._handlers |= others
        fake.faults.slow("POST", FOLLOWUP, 30)
        click = await fake.click(bob, final, f"dots:rematch:offer:{game_id}")
        assert (await click.response()).name == "deferred message"
        await fake.wait_until(
            lambda: query(db, "SELECT COUNT(*) FROM outbox WHERE kind = 'offered'") == [(1,)],
            timeout=SLOW,
        )
        bot._handlers -= others
    fake.faults.clear()
    async with card_bot(server):
        # At the next start the offer fills the placeholder of Bob's click, once.
        offer = await click.reply(timeout=SLOW)
        await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
        assert f"<@{alice.id}>" in offer.content and "rematch of game" in offer.content
        accept = next(c for c in offer.custom_ids() if c.startswith("dots:challenge:accept:"))
        assert query(db, "SELECT message_id FROM challenges WHERE rematch_of = ?",
                     (game_id,)) == [(offer.id,)]  # fmt: skip
        await answered_in_time(await fake.click(alice, offer, accept))
        await fake.wait_until(
            lambda: query(db, "SELECT COUNT(*) FROM games") == [(2,)], timeout=SLOW
        )
    assert_clean(server, group, caplog)


@pytest.mark.parametrize("place", ["dm", "group dm", "server without the bot"])
async def test_a_card_game_speaks_the_language_of_its_place(
    server: Server, caplog: pytest.LogCaptureFixture, place: str
) -> None:
    fake, alice, bob = server.fake, server.alice, server.bob
    fake.set_locale(alice, "pl")
    fake.set_locale(bob, "pl")
    if place == "dm":
        channel = fake.open_dm(alice)
    elif place == "group dm":
        channel = create_group_dm(fake, alice, bob)
    else:
        guild = fake.create_guild("Bez bota", with_bot=False)
        fake.set_guild_locale(guild, "pl")
        channel = fake.channel_named("general", guild)
    async with card_bot(server):
        started = await fake.slash(
            alice, "play-computer", channel=channel, level="easy", colour="pink"
        )
        await started.reply(timeout=SLOW)
        game_id = await game_on_card(server, channel)
        card = await card_for(server, channel, game_id, 0)
        assert "Gra #" in shown_text(card) and "Game #" not in shown_text(card)
        # The card of the computer's reply, following her click, speaks it too.
        await play_by_clicks(server, channel, game_id, alice, Point(1, 1), (10, 10))
        reply = await card_for(server, channel, game_id, 2)
        assert "Gra #" in shown_text(reply) and "Game #" not in shown_text(reply)
    assert_clean(server, channel, caplog)
