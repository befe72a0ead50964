"""Every sticker through the real bot and the fake Discord: earned in a
scripted game that should earn it, and not in a near miss that should not.

tests/e2e/test_stickers.py shows the first capture, the trap and the full page; this file the
rest (and the trap's near miss). Each sticker is its own test with its own bot: the near miss is
played first, so the game that earns the sticker must still call it new ("New sticker!"), which
it would not if the near miss had given it to the same player. The scripted positions are those of
tests/bot/test_stickers.py, played in turn here with far-off dots for whoever waits.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.games.stickers import Sticker
from engine import Player
from tests.bot.test_stickers import BIGGER, EMPTY_RING, FIVE, FOUR, TWO_RINGS
from tests.e2e.helpers import Server, bot_on, make_server, query, start_game
from tests.fakediscord.fixtures import fake_discord
from tests.fakediscord.server import FakeDiscord
from tests.fakediscord.state import Channel, Message, User

__all__ = ["fake_discord"]  # the fixture is used by name

SIZE = "20x20"
# Far-off dots for the player who waits in a script: a straight line of each colour on the
# right edge, a column apart, so they enclose nothing and touch no script (columns A to O).
WAITING = {
    Player.PINK: [f"T{n}" for n in range(1, 21)],
    Player.BLUE: [f"R{n}" for n in range(1, 21)],
}
_WHO = {"P": Player.PINK, "B": Player.BLUE}

# The near misses of tests/bot/test_stickers.py (written inside its tests there):
# the two bases of TWO_RINGS closed by two dots (D3 placed before the rings' last dots);
APART = "B:C3 E3 P:D3 C4 B3 E4 F3 E2 C2"
# Blue's ring of BIGGER around Pink dots that no base holds: a capture, not a bigger ring;
PLAIN = "P:E6 D5 F5 E4 B:E7 D6 C5 D4 E3 F4 G5 F6"
# worked case 3: Blue's dot in Pink's empty ring closes Blue's own base first, so no trap.
CASE3 = "P:D5 C4 D3 E4 B:E5 F4 E3 D4"
# Blue leads 1-0, then Pink takes two (a comeback) or one (level: a draw is no win).
BEHIND = "P:E5 B:E6 D5 F5 E4"
BACK = " B:J5 P:J6 I5 K5 J4 B:N5 P:N6 M5 O5 N4"
LEVEL = " B:J5 P:J6 I5 K5 J4"


def in_turn(script: str) -> list[str]:
    """The dots of a script (``"B:E5 P:E6 D5"``: ``P:``/``B:`` names who places what follows)
    in turn, Pink first, with a far-off dot (``WAITING``) whenever the same player would place
    two in a row."""
    waiting = {player: iter(points) for player, points in WAITING.items()}
    moves: list[str] = []
    mover, player = Player.PINK, Player.PINK
    for token in script.split():
        if ":" in token:
            who, _, token = token.partition(":")
            player = _WHO[who]
            if not token:
                continue
        if player is not mover:
            moves.append(next(waiting[mover]))
            mover = mover.opponent
        moves.append(token)
        mover = mover.opponent
    return moves


@pytest.fixture
def server(fake_discord: FakeDiscord, tmp_path: Path) -> Server:
    """Dots Club with alice, bob (DMs closed), carol and an admin; the bot not yet started."""
    return make_server(fake_discord, tmp_path / "db.sqlite3")


async def play(server: Server, thread: Channel, moves: list[str]) -> list[Message]:
    """``/move`` in a game's thread, alice (Pink) first, then in turn; each move's post."""
    posts = []
    for n, point in enumerate(moves):
        player = server.alice if n % 2 == 0 else server.bob
        handle = await server.fake.slash(player, "move", channel=thread, point=point)
        post = await handle.reply()
        assert not post.is_ephemeral and f"plays {point}" in post.content, post.content
        posts.append(post)
    return posts


async def end(server: Server, thread: Channel, player: User) -> Message:
    """``player`` runs ``/end`` and confirms it; the thread's post that announces it."""
    fake = server.fake
    seen = len(fake.posted(thread))
    prompt = await (await fake.slash(player, "end", channel=thread)).reply()
    assert prompt.is_ephemeral
    await (await fake.click(player, prompt, prompt.custom_ids()[0])).reply()
    post: Message = await fake.wait_until(
        lambda: next(iter(fake.posted(thread)[seen:]), None), poll=None
    )
    return post


