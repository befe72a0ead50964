"""Reviews and puzzles through the game service: made once and stored, limits, answers."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import pytest_asyncio

from ai.puzzles import Puzzle, shipped, verify
from bot.games import GameService
from bot.games.errors import IllegalMove, NoSuchGame
from bot.games.puzzles import (
    LEVEL_STEP,
    NoPointThere,
    NoPuzzle,
    NotYourPuzzle,
    PlayedAgain,
    PuzzleAnswered,
    Replay,
    daily_choice,
)
from bot.games.reviews import REVIEWS_PER_HOUR, NoReplay, NotReviewable, Reviewer, TooManyReviews
from bot.storage.errors import StaleWriteError
from engine import Player, Point
from tests.bot.service_fakes import ALICE, BOB, CAROL, FakeTime, new_game, open_service

# Blue's six dots in a ring of Pink's that lacks F4; Blue plays J2 and Pink closes the ring.
MOVES = [
    "B4", "C4", "B5", "D4", "C6", "E4", "D6", "C5", "E6", "D5", "F5", "E5", "E3", "H8",
    "D3", "H9", "C3", "J2", "F4",
]  # fmt: skip


@pytest_asyncio.fixture(name="service")
async def service_fixture(database: str | Path, clock: FakeTime) -> AsyncIterator[GameService]:
    """A service on a fresh database of each kind; reviews search in a thread, briefly."""
    svc = await open_service(database, clock)
    svc.reviews.reviewer = Reviewer(processes=False, iterations=20)
    yield svc
    await svc.close()


async def finished_game(service: GameService) -> int:
    """A game of MOVES that Blue then resigns."""
    view = await new_game(service)
    ids = {Player.PINK: view.pink_id, Player.BLUE: view.blue_id}
    for n, point in enumerate(MOVES):
        mover = ids[Player.PINK if n % 2 == 0 else Player.BLUE]
        await service.place(game_id=view.game_id, user_id=mover, point=point)
    await service.resign(game_id=view.game_id, user_id=ids[Player.BLUE])
    return view.game_id


async def test_a_review_is_made_once_stored_and_shown_again_at_once(
    service: GameService,
) -> None:
    game_id = await finished_game(service)
    told: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        told.append((done, total))

    made = await service.review(game_id=game_id, user_id=CAROL, progress=progress)
    assert told[-1] == (len(MOVES) + 2, len(MOVES) + 2)
    assert [b for b, _ in told] == sorted(b for b, _ in told)
    assert len(made.estimates) == len(MOVES) + 2
    assert made.estimates[-1] == 1.0
    assert any(c.dots == 6 and c.player is Player.PINK for c in made.captures)
    assert await service.stored_review(game_id=game_id) == made
    told.clear()
    again = await service.review(game_id=game_id, user_id=ALICE, progress=progress)
    assert again == made
    assert told == []  # nothing searched again


async def test_reviews_of_running_aborted_or_unknown_games_are_refused(
    service: GameService,
) -> None:
    running = await new_game(service)
    await service.place(game_id=running.game_id, user_id=running.pink_id, point="E5")
    with pytest.raises(NotReviewable, match="still being played"):
        await service.review(game_id=running.game_id, user_id=ALICE)
    aborted = await new_game(service)
    await service.abort(game_id=aborted.game_id, user_id=aborted.blue_id)
    with pytest.raises(NotReviewable, match="no move"):
        await service.review(game_id=aborted.game_id, user_id=ALICE)
    resigned_at_once = await new_game(service)
    await service.resign(game_id=resigned_at_once.game_id, user_id=resigned_at_once.pink_id)
    with pytest.raises(NotReviewable, match="no move"):
        await service.review(game_id=resigned_at_once.game_id, user_id=ALICE)
    with pytest.raises(NoSuchGame):
        await service.review(game_id=999_999, user_id=ALICE)
    assert await service.store.execute("SELECT COUNT(*) FROM reviews") == [(0,)]


async def test_a_player_gets_a_few_reviews_made_an_hour(
    service: GameService, clock: FakeTime
) -> None:
    games = [await finished_game(service) for _ in range(REVIEWS_PER_HOUR + 1)]
    for game_id in games[:REVIEWS_PER_HOUR]:
        await service.review(game_id=game_id, user_id=CAROL)
    with pytest.raises(TooManyReviews, match="an hour"):
        await service.review(game_id=games[-1], user_id=CAROL)
    # A stored review is free; another player may have the last one made.
    await service.review(game_id=games[0], user_id=CAROL)
    await service.review(game_id=games[-1], user_id=ALICE)
    clock.current += timedelta(hours=1, seconds=1)
    another = await finished_game(service)
    await service.review(game_id=another, user_id=CAROL)


async def test_a_puzzle_is_given_privately_once_and_judged_by_its_proved_solutions(
    service: GameService,
) -> None:
    given = await service.give_puzzle(user_id=ALICE)
    assert not given.again
    assert given.puzzle in shipped()
    assert (given.puzzle.record.width, given.puzzle.depth) == (10, 1)
    # Asked again before answering: the same puzzle.
    again = await service.give_puzzle(user_id=ALICE)
    assert again.again and again.attempt_id == given.attempt_id
    # A point off the board or taken is refused and changes nothing.
    with pytest.raises(IllegalMove):
        await service.answer_puzzle(user_id=ALICE, point="Z99")
    taken = next(iter(given.puzzle.game().board.dots()))[0]
    with pytest.raises(NoPointThere, match="not free"):
        await service.answer_puzzle(user_id=ALICE, point=taken.name)
    with pytest.raises(NotYourPuzzle, match="someone else"):
        await service.answer_puzzle(user_id=BOB, point="A1", attempt_id=given.attempt_id)
    solution = given.puzzle.solutions[0]
    judged = await service.answer_puzzle(user_id=ALICE, point=solution.name.lower())
    assert judged.solved and judged.point == solution
    assert (judged.streak.streak, judged.streak.solved, judged.streak.tried) == (1, 1, 1)
    with pytest.raises(PuzzleAnswered, match="already"):
        await service.answer_puzzle(user_id=ALICE, point=solution.name, attempt_id=given.attempt_id)
    with pytest.raises(NoPuzzle):
        await service.answer_puzzle(user_id=ALICE, point=solution.name)
    # The next puzzle is another one; a wrong answer ends the streak.
    second = await service.give_puzzle(user_id=ALICE)
    assert second.puzzle.key != given.puzzle.key
    board = second.puzzle.game().board
    wrong = next(p for p in board.free_points() if not second.puzzle.is_solution(p))
    judged = await service.answer_puzzle(user_id=ALICE, point=wrong.name)
    assert not judged.solved
    assert (judged.streak.streak, judged.streak.best, judged.streak.tried) == (0, 1, 2)


async def test_a_player_who_solves_enough_gets_harder_puzzles(service: GameService) -> None:
    for _ in range(LEVEL_STEP):
        given = await service.give_puzzle(user_id=BOB)
        assert given.puzzle.depth == 1
        await service.answer_puzzle(user_id=BOB, point=given.puzzle.solutions[0].name)
    harder = await service.give_puzzle(user_id=BOB)
    assert (harder.puzzle.record.width, harder.puzzle.depth) == (10, 2)


async def test_a_reviewed_game_gives_its_puzzles_to_the_pool(service: GameService) -> None:
    game_id = await finished_game(service)
    await service.review(game_id=game_id, user_id=CAROL)
    await service.reviews.mined()
    rows = await service.store.execute("SELECT game_id, data FROM puzzles")
    assert rows and all(row[0] == game_id for row in rows)
    found = [Puzzle.from_json(json.loads(row[1])) for row in rows]
    assert all(verify(p) for p in found)  # each proved again by the exact search
    # Before J2 Pink threatens F4 (six dots), and after it F4 takes them.
    assert any(Point.parse("F4") in p.solutions for p in found)


async def test_a_player_replays_their_own_turning_points_as_puzzles(service: GameService) -> None:
    game_id = await finished_game(service)
    view = await service.game(game_id)
    blue, pink = view.blue_id, view.pink_id
    with pytest.raises(NoReplay, match="no review yet"):
        await service.replay_mistake(game_id=game_id, user_id=blue)
    made = await service.review(game_id=game_id, user_id=CAROL)
    with pytest.raises(NoReplay, match="only the player"):
        await service.replay_mistake(game_id=game_id, user_id=CAROL)
    with pytest.raises(NoReplay, match="only the player"):
        await service.replay_mistake(game_id=game_id, user_id=pink, player=Player.BLUE)
    blunder = next(t for t in made.turning_of(Player.BLUE) if t.played == Point.parse("J2"))
    given = await service.replay_mistake(game_id=game_id, user_id=blue)
    replay = given.puzzle
    assert isinstance(replay, Replay) and replay.turning == blunder  # the largest loss first
    # /puzzle gives the replay again until it is answered; someone else cannot answer it.
    again = await service.give_puzzle(user_id=blue)
    assert again.again and again.attempt_id == given.attempt_id and again.puzzle == replay
    with pytest.raises(NotYourPuzzle):
        await service.answer_puzzle(user_id=pink, point="F4", attempt_id=given.attempt_id)
    # The move played is refused and changes nothing; a move that leaves the six dots is wrong.
    with pytest.raises(PlayedAgain, match="J2 is the move you played"):
        await service.answer_puzzle(user_id=blue, point="J2")
    judged = await service.answer_puzzle(user_id=blue, point="A1")
    assert not judged.solved and judged.verdict is not None
    assert judged.verdict.by == "leaves" and judged.verdict.left is not None
    assert judged.verdict.left.dots == 6
    assert (judged.streak.tried, judged.streak.streak) == (0, 0)  # replays are no streak
    with pytest.raises(PuzzleAnswered):
        await service.answer_puzzle(user_id=blue, point="F4", attempt_id=given.attempt_id)
    # The next press gives the next turning point; once all are given, none is left.
    for _ in range(len(made.turning_of(Player.BLUE)) - 1):
        following = await service.replay_mistake(game_id=game_id, user_id=blue)
        assert isinstance(following.puzzle, Replay)
        assert following.puzzle.turning != blunder
        preferred = following.puzzle.turning.preferred
        assert preferred is not None
        right = await service.answer_puzzle(user_id=blue, point=preferred.name)
        assert right.solved and right.verdict is not None and right.verdict.by == "preferred"
    with pytest.raises(NoReplay, match="every turning point"):
        await service.replay_mistake(game_id=game_id, user_id=blue)


async def test_a_servers_puzzle_of_the_day_is_posted_once_a_day_with_its_timer(
    service: GameService, clock: FakeTime
) -> None:
    guild = 4242
    assert await service.daily_puzzle(guild_id=guild) is None
    row = await service.set_daily_puzzle(guild_id=guild, channel_id=77)
    assert row is not None and (row.channel_id, row.day) == (77, 0)
    timers = await service.store.execute(
        "SELECT kind, ref_id, due FROM timers WHERE kind = 'daily'"
    )
    assert [(k, r) for k, r, _ in timers] == [("daily", guild)]
    first = await service.post_daily_puzzle(guild_id=guild)
    assert first is not None and first.day == 1 and first.puzzle in shipped()
    # The same day cannot be posted twice (a second process finds it moved on).
    with pytest.raises(StaleWriteError):
        await service.core.store.puzzles.post_daily(
            guild_id=guild, day=1, puzzle_key="x", data="{}", posted=0.0
        )
    ((due,),) = await service.store.execute("SELECT due FROM timers WHERE kind = 'daily'")
    assert due == pytest.approx(clock.current.timestamp() + 24 * 3600)
    clock.current += timedelta(days=1)
    second = await service.post_daily_puzzle(guild_id=guild)
    assert second is not None and second.day == 2 and second.puzzle != first.puzzle
    # Moving the channel keeps the days; turning it off removes the row and the timer.
    moved = await service.set_daily_puzzle(guild_id=guild, channel_id=88)
    assert moved is not None and (moved.channel_id, moved.day) == (88, 2)
    assert await service.set_daily_puzzle(guild_id=guild, channel_id=None) is None
    assert await service.store.execute("SELECT COUNT(*) FROM timers WHERE kind = 'daily'") == [(0,)]
    assert await service.post_daily_puzzle(guild_id=guild) is None


def test_the_days_puzzles_go_round_the_whole_pool_before_one_comes_again() -> None:
    pool = list(shipped())
    days = [daily_choice(pool, guild_id=7, day=day).key for day in range(1, len(pool) + 1)]
    assert sorted(days) == sorted(p.key for p in pool)
    assert daily_choice(pool, guild_id=7, day=len(pool) + 1).key == days[0]
    assert [daily_choice(pool, guild_id=8, day=d).key for d in (1, 2, 3)] != days[:3]
