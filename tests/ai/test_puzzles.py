"""Puzzles: each shipped one is proved by the exact search, and only its solutions are right."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from ai.field import Field
from ai.puzzles import Puzzle, find_puzzle, first_reaches, forced_gain, shipped, verify
from engine import Game, Player, Point

# Blue's four dots C4..D5 in a ring of Pink's that lacks only E5: Pink to play and capture 4
# (E5 is the only point that does it).
PINK = ["B4", "B5", "C6", "D6", "E4", "C3", "D3"]
BLUE = ["C4", "D4", "C5", "D5", "J9", "J8", "H9"]


def ring_game() -> Game:
    game = Game(10, 10)
    for pink, blue in zip(PINK, BLUE, strict=True):
        game.place(pink)
        game.place(blue)
    return game


def test_at_least_fifty_puzzles_are_shipped_on_both_sizes() -> None:
    puzzles = shipped()
    sizes = Counter((p.record.width, p.record.height) for p in puzzles)
    assert len(puzzles) >= 50
    assert sizes[10, 10] > 0
    assert sizes[20, 20] > 0
    assert len({p.key for p in puzzles}) == len(puzzles)


@pytest.mark.parametrize("index", range(len(shipped())))
def test_every_shipped_puzzle_is_proved_by_the_exact_search(index: int) -> None:
    puzzle = shipped()[index]
    assert verify(puzzle)
    assert puzzle.line[0] in puzzle.solutions
    game = puzzle.game()
    assert game.to_move is puzzle.player
    field = Field.from_board(game.board)
    player = int(puzzle.player)
    # A wrong answer, the free point nearest the solution that is not one, is refused.
    solution = puzzle.solutions[0]
    wrong = min(
        (p for p in game.board.free_points() if not puzzle.is_solution(p)),
        key=lambda p: (abs(p.x - solution.x) + abs(p.y - solution.y), p.y, p.x),
    )
    assert not first_reaches(field, player, field.index(wrong), puzzle.depth, puzzle.goal)
    # The stored line shows the goal reached.
    gain, _ = forced_gain(field, player, field.index(puzzle.line[0]), puzzle.depth)
    assert gain == puzzle.goal


def test_a_ring_with_one_gap_is_a_puzzle_whose_only_answer_closes_it() -> None:
    puzzle = find_puzzle(ring_game())
    assert puzzle is not None
    assert puzzle.player is Player.PINK
    assert puzzle.goal >= 4
    assert puzzle.solutions == (Point.parse("E5"),)
    assert verify(puzzle)
    assert puzzle.is_solution(Point.parse("E5"))
    assert not puzzle.is_solution(Point.parse("F5"))


def test_a_puzzle_with_a_wrong_goal_or_solution_is_not_proved() -> None:
    puzzle = find_puzzle(ring_game())
    assert puzzle is not None
    fields = puzzle.to_json()
    too_much = Puzzle.from_json({**fields, "goal": puzzle.goal + 1})
    wrong_answer = Puzzle.from_json({**fields, "solutions": ["F5"]})
    extra_answer = Puzzle.from_json({**fields, "solutions": ["E5", "F5"]})
    other_player = Puzzle.from_json({**fields, "player": 2})
    for bad in (too_much, wrong_answer, extra_answer, other_player):
        assert not verify(bad)


def test_a_quiet_position_has_no_puzzle() -> None:
    game = Game(10, 10)
    for name in ["E5", "F6", "E6", "F5"]:
        game.place(name)
    assert find_puzzle(game) is None


def test_a_puzzle_survives_its_json() -> None:
    puzzle = random.Random(4).choice(shipped())
    assert Puzzle.from_json(puzzle.to_json()) == puzzle
