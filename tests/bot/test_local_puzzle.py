"""The terminal's `puzzle` command: a puzzle at the player's level, answered by typing a point."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from ai.puzzles import Puzzle
from bot.games import GameService
from bot.local import PINK_USER_ID, Read
from bot.local.puzzle import solve_puzzle
from tests.bot.test_local import run


def typed(lines: list[str], prompts: list[str]) -> Read:
    """A keyboard that types ``lines`` (EOF after them), keeping the prompts."""
    left: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        try:
            return next(left)
        except StopIteration:
            raise EOFError from None

    return read


async def test_puzzle_during_a_game_shows_one_and_goes_back_to_the_game(tmp_path: Path) -> None:
    status, printed, script = await run(tmp_path, ["E5", "puzzle", "", "quit"])
    assert status == 0
    assert "puzzle          a puzzle to solve" in printed  # in the help
    assert "Puzzle #1. " in printed and " to play and capture " in printed
    assert "Puzzle #1> " in script.prompts
    assert "The puzzle waits for your answer" in printed
    assert (tmp_path / "pics" / "dots-puzzle-1.png").exists()
    assert printed.count("[P]") >= 2  # the game's board shown again after the puzzle
    assert "Traceback" not in printed


async def test_a_typed_answer_is_judged_by_the_puzzles_solutions(tmp_path: Path) -> None:
    service = await GameService.open(tmp_path / "dots.sqlite3")
    try:
        given = await service.give_puzzle(user_id=PINK_USER_ID)
        assert isinstance(given.puzzle, Puzzle)
        solution = given.puzzle.solutions[0].name
        taken = next(iter(given.puzzle.game().board.dots()))[0].name
        out: list[str] = []
        prompts: list[str] = []
        read = typed(["Z99", taken, solution.lower()], prompts)
        await solve_puzzle(
            service,
            user_id=PINK_USER_ID,
            locale="en",
            out=tmp_path,
            read=read,
            write=out.append,
        )
        printed = "\n".join(out)
        assert f"You still have puzzle #{given.attempt_id} to answer." in printed
        assert printed.count("Sorry: ") == 2  # off the board, then taken: asked again
        assert f"{taken} is not free in this puzzle" in printed
        assert f"Right: {solution} does it." in printed
        assert "Streak: 1" in printed
        assert len(prompts) == 3
        # Answered: the next `puzzle` is a new one, and a wrong answer is refused as wrong.
        out.clear()
        second = await service.give_puzzle(user_id=PINK_USER_ID)
        assert isinstance(second.puzzle, Puzzle)
        board = second.puzzle.game().board
        wrong = next(p for p in board.free_points() if not second.puzzle.is_solution(p))
        await solve_puzzle(
            service,
            user_id=PINK_USER_ID,
            locale="ru",
            out=tmp_path,
            read=typed([wrong.name], []),
            write=out.append,
        )
        assert "На этот раз нет" in "\n".join(out)
    finally:
        await service.close()
