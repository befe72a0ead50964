"""The Discord adapter, in-process: real interaction payloads through discord.py's own dispatch.

Every refusal must be private (flag 64) and leave the database exactly as it was.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import re
import types
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.cogs import DYNAMIC_ITEMS
from bot.cogs.in_game import ACTIONS, GamePicker, handler, point_key, typed_of_key
from bot.cogs.interactions import ANSWER_BUDGET, MAX_ID
from bot.cogs.names import thread_name
from bot.cogs.options import game_options
from bot.cogs.posting import send_to_game
from bot.cogs.posts import CUSTOM_ID, fit_content, fit_list, plain_name
from bot.games import GameService, NotYourChallenge, NotYourTurn, Refusal
from tests.bot.discord_inprocess import (
    APP_ID,
    CHANNEL_ID,
    GAMES_CHANNEL_ID,
    GUILD_ID,
    Call,
    Channel,
    Harness,
    Member,
    World,
    settle,
)

ANN = Member(940_000_000_000_000_001, "ann")
BOB = Member(940_000_000_000_000_002, "bob")
CAT = Member(940_000_000_000_000_003, "cat")
ADA = Member(940_000_000_000_000_004, "ada", admin=True)
ROBOT = Member(940_000_000_000_000_005, "robot", bot=True)


def button_id(message: dict[str, Any], prefix: str) -> str:
    """The custom id starting with ``prefix`` on a message the bot sent (a confirmation's
    also carries the position it was shown for)."""
    return next(
        str(item["custom_id"])
        for row in message.get("components") or []
        for item in row.get("components", [])
        if str(item.get("custom_id", "")).startswith(prefix)
    )


def private_refusal(calls: list[Call], *words: str) -> Call:
    """The one private answer in ``calls``; it must contain each of ``words``. A public
    deferral filled in and deleted before the private answer (see ``interactions.clear_deferral``)
    is no answer."""
    original = "/messages/@original"
    cleared = any(c.method == "DELETE" and c.path.endswith(original) for c in calls)
    answers = [
        c
        for c in calls
        if c.content and not (cleared and c.method == "PATCH" and c.path.endswith(original))
    ]
    assert len(answers) == 1, [(c.path, c.content) for c in calls]
    answer = answers[0]
    assert answer.is_ephemeral, answer
    for word in words:
        assert word.lower() in answer.content.lower(), answer.content
    assert "Traceback" not in answer.content
    return answer


def posted(calls: list[Call]) -> list[Call]:
    """The messages posted in channels (not interaction answers)."""
    return [c for c in calls if c.method == "POST" and c.path.endswith("/messages")]


async def refused(world: World, action: Any, *words: str) -> Call:
    """Run ``action`` (a coroutine making the calls) and check it was refused privately and
    changed nothing in the database."""
    before = world.snapshot()
    calls = await action
    answer = private_refusal(calls, *words)
    assert not posted(calls), "a refusal must not post anything"
    assert world.snapshot() == before
    return answer


async def challenge(
    world: World, a: Member = ANN, b: Member = BOB, **options: Any
) -> dict[str, Any]:
    """Post a challenge; the stored challenge message."""
    options.setdefault("colour", "pink")
    calls = await world.harness.slash(a, "challenge", opponent=b, **options)
    assert [c for c in calls if c.content and not c.is_ephemeral], calls
    return world.harness.last_message_with("dots:challenge:accept")


def custom_id(message: dict[str, Any], prefix: str) -> str:
    """The custom id of the component on ``message`` starting with ``prefix``."""
    for row in message["components"]:
        for item in row["components"]:
            if item.get("custom_id", "").startswith(prefix):
                return str(item["custom_id"])
    raise AssertionError(f"no {prefix} on the message")


async def start_game(
    world: World, a: Member = ANN, b: Member = BOB, **options: Any
) -> tuple[int, int]:
    """Challenge and accept: the game id and its thread id (Pink is ``a``)."""
    message = await challenge(world, a, b, **options)
    await world.harness.click(b, message, custom_id(message, "dots:challenge:accept"))
    games = await world.service.running_games(user_id=a.id, guild_id=GUILD_ID)
    view = games[-1]
    assert view.thread_id is not None
    return view.game_id, view.thread_id


async def play(world: World, thread: int, *moves: tuple[Member, str]) -> list[Call]:
    """Play moves in a thread; all must succeed."""
    calls: list[Call] = []
    for member, point in moves:
        made = await world.harness.slash(member, "move", channel_id=thread, point=point)
        assert not any(c.is_ephemeral for c in made), [c.content for c in made]
        calls += made
    return calls


# -- challenge ------------------------------------------------------------------------------


async def test_challenge_posts_public_message_with_buttons_and_remembers_it(world: World) -> None:
    calls = await world.harness.slash(
        ANN, "challenge", opponent=BOB, size="16x16", rules="grounding"
    )
    # The challenge is the answer itself, or (on a busy machine, past the deferral's wait) the
    # public "thinking…" edited into it.
    answer = next(
        c for c in calls if c.kind == 4 or (c.method == "PATCH" and c.path.endswith("@original"))
    )
    assert not answer.is_ephemeral
    assert all(c.kind != 5 or not c.is_ephemeral for c in calls)
    assert f"<@{BOB.id}>" in answer.content and "16×16" in answer.content
    assert "grounding" in answer.content
    assert answer.custom_ids() == [
        "dots:challenge:accept:1",
        "dots:challenge:decline:1",
        "dots:challenge:cancel:1",
    ]
    body = answer.payload if answer.kind is None else answer.payload["data"]  # type: ignore[index]
    mentions = body["allowed_mentions"]  # type: ignore[index,call-overload]
    assert mentions["users"] == [BOB.id] and mentions["parse"] == []
    stored = await world.service.get_challenge(1)
    assert stored.is_open and stored.message_id is not None
    assert (stored.options.width, stored.options.rules) == (16, "grounding")


async def test_challenge_refusals_are_private_and_change_nothing(world: World) -> None:
    h = world.harness
    await refused(world, h.slash(ANN, "challenge", opponent=ANN), "yourself")
    await refused(world, h.slash(ANN, "challenge", opponent=ROBOT), "bot")
    await challenge(world)
    await refused(world, h.slash(ANN, "challenge", opponent=BOB), "already")


async def test_stranger_clicking_accept_or_decline_is_told_privately(world: World) -> None:
    message = await challenge(world)
    for action in ("accept", "decline"):
        answer = await refused(
            world,
            world.harness.click(CAT, message, custom_id(message, f"dots:challenge:{action}")),
            "not your challenge",
        )
        assert answer.kind == 4
    assert (await world.service.get_challenge(1)).is_open


async def test_accept_opens_a_thread_with_the_first_picture_and_pings_pink(world: World) -> None:
    message = await challenge(world, colour="blue")
    calls = await world.harness.click(BOB, message, custom_id(message, "dots:challenge:accept"))
    update = next(c for c in calls if c.kind == 7)
    buttons = update.payload["data"]["components"][0]["components"]  # type: ignore[index]
    assert all(button["disabled"] for button in buttons)
    stored = world.harness.rest.messages[int(message["id"])]
    assert "accepted" in stored["content"]
    assert all(b["disabled"] for row in stored["components"] for b in row["components"])
    threads = world.harness.threads()
    assert len(threads) == 1
    thread_id, name = next(iter(threads.items()))
    assert name.startswith("Dots #1:")
    view = await world.service.game(1)
    assert view.thread_id == thread_id and view.pink_id == BOB.id
    first = posted(calls)[-1]
    assert first.path == f"/channels/{thread_id}/messages"
    assert f"<@{BOB.id}>" in first.content and "Pink to move" in first.content
    assert first.files and first.files[0][1].startswith(b"\x89PNG")
    assert view.message_id is not None


async def test_a_game_started_in_a_game_thread_gets_its_own_thread(
    world: World,
) -> None:
    """Discord refuses a thread inside a thread: the new game's thread is made in the parent
    channel, and /move there plays the new game, not the first."""
    h = world.harness
    first_id, first_thread = await start_game(world)
    calls = await h.slash(ANN, "challenge", channel_id=first_thread, opponent=CAT, colour="pink")
    # Answered in public: at once, or deferred first when the machine is slow (in_time).
    assert [c for c in calls if c.kind in (4, 5) and not c.is_ephemeral]
    message = h.last_message_with("dots:challenge:accept")
    assert int(message["channel_id"]) == first_thread
    calls = await h.click(CAT, message, custom_id(message, "dots:challenge:accept"))
    second = await world.service.game(first_id + 1)
    assert second.thread_id is not None and second.thread_id != first_thread
    assert h.threads()[second.thread_id].startswith(f"Dots #{second.game_id}:")
    starter = next(c for c in posted(calls) if c.path == f"/channels/{CHANNEL_ID}/messages")
    assert f"Game #{second.game_id}" in starter.content
    assert posted(calls)[-1].path == f"/channels/{second.thread_id}/messages"
    await play(world, second.thread_id, (ANN, "C3"))
    assert len((await world.service.game(second.game_id)).game.actions) == 1
    assert len((await world.service.game(first_id)).game.actions) == 0


async def test_accept_where_threads_are_forbidden_plays_in_the_channel(world: World) -> None:
    world.harness.rest.forbid.add("/threads")
    message = await challenge(world)
    calls = await world.harness.click(BOB, message, custom_id(message, "dots:challenge:accept"))
    view = await world.service.game(1)
    assert view.thread_id is None
    assert posted(calls)[-1].path == f"/channels/{CHANNEL_ID}/messages"
    # /move in that channel plays in that game.
    calls = await world.harness.slash(ANN, "move", point="C3")
    assert not any(c.is_ephemeral for c in calls)
    assert len((await world.service.game(1)).game.actions) == 1


async def test_decline_and_withdraw_close_the_challenge_and_disable_buttons(world: World) -> None:
    message = await challenge(world)
    calls = await world.harness.click(BOB, message, custom_id(message, "dots:challenge:decline"))
    update = next(c for c in calls if c.kind == 7)
    assert "declined" in update.content
    assert (await world.service.get_challenge(1)).status == "declined"
    # A late accept is refused privately.
    await refused(
        world,
        world.harness.click(BOB, message, custom_id(message, "dots:challenge:accept")),
        "declined",
    )
    message = await challenge(world)
    await refused(
        world,
        world.harness.click(BOB, message, custom_id(message, "dots:challenge:cancel")),
        "not your",
    )
    await world.harness.click(ANN, message, custom_id(message, "dots:challenge:cancel"))
    assert (await world.service.get_challenge(2)).status == "cancelled"


async def test_expired_challenge_message_loses_its_buttons(world: World) -> None:
    message = await challenge(world)
    world.clock.now += timedelta(minutes=11)
    mark = len(world.harness.rest.calls)
    assert await world.service.expire(challenge_id=1) is not None
    await settle()
    edits = [c for c in world.harness.rest.since(mark) if c.method == "PATCH"]
    assert len(edits) == 1
    assert edits[0].path == f"/channels/{CHANNEL_ID}/messages/{message['id']}"
    assert "expired" in edits[0].content
    buttons = edits[0].payload["components"][0]["components"]  # type: ignore[index]
    assert all(button["disabled"] for button in buttons)
    await refused(
        world,
        world.harness.click(BOB, message, custom_id(message, "dots:challenge:accept")),
        "expired",
    )


# -- moves ----------------------------------------------------------------------------------


async def test_move_posts_picture_scores_capture_and_pings_the_next_player(world: World) -> None:
    game_id, thread = await start_game(world)
    await play(world, thread, (ANN, "C4"), (BOB, "C3"), (ANN, "B3"), (BOB, "H8"), (ANN, "D3"))
    calls = await play(world, thread, (BOB, "H7"), (ANN, "C2"))
    answer = [c for c in calls if c.path.startswith("/webhooks/")][-1]
    assert "Pink captures 1" in answer.content
    assert "Pink 1 · Blue 0" in answer.content
    assert f"Blue to move: <@{BOB.id}>" in answer.content
    assert answer.files[0][0].endswith(".png") and answer.files[0][1].startswith(b"\x89PNG")
    view = await world.service.game(game_id)
    assert len(view.game.actions) == 7 and view.game.score(view.game.to_move.opponent) == 1  # type: ignore[union-attr]


async def test_move_refusals_are_private_and_change_nothing(world: World) -> None:
    game_id, thread = await start_game(world)
    h = world.harness
    await refused(world, h.slash(BOB, "move", channel_id=thread, point="E5"), "not your turn")
    await refused(world, h.slash(CAT, "move", channel_id=thread, point="E5"), "not playing")
    await refused(world, h.slash(ANN, "move", channel_id=thread, point="hello"), "hello")
    await refused(world, h.slash(ANN, "move", channel_id=thread, point="Z99"), "off the board")
    await play(world, thread, (ANN, "E5"))
    await refused(world, h.slash(BOB, "move", channel_id=thread, point="E5"), "E5")
    await refused(world, h.slash(CAT, "move", point="E5"), "no running game")
    await h.slash(BOB, "resign", channel_id=thread)
    await h.click(
        BOB,
        h.last_message_with("dots:confirm:resign"),
        button_id(h.last_message_with("dots:confirm:resign"), "dots:confirm:resign:"),
    )
    assert not (await world.service.game(game_id)).is_running
    await refused(world, h.slash(ANN, "move", channel_id=thread, point="F5"), "over")


async def test_move_outside_the_thread_plays_the_only_game_and_posts_in_its_thread(
    world: World,
) -> None:
    game_id, thread = await start_game(world)
    calls = await world.harness.slash(ANN, "move", point="e 5")
    ack = [c for c in calls if c.path.startswith("/webhooks/")]
    assert len(ack) == 1 and ack[0].is_ephemeral and "E5" in ack[0].content
    assert posted(calls)[-1].path == f"/channels/{thread}/messages"
    assert (await world.service.game(game_id)).game.last_move.name == "E5"  # type: ignore[union-attr]


async def test_several_games_ask_which_one_with_a_menu_that_then_plays(world: World) -> None:
    first, _ = await start_game(world, ANN, BOB)
    second, _ = await start_game(world, ANN, CAT)
    before = world.snapshot()
    calls = await world.harness.slash(ANN, "move", point="B2")
    ask = private_refusal(calls, "which")
    assert ask.custom_ids() == ["dots:pick:move:B2"]
    assert world.snapshot() == before
    menu = world.harness.last_message_with("dots:pick:move")
    calls = await world.harness.click(ANN, menu, "dots:pick:move:B2", values=[str(second)])
    assert (await world.service.game(second)).game.last_move.name == "B2"  # type: ignore[union-attr]
    assert not (await world.service.game(first)).game.actions
    # The game option picks one directly, and names only games of this server.
    await world.harness.slash(ANN, "move", point="C2", game=first)
    assert (await world.service.game(first)).game.last_move.name == "C2"  # type: ignore[union-attr]
    await refused(world, world.harness.slash(ANN, "move", point="C3", game=999), "no game")


async def test_autocomplete_suggests_free_points_near_the_last_moves(world: World) -> None:
    _, thread = await start_game(world)
    await play(world, thread, (ANN, "E5"), (BOB, "E6"))
    choices = await world.harness.autocomplete(ANN, "move", "point", channel_id=thread, point="")
    assert len(choices) == 25
    assert "E5" not in choices and "E6" not in choices
    assert set(choices[:8]) <= {"D5", "D6", "D7", "E7", "F5", "F6", "F7", "D4", "E4", "F4"}
    typed = await world.harness.autocomplete(ANN, "move", "point", channel_id=thread, point="e")
    assert typed and all(c.startswith("E") for c in typed) and "E5" not in typed
    assert await world.harness.autocomplete(CAT, "move", "point", point="") == []


async def test_an_autocomplete_that_fails_unexpectedly_is_logged_not_swallowed(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(**kwargs: Any) -> list[Any]:
        raise RuntimeError("the database is gone")

    monkeypatch.setattr(world.service, "running_games", broken)
    for option in ("point", "game"):
        caplog.clear()
        h = world.harness
        data = h._command_data(
            "move", {"point": "", option: "1" if option == "game" else ""}, [], option
        )
        calls = await h.dispatch(h._base(4, ANN, CHANNEL_ID, data))
        assert [r for r in caplog.records if r.levelno == logging.ERROR], option
        assert "the database is gone" in caplog.text
        assert all("Traceback" not in c.content for c in calls)


# -- end, resign, board ---------------------------------------------------------------------


async def test_end_asks_privately_then_ends_and_says_the_other_plays_on(world: World) -> None:
    game_id, thread = await start_game(world)
    h = world.harness
    await refused(world, h.slash(BOB, "end", channel_id=thread), "not your turn")
    before = world.snapshot()
    calls = await h.slash(ANN, "end", channel_id=thread)
    ask = private_refusal(calls, "no more moves", "play on")
    assert [c.rsplit(":", 2)[0] for c in ask.custom_ids()] == [
        f"dots:confirm:end:{game_id}",
        f"dots:confirm:keep:{game_id}",
    ]
    assert world.snapshot() == before
    prompt = h.last_message_with("dots:confirm:end")
    calls = await h.click(ANN, prompt, button_id(prompt, "dots:confirm:keep:"))
    assert world.snapshot() == before
    assert prompt["components"] == [] and "Nothing changed" in prompt["content"]
    await h.slash(ANN, "end", channel_id=thread)
    prompt = h.last_message_with("dots:confirm:end")
    calls = await h.click(ANN, prompt, button_id(prompt, "dots:confirm:end:"))
    assert prompt["components"] == [] and prompt["content"] == "You ended."
    view = await world.service.game(game_id)
    assert view.game.ended and view.is_running
    note = posted(calls)[-1]
    assert note.path == f"/channels/{thread}/messages"
    assert (
        "may play on alone" in note.content and "/move" in note.content and "/end" in note.content
    )
    # Blue plays on alone, then ends: the game is over.
    await play(world, thread, (BOB, "C3"), (BOB, "C4"))
    await h.slash(BOB, "end", channel_id=thread)
    calls = await h.click(
        BOB,
        h.last_message_with("dots:confirm:end"),
        button_id(h.last_message_with("dots:confirm:end"), "dots:confirm:end:"),
    )
    assert (await world.service.game(game_id)).status == "over"
    final = posted(calls)[-1]
    assert "Blue wins" in final.content or "Draw" in final.content
    assert [name for name, _ in final.files][-1].endswith(".gif")


async def test_grounding_stop_shows_crosses_and_warns_when_it_would_lose(world: World) -> None:
    game_id, thread = await start_game(world, rules="grounding")
    h = world.harness
    await refused(world, h.slash(ANN, "end", channel_id=thread), "5 dots")
    moves = []
    for n, point in enumerate(("D4", "E4", "F4", "G4", "E6")):
        moves += [(ANN, point), (BOB, f"{'ABCDEFGHIJ'[n]}1")]
    await play(world, thread, *moves)
    before = world.snapshot()
    calls = await h.slash(ANN, "end", channel_id=thread)
    ask = [c for c in calls if c.path.startswith("/webhooks/")][-1]
    assert ask.is_ephemeral and "Stop?" in ask.content and "lose" in ask.content
    assert ask.files and ask.files[0][1].startswith(b"\x89PNG")
    assert world.snapshot() == before
    await h.click(
        ANN,
        h.last_message_with("dots:confirm:end"),
        button_id(h.last_message_with("dots:confirm:end"), "dots:confirm:end:"),
    )
    view = await world.service.game(game_id)
    assert view.status == "over" and view.result is not None and view.result.winner is not None
    assert view.result.reason == "stop" and view.result.blue == 5


async def test_resign_asks_then_posts_result_ratings_and_replay(world: World) -> None:
    game_id, thread = await start_game(world)
    h = world.harness
    await refused(world, h.slash(CAT, "resign", channel_id=thread), "not playing")
    await play(world, thread, (ANN, "E5"))
    await h.slash(BOB, "resign", channel_id=thread)
    older = copy.deepcopy(h.last_message_with("dots:confirm:resign"))  # as if asked twice
    await h.slash(BOB, "resign", channel_id=thread)
    before = world.snapshot()
    prompt = h.last_message_with("dots:confirm:resign")
    await refused(
        world, h.click(CAT, prompt, button_id(prompt, "dots:confirm:resign:")), "not playing"
    )
    assert world.snapshot() == before
    calls = await h.click(BOB, prompt, button_id(prompt, "dots:confirm:resign:"))
    final = posted(calls)[-1]
    assert "Pink wins" in final.content and "Ratings:" in final.content
    assert f"<@{ANN.id}>: 1500 →" in final.content
    assert final.files[-1][1][:6] in (b"GIF89a", b"GIF87a")
    assert (await world.service.game(game_id)).result.reason == "resigned"  # type: ignore[union-attr]
    # Buttons of an older prompt now only refuse.
    await refused(world, h.click(BOB, older, button_id(older, "dots:confirm:resign:")), "over")


async def test_board_is_public_in_the_thread_and_private_elsewhere(world: World) -> None:
    game_id, thread = await start_game(world)
    calls = await world.harness.slash(BOB, "board", channel_id=thread)
    answer = [c for c in calls if c.path.startswith("/webhooks/")][-1]
    assert not answer.is_ephemeral and answer.files[0][1].startswith(b"\x89PNG")
    calls = await world.harness.slash(BOB, "board")
    answer = [c for c in calls if c.path.startswith("/webhooks/")][-1]
    assert answer.is_ephemeral and f"Game #{game_id}" in answer.content
    await refused(world, world.harness.slash(CAT, "board"), "no running game")


# -- lists, settings, help --------------------------------------------------------------------


async def test_games_lists_running_games_with_links_and_open_challenges(world: World) -> None:
    game_id, thread = await start_game(world)
    await challenge(world, CAT, ANN)
    calls = await world.harness.slash(ANN, "games")
    answer = private_refusal(calls, f"#{game_id}", "your turn", "open challenge")
    assert f"https://discord.com/channels/{GUILD_ID}/{thread}" in answer.content
    answer = private_refusal(await world.harness.slash(CAT, "games"), "open challenge")
    assert "#1 vs" not in answer.content


async def test_notify_on_sends_a_dm_on_long_clocks_only(world: World) -> None:
    h = world.harness
    private_refusal(await h.slash(BOB, "notify", setting="on"), "DM")
    assert await world.service.wants_notify(user_id=BOB.id)
    _, quick = await start_game(world, ANN, BOB, clock=60)
    calls = await play(world, quick, (ANN, "E5"))
    assert not [c for c in calls if c.path == "/users/@me/channels"]
    _, slow = await start_game(world, CAT, BOB, clock=3600)
    calls = await play(world, slow, (CAT, "E5"))
    assert [c.payload for c in calls if c.path == "/users/@me/channels"] == [
        {"recipient_id": BOB.id}
    ]
    dm = [c for c in posted(calls) if c.path == f"/channels/{h.rest.dm_channel}/messages"]
    assert len(dm) == 1 and "Your turn" in dm[0].content and str(slow) in dm[0].content
    private_refusal(await h.slash(BOB, "notify", setting="off"), "no more")
    calls = await play(world, slow, (BOB, "E6"), (CAT, "E7"))
    assert not [c for c in calls if c.path == "/users/@me/channels"]


async def test_closed_dms_fall_back_to_a_mention_in_the_thread(world: World) -> None:
    h = world.harness
    await h.slash(BOB, "notify", setting="on")
    _, thread = await start_game(world, clock=3600)
    original = h.rest.request

    async def closed_dms(route: Any, **kwargs: Any) -> Any:
        result = await original(route, **kwargs)
        if route.method == "POST" and route.url.endswith("/users/@me/channels"):
            h.rest.forbid.add(f"/channels/{result['id']}/messages")
        return result

    h.bot.http.request = closed_dms  # type: ignore[method-assign]
    calls = await play(world, thread, (ANN, "E5"))
    in_thread = [c for c in posted(calls) if c.path == f"/channels/{thread}/messages"]
    assert [c for c in in_thread if c.content.startswith(f"<@{BOB.id}> Your turn")]


async def test_leaderboard_stats_and_history_after_a_rated_game(world: World) -> None:
    game_id, thread = await start_game(world)
    await play(world, thread, (ANN, "E5"))
    await world.harness.slash(BOB, "resign", channel_id=thread)
    prompt = world.harness.last_message_with("dots:confirm:resign")
    await world.harness.click(BOB, prompt, button_id(prompt, "dots:confirm:resign:"))
    calls = await world.harness.slash(CAT, "leaderboard")
    board = next(c for c in calls if c.kind == 4)
    text = board.payload["data"]["embeds"][0]["description"]  # type: ignore[index]
    assert text.index(f"<@{ANN.id}>") < text.index(f"<@{BOB.id}>")
    assert "1 game: 1 won" in text  # "1 game", not "1 games"
    calls = await world.harness.slash(CAT, "stats", user=BOB)
    stats = next(c for c in calls if c.kind == 4).payload["data"]["embeds"][0]["description"]  # type: ignore[index]
    assert "1 game: 0 won, 1 lost" in stats
    calls = await world.harness.slash(ANN, "history")
    history = next(c for c in calls if c.kind == 4).payload["data"]["embeds"][0]["description"]  # type: ignore[index]
    assert f"#{game_id} win" in history and f"<@{BOB.id}>" in history


async def test_export_sends_sgf_and_gif_of_a_game_of_this_server(world: World) -> None:
    game_id, thread = await start_game(world)
    await play(world, thread, (ANN, "E5"), (BOB, "F6"))
    calls = await world.harness.slash(CAT, "export", game=game_id)
    sent = [c for c in calls if c.path.startswith("/webhooks/")][-1]
    names = [name for name, _ in sent.files]
    assert names == [f"dots-{game_id}.sgf", f"dots-{game_id}.gif"]
    record = sent.files[0][1].decode()
    assert "GM[40]" in record and ";W[ef]" in record and ";B[fe]" in record
    await refused(world, world.harness.slash(CAT, "export", game=77), "no game")


async def test_rules_help_answer_privately_with_pictures(world: World) -> None:
    calls = await world.harness.slash(CAT, "rules")
    sent = [c for c in calls if c.path.startswith("/webhooks/")][-1]
    assert sent.is_ephemeral and "base" in sent.content and "stop" in sent.content
    assert [name for name, _ in sent.files] == ["rules-1.png", "rules-2.png", "rules-3.png"]
    calls = await world.harness.slash(CAT, "help")
    private_refusal(calls, "/challenge", "/move", "/export")


# -- admin ------------------------------------------------------------------------------------


async def test_admin_commands_need_manage_server(world: World) -> None:
    game_id, _ = await start_game(world)
    h = world.harness
    await refused(world, h.slash(CAT, "dots-admin cancel", game=game_id), "manage server")
    await refused(world, h.slash(ANN, "dots-admin settings", clock=3600), "manage server")
    calls = await h.slash(ADA, "dots-admin cancel", game=game_id)
    private_refusal([c for c in calls if c.kind == 4], "cancelled")
    assert any("cancelled by" in c.content for c in posted(calls))
    assert (await world.service.game(game_id)).status == "aborted"
    await refused(world, h.slash(ADA, "dots-admin cancel", game=game_id), "aborted")


async def test_admin_settings_change_channel_and_default_clock(world: World) -> None:
    games = Channel(GAMES_CHANNEL_ID)
    calls = await world.harness.slash(ADA, "dots-admin settings", channel=games, clock=300)
    private_refusal(calls, "5 min", str(games.id))
    settings = await world.service.guild_settings(guild_id=GUILD_ID)
    assert settings.game_channel_id == games.id and settings.default_clock == timedelta(minutes=5)
    # New games open their thread from a message in the game channel.
    calls_before = len(world.harness.rest.calls)
    game_id, _ = await start_game(world)
    calls = world.harness.rest.since(calls_before)
    assert any(c.path == f"/channels/{games.id}/messages" for c in calls)
    assert (await world.service.game(game_id)).clock == timedelta(minutes=5)


# -- hygiene ----------------------------------------------------------------------------------


async def test_unexpected_errors_get_a_private_apology_not_a_traceback(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, thread = await start_game(world)

    async def broken(**kwargs: Any) -> None:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(world.service, "place", broken)
    answer = await refused(
        world, world.harness.slash(ANN, "move", channel_id=thread, point="E5"), "sorry"
    )
    assert "fire" not in answer.content


async def test_commands_sync_to_the_dev_guild_with_described_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await GameService.open(tmp_path / "d.sqlite3")
    harness = await Harness.start(service, monkeypatch, dev_guild=GUILD_ID)
    try:
        puts = [c for c in harness.rest.calls if c.method == "PUT"]
        assert [c.path for c in puts] == [f"/applications/{APP_ID}/guilds/{GUILD_ID}/commands"]
        commands = {cmd["name"]: cmd for cmd in puts[0].payload}  # type: ignore[union-attr]
        expected = {"challenge", "move", "end", "resign", "board", "games", "rules", "help"}
        expected |= {"notify", "leaderboard", "stats", "history", "export", "dots-admin"}
        expected |= {"tournament"}
        expected |= {"play-computer", "undo", "takeback", "stickers", "review", "puzzle"}
        expected |= {"draw"}
        assert set(commands) == expected

        def options(cmd: dict[str, Any]) -> list[dict[str, Any]]:
            found = []
            for opt in cmd.get("options", []):
                found.append(opt)
                found += options(opt)
            return found

        for cmd in commands.values():
            assert cmd["description"]
            for opt in options(cmd):
                assert opt["description"] and opt["description"] != "…", (cmd["name"], opt)
        challenge_opts = {o["name"]: o for o in commands["challenge"]["options"]}
        assert [c["value"] for c in challenge_opts["rules"]["choices"]] == ["standard", "grounding"]
        assert challenge_opts["time"]["type"] == 3 and challenge_opts["takebacks"]["type"] == 5
        assert int(commands["dots-admin"]["default_member_permissions"]) == 1 << 5
        move_opts = {o["name"]: o for o in commands["move"]["options"]}
        assert move_opts["point"]["autocomplete"] is True
    finally:
        await harness.close()
        await service.close()


# -- events: time-outs, reminders ---------------------------------------------------------------


async def test_time_out_is_announced_in_the_thread(world: World) -> None:
    game_id, thread = await start_game(world)
    await play(world, thread, (ANN, "E5"))
    view = await world.service.game(game_id)
    assert view.deadline is not None
    world.clock.now = view.deadline + timedelta(seconds=1)
    mark = len(world.harness.rest.calls)
    assert await world.service.time_out(game_id=game_id, deadline=view.deadline) is not None
    await settle()
    notes = posted(world.harness.rest.since(mark))
    assert [c.path for c in notes] == [f"/channels/{thread}/messages"]
    assert "Blue" in notes[0].content and "ran out of time" in notes[0].content
    assert "Pink may play on alone" in notes[0].content
    assert f"Pink to move: <@{ANN.id}>" in notes[0].content


async def test_a_game_nobody_started_is_aborted_in_the_thread(world: World) -> None:
    game_id, _ = await start_game(world)
    view = await world.service.game(game_id)
    world.clock.now = view.deadline + timedelta(seconds=1)  # type: ignore[operator]
    mark = len(world.harness.rest.calls)
    await world.service.time_out(game_id=game_id, deadline=view.deadline)  # type: ignore[arg-type]
    await settle()
    notes = posted(world.harness.rest.since(mark))
    assert len(notes) == 1 and "aborted" in notes[0].content and not notes[0].files


async def test_reminder_pings_in_the_thread_or_by_dm_when_opted_in(world: World) -> None:
    game_id, thread = await start_game(world, clock=3 * 3600)
    await play(world, thread, (ANN, "E5"))
    view = await world.service.game(game_id)
    world.clock.now = view.deadline - timedelta(hours=1)  # type: ignore[operator]
    mark = len(world.harness.rest.calls)
    assert await world.service.remind(game_id=game_id, deadline=view.deadline)  # type: ignore[arg-type]
    await settle()
    notes = posted(world.harness.rest.since(mark))
    assert [c.path for c in notes] == [f"/channels/{thread}/messages"]
    assert notes[0].content.startswith(f"<@{BOB.id}> Reminder: 1 h left")
    # Opted in: the turn and the next reminder come by DM.
    await world.harness.slash(ANN, "notify", setting="on")
    calls = await play(world, thread, (BOB, "E6"))
    assert [c.payload for c in calls if c.path == "/users/@me/channels"] == [
        {"recipient_id": ANN.id}
    ]
    view = await world.service.game(game_id)
    world.clock.now = view.deadline - timedelta(hours=1)  # type: ignore[operator]
    mark = len(world.harness.rest.calls)
    assert await world.service.remind(game_id=game_id, deadline=view.deadline)  # type: ignore[arg-type]
    await settle()
    (dm,) = posted(world.harness.rest.since(mark))
    assert dm.path == f"/channels/{world.harness.rest.dm_channel}/messages"
    assert dm.content.startswith("Reminder: 1 h left")


async def test_an_unexpected_error_behind_a_button_gets_a_private_apology(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    message = await challenge(world)

    async def broken(**kwargs: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(world.service, "accept", broken)
    answer = await refused(
        world,
        world.harness.click(BOB, message, custom_id(message, "dots:challenge:accept")),
        "sorry",
    )
    assert "disk" not in answer.content


async def test_game_option_autocompletes_the_users_running_games(world: World) -> None:
    first, thread = await start_game(world, ANN, BOB)
    second, other = await start_game(world, CAT, ANN)
    await play(world, thread, (ANN, "E5"))
    await play(world, other, (CAT, "E5"))
    h = world.harness
    choices = await h.autocomplete(ANN, "end", "game", game="")
    assert choices == [second, first]  # Ann is to move in the second game only
    assert await h.autocomplete(ANN, "board", "game", game=str(first)) == [first]
    assert await h.autocomplete(ADA, "move", "game", point="A1", game="") == []


async def test_several_games_end_asks_which_then_confirms(world: World) -> None:
    first, _ = await start_game(world, ANN, BOB)
    await start_game(world, ANN, CAT)
    calls = await world.harness.slash(ANN, "end")
    assert private_refusal(calls, "which").custom_ids() == ["dots:pick:end:"]
    menu = world.harness.last_message_with("dots:pick:end")
    calls = await world.harness.click(ANN, menu, "dots:pick:end:", values=[str(first)])
    ask = private_refusal(calls, "no more moves")
    assert [c.rsplit(":", 2)[0] for c in ask.custom_ids()] == [
        f"dots:confirm:end:{first}",
        f"dots:confirm:keep:{first}",
    ]
    # Someone else's click on those buttons is refused.
    prompt = world.harness.last_message_with("dots:confirm:end")
    await refused(
        world,
        world.harness.click(CAT, prompt, button_id(prompt, "dots:confirm:end:")),
        "not playing",
    )


async def test_buttons_still_work_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "dots.sqlite3"
    service = await GameService.open(db)
    first = await Harness.start(service, monkeypatch)
    await first.slash(ANN, "challenge", opponent=BOB, colour="pink")
    message = first.last_message_with("dots:challenge:accept")
    await first.close()
    await service.close()

    # A new process: new service, new bot, nothing in memory but the database.
    service = await GameService.open(db)
    second = await Harness.start(service, monkeypatch)
    try:
        calls = await second.click(BOB, message, "dots:challenge:accept:1")
        assert any(c.kind == 7 for c in calls)
        (thread,) = second.threads()
        calls = await second.slash(ANN, "move", channel_id=thread, point="E5")
        assert not any(c.is_ephemeral for c in calls)
        assert (await service.game(1)).game.last_move.name == "E5"  # type: ignore[union-attr]
    finally:
        await second.close()
        await service.close()

    # Once more: the thread still leads to its game (Discord still knows the thread's name).
    service = await GameService.open(db)
    third = await Harness.start(service, monkeypatch)
    third.rest.threads.update(second.rest.threads)
    try:
        await refused_in(third, service, CAT, thread, "not playing")
        calls = await third.slash(BOB, "move", channel_id=thread, point="F5")
        assert not any(c.is_ephemeral for c in calls)
        assert len((await service.game(1)).game.actions) == 2
    finally:
        await third.close()
        await service.close()


async def refused_in(
    harness: Harness, service: GameService, member: Member, thread: int, words: str
) -> None:
    """A /move in ``thread`` by ``member`` is refused privately and plays nothing."""
    before = len((await service.game(1)).game.actions)
    calls = await harness.slash(member, "move", channel_id=thread, point="A1")
    private_refusal(calls, words)
    assert len((await service.game(1)).game.actions) == before


async def test_without_a_dev_guild_commands_sync_globally(world: World) -> None:
    puts = [c for c in world.harness.rest.calls if c.method == "PUT"]
    assert [c.path for c in puts] == [f"/applications/{APP_ID}/commands"]
    golden = json.loads(
        (Path(__file__).parents[1] / "e2e" / "golden" / "commands.json").read_text()
    )
    synced = puts[0].payload
    assert isinstance(synced, list)
    assert sorted(c["name"] for c in synced) == sorted(c["name"] for c in golden)


# -- Discord's limits, slow service, forged payloads, names ----------------------------------


def test_fit_content_keeps_the_first_and_last_lines_within_2000() -> None:
    run = "Computer (medium) plays on alone: " + ", ".join(f"A{n}" for n in range(1, 600))
    content = "\n".join(["**Game #1**", run, "Computer ends.", "Pink 0 · Blue 3", "Blue wins."])
    fitted = fit_content(content)
    assert len(content) > 2000 and len(fitted) <= 2000
    lines = fitted.split("\n")
    assert lines[0] == "**Game #1**" and lines[-3:] == [
        "Computer ends.",
        "Pink 0 · Blue 3",
        "Blue wins.",
    ]
    assert lines[1].startswith("Computer (medium) plays on alone: A1, A2") and lines[1].endswith(
        "…"
    )
    assert fit_content("short\ntext") == "short\ntext"
    # One long line alone is cut too.
    assert len(fit_content("x" * 5000)) == 2000


def test_a_long_list_is_summed_up_with_how_many_more() -> None:
    dots = [f"B{n}" for n in range(1, 451)]
    line = fit_list(dots, 1200)
    assert len(line) <= 1200 + len(" … and 450 more")
    shown = line.split(" … and ")[0].split(", ")
    assert shown == dots[: len(shown)] and line.endswith(f"and {450 - len(shown)} more")
    assert fit_list(["A1", "B2"], 1200) == "A1, B2"


def test_any_typed_point_gives_a_custom_id_that_matches_its_template() -> None:
    template = re.compile(GamePicker.__discord_ui_compiled_template__.pattern)  # type: ignore[attr-defined]
    for typed in ["B7", "é5", "B-7", "B\u200b7", "Ｂ７", "", "🙂" * 40, "x" * 40, "_abc", "a:b"]:
        key = point_key(typed)
        assert template.fullmatch(f"dots:pick:resign:{key}"), typed
        assert len(f"dots:pick:resign:{key}") <= 100
        back = typed_of_key(key)
        if typed in ("B7", "B\u200b7", "Ｂ７"):
            assert back == "B7"  # the normalised point
        else:
            assert back is not None and typed.startswith(back), (typed, back)
    for forged in ("_!!", "_A", "_gA"):  # not base64url, cut short, not UTF-8
        assert typed_of_key(forged) is None, forged


def test_every_in_game_action_has_a_handler_and_the_menu_asks_for_those_without_a_choice() -> None:
    for action in ACTIONS:
        assert callable(handler(action)), action
    asking = [str(action) for action, entry in ACTIONS.items() if entry.choose is None]
    assert asking == ["move", "end", "resign", "board", "draw"]
    assert list(GamePicker.ID.actions) == asking


@pytest.mark.parametrize("item", DYNAMIC_ITEMS, ids=lambda item: item.__name__)
def test_every_custom_id_matches_its_own_template_and_fits_discords_limit(item: Any) -> None:
    template = item.__discord_ui_compiled_template__
    key = point_key("🙂" * 40) if item is GamePicker else MAX_ID
    # The largest numbers the templates take: positions of 6 digits, instants of 12.
    fields = item.ID.fields + item.ID.optional
    numbers = {name: int("9" * (6 if name == "moves" else 12)) for name, _ in fields}
    required = {name: numbers[name] for name, _ in item.ID.fields}
    for action in item.ID.actions:
        for given in (required, numbers):
            custom_id = item.ID.format(action, key, **given)
            assert template.fullmatch(custom_id), custom_id
            assert len(custom_id) <= CUSTOM_ID, custom_id


def test_custom_ids_keep_the_formats_of_buttons_posted_before() -> None:
    formats = {
        item.__name__: item.__discord_ui_compiled_template__.pattern for item in DYNAMIC_ITEMS
    }
    assert formats == {
        "CardButton": (
            r"dots:card:(?P<action>move|end|resign|takeback|undo|board|draw):(?P<key>[0-9]+)"
            r":(?P<moves>[0-9]{1,6})"
        ),
        "PickPoint": (
            r"dots:dot:(?P<action>play):(?P<key>[0-9]+):(?P<moves>[0-9]{1,6})"
            r":(?P<x>[0-9]{1,12}):(?P<y>[0-9]{1,12})"
        ),
        "PickerMove": (
            r"dots:zoom:(?P<action>win|grid):(?P<key>[0-9]+):(?P<moves>[0-9]{1,6})"
            r":(?P<a>[0-9]{1,12}):(?P<b>[0-9]{1,12}):(?P<c>[0-9]{1,12}):(?P<d>[0-9]{1,12})"
        ),
        "ChallengeButton": r"dots:challenge:(?P<action>accept|decline|cancel):(?P<key>[0-9]+)",
        "ConfirmButton": (
            r"dots:confirm:(?P<action>end|resign|keep):(?P<key>[0-9]+)"
            r"(?::(?P<moves>[0-9]+):(?P<shown>[0-9]+))?"
        ),
        "GamePicker": (
            r"dots:pick:(?P<action>move|end|resign|board|draw):(?P<key>[A-Za-z0-9_-]{0,80})"
        ),
        "RematchButton": r"dots:rematch:(?P<action>offer):(?P<key>[0-9]+)",
        "ReviewButton": r"dots:review:(?P<action>game):(?P<key>[0-9]+)",
        "TakebackButton": (
            r"dots:takeback:(?P<action>accept|decline):(?P<key>[0-9]+):(?P<moves>[0-9]{1,6})"
            r"(?::(?P<asked>[0-9]{1,12}))?"
        ),
        "EntryButton": r"dots:tournament:(?P<action>join|leave):(?P<key>[0-9]+)",
        "DrawButton": (
            r"dots:draw:(?P<action>accept|decline):(?P<key>[0-9]+):(?P<moves>[0-9]{1,6})"
            r":(?P<by>[0-9]{1,20})"
        ),
        "ReplayButton": r"dots:replay:(?P<action>game):(?P<key>[0-9]+):(?P<player>[0-9]{1,12})",
        "DailyButton": r"dots:daily:(?P<action>solve):(?P<key>[0-9]+):(?P<day>[0-9]{1,12})",
    }


def test_names_lose_their_bidi_controls() -> None:
    evil = "\u202eevil\u202c name\u2067x\u2069\u200f"
    assert plain_name(evil) == "evil namex"
    name = thread_name(7, evil, "bob\nsmith" + "z" * 200)
    assert not re.search("[\u202a-\u202e\u2066-\u2069\u200e\u200f\n]", name)
    assert name.startswith("Dots #7: evil namex vs bob smith") and len(name) <= 100


def test_sizes_in_full_width_digits_read_as_ascii() -> None:
    options = game_options("１０x１０", "standard", "empty", None, "random", rated=True)
    assert (options.width, options.height) == (10, 10)
    with pytest.raises(Refusal):
        game_options("١٠x١٠", "standard", "empty", None, "random", rated=True)


async def test_a_slow_service_gets_a_public_deferral_first(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, thread = await start_game(world)
    place = world.service.place
    mark = len(world.harness.rest.calls)
    deferred_first: list[bool] = []

    async def slow(**kwargs: Any) -> Any:
        await asyncio.sleep(ANSWER_BUDGET * 3)
        deferred_first.append(any(c.kind == 5 for c in world.harness.rest.since(mark)))
        return await place(**kwargs)

    monkeypatch.setattr(world.service, "place", slow)
    calls = await world.harness.slash(ANN, "move", channel_id=thread, point="E5")
    assert deferred_first == [True], "the move was stored before the interaction was deferred"
    assert calls[0].kind == 5 and not calls[0].is_ephemeral
    filled = [c for c in calls if c.path.startswith("/webhooks/")]
    assert filled and "plays E5" in filled[0].content and filled[0].files
    assert (await world.service.game(game_id)).game.last_move.name == "E5"  # type: ignore[union-attr]


async def test_a_late_refusal_clears_the_public_deferral_and_is_private(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, thread = await start_game(world)

    async def slow_refusal(**kwargs: Any) -> Any:
        await asyncio.sleep(ANSWER_BUDGET * 3)
        raise NotYourTurn("it is not your turn: Blue is to move")

    monkeypatch.setattr(world.service, "place", slow_refusal)
    calls = await refused(
        world, world.harness.slash(ANN, "move", channel_id=thread, point="E5"), "not your turn"
    )
    del calls
    made = world.harness.rest.calls
    assert any(c.method == "DELETE" and c.path.endswith("/messages/@original") for c in made)


async def test_a_forged_game_id_is_refused_not_looked_up(world: World) -> None:
    await start_game(world)
    for value in (2**63, -(2**63) - 1, 0):
        await refused(world, world.harness.slash(ANN, "board", game=value), "no game")


class RefusingChannel:
    """A channel whose first ``refusals`` posts Discord refuses for their body (50035)."""

    def __init__(self, refusals: int) -> None:
        self.refusals = refusals
        self.sent: list[dict[str, Any]] = []

    async def send(self, content: str = "", **fields: Any) -> str:
        """Record the post; refuse it while refusals are left."""
        self.sent.append({"content": content, **fields})
        if self.refusals:
            self.refusals -= 1
            response = types.SimpleNamespace(status=400, reason="Bad Request")
            raise discord.HTTPException(response, {"code": 50035, "message": "Invalid Form Body"})
        return "posted"


@pytest.mark.parametrize("refusals", [1, 2])
async def test_a_post_refused_for_its_body_still_posts_the_result(
    refusals: int, caplog: pytest.LogCaptureFixture
) -> None:
    channel = RefusingChannel(refusals)
    bot = types.SimpleNamespace(get_partial_messageable=lambda *a, **k: channel)
    view = types.SimpleNamespace(game_id=3, thread_id=11, channel_id=10, guild_id=1)
    posted = await send_to_game(
        bot,  # type: ignore[arg-type]
        view,  # type: ignore[arg-type]
        "x" * 5000 + "\nBlue wins.",
        minimal="Blue wins.",
    )
    assert len(channel.sent[0]["content"]) <= 2000  # fitted before it went out
    assert channel.sent[0]["content"].endswith("\nBlue wins.")
    assert channel.sent[1] == {"content": "Blue wins."}  # the minimal post, no files
    assert posted == ("posted" if refusals == 1 else None)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


# -- Discord's limits across the adapter: the longest answers fit ---------------------------

LONG = Member(940_000_000_000_000_006, "L" * 40 + "\u202e" + "o" * 300)


async def finished_game(world: World, a: Member = ANN, b: Member = BOB) -> int:
    """A rated game ``a`` wins (``b`` resigns): its id."""
    game_id, thread = await start_game(world, a, b)
    await play(world, thread, (a, "E5"))
    await world.harness.slash(b, "resign", channel_id=thread)
    prompt = world.harness.last_message_with("dots:confirm:resign")
    await world.harness.click(b, prompt, custom_id(prompt, "dots:confirm:resign"))
    return game_id


def only_embed(calls: list[Call]) -> dict[str, Any]:
    """The one embed answered (a refused, over-limit answer would be an apology instead)."""
    (answer,) = [c for c in calls if c.kind == 4]
    assert not answer.is_ephemeral, answer.content
    (embed,) = answer.payload["data"]["embeds"]  # type: ignore[index]
    return embed  # type: ignore[no-any-return]


async def test_the_longest_history_leaderboard_and_stats_fit(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await finished_game(world, LONG, BOB)
    history, leaderboard = world.service.history, world.service.leaderboard

    async def long_history(**kwargs: Any) -> Any:
        return (await history(**kwargs)) * 80  # far more than 4,096 characters of lines

    async def long_leaderboard(**kwargs: Any) -> Any:
        return (await leaderboard(**kwargs)) * 200

    monkeypatch.setattr(world.service, "history", long_history)
    monkeypatch.setattr(world.service, "leaderboard", long_leaderboard)
    embed = only_embed(await world.harness.slash(LONG, "history"))
    assert len(embed["title"]) == 256 and embed["title"].startswith("Dots games of L")
    assert (
        embed["title"].endswith("…") and "\u202e" not in embed["title"]
    )  # and without bidi controls
    lines = embed["description"].split("\n")
    assert len(embed["description"]) <= 4096 and len(lines) < 80
    assert lines[0].startswith(f"#{game_id} win") and lines[-1].startswith(f"#{game_id} win")
    embed = only_embed(await world.harness.slash(CAT, "leaderboard"))
    assert len(embed["description"]) <= 4096 and embed["description"].startswith("1. ")
    assert embed["footer"]["text"].startswith("?") or "provisional" in embed["footer"]["text"]
    embed = only_embed(await world.harness.slash(CAT, "stats", user=LONG))
    assert len(embed["title"]) == 256 and "Rating" in embed["description"]


# -- across the adapter: the first answer before the slow service ----------------------------


def slowed(
    monkeypatch: pytest.MonkeyPatch, world: World, name: str, error: Exception | None = None
) -> list[int | None]:
    """Slow the service's ``name`` beyond ``ANSWER_BUDGET`` (then raise ``error``, if given);
    the kinds of the interaction callbacks made from now until it returned (a deferral may
    be sent before the service is called, or while it works)."""
    real = getattr(world.service, name)
    before: list[int | None] = []
    mark = len(world.harness.rest.calls)

    async def slow(**kwargs: Any) -> Any:
        await asyncio.sleep(ANSWER_BUDGET * 3)
        before[:] = [c.kind for c in world.harness.rest.since(mark) if c.kind is not None]
        if error is not None:
            raise error
        return await real(**kwargs)

    monkeypatch.setattr(world.service, name, slow)
    return before


async def test_a_slow_accept_is_deferred_then_edits_the_challenge(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    message = await challenge(world)
    before = slowed(monkeypatch, world, "accept")
    calls = await world.harness.click(BOB, message, custom_id(message, "dots:challenge:accept"))
    assert before == [6], "the click was not acknowledged before the service answered"
    stored = world.harness.rest.messages[int(message["id"])]
    assert "accepted" in stored["content"]
    assert all(b["disabled"] for row in stored["components"] for b in row["components"])
    (thread,) = world.harness.threads()
    assert any(c.path == f"/channels/{thread}/messages" and c.files for c in calls)


@pytest.mark.parametrize("action", ["accept", "decline"])
async def test_a_late_refusal_of_a_click_is_private(
    world: World, monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    message = await challenge(world)
    before = slowed(monkeypatch, world, action, NotYourChallenge("the challenge is closed"))
    click = world.harness.click(BOB, message, custom_id(message, f"dots:challenge:{action}"))
    await refused(world, click, "challenge is closed")
    assert before == [6]
    stored = world.harness.rest.messages[int(message["id"])]
    assert not any(b.get("disabled") for row in stored["components"] for b in row["components"])


async def test_a_slow_challenge_is_posted_after_a_public_deferral(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = slowed(monkeypatch, world, "challenge")
    calls = await world.harness.slash(ANN, "challenge", opponent=BOB, colour="pink")
    assert before == [5] and not calls[0].is_ephemeral
    (posted_challenge,) = [c for c in calls if c.path.startswith("/webhooks/") and c.content]
    assert f"<@{BOB.id}>" in posted_challenge.content and not posted_challenge.is_ephemeral
    mentioned = posted_challenge.payload["allowed_mentions"]["users"]  # type: ignore[index]
    assert [int(user) for user in mentioned] == [BOB.id]
    message = world.harness.last_message_with("dots:challenge:accept")
    (open_one,) = await world.service.open_challenges(user_id=ANN.id)
    assert open_one.message_id == int(message["id"])
    await world.harness.click(BOB, message, custom_id(message, "dots:challenge:accept"))
    assert len(world.harness.threads()) == 1


async def test_a_late_refusal_of_a_challenge_is_private(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    slowed(monkeypatch, world, "challenge", Refusal("you already challenged bob"))
    slash = world.harness.slash(ANN, "challenge", opponent=BOB)
    await refused(world, slash, "already challenged")
    made = world.harness.rest.calls
    assert any(c.method == "DELETE" and c.path.endswith("/messages/@original") for c in made)


async def test_a_slow_computer_game_and_undo_are_deferred_first(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = slowed(monkeypatch, world, "start_computer_game")
    calls = await world.harness.slash(ANN, "play-computer", level="easy", colour="pink")
    assert before == [5]
    (thread,) = world.harness.threads()
    assert any("plays Computer (easy)" in c.content for c in calls if c.path.startswith("/web"))
    assert any("The game starts" in c.content for c in posted(calls))
    await play(world, thread, (ANN, "E5"))
    before = slowed(monkeypatch, world, "undo")
    calls = await world.harness.slash(ANN, "undo", channel_id=thread)
    assert before == [5]
    answer = [c for c in calls if c.path.startswith("/webhooks/") and c.content][-1]
    assert "takes back E5" in answer.content and answer.files
    assert (await world.service.game(1)).game.actions == ()


@pytest.mark.parametrize("action", ["end", "resign"])
async def test_a_slow_end_or_resign_click_is_deferred_then_edits_the_prompt(
    world: World, monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    _, thread = await start_game(world)
    await world.harness.slash(ANN, action, channel_id=thread)
    prompt = world.harness.last_message_with(f"dots:confirm:{action}")
    before = slowed(monkeypatch, world, action)
    calls = await world.harness.click(ANN, prompt, custom_id(prompt, f"dots:confirm:{action}"))
    assert before == [6]
    assert prompt["components"] == [] and prompt["content"] in ("You ended.", "You resigned.")
    assert posted(calls)[-1].path == f"/channels/{thread}/messages"


async def test_a_late_refusal_of_a_confirmation_is_private(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, thread = await start_game(world)
    await world.harness.slash(ANN, "end", channel_id=thread)
    prompt = world.harness.last_message_with("dots:confirm:end")
    content = prompt["content"]
    slowed(monkeypatch, world, "end", NotYourTurn("it is not your turn: Blue is to move"))
    click = world.harness.click(ANN, prompt, custom_id(prompt, "dots:confirm:end"))
    await refused(world, click, "not your turn")
    assert prompt["content"] == content and prompt["components"]


@pytest.mark.parametrize(
    "case",
    [
        ("leaderboard", "leaderboard", {}, False),
        ("stats", "stats", {"user": BOB}, False),
        ("history", "history", {}, False),
        ("notify", "set_notify", {"setting": "on"}, True),
    ],
)
async def test_slow_reading_commands_are_deferred_first(
    world: World, monkeypatch: pytest.MonkeyPatch, case: tuple[str, str, dict[str, Any], bool]
) -> None:
    command, method, options, private = case
    await finished_game(world)
    before = slowed(monkeypatch, world, method)
    calls = await world.harness.slash(ANN, command, **options)
    assert before == [5] and calls[0].is_ephemeral == private
    (shown,) = [c for c in calls if c.path.startswith("/webhooks/")]
    assert shown.is_ephemeral == private
    assert (shown.payload or {}).get("embeds") or "DM you" in shown.content  # type: ignore[union-attr]


async def test_a_late_failure_of_a_public_command_is_a_private_apology(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    slowed(monkeypatch, world, "leaderboard", RuntimeError("the database went away"))
    await refused(world, world.harness.slash(ANN, "leaderboard"), "something went wrong")
    made = world.harness.rest.calls
    assert any(c.method == "DELETE" and c.path.endswith("/messages/@original") for c in made)


async def test_slow_admin_commands_are_deferred_first_and_privately(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _ = await start_game(world)
    before = slowed(monkeypatch, world, "admin_cancel")
    calls = await world.harness.slash(ADA, "dots-admin cancel", game=game_id)
    assert before == [5] and calls[0].is_ephemeral
    (shown,) = [c for c in calls if c.path.startswith("/webhooks/")]
    assert shown.is_ephemeral and "cancelled" in shown.content
    assert (await world.service.game(game_id)).status == "aborted"
    before = slowed(monkeypatch, world, "set_guild_settings")
    calls = await world.harness.slash(ADA, "dots-admin settings", clock=300)
    assert before == [5] and calls[0].is_ephemeral
    (shown,) = [c for c in calls if c.path.startswith("/webhooks/")]
    assert shown.is_ephemeral and "5 min" in shown.content
