"""What points, boards and games show of themselves."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine import Board, Game, Player, Point

from .helpers import BLUE, PINK, board_of


@given(x=st.integers(0, 51), y=st.integers(0, 51))
def test_a_points_repr_names_it_and_reads_back(x: int, y: int) -> None:
    point = Point(x, y)
    assert repr(point) == f"Point.parse({point.name!r})"
    assert eval(repr(point)) == point


def test_a_point_without_a_name_shows_its_coordinates() -> None:
    assert repr(Point(-1, 4)) == "Point(x=-1, y=4)"
    assert repr([Point(1, 6)]) == "[Point.parse('B7')]"


def test_a_boards_repr_is_its_picture_in_one_line() -> None:
    board = board_of(5, 5, "P:C4 B:C3 P:B3 P:C2")
    assert repr(board) == "<Board 5x5 Pink 0 Blue 0 '...../..P../.PB../..P../.....'>"
    board.place("D3", PINK)
    assert repr(board) == "<Board 5x5 Pink 1 Blue 0 '...../..P../.PbP./..P../.....'>"
    assert str(board) == board.picture()


def test_a_boards_repr_shows_the_inside_of_bases() -> None:
    # Blue plays into Pink's empty ring around C3 and C4 (rule 4.4): C4 is inside, empty.
    board = Board.from_moves([(PINK, p) for p in ("C5", "B4", "D4", "B3", "D3", "C2")], 5, 5)
    board.place("C3", BLUE)
    assert repr(board) == "<Board 5x5 Pink 1 Blue 0 '..P../.P+P./.PbP./..P../.....'>"


def test_a_games_repr_shows_options_turn_and_result() -> None:
    game = Game(10, 10, rules="grounding", start="cross")
    assert repr(game).startswith("<Game 10x10 grounding cross, 0 actions: Pink to move, Pink 0")
    game.place("A1")
    assert "1 action: Blue to move" in repr(game)
    assert repr(game).endswith("/P.........'>")
    game.resign(Player.BLUE)
    assert "2 actions: Pink wins 0–0 (resignation)" in repr(game)
    assert "to move" not in repr(game)
    assert repr(Game(7, 5)).startswith("<Game 7x5 standard, 0 actions")
