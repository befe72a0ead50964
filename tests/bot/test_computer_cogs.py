"""Games against the computer on Discord, in-process: /play-computer, its replies, /undo."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

import ai
from bot.games import COMPUTER_IDS, GameOptions, GameService, Reminder, Thinker
from engine import Point, Record
from tests.bot.discord_inprocess import (
    BOT_USER_ID,
    CHANNEL_ID,
    GUILD_ID,
    Call,
    Harness,
    Member,
    World,
    settle,
)
from tests.bot.test_cogs import ANN, BOB, CAT, button_id, play, posted, refused, start_game

EASY, MEDIUM = COMPUTER_IDS["easy"], COMPUTER_IDS["medium"]
DOTS = Member(BOT_USER_ID, "dots", bot=True)


def no_computer_mention_or_dm(calls: list[Call]) -> None:
    """The computer is named, never mentioned (``<@-1>``) nor sent a direct message."""
    for call in calls:
        assert "<@-" not in call.content, call.content
        assert call.path != "/users/@me/channels", call
        assert not call.path.startswith("/users/-"), call


async def test_play_computer_opens_a_thread_and_the_computer_answers_each_move(
    world: World,
) -> None:
    h = world.harness
    calls = await h.slash(ANN, "play-computer", level="easy", colour="pink")
    answer = next(c for c in calls if c.kind == 4)
    assert not answer.is_ephemeral
    assert "Computer (easy)" in answer.content and "unrated" in answer.content
    ((thread, name),) = h.threads().items()
    assert name.startswith("Dots #1: ") and name.endswith(" vs Computer (easy)")
    view = await world.service.game(1)
    assert (view.pink_id, view.blue_id, view.rated, view.thread_id) == (ANN.id, EASY, False, thread)
    first = posted(calls)[-1]
    assert first.path == f"/channels/{thread}/messages" and first.files
    assert f"Pink to move: <@{ANN.id}>" in first.content

    calls = await play(world, thread, (ANN, "E5"))
    reply = posted(calls)[-1]
    assert reply.path == f"/channels/{thread}/messages"
    assert "Computer (easy) plays" in reply.content
    assert f"Pink to move: <@{ANN.id}>" in reply.content
    assert reply.files[0][1].startswith(b"\x89PNG")
    view = await world.service.game(1)
    assert len(view.game.actions) == 2 and view.to_move_id == ANN.id
    no_computer_mention_or_dm(h.rest.calls)


async def test_as_pink_the_computer_moves_first_in_the_new_thread(world: World) -> None:
    calls = await world.harness.slash(ANN, "play-computer", colour="blue")
    (thread,) = world.harness.threads()
    in_thread = [c for c in posted(calls) if c.path == f"/channels/{thread}/messages"]
    assert "moves first" in in_thread[0].content
    # The start is shown as it was, though the computer may have moved before it was posted.
    assert "Pink to move: Computer (medium)" in in_thread[0].content
    assert "Computer (medium) plays" in in_thread[-1].content
    view = await world.service.game(1)
    assert view.pink_id == MEDIUM and len(view.game.actions) == 1
    assert view.to_move_id == ANN.id


async def test_challenging_the_bot_itself_starts_a_game_against_the_computer(
    world: World,
) -> None:
    calls = await world.harness.slash(ANN, "challenge", opponent=DOTS, colour="pink")
    answer = next(c for c in calls if c.kind == 4)
    assert not answer.is_ephemeral and "Computer (medium)" in answer.content
    assert answer.custom_ids() == []  # no challenge to accept
    view = await world.service.game(1)
    assert (view.pink_id, view.blue_id, view.rated) == (ANN.id, MEDIUM, False)
    assert await world.service.open_challenges(user_id=ANN.id) == []


async def test_undo_takes_back_the_move_and_the_reply_in_the_thread(world: World) -> None:
    h = world.harness
    await h.slash(ANN, "play-computer", level="easy", colour="pink")
    (thread,) = h.threads()
    await play(world, thread, (ANN, "E5"), (ANN, "C3"))
    before = (await world.service.game(1)).game.actions
    calls = await h.slash(ANN, "undo", channel_id=thread)
    answer = [c for c in calls if c.path.startswith("/webhooks/") and c.content][-1]
    assert not answer.is_ephemeral
    assert f"takes back C3 and the computer's reply {before[-1].point.name}" in answer.content  # type: ignore[union-attr]
    assert answer.files and f"Pink to move: <@{ANN.id}>" in answer.content
    view = await world.service.game(1)
    assert view.game.actions == before[:2]
    # Elsewhere, the picture goes to the thread and the answer is private.
    calls = await h.slash(ANN, "undo")
    assert [c.path for c in posted(calls)] == [f"/channels/{thread}/messages"]
    assert [c for c in calls if c.content and c.is_ephemeral]
    assert (await world.service.game(1)).game.actions == ()
    no_computer_mention_or_dm(h.rest.calls)


async def test_undo_refusals_are_private_and_change_nothing(world: World) -> None:
    h = world.harness
    await h.slash(ANN, "play-computer", level="easy", colour="pink")
    (thread,) = h.threads()
    await refused(world, h.slash(ANN, "undo", channel_id=thread), "nothing to undo")
    await play(world, thread, (ANN, "E5"))
    await refused(world, h.slash(CAT, "undo", channel_id=thread), "not playing")
    _, human = await start_game(world, ANN, BOB)
    await play(world, human, (ANN, "E5"), (BOB, "F5"))
    await refused(world, h.slash(ANN, "undo", channel_id=human), "against the computer")
    await refused(world, h.slash(CAT, "undo"), "no running game")


async def test_play_computer_refusals_are_private(world: World) -> None:
    await refused(
        world,
        world.harness.slash(ANN, "play-computer", level="grandmaster"),
        "not a level",
        "easy, medium, hard",
    )


async def test_ending_lets_the_computer_play_on_alone_until_it_ends(world: World) -> None:
    h = world.harness
    await h.slash(ANN, "play-computer", level="easy", colour="pink")
    (thread,) = h.threads()
    await play(world, thread, (ANN, "E5"), (ANN, "E6"))
    await h.slash(ANN, "end", channel_id=thread)
    calls = await h.click(
        ANN,
        h.last_message_with("dots:confirm:end"),
        button_id(h.last_message_with("dots:confirm:end"), "dots:confirm:end:"),
    )
    view = await world.service.game(1)
    assert view.status == "over" and view.result is not None
    final = posted(calls)[-1]
    assert "Computer (easy) ends" in final.content
    assert [name for name, _ in final.files][-1].endswith(".gif")
    no_computer_mention_or_dm(h.rest.calls)


async def test_a_computer_move_left_waiting_is_played_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "dots.sqlite3"
    service = await GameService.open(db)
    view = await service.start_computer_game(
        guild_id=GUILD_ID,
        channel_id=CHANNEL_ID,
        user_id=ANN.id,
        level="easy",
        options=GameOptions(colour="blue"),
    )
    await service.close()
    service = await GameService.open(db)
    service.thinker = Thinker(processes=False, iterations=10)
    harness = await Harness.start(service, monkeypatch)
    try:
        await settle()
        moved = [c for c in posted(harness.rest.calls) if "Computer (easy) plays" in c.content]
        assert [c.path for c in moved] == [f"/channels/{CHANNEL_ID}/messages"]
        assert len((await service.game(view.game_id)).game.actions) == 1
    finally:
        await harness.close()
        await service.close()
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM actions").fetchone() == (1,)


class ScriptedThinker(Thinker):
    """The computer plays the given decisions in order (no search)."""

    def __init__(self, decisions: list[str]) -> None:
        super().__init__(processes=False)
        self.decisions = list(decisions)

    async def choose(
        self, record: Record, level: str, seed: int, *, cheap: bool = False
    ) -> ai.Decision:
        decision = self.decisions.pop(0)
        if decision == "end":
            return ai.Decision("end")
        return ai.Decision("dot", Point.parse(decision))


async def test_playing_on_alone_is_one_post_listing_its_dots(world: World) -> None:
    h = world.harness
    world.service.thinker = ScriptedThinker(["D5", "F5", "E6", "E4", "end"])
    await h.slash(ANN, "play-computer", level="easy", colour="pink")
    (thread,) = h.threads()
    await play(world, thread, (ANN, "E5"), (ANN, "A1"), (ANN, "A3"))
    await h.slash(ANN, "end", channel_id=thread)
    calls = await h.click(
        ANN,
        h.last_message_with("dots:confirm:end"),
        button_id(h.last_message_with("dots:confirm:end"), "dots:confirm:end:"),
    )
    in_thread = [c for c in posted(calls) if c.path == f"/channels/{thread}/messages"]
    assert len(in_thread) == 2  # Ann's end, then the computer's whole turn
    assert "may play on alone" not in in_thread[0].content  # no instructions for the computer
    last = in_thread[-1].content
    assert "Computer (easy) plays on alone: E4 (captures 1)." in last
    assert "Computer (easy) ends" in last and "Blue wins 1–0" in last
    view = await world.service.game(1)
    assert view.status == "over" and [str(a) for a in view.game.actions][-2:] == [
        "Blue E4",
        "Blue end",
    ]


async def test_the_computer_gets_no_reminder_ping_or_dm(world: World) -> None:
    h = world.harness
    await h.slash(ANN, "play-computer", level="easy", colour="blue", clock=3600)
    view = await world.service.game(1)
    assert view.pink_id == EASY
    mark = len(h.rest.calls)
    reminder = Reminder(view, EASY, view.deadline or view.started, timedelta(minutes=20))
    await world.service.publish(reminder)  # as the clocks do: through bot.dispatch
    await settle()
    assert h.rest.since(mark) == []


async def test_the_computer_replies_when_the_post_of_the_move_fails(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Discord answers 403 Missing Permissions to the post of the player's move: the move is
    stored and the computer replies all the same (its turn does not wait on the post)."""
    h = world.harness
    await h.slash(ANN, "play-computer", level="easy", colour="pink")
    (thread,) = h.threads()
    h.rest.forbid.add("/webhooks/")  # the follow-up that carries the move's picture
    calls = await h.slash(ANN, "move", channel_id=thread, point="E5")
    assert any(c.path.startswith("/webhooks/") and c.method == "POST" for c in calls)
    view = await world.service.game(1)
    assert len(view.game.actions) == 2 and view.to_move_id == ANN.id
    reply = posted(calls)[-1]
    assert reply.path == f"/channels/{thread}/messages"
    assert "Computer (easy) plays" in reply.content
    # Even with nothing postable in the thread the computer still answers.
    h.rest.forbid.add(f"/channels/{thread}/")
    await h.slash(ANN, "move", channel_id=thread, point="C3")
    assert len((await world.service.game(1)).game.actions) == 4
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_computer_answers_on_discord_when_its_search_fails_twice(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    h = world.harness
    assert h.bot.turns is not None
    h.bot.turns.backoff = 0.001  # the real backoff is 1 s, then 2 s
    world.service.thinker = FailingThinker(["D5"], failures=2)
    await h.slash(ANN, "play-computer", level="easy", colour="pink")
    (thread,) = h.threads()
    calls = await h.slash(ANN, "move", channel_id=thread, point="A1")
    reply = posted(calls)[-1]
    assert reply.path == f"/channels/{thread}/messages"
    assert "Computer (easy) plays D5" in reply.content
    assert caplog.text.count("search in game 1 failed") == 2
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_computers_post_waits_for_the_post_of_the_move_it_answers(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its reply is ready at once (scripted) while the player's answer is slow to send: the
    thread still shows the player's move first."""
    h = world.harness
    world.service.thinker = ScriptedThinker(["D5"])
    await h.slash(ANN, "play-computer", level="easy", colour="pink")
    (thread,) = h.threads()
    answer = h.rest.webhook_request

    async def slow_defer(route: Any, session: Any = None, **kwargs: Any) -> Any:
        payload = kwargs.get("payload") or {}
        if route.url.endswith("/callback") and payload.get("type") == 5:
            await asyncio.sleep(0.3)
        return await answer(route, session, **kwargs)

    monkeypatch.setattr(h.rest, "webhook_request", slow_defer)
    calls = await h.slash(ANN, "move", channel_id=thread, point="E5")
    followup = next(i for i, c in enumerate(calls) if c.path.startswith("/webhooks/"))
    reply = next(i for i, c in enumerate(calls) if c.path == f"/channels/{thread}/messages")
    # The player's post shows the position after their move, not after the computer's.
    assert "plays E5" in calls[followup].content
    assert "Computer (easy) plays" not in calls[followup].content
    assert "to move: Computer (easy)" in calls[followup].content
    assert "Computer (easy) plays D5" in calls[reply].content
    assert followup < reply


class FailingThinker(ScriptedThinker):
    """A scripted computer whose first ``failures`` searches fail as a dead worker does."""

    def __init__(self, decisions: list[str], *, failures: int) -> None:
        super().__init__(decisions)
        self.failures = failures

    async def choose(
        self, record: Record, level: str, seed: int, *, cheap: bool = False
    ) -> ai.Decision:
        if self.failures and not cheap:
            self.failures -= 1
            raise BrokenProcessPool("A child process terminated abruptly")
        return await super().choose(record, level, seed, cheap=cheap)


async def test_play_computer_in_a_game_thread_gets_a_thread_of_its_own(
    world: World,
) -> None:
    h = world.harness
    first_id, first_thread = await start_game(world)
    calls = await h.slash(ANN, "play-computer", channel_id=first_thread, level="easy")
    second = await world.service.game(first_id + 1)
    assert second.thread_id is not None and second.thread_id != first_thread
    assert any(c.path == f"/channels/{CHANNEL_ID}/messages" for c in posted(calls))
    # The second game's opening picture goes to its own thread (a late post of the first
    # game's start may land among these calls on a busy machine: it is not the second's).
    opening = [
        c
        for c in posted(calls)
        if f"Game #{second.game_id}**" in c.content and "The game starts" in c.content
    ]
    assert [c.path for c in opening] == [f"/channels/{second.thread_id}/messages"]


async def test_the_computer_replies_when_the_interaction_expired(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The player's /move comes too late to answer (10062 Unknown interaction): the move is
    stored, shown in the thread, and the computer replies."""
    h = world.harness
    await h.slash(ANN, "play-computer", level="easy", colour="pink")
    (thread,) = h.threads()
    answer = h.rest.webhook_request

    async def expired(route: Any, session: Any = None, **kwargs: Any) -> Any:
        if route.url.endswith("/callback"):
            response = SimpleNamespace(status=404, reason="Not Found")
            raise discord.NotFound(response, {"code": 10062, "message": "Unknown interaction"})
        return await answer(route, session, **kwargs)

    monkeypatch.setattr(h.rest, "webhook_request", expired)
    calls = await h.slash(ANN, "move", channel_id=thread, point="E5")
    in_thread = [c for c in posted(calls) if c.path == f"/channels/{thread}/messages"]
    assert len(in_thread) == 2
    assert "plays E5" in in_thread[0].content
    assert "Computer (easy) plays" in in_thread[1].content
    assert len((await world.service.game(1)).game.actions) == 2
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
