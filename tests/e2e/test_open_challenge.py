"""Open challenges, through the real bot and the fake Discord: /challenge
without an opponent, taken by the first valid click (two at once: one game, one refusal),
never by the challenger, within the taker's limits; its expiry and a restart."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from pathlib import Path

import pytest

from tests.e2e.helpers import (
    Server,
    ShiftedClock,
    bot_on,
    make_server,
    query,
    quiet,
    snapshot,
    start_game,
)
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Message, User

__all__ = ["fake_discord"]  # the fixture is used by name


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob, carol and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """ERROR records (a bug, by the project's rule) and records with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def open_challenge(server: Server, user: User, **options: object) -> Message:
    """``user`` posts an open challenge in #general; its message, once its id is noted."""
    handle = await server.fake.slash(user, "challenge", channel=server.general, **options)
    message = await handle.reply()
    await quiet(server.database)
    return message


def accept_id(message: Message) -> str:
    """The custom id of the challenge's Accept button."""
    return next(c for c in message.custom_ids() if c.startswith("dots:challenge:accept:"))


async def test_an_open_challenge_is_taken_by_one_of_two_clicking_at_once(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        challenge = await open_challenge(server, server.alice, colour="blue", clock=300)
        assert not challenge.is_ephemeral and "anyone here" in challenge.content
        assert [b["label"] for b in challenge.buttons()] == ["Accept", "Withdraw"]
        assert query(db, "SELECT opponent_id, status FROM challenges") == [(0, "open")]

        # The challenger cannot take her own challenge.
        before = snapshot(db)
        own = await (await fake.click(server.alice, challenge, accept_id(challenge))).reply()
        assert own.is_ephemeral and "your own challenge" in own.content
        assert snapshot(db) == before and "anyone here" in challenge.content

        # bob and carol click at once: one game, one private refusal.
        threads = len(fake.threads())
        bob, carol = await asyncio.gather(
            fake.click(server.bob, challenge, accept_id(challenge)),
            fake.click(server.carol, challenge, accept_id(challenge)),
        )
        await fake.wait_until(lambda: len(fake.threads()) == threads + 1, poll=None)
        await quiet(db)
        ((pink, blue, clock),) = query(db, "SELECT pink_id, blue_id, clock FROM games")
        assert blue == server.alice.id and clock == 300
        taker, loser = (bob, carol) if pink == server.bob.id else (carol, bob)
        refusal = await loser.reply()
        assert refusal.is_ephemeral and "already accepted" in refusal.content
        assert f"<@{pink}>" in refusal.content
        assert (await taker.response()).name in {"update message", "deferred update"}
        assert query(db, "SELECT opponent_id, status FROM challenges") == [(pink, "accepted")]
        # The message shows who took it, and its buttons are grey.
        await fake.wait_until(lambda: "accepted" in challenge.content, poll=None)
        assert f"<@{pink}> accepted" in challenge.content
        assert all(b["disabled"] for b in challenge.buttons())
        assert query(db, "SELECT COUNT(*) FROM games") == [(1,)]
    assert errors(caplog) == []


async def test_the_taker_limits_apply_and_withdrawing_works(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        await bot_settings(server, max_games=1)
        await start_game(server, server.bob, server.admin)  # bob is at his limit
        challenge = await open_challenge(server, server.alice)
        before = snapshot(db)
        full = await (await fake.click(server.bob, challenge, accept_id(challenge))).reply()
        assert full.is_ephemeral and "1 running game in" in full.content
        assert snapshot(db) == before
        # A second open challenge of alice's at once is refused; a named one is not.
        again = await (await fake.slash(server.alice, "challenge", channel=server.general)).reply()
        assert again.is_ephemeral and "open challenge to anyone" in again.content
        # /games lists it.
        listed = await (await fake.slash(server.alice, "games", channel=server.general)).reply()
        assert "with anyone" in listed.content
        # alice withdraws it: nobody can take it any more.
        withdraw = next(c for c in challenge.custom_ids() if ":cancel:" in c)
        await (await fake.click(server.alice, challenge, withdraw)).reply()
        assert query(db, "SELECT status FROM challenges WHERE opponent_id = 0") == [("cancelled",)]
    assert errors(caplog) == []


async def bot_settings(server: Server, **settings: object) -> None:
    """The admin sets the server's settings (limits)."""
    shown = await (
        await server.fake.slash(
            server.admin, "dots-admin settings", channel=server.general, **settings
        )
    ).reply()
    assert shown.is_ephemeral


async def test_an_open_challenge_across_restarts_taken_then_another_expires(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    clock = ShiftedClock()
    async with bot_on(fake, db, now=clock):
        taken = await open_challenge(s, s.alice)
        left = await open_challenge(s, s.bob)
    async with bot_on(fake, db, now=clock):
        # Taken after the restart: the game starts in its thread.
        threads = len(fake.threads())
        accept = await fake.click(s.carol, taken, accept_id(taken))
        await accept.response()
        await fake.wait_until(
            lambda: len(fake.threads()) == threads + 1 and fake.posted(fake.threads()[-1]),
            poll=None,
        )
        await quiet(db)
        ((pink, blue),) = query(db, "SELECT pink_id, blue_id FROM games")
        assert {pink, blue} == {s.alice.id, s.carol.id}
    # Ten minutes pass while the bot is down: bob's open challenge expires at the start.
    clock.offset = timedelta(minutes=10, seconds=1)
    async with bot_on(fake, db, now=clock):
        await fake.wait_until(lambda: "expired" in left.content, poll=None)
        assert "nobody took it" in left.content
        assert all(b["disabled"] for b in left.buttons())
        left.components[0]["components"][0]["disabled"] = False
        late = await (await fake.click(s.carol, left, accept_id(left))).reply()
        assert late.is_ephemeral and "expired" in late.content
        assert query(db, "SELECT COUNT(*) FROM games") == [(1,)]
    assert errors(caplog) == []