async def resign(server: Server, thread: Channel, player: User) -> Message:
    """``player`` runs ``/resign`` and confirms it; the thread's post of the result."""
    fake = server.fake
    seen = len(fake.posted(thread))
    prompt = await (await fake.slash(player, "resign", channel=thread)).reply()
    confirm = next(c for c in prompt.custom_ids() if ":resign:" in c)
    await (await fake.click(player, prompt, confirm)).reply()
    post: Message = await fake.wait_until(
        lambda: next(iter(fake.posted(thread)[seen:]), None), poll=None
    )
    return post


def stored(server: Server, game_id: int, sticker: Sticker) -> list[tuple[int, int]]:
    """Who earned ``sticker`` in the game, at which action: (user id, seq)."""
    return [
        (int(user_id), int(seq))
        for user_id, seq in query(
            server.database,
            "SELECT user_id, seq FROM stickers WHERE game_id = ? AND sticker = ? ORDER BY seq",
            (game_id, str(sticker)),
        )
    ]


def says(post: Message, sticker: Sticker) -> bool:
    """Whether a post names ``sticker`` as earned (new or not)."""
    return any(
        line in post.content
        for line in (f"New sticker! {sticker.label}", f"Sticker: {sticker.label}")
    )


@dataclass(frozen=True)
class ByMove:
    """A sticker the last dot of ``earns`` earns for Pink or Blue, and ``misses`` does not."""

    sticker: Sticker
    earns: str
    misses: str
    collector: Player


BY_MOVE = [
    ByMove(Sticker.BIG_CAPTURE, FIVE, FOUR, Player.PINK),
    ByMove(Sticker.DOUBLE_BASE, TWO_RINGS, APART, Player.PINK),
    ByMove(Sticker.BIGGER_RING, BIGGER, PLAIN, Player.BLUE),
    ByMove(Sticker.EMPTY_RING_TRAP, EMPTY_RING + " B:D4", CASE3, Player.PINK),
]


@pytest.mark.parametrize("case", BY_MOVE, ids=[str(c.sticker) for c in BY_MOVE])
async def test_a_move_earns_its_sticker_and_its_near_miss_does_not(
    server: Server, case: ByMove
) -> None:
    collector = server.alice if case.collector is Player.PINK else server.bob
    async with bot_on(server.fake, server.database):
        miss = await start_game(server, server.alice, server.bob, size=SIZE)
        posts = await play(server, miss.thread, in_turn(case.misses))
        assert not any(says(p, case.sticker) for p in posts)
        # The near miss captures (or it would prove little), only not this way.
        assert any("New sticker! First capture" in p.content for p in posts)
        assert stored(server, miss.game_id, case.sticker) == []

        game = await start_game(server, server.alice, server.bob, size=SIZE)
        posts = await play(server, game.thread, in_turn(case.earns))
        last = len(posts) - 1
        assert f"{collector.mention}: New sticker! {case.sticker.label}" in posts[last].content
        assert not any(says(p, case.sticker) for p in posts[:last])
        assert stored(server, game.game_id, case.sticker) == [(collector.id, last)]


