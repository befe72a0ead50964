"""/review and /puzzle through the Discord adapter, in-process: what is posted, what is private."""

from __future__ import annotations

import pytest

from bot.cogs import review as review_cog
from bot.games.reviews import Reviewer
from engine import Point
from tests.bot.discord_inprocess import CHANNEL_ID, Call, World
from tests.bot.test_cogs import (
    ANN,
    BOB,
    CAT,
    button_id,
    play,
    private_refusal,
    refused,
    start_game,
)

# Bob's six dots in a ring of Ann's that lacks F4; Bob plays J2 and Ann's F4 takes them.
MOVES = [
    "B4", "C4", "B5", "D4", "C6", "E4", "D6", "C5", "E6", "D5", "F5", "E5", "E3", "H8",
    "D3", "H9", "C3", "J2", "F4",
]  # fmt: skip


@pytest.fixture(autouse=True)
def quick_reviews(world: World) -> None:
    """Reviews search in a thread with a tiny budget."""
    world.service.reviews.reviewer = Reviewer(processes=False, iterations=100)


async def finished(world: World) -> tuple[int, int]:
    """A game of MOVES (Ann Pink) that Bob resigns (with /resign and its confirmation): its
    id and thread."""
    h = world.harness
    game_id, thread = await start_game(world)
    await play(world, thread, *((ANN if n % 2 == 0 else BOB, p) for n, p in enumerate(MOVES)))
    await h.slash(BOB, "resign", channel_id=thread)
    confirm = h.last_message_with("dots:confirm:resign")
    await h.click(BOB, confirm, button_id(confirm, "dots:confirm:resign:"))
    assert not (await world.service.game(game_id)).is_running
    return game_id, thread


def files_of(calls: list[Call]) -> list[str]:
    return [name for call in calls for name, _ in call.files]


async def test_review_in_a_games_thread_posts_the_graph_and_the_turning_points(
    world: World,
) -> None:
    game_id, thread = await finished(world)
    calls = await world.harness.slash(ANN, "review", channel_id=thread)
    assert not any(c.is_ephemeral for c in calls)
    texts = "\n".join(c.content for c in calls)
    assert f"Review of game #{game_id}" in texts
    assert "Reviewing game" in texts  # the progress, edited in
    assert "**Turning points of " in texts
    assert "played J2" in texts
    assert "F4 saves 6 dots from capture" in texts
    names = files_of(calls)
    assert f"review-{game_id}.png" in names
    assert f"review-{game_id}-18.png" in names
    # Asked again (anywhere in the server, by number): the stored review at once.
    again = await world.harness.slash(BOB, "review", game=game_id)
    text = "\n".join(c.content for c in again)
    assert "Reviewing game" not in text and f"Review of game #{game_id}" in text
    # The Review button under the result shows it too, to anyone in the server.
    result = world.harness.last_message_with(f"dots:review:game:{game_id}")
    clicked = await world.harness.click(CAT, result, f"dots:review:game:{game_id}")
    text = "\n".join(c.content for c in clicked)
    assert "Reviewing game" not in text and f"Review of game #{game_id}" in text
    assert not any(c.is_ephemeral for c in clicked)
    assert await world.service.store.execute("SELECT COUNT(*) FROM reviews") == [(1,)]


async def test_review_refusals_are_private_and_change_nothing(world: World) -> None:
    await refused(world, world.harness.slash(ANN, "review", channel_id=CHANNEL_ID), "which game")
    game_id, thread = await start_game(world)
    await play(world, thread, (ANN, "E5"))
    await refused(world, world.harness.slash(ANN, "review", game=game_id), "still being played")
    await refused(world, world.harness.slash(ANN, "review", game=424_242), "no game #424242")


async def test_a_puzzle_is_private_and_its_answer_judged_once(world: World) -> None:
    calls = await world.harness.slash(ANN, "puzzle")
    shown = [c for c in calls if c.content]
    assert shown and all(c.is_ephemeral for c in shown)
    assert "Puzzle #" in shown[-1].content and "to play and capture" in shown[-1].content
    assert any(name.startswith("puzzle-") for name in files_of(calls))
    given = await world.service.give_puzzle(user_id=ANN.id)
    assert given.again
    await refused(world, world.harness.slash(ANN, "puzzle", answer="Z99"), "Z99")
    await refused(
        world,
        world.harness.slash(BOB, "puzzle", answer="A1", number=given.attempt_id),
        "someone else",
    )
    solution = given.puzzle.solutions[0].name
    calls = await world.harness.slash(ANN, "puzzle", answer=solution)
    answer = private_refusal(calls, "Right", solution, "Streak: 1")
    assert answer.is_ephemeral
    await refused(
        world,
        world.harness.slash(ANN, "puzzle", answer=solution, number=given.attempt_id),
        "already",
    )
    await refused(world, world.harness.slash(ANN, "puzzle", answer=solution), "no puzzle")
    assert Point.parse(solution) in given.puzzle.solutions


async def test_a_review_longer_than_the_answers_lifetime_is_posted_in_the_channel(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, thread = await finished(world)
    monkeypatch.setattr(review_cog, "TOKEN_LIFETIME", -1.0)  # every review is "too long"
    calls = await world.harness.slash(ANN, "review", channel_id=thread)
    posts = [c for c in calls if c.method == "POST" and c.path == f"/channels/{thread}/messages"]
    assert any(f"Review of game #{game_id}" in c.content for c in posts)
    assert any("Turning points of" in c.content for c in posts)
    assert not any("Reviewing game" in c.content for c in calls)  # no edit after the lifetime


async def test_a_player_replays_their_own_turning_point_privately_and_no_one_else_can(
    world: World,
) -> None:
    h = world.harness
    game_id, thread = await finished(world)
    await h.slash(ANN, "review", channel_id=thread)
    blue = f"dots:replay:game:{game_id}:2"
    message = h.last_message_with(blue)
    assert "Turning points of" in message["content"]
    await refused(world, h.click(CAT, message, blue), "only the player")
    await refused(world, h.click(ANN, message, blue), "only the player")
    calls = await h.click(BOB, message, blue)
    shown = [c for c in calls if c.content]
    assert shown and all(c.is_ephemeral for c in shown)
    assert "Puzzle #" in shown[-1].content and "J2" in shown[-1].content
    assert "Find a better move" in shown[-1].content
    assert any(name.startswith("puzzle-") for name in files_of(calls))
    await refused(world, h.slash(BOB, "puzzle", answer="J2"), "the move you played")
    calls = await h.slash(BOB, "puzzle", answer="F4")
    answer = private_refusal(calls, "Right", "F4")
    assert answer.is_ephemeral
    await refused(world, h.slash(BOB, "puzzle", answer="F4"), "no puzzle")
