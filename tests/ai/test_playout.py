"""Playouts and the one-move looks: what the search is built on, checked against the engine."""

from __future__ import annotations

import random

from ai.playout import Geometry, Policy, is_suicide, playout
from ai.search import candidates
from ai.tactics import fill_alone, gains, threats
from engine import Board, Player, Point


def random_board(rng: random.Random, dots: int, size: int = 8) -> Board:
    """A board after ``dots`` random legal dots, alternating from Pink."""
    board = Board(size, size)
    player = Player.PINK
    for _ in range(dots):
        free = list(board.free_points())
        if not free:
            break
        board.place(rng.choice(free), player)
        player = player.opponent
    return board


def taken_at_once(board: Board, i: int, player: int) -> bool:
    """The slow truth: place the dot on a copy and see whether it is still live."""
    trial = board.copy()
    trial.place_index(i, player)
    return not trial.live_at(i)


def test_is_suicide_agrees_with_the_engine() -> None:
    rng = random.Random(1)
    suicides = 0
    for _ in range(60):
        board = random_board(rng, rng.randrange(10, 60))
        geometry = Geometry(board)
        for i in board.free_indices():
            for player in (1, 2):
                expected = taken_at_once(board, i, player)
                assert is_suicide(board, i, player, geometry) == expected
                suicides += expected
    assert suicides >= 5  # the positions did exercise rule 4.4


def test_a_dot_into_an_empty_ring_is_suicide_unless_it_captures() -> None:
    # Pink's empty ring around D4; Blue there is taken at once (rule 4.4).
    board = Board.from_moves([(Player.PINK, p) for p in ("D5", "C4", "E4", "D3")], 7, 7)
    geometry = Geometry(board)
    inside = board.index(Point.parse("D4"))
    assert is_suicide(board, inside, 2, geometry)
    assert not is_suicide(board, inside, 1, geometry)


def test_playouts_never_throw_dots_into_rings() -> None:
    # Playing alone, the only way the idle opponent's score can rise is a dot played into one
    # of its rings (rule 4.4): the policy must never do that.
    rng = random.Random(2)
    for n in range(40):
        board = random_board(rng, rng.randrange(10, 50))
        player = 1 + n % 2
        idle = Player(3 - player)
        before = board.score(idle)
        playout(board, player, alone=True, rng=rng, policy=Policy(), geometry=Geometry(board))
        assert board.score(idle) <= before
    board = Board.from_moves([(Player.PINK, p) for p in ("D5", "C4", "E4", "D3")], 7, 7)
    playout(board, 2, alone=True, rng=random.Random(3), policy=Policy(), geometry=Geometry(board))
    assert board.score(Player.PINK) == 0
    assert board.dot("D4") is None


def test_playout_alone_fills_every_safe_point() -> None:
    board = Board(6, 6)
    moves = playout(
        board, 1, alone=True, rng=random.Random(4), policy=Policy(), geometry=Geometry(board)
    )
    assert moves == 36 and board.free_count == 0


def test_depth_caps_a_playout() -> None:
    board = Board(10, 10)
    policy = Policy(depth=7)
    moves = playout(
        board, 1, alone=False, rng=random.Random(5), policy=policy, geometry=Geometry(board)
    )
    assert moves == 7 and board.free_count == 93


def test_candidates_stay_near_the_dots_and_skip_suicide() -> None:
    board = Board.from_moves([(Player.PINK, p) for p in ("D5", "C4", "E4", "D3")], 10, 10)
    geometry = Geometry(board)
    found = {board.point_at(i).name for i in candidates(board, 2, geometry)}
    assert "D4" not in found
    assert {"B2", "F6", "D7", "B4"} <= found
    assert "J10" not in found and "H4" not in found
    assert "D4" in {board.point_at(i).name for i in candidates(board, 1, geometry)}


def test_gains_threats_and_fill_alone() -> None:
    # Blue's E5 walled in on three sides by Pink: E4 takes it.
    moves = [(Player.PINK, "E6"), (Player.BLUE, "E5"), (Player.PINK, "D5"), (Player.PINK, "F5")]
    board = Board.from_moves(moves, 10, 10)
    geometry = Geometry(board)
    e4 = board.index(Point.parse("E4"))
    assert gains(board, 1, board.free_indices(), geometry) == {e4: 1}
    assert threats(board, 2, geometry) == {e4: 1}
    assert threats(board, 1, geometry) == {}
    # Filling alone, Pink takes E5 (Blue's only dot); Blue takes Pink's three inner dots.
    assert fill_alone(board, 1, geometry).score(Player.PINK) == 1
    assert fill_alone(board, 2, geometry).score(Player.BLUE) == 3
