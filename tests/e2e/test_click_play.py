"""Playing by clicks through the real bot (with game cards) and the fake Discord: every
position is a Components V2 card the fake validates, Place a dot opens a private point picker,
and the moves are played with buttons only. The click counts per move are logged; each
interaction's first answer comes within Discord's 3 seconds (the fake refuses a later one)."""

from __future__ import annotations

import contextlib
import logging
import random
import re
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from pathlib import Path

import pytest

from bot.app import DotsBot
from engine import Point
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
from tests.fakediscord.components_v2 import is_v2
from tests.fakediscord.drivers import InteractionHandle
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message, User

__all__ = ["fake_discord"]  # the fixture is used by name

log = logging.getLogger(__name__)

# Seconds to wait for a card: the computer's reply and the pictures take a while on a busy
# machine (the 3-second rule is checked on each interaction's first answer, not here).
SLOW = 20.0

ZOOM = re.compile(r"dots:zoom:(win|grid):\d+:\d+:(\d+):(\d+):(\d+):(\d+)")


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    return make_server(fake_discord, tmp_path / "db.sqlite3")


@contextlib.asynccontextmanager
async def card_bot(
    server: Server, now: Callable[[], datetime] | None = None
) -> AsyncIterator[DotsBot]:
    """The real bot with game cards on (its service on the clock ``now``, if given)."""
    async with bot_on(server.fake, server.database, now=now, cards=True) as bot:
        yield bot


def status(server: Server, game_id: int) -> str:
    ((found,),) = query(server.database, "SELECT status FROM games WHERE game_id = ?", (game_id,))
    return str(found)


def moves_of(server: Server, game_id: int) -> int:
    return len(actions(server.database, game_id))


async def card_for(server: Server, thread: Channel, game_id: int, moves: int) -> Message:
    """The game's card for the position after ``moves`` actions (once posted and noted)."""
    wanted = f"dots:card:move:{game_id}:{moves}"
    card = await server.fake.wait_until(
        lambda: next((m for m in server.fake.posted(thread) if wanted in m.custom_ids()), None),
        timeout=SLOW,
        poll=None,
    )
    await server.fake.wait_until(
        lambda: (
            query(server.database, "SELECT message_id FROM games WHERE game_id = ?", (game_id,))
            == [(card.id,)]
        ),
        timeout=SLOW,
    )
    assert is_v2(card.flags) and card.content == "" and card.attachments
    return card


def shown_text(message: Message) -> str:
    """The text displays of a V2 message, one per line."""
    found: list[str] = []

    def walk(items: list[dict[str, object]]) -> None:
        for item in items:
            if item.get("type") == 10:
                found.append(str(item.get("content")))
            walk(item.get("components", []))  # type: ignore[arg-type]

    walk(message.components)
    return "\n".join(found)


async def answered_in_time(handle: InteractionHandle) -> None:
    await handle.response()
    assert handle.response_latency is not None and handle.response_latency < 3


async def edited(server: Server, message: Message, before: int) -> None:
    await server.fake.wait_until(lambda: len(message.history) > before, timeout=SLOW, poll=None)


def tile_box(size: tuple[int, int], a: int, b: int, c: int, d: int) -> tuple[int, ...]:
    """The points (x0, y0, x1, y1) of tiles a..c x b..d (tiles of 5 columns and 4 rows)."""
    width, height = size
    return a * 5, b * 4, min((c + 1) * 5, width) - 1, min((d + 1) * 4, height) - 1


def next_click(picker: Message, point: Point, width: int, height: int) -> str:
    """The button a player looking for ``point`` clicks: the point, else the tile holding it,
    else the block of tiles holding it."""
    ids = [b["custom_id"] for b in picker.buttons() if not b.get("disabled")]
    for custom_id in ids:
        if custom_id.startswith("dots:dot:play:") and custom_id.endswith(f":{point.x}:{point.y}"):
            return custom_id
    for kind in ("win", "grid"):
        for custom_id in ids:
            found = ZOOM.fullmatch(custom_id)
            if found and found[1] == kind:
                a, b, c, d = map(int, found.groups()[1:])
                if kind == "win":
                    c, d = a, b
                x0, y0, x1, y1 = tile_box((width, height), a, b, c, d)
                if x0 <= point.x <= x1 and y0 <= point.y <= y1:
                    return custom_id
    raise AssertionError(f"no way to {point.name} from {ids}")


async def click_card(
    server: Server, channel: Channel, game_id: int, user: User, action: str
) -> tuple[int, Message]:
    """``user`` clicks ``action`` on the game's newest card: the position's number of actions
    and the private answer (within the 3 seconds)."""
    moves = moves_of(server, game_id)
    card = await card_for(server, channel, game_id, moves)
    handle = await server.fake.click(user, card, f"dots:card:{action}:{game_id}:{moves}")
    answer = await handle.reply(timeout=SLOW)
    await answered_in_time(handle)
    assert answer.is_ephemeral
    return moves, answer


