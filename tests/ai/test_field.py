"""The computer's Field against the engine's Board: same dots, bases and scores, every move."""

from __future__ import annotations

import random

import pytest

from ai.field import RUNS, Field
from engine import Board, Player


def same_position(field: Field, board: Board) -> bool:
    """Whether the field shows what the board shows: every live dot, dot, owner, score."""
    for i in range(len(field.live)):
        if field.live[i] != board.live_at(i):
            return False
    for point in board.points():
        i = board.index(point)
        dot, owner = board.dot(point), board.owner(point)
        if field.dot[i] != (int(dot) if dot else 0):
            return False
        if field.owner[i] != (int(owner) if owner else 0):
            return False
        if field.taken[i] != (not board.is_free_index(i)):
            return False
    return (
        field.score[1:] == [board.score(Player.PINK), board.score(Player.BLUE)]
        and field.free == board.free_count
    )


def play_both(rng: random.Random, width: int, height: int, local: float) -> tuple[int, int]:
    """One random game on a Board and a Field side by side, each move compared; returns the
    captures made and the engine's captured dots, to show the game exercised the rules."""
    board, field = Board(width, height), Field(width, height)
    player, last = 1, 0
    captures = 0
    while True:
        free = board.free_indices()
        if not free:
            break
        i = rng.choice(free)
        if last and rng.random() < local:
            near = [
                j
                for j in free
                if abs(j % board.stride - last % board.stride) <= 1
                and abs(j // board.stride - last // board.stride) <= 2
            ]
            i = rng.choice(near) if near else i
        expected_gain = board.score(Player(player))
        board.place_index(i, player)
        expected_gain = board.score(Player(player)) - expected_gain
        gain = field.place(i, player)
        assert gain == expected_gain
        assert same_position(field, board), f"after {board.point_at(i).name}\n{board.picture()}"
        captures += gain > 0
        player, last = 3 - player, i
    return captures, board.score(Player.PINK) + board.score(Player.BLUE)


@pytest.mark.parametrize(("width", "height", "local"), [(8, 8, 0.0), (10, 10, 0.8), (12, 9, 0.8)])
def test_a_field_agrees_with_the_engine_on_random_games(
    width: int, height: int, local: float
) -> None:
    rng = random.Random(width * 100 + height)
    captures = captured = 0
    for _ in range(25):
        made, taken = play_both(rng, width, height, local)
        captures += made
        captured += taken
    assert captures >= 25 and captured >= 80  # the games did capture, and often


def test_a_field_from_a_board_continues_like_the_board() -> None:
    rng = random.Random(5)
    for _ in range(12):
        board = Board(10, 10)
        player = 1
        for _ in range(rng.randrange(10, 70)):
            board.place_index(rng.choice(board.free_indices()), player)
            player = 3 - player
        field = Field.from_board(board)
        assert same_position(field, board)
        while board.free_indices():
            i = rng.choice(board.free_indices())
            board.place_index(i, player)
            field.place(i, player)
            assert same_position(field, board)
            player = 3 - player


def test_suicide_and_capture_checks_agree_with_trying_the_dot() -> None:
    rng = random.Random(8)
    suicides = captures = 0
    for _ in range(40):
        board = Board(8, 8)
        player = 1
        for _ in range(rng.randrange(30, 60)):
            board.place_index(rng.choice(board.free_indices()), player)
            player = 3 - player
        field = Field.from_board(board)
        for i in board.free_indices():
            for p in (1, 2):
                trial = board.copy()
                before = trial.score(Player(p))
                trial.place_index(i, p)
                assert field.is_suicide(i, p) == (trial.live_at(i) == 0)
                assert field.captures_at(i, p) == (trial.score(Player(p)) > before)
                suicides += trial.live_at(i) == 0
                captures += trial.score(Player(p)) > before
        assert same_position(field, board)  # the checks changed nothing
    assert suicides >= 5 and captures >= 20


def test_ring_runs_table() -> None:
    # No own neighbour, one run, two runs across a corner (N and E): no ring can close.
    assert RUNS[0] == 0 and RUNS[0b0000_0111] == 1 and RUNS[0b0000_0101] == 1
    # N and S: two runs.
    assert RUNS[0b0001_0001] == 2
