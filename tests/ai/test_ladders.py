"""The ladder reader: forced capture sequences found, escapes seen, and hard using them."""

from __future__ import annotations

import random

import pytest

import ai
from ai.field import Field
from ai.ladders import ladder_starts
from ai.tactics import gains
from engine import Board, Game, Player, Point

# Pink's D3 threatens both Blue dots at once (C2 rings C3, E2 rings E3): Blue saves one only.
FORK = "B3 C3 C4 E3 E4 J10 F3 J9"
# The same, but Blue's E2 already links E3 downwards: D3 threatens C2 alone, Blue answers there.
ESCAPE = "B3 C3 C4 E3 E4 E2 F3 J9"


def game_after(moves: str, size: int = 10) -> Game:
    """A game after alternating dots named in ``moves`` (Pink first)."""
    game = Game(size, size)
    for name in moves.split():
        game.place(name)
    return game


def starts(moves: str, player: Player = Player.PINK, **options: int) -> dict[str, int]:
    """The ladder starts ``ladder_starts`` finds for ``player``, by point name."""
    board = game_after(moves).board
    field = Field.from_board(board)
    found = ladder_starts(field, int(player), field.free_indices(), **options)
    return {board.point_at(i).name: gain for i, gain in found.items()}


def capture_points(board: Board, player: Player) -> list[Point]:
    """The engine's truth: the points where ``player`` raises its score with one dot."""
    found = []
    for point in board.free_points():
        trial = board.copy()
        if trial.place(point, player).gain(player) > 0:
            found.append(point)
    return found


def test_a_double_threat_is_a_ladder_that_works() -> None:
    assert starts(FORK) == {"D3": 1}
    # No plain capture is there: only reading the forced answer finds it.
    field = Field.from_board(game_after(FORK).board)
    assert gains(field, 1, field.free_indices()) == {}
    # The engine agrees: after D3, whatever Blue answers, Pink captures at once.
    board = game_after(FORK).board
    board.place(Point.parse("D3"), Player.PINK)
    for answer in list(board.free_points()):
        trial = board.copy()
        trial.place(answer, Player.BLUE)
        assert capture_points(trial, Player.PINK), answer.name


def test_a_threat_the_defender_answers_is_no_ladder() -> None:
    assert starts(ESCAPE) == {}
    assert starts(FORK, Player.BLUE) == {}


def test_a_spent_budget_reads_nothing_more() -> None:
    assert starts(FORK, nodes=0) == {}


def test_every_ladder_found_ends_in_a_capture_along_its_forced_line() -> None:
    # Random positions: each start found leaves the mover a capture or a new threat after
    # the defender's best-looking answer (the point the reader expects it to defend).
    rng = random.Random(8)
    found = 0
    for _ in range(30):
        game = Game(10, 10)
        for _ in range(rng.randrange(20, 50)):
            game.place(rng.choice(list(game.board.free_points())))
        mover = game.to_move
        assert mover is not None
        field = Field.from_board(game.board)
        for i, gain in ladder_starts(field, int(mover), field.free_indices()).items():
            board = game.board.copy()
            before = board.score(mover) - board.score(mover.opponent)
            board.place(board.point_at(i), mover)
            assert board.score(mover) - board.score(mover.opponent) == before  # no capture
            assert capture_points(board, mover)  # a threat stands
            assert gain >= 1
            found += 1
    assert found >= 5


@pytest.mark.parametrize("seed", range(3))
def test_hard_starts_the_ladder(seed: int) -> None:
    decision = ai.choose(game_after(FORK), "hard", seed=seed, iterations=60, max_seconds=60)
    assert decision.point == Point.parse("D3")