async def play_by_clicks(  # noqa: PLR0917 (the game and the move)
    server: Server, thread: Channel, game_id: int, user: User, point: Point, size: tuple[int, int]
) -> int:
    """``user`` plays ``point`` with the card and the picker; the clicks after Place a dot."""
    fake = server.fake
    moves, picker = await click_card(server, thread, game_id, user, "move")
    assert is_v2(picker.flags)
    clicks = 0
    while moves_of(server, game_id) == moves:
        custom_id = next_click(picker, point, *size)
        before = len(picker.history)
        handle = await fake.click(user, picker, custom_id)
        clicks += 1
        await edited(server, picker, before)
        await answered_in_time(handle)
        if custom_id.startswith("dots:dot:"):
            # The database is the bot's state: polled. Against the computer its reply may be
            # stored too before this looks.
            await fake.wait_until(lambda: moves_of(server, game_id) > moves, timeout=SLOW)
    assert actions(server.database, game_id)[moves][2] == point.name
    return clicks


async def confirm_from_card(
    server: Server, channel: Channel, game_id: int, user: User, action: str
) -> None:
    """``user`` ends or resigns (``action``) from the card and its private confirmation."""
    fake = server.fake
    moves, confirm = await click_card(server, channel, game_id, user, action)
    button = next(c for c in confirm.custom_ids() if c.startswith(f"dots:confirm:{action}:"))
    await answered_in_time(await fake.click(user, confirm, button))
    await fake.wait_until(lambda: moves_of(server, game_id) > moves, timeout=SLOW)


def scattered(width: int, height: int, count: int, seed: int) -> list[Point]:
    points = [Point(x, y) for x in range(width) for y in range(height)]
    return random.Random(seed).sample(points, count)