async def test_a_comeback_and_none_ahead_all_along_level_or_by_resignation(
    server: Server,
) -> None:
    alice, bob = server.alice, server.bob
    async with bot_on(server.fake, server.database):
        # Pink behind when Blue resigns: a win, but not by the score.
        resigned = await start_game(server, alice, bob, size=SIZE)
        posts = await play(server, resigned.thread, in_turn(BEHIND))
        result = await resign(server, resigned.thread, bob)
        assert "Pink wins 0–1" in result.content, result.content
        assert not any(says(p, Sticker.COMEBACK) for p in [*posts, result])
        assert stored(server, resigned.game_id, Sticker.COMEBACK) == []
        # Pink wins 2-0 never behind; Pink behind, then level: a draw is no win.
        for script, says_result in ((BACK, "Pink wins 2–0"), (BEHIND + LEVEL, "Draw 1–1")):
            miss = await start_game(server, alice, bob, size=SIZE)
            posts = await play(server, miss.thread, in_turn(script))
            await end(server, miss.thread, bob)
            result = await end(server, miss.thread, alice)
            assert says_result in result.content, result.content
            assert not any(says(p, Sticker.COMEBACK) for p in [*posts, result])
            assert stored(server, miss.game_id, Sticker.COMEBACK) == []

        # Behind, then two captures: Pink wins 2-1 from behind, at the last end.
        game = await start_game(server, alice, bob, size=SIZE)
        moves = in_turn(BEHIND + BACK)
        posts = await play(server, game.thread, moves)
        assert not any(says(p, Sticker.COMEBACK) for p in posts)
        await end(server, game.thread, bob)
        result = await end(server, game.thread, alice)
        assert "Pink wins 2–1" in result.content, result.content
        assert f"{alice.mention}: New sticker! {Sticker.COMEBACK.label}" in result.content
        assert stored(server, game.game_id, Sticker.COMEBACK) == [(alice.id, len(moves) + 1)]


def alternating(pink: list[str], blue: list[str]) -> list[str]:
    """Pink's and Blue's dots in turn, Pink first."""
    return [dot for pair in zip(pink, blue, strict=True) for dot in pair]


# Grounding rules on 10x10 (rule 8): Blue's five dots on the left edge, then Pink stops.
BLUE_EDGE = ["A1", "A2", "A3", "A4", "A5"]
STOPS = [
    # Pink's dots on the right edge are grounded: the stop hands nothing over, a draw.
    (alternating(["J1", "J2", "J3", "J4", "J5"], BLUE_EDGE), "Draw 0–0"),
    # Pink's grounded ring at the corner took B2: Pink wins after her own stop.
    (alternating(["B3", "A2", "C2", "B1", "J5"], ["B2", "H5", "H6", "H7", "H8"]), "Pink wins 1–0"),
]


async def test_a_win_after_the_opponent_s_stop_and_none_after_a_draw_or_one_s_own_stop(
    server: Server,
) -> None:
    alice, bob = server.alice, server.bob
    async with bot_on(server.fake, server.database):
        for moves, says_result in STOPS:
            miss = await start_game(server, alice, bob, rules="grounding")
            posts = await play(server, miss.thread, moves)
            result = await end(server, miss.thread, alice)
            assert f"{says_result} (a stop)" in result.content, result.content
            assert not any(says(p, Sticker.WIN_AFTER_STOP) for p in [*posts, result])
            assert stored(server, miss.game_id, Sticker.WIN_AFTER_STOP) == []

        # Pink's dots in the middle are not grounded: the stop hands five to Blue, who wins.
        game = await start_game(server, alice, bob, rules="grounding")
        moves = alternating(["D5", "E5", "F5", "G5", "D7"], BLUE_EDGE)
        posts = await play(server, game.thread, moves)
        result = await end(server, game.thread, alice)
        assert "Blue wins 5–0 (a stop)" in result.content, result.content
        assert f"{bob.mention}: New sticker! {Sticker.WIN_AFTER_STOP.label}" in result.content
        assert not any(says(p, Sticker.WIN_AFTER_STOP) for p in posts)
        assert stored(server, game.game_id, Sticker.WIN_AFTER_STOP) == [(bob.id, len(moves))]
