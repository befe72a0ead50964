"""The Rematch button under a result, through the real bot and the fake
Discord: a rematch between people (offer, accept, its thread: colours swapped, options
equal), against the computer (at once), and the refusals (a bystander, a second click, a
click after the offer expired), each private and changing nothing."""

from __future__ import annotations

import logging
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from ai import Decision
from engine import Point
from tests.e2e.helpers import (
    Server,
    ShiftedClock,
    StartedGame,
    bot_on,
    make_server,
    query,
    quiet,
    snapshot,
    start_game,
)
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message, User

__all__ = ["fake_discord"]  # the fixture is used by name

GAME_COLUMNS = "pink_id, blue_id, width, height, rules, start, clock, rated, status"


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob, carol (a bystander) and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


def errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """ERROR records (a bug, by the project's rule) and records with a traceback."""
    return [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def resign(server: Server, user: User, thread: Channel) -> Message:
    """``user`` resigns the game of ``thread``; the result post (with its Rematch button)."""
    fake = server.fake
    prompt = await (await fake.slash(user, "resign", channel=thread)).reply()
    resign_id = next(c for c in prompt.custom_ids() if ":resign:" in c)
    await (await fake.click(user, prompt, resign_id)).reply()
    result: Message = await fake.wait_until(
        lambda: next(
            (m for m in fake.posted(thread) if any("rematch" in c for c in m.custom_ids())),
            None,
        ),
        poll=None,
    )
    return result


async def finished_game(server: Server, **options: object) -> tuple[StartedGame, Message]:
    """alice (Pink) and bob play one dot each, then bob resigns: the game and its result."""
    fake = server.fake
    game = await start_game(server, server.alice, server.bob, **options)
    await (await fake.slash(server.alice, "move", channel=game.thread, point="E5")).reply()
    await (await fake.slash(server.bob, "move", channel=game.thread, point="F5")).reply()
    return game, await resign(server, server.bob, game.thread)


def rematch_id(result: Message) -> str:
    """The custom id of the result's Rematch button."""
    return next(c for c in result.custom_ids() if c.startswith("dots:rematch:"))


async def a_new_thread(fake: FakeDiscord, before: set[int]) -> Channel:
    """The first thread not in ``before`` that has a post."""
    found: Channel = await fake.wait_until(
        lambda: next((t for t in fake.threads() if t.id not in before and fake.posted(t)), None),
        poll=None,
    )
    return found


async def offer_in(server: Server, challenge_id: int) -> Message:
    """The public rematch offer with id ``challenge_id``, once posted in #general."""
    accept = f"dots:challenge:accept:{challenge_id}"
    found: Message = await server.fake.wait_until(
        lambda: next(
            (m for m in server.fake.posted(server.general) if accept in m.custom_ids()), None
        ),
        poll=None,
    )
    return found


async def test_a_rematch_swaps_colours_keeps_the_options_and_opens_its_thread(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        game, result = await finished_game(
            server, size="16x16", rules="grounding", start="cross", clock=300, rated=False
        )
        assert rematch_id(result) == f"dots:rematch:offer:{game.game_id}"
        # bob (Blue, who lost) asks: the offer is posted in #general, pinging alice.
        ask = await fake.click(server.bob, result, rematch_id(result))
        answer = await ask.reply()
        assert not answer.is_ephemeral and "for a rematch" in answer.content
        ((challenge_id, challenger, opponent, colour, rematch_of),) = query(
            db,
            "SELECT challenge_id, challenger_id, opponent_id, colour, rematch_of"
            " FROM challenges WHERE rematch_of IS NOT NULL",
        )
        assert (challenger, opponent, colour, rematch_of) == (
            server.bob.id, server.alice.id, "pink", game.game_id
        )  # fmt: skip
        offer = await offer_in(server, challenge_id)
        assert f"<@{server.alice.id}>" in offer.content and "rematch of game" in offer.content
        assert "colours swapped" in offer.content and "16×16" in offer.content

        # alice accepts: a new game, its thread and its first picture, like any challenge.
        before = {t.id for t in fake.threads()}
        accept = await fake.click(server.alice, offer, f"dots:challenge:accept:{challenge_id}")
        assert (await accept.response()).name in {"update message", "deferred update"}
        thread = await a_new_thread(fake, before)
        await quiet(db)
        old, new = query(db, f"SELECT {GAME_COLUMNS} FROM games ORDER BY game_id")
        assert new[:2] == (server.bob.id, server.alice.id) == old[:2][::-1]  # colours swapped
        assert new[2:8] == old[2:8] == (16, 16, "grounding", "cross", 300, 0)
        assert new[8] == "running" and old[8] == "over"
        ((new_id, thread_id),) = query(
            db, "SELECT game_id, thread_id FROM games WHERE game_id != ?", (game.game_id,)
        )
        assert thread_id == thread.id and thread.id != game.thread.id
        assert query(db, "SELECT status, game_id FROM challenges WHERE challenge_id = ?",
                     (challenge_id,)) == [("accepted", new_id)]  # fmt: skip
        first = fake.posted(thread)[0]
        assert first.attachments[0].is_png and "Pink to move" in first.content
        assert f"<@{server.bob.id}>" in first.content
        # The rematch is played: bob (Pink now) moves first.
        moved = await (await fake.slash(server.bob, "move", channel=thread, point="E5")).reply()
        assert not moved.is_ephemeral and "plays E5" in moved.content
    assert errors(caplog) == []


async def test_refusals_a_bystander_a_second_click_and_a_click_after_the_offer_expired(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """Each refusal is private and leaves the database as it was."""
    fake, db = server.fake, server.database
    clock = ShiftedClock()
    async with bot_on(fake, db, now=clock):
        game, result = await finished_game(server)
        rematch = rematch_id(result)
        # carol played no part in the game.
        before = snapshot(db)
        refused = await (await fake.click(server.carol, result, rematch)).reply()
        assert refused.is_ephemeral and "only the players" in refused.content.lower()
        assert snapshot(db) == before

        # alice asks; her second click, and bob's click, are answered, not doubled.
        await (await fake.click(server.alice, result, rematch)).reply()
        await quiet(db)
        ((challenge_id,),) = query(db, "SELECT challenge_id FROM challenges WHERE rematch_of = ?",
                                   (game.game_id,))  # fmt: skip
        offer = await offer_in(server, challenge_id)
        before = snapshot(db)
        again = await (await fake.click(server.alice, result, rematch)).reply()
        assert again.is_ephemeral and "already" in again.content and "waits for" in again.content
        other = await (await fake.click(server.bob, result, rematch)).reply()
        assert other.is_ephemeral and "has offered you a rematch" in other.content
        # A bystander cannot accept the offer either.
        stranger = await (
            await fake.click(server.carol, offer, f"dots:challenge:accept:{challenge_id}")
        ).reply()
        assert stranger.is_ephemeral and "not your challenge" in stranger.content.lower()
        assert snapshot(db) == before

    # Ten minutes pass (the bot down meanwhile, so that its clocks see it at once): the offer
    # expires, its message says so and its buttons go grey.
    clock.offset = timedelta(minutes=10, seconds=1)
    async with bot_on(fake, db, now=clock):
        await fake.wait_until(lambda: "expired" in offer.content, timeout=10, poll=None)
        assert "rematch offer" in offer.content
        assert all(button["disabled"] for button in offer.buttons())
        # The expiry's post is delivered: its outbox row goes just after the edit.
        await fake.wait_until(lambda: query(db, "SELECT COUNT(*) FROM outbox") == [(0,)])
        before = snapshot(db)
        late = await (await fake.click(server.bob, result, rematch)).reply()
        assert late.is_ephemeral and "has expired" in late.content
        # A click on Accept already on its way when the offer expired.
        offer.components[0]["components"][0]["disabled"] = False
        accept = await fake.click(server.bob, offer, f"dots:challenge:accept:{challenge_id}")
        assert (await accept.reply()).is_ephemeral
        assert "expired" in (await accept.reply()).content
        assert snapshot(db) == before
        assert query(db, "SELECT COUNT(*) FROM games") == [(1,)]
    assert errors(caplog) == []


class TopRow:
    """A stand-in for the computer's search (decided in microseconds, whatever the load of
    the machine): the free points of the top row of a 10x10 board, left to right."""

    def __init__(self) -> None:
        self.points = iter([Point(x, 9) for x in range(10)])

    async def choose(self, record: Any, level: str, seed: int, *, cheap: bool = False) -> Decision:
        """The next point of the top row."""
        return Decision("dot", next(self.points))

    def close(self) -> None:
        """Nothing to stop."""


async def test_a_rematch_against_the_computer_starts_at_once_with_colours_swapped(
    server: Server, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake, db = server.fake, server.database
    async with bot_on(fake, db) as bot:
        monkeypatch.setattr(bot.service, "thinker", TopRow())
        start = await fake.slash(
            server.alice, "play-computer", channel=server.general, colour="blue", level="easy",
            size="10x10", clock=120,
        )  # fmt: skip
        await start.reply()
        await quiet(db)
        ((game_id, thread_id),) = query(db, "SELECT game_id, thread_id FROM games")
        thread = fake.channels[thread_id]
        # The computer (Pink) moves first; alice resigns once it has.
        await fake.wait_until(lambda: query(db, "SELECT moves FROM games")[0][0] == 1)
        result = await resign(server, server.alice, thread)

        before = {t.id for t in fake.threads()}
        started = await (await fake.click(server.alice, result, rematch_id(result))).reply()
        assert not started.is_ephemeral and "again" in started.content
        assert "you play Pink" in started.content
        new_thread = await a_new_thread(fake, before)
        await quiet(db)
        old, new = query(db, f"SELECT {GAME_COLUMNS} FROM games ORDER BY game_id")
        assert new[:2] == (server.alice.id, -1) and old[:2] == (-1, server.alice.id)
        assert new[2:8] == old[2:8] == (10, 10, "standard", "empty", 120, 0)
        ((new_id, new_thread_id),) = query(
            db, "SELECT game_id, thread_id FROM games WHERE game_id != ?", (game_id,)
        )
        assert new_thread_id == new_thread.id
        assert query(db, "SELECT status, rematch_of, game_id FROM challenges") == [
            ("accepted", game_id, new_id)
        ]
        # alice is Pink: she moves, the computer answers in the new thread.
        await (await fake.slash(server.alice, "move", channel=new_thread, point="D4")).reply()
        await fake.wait_until(
            lambda: query(db, "SELECT moves FROM games WHERE game_id = ?", (new_id,)) == [(2,)],
            timeout=10,
        )
        # A second click starts nothing more.
        before_db = snapshot(db)
        again = await (await fake.click(server.alice, result, rematch_id(result))).reply()
        assert again.is_ephemeral and f"game #{new_id}" in again.content
        assert query(db, "SELECT COUNT(*) FROM games") == [(2,)]
        assert snapshot(db)["challenges"] == before_db["challenges"]
    assert errors(caplog) == []


async def test_a_pending_rematch_offer_is_accepted_after_a_restart(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    db = tmp_path / "db.sqlite3"
    s = make_server(fake, db)
    async with bot_on(fake, db):
        game, result = await finished_game(s)
        await (await fake.click(s.alice, result, rematch_id(result))).reply()
        await quiet(db)
        ((challenge_id,),) = query(db, "SELECT challenge_id FROM challenges WHERE rematch_of = ?",
                                   (game.game_id,))  # fmt: skip
        offer = await offer_in(s, challenge_id)
    async with bot_on(fake, db):
        # The Rematch button made before the restart still answers.
        again = await (await fake.click(s.bob, result, rematch_id(result))).reply()
        assert again.is_ephemeral and "has offered you a rematch" in again.content
        threads = len(fake.threads())
        accept = await fake.click(s.bob, offer, f"dots:challenge:accept:{challenge_id}")
        await accept.response()
        await fake.wait_until(
            lambda: len(fake.threads()) == threads + 1 and fake.posted(fake.threads()[-1]),
            poll=None,
        )
        await quiet(db)
        assert query(
            db, "SELECT pink_id, blue_id, status FROM games WHERE game_id != ?", (game.game_id,)
        ) == [(s.bob.id, s.alice.id, "running")]
        assert "accepted" in offer.content
    assert errors(caplog) == []


async def test_a_rematch_with_a_player_who_left_the_server_is_refused_privately(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """bob leaves after the game: alice's Rematch is refused privately (Discord, asked,
    knows no such member), nothing is stored and nobody is pinged."""
    fake, db = server.fake, server.database
    async with bot_on(fake, db):
        game, result = await finished_game(server)
        fake.remove_member(server.guild, server.bob)
        before = snapshot(db)
        posts = len(fake.posted(server.general))
        handle = await fake.click(server.alice, result, rematch_id(result))
        refused = await handle.reply()
        assert (await handle.response()).is_ephemeral
        assert refused.is_ephemeral and "no longer in this server" in refused.content
        assert snapshot(db) == before
        assert query(db, "SELECT COUNT(*) FROM challenges WHERE rematch_of = ?",
                     (game.game_id,)) == [(0,)]  # fmt: skip
        assert len(fake.posted(server.general)) == posts
    assert errors(caplog) == []