async def test_a_whole_10x10_game_is_played_by_clicks_alone(
    server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    async with card_bot(server):
        game = await start_game(server, server.alice, server.bob)
        counts = []
        players = (server.alice, server.bob)
        for number, point in enumerate(scattered(10, 10, 24, seed=25)):
            user = players[number % 2]
            counts.append(
                await play_by_clicks(server, game.thread, game.game_id, user, point, (10, 10))
            )
        log.warning(
            "10x10 clicks per move: max %d, mean %.2f", max(counts), sum(counts) / len(counts)
        )
        assert max(counts) <= 2
        # Each player in turn ends from the card and its confirmation (rule 6.1).
        for user in players:
            if status(server, game.game_id) == "over":
                break
            await confirm_from_card(server, game.thread, game.game_id, user, "end")
        await server.fake.wait_until(lambda: status(server, game.game_id) == "over", poll=None)
        # The last card has no actions left, and every earlier card lost its buttons.
        await server.fake.wait_until(
            lambda: (
                not any(
                    c.startswith("dots:card:")
                    for m in server.fake.posted(game.thread)
                    for c in m.custom_ids()
                )
            ),
            poll=None,
        )
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_the_first_20_moves_of_a_39x32_game_take_at_most_four_clicks_each(
    server: Server,
) -> None:
    async with card_bot(server):
        game = await start_game(server, server.alice, server.bob, size="39x32")
        counts = []
        players = (server.alice, server.bob)
        for number, point in enumerate(scattered(39, 32, 20, seed=39)):
            user = players[number % 2]
            counts.append(
                await play_by_clicks(server, game.thread, game.game_id, user, point, (39, 32))
            )
        log.warning(
            "39x32 clicks per move: max %d, mean %.2f", max(counts), sum(counts) / len(counts)
        )
        assert max(counts) <= 4
        # Above 20 wide, a card also shows a zoomed view around the last dot.
        card = await card_for(server, game.thread, game.game_id, 20)
        assert [a.filename.split("-")[-1] for a in card.attachments][-1] == "around.png"


async def test_board_around_a_point_shows_a_zoomed_view_and_a_bad_point_is_refused(
    server: Server,
) -> None:
    fake = server.fake
    async with card_bot(server):
        game = await start_game(server, server.alice, server.bob)
        handle = await fake.slash(
            server.carol, "board", channel=server.general, opts={"game": game.game_id}, around="E5"
        )
        shown = await handle.reply(timeout=SLOW)
        await answered_in_time(handle)
        assert shown.is_ephemeral and [a.filename for a in shown.attachments] == [
            f"dots-{game.game_id}-around-E5.png"
        ]
        assert decode_png(shown.attachments[0].data) == (480, pytest.approx(480, abs=120))
        before = snapshot(server.database)
        bad = await fake.slash(server.alice, "board", channel=game.thread, around="Z99")
        refusal = await bad.reply(timeout=SLOW)
        assert refusal.is_ephemeral and "Z99" in refusal.content and not refusal.attachments
        assert snapshot(server.database) == before


async def test_a_stale_pick_is_refused_with_a_fresh_picker(server: Server) -> None:
    fake = server.fake
    async with card_bot(server):
        game = await start_game(server, server.alice, server.bob)
        card = await card_for(server, game.thread, game.game_id, 0)
        picker = await (
            await fake.click(server.alice, card, f"dots:card:move:{game.game_id}:0")
        ).reply(timeout=SLOW)
        # Meanwhile Alice types a move and Bob answers: the position changed, Alice is to move.
        await (await fake.slash(server.alice, "move", channel=game.thread, point="E5")).response()
        await fake.wait_until(lambda: moves_of(server, game.game_id) == 1, poll=None)
        await fake.slash(server.bob, "move", channel=game.thread, point="F6")
        await fake.wait_until(lambda: moves_of(server, game.game_id) == 2, poll=None)
        before = snapshot(server.database)
        stale = next(
            c for c in picker.custom_ids() if c.startswith(f"dots:dot:play:{game.game_id}:0:")
        )
        history = len(picker.history)
        handle = await fake.click(server.alice, picker, stale)
        await edited(server, picker, history)
        await answered_in_time(handle)
        assert "moved on" in shown_text(picker)
        assert all(f":{game.game_id}:2:" in c for c in picker.custom_ids())
        await card_for(server, game.thread, game.game_id, 2)
        assert snapshot(server.database)["actions"] == before["actions"]


async def test_an_old_cards_button_and_a_strangers_click_are_refused_privately(
    server: Server,
) -> None:
    fake = server.fake
    async with card_bot(server):
        game = await start_game(server, server.alice, server.bob)
        first = await card_for(server, game.thread, game.game_id, 0)
        await play_by_clicks(server, game.thread, game.game_id, server.alice, Point(4, 4), (10, 10))
        newest = await card_for(server, game.thread, game.game_id, 1)
        await fake.wait_until(lambda: not first.custom_ids(), poll=None)  # its buttons are gone
        before = snapshot(server.database)
        # A click that reaches the old card anyway (sent before its edit, or forged) is refused.
        first.components = first.history[-1]["components"]
        old = await fake.click(server.bob, first, f"dots:card:move:{game.game_id}:0")
        refusal = await old.reply(timeout=SLOW)
        assert refusal.is_ephemeral and "old" in refusal.content
        assert f"/{newest.id}" in refusal.content
        stranger = await fake.click(server.carol, newest, f"dots:card:move:{game.game_id}:1")
        refused = await stranger.reply(timeout=SLOW)
        assert refused.is_ephemeral and "not playing" in refused.content
        wrong_turn = await fake.click(server.alice, newest, f"dots:card:move:{game.game_id}:1")
        assert "not your turn" in (await wrong_turn.reply(timeout=SLOW)).content
        for handle in (old, stranger, wrong_turn):
            await answered_in_time(handle)
        assert snapshot(server.database) == before


async def test_a_game_against_the_computer_by_clicks_with_undo_from_the_card(
    server: Server,
) -> None:
    fake = server.fake
    async with card_bot(server):
        before = {t.id for t in fake.threads()}
        await (
            await fake.slash(
                server.alice, "play-computer", channel=server.general, level="easy", colour="pink"
            )
        ).reply(timeout=SLOW)
        thread = await fake.wait_until(
            lambda: next(
                (t for t in fake.threads() if t.id not in before and fake.posted(t)), None
            ),
            poll=None,
        )
        ((game_id,),) = await fake.wait_until(
            lambda: query(
                server.database, "SELECT game_id FROM games WHERE thread_id = ?", (thread.id,)
            )
        )
        await play_by_clicks(server, thread, game_id, server.alice, Point(4, 4), (10, 10))
        # The computer answers with a card of its own; its card offers Undo.
        card = await card_for(server, thread, game_id, 2)
        assert f"dots:card:undo:{game_id}:2" in card.custom_ids()
        assert not any(c.startswith("dots:card:takeback") for c in card.custom_ids())
        undo = await fake.click(server.alice, card, f"dots:card:undo:{game_id}:2")
        await answered_in_time(undo)
        await fake.wait_until(lambda: moves_of(server, game_id) == 0, poll=None)
        fresh = await card_for(server, thread, game_id, 0)
        assert fresh.id != card.id
        # Only the newest card has buttons (the player's card too lost them, though the
        # computer's reply was committed before it was posted).
        await fake.wait_until(
            lambda: [m.id for m in fake.posted(thread) if m.custom_ids()] == [fresh.id], poll=None
        )


async def test_the_newest_card_works_after_a_restart_and_an_old_one_points_to_it(
    server: Server,
) -> None:
    fake = server.fake
    async with card_bot(server):
        game = await start_game(server, server.alice, server.bob)
        first = await card_for(server, game.thread, game.game_id, 0)
        await play_by_clicks(server, game.thread, game.game_id, server.alice, Point(4, 4), (10, 10))
        newest = await card_for(server, game.thread, game.game_id, 1)
        await fake.wait_until(lambda: not first.custom_ids(), poll=None)
    async with card_bot(server):
        first.components = first.history[-1]["components"]  # a click from a stale client
        old = await fake.click(server.bob, first, f"dots:card:move:{game.game_id}:0")
        refusal = await old.reply(timeout=SLOW)
        assert refusal.is_ephemeral and f"/{newest.id}" in refusal.content
        await play_by_clicks(server, game.thread, game.game_id, server.bob, Point(6, 6), (10, 10))
        assert actions(server.database, game.game_id)[-1][2] == "G7"
