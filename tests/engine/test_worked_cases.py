"""The worked cases of RULES.md, each in all 8 rotations and reflections of the board."""

from __future__ import annotations

import pytest

from engine import Board, Player, Point

from .helpers import BLUE, PINK, SYMMETRIES, pic, transform, transform_picture

# The cases sit in the middle of a 7x7 board (so no dot of them is on the outer line); the
# 8 symmetries of a square map that board onto itself.
SIZE = 7


def _play(board: Board, seq: list[tuple[Player, Point]], sym: tuple[bool, bool, bool]) -> None:
    for player, point in seq:
        board.place(transform(point, sym, SIZE, SIZE), player)


def _ids(sym: tuple[bool, bool, bool]) -> str:
    return "".join(name for name, on in zip(("T", "X", "Y"), sym, strict=True) if on) or "id"


P = Point.parse

# Case 1: ". P . / P B P / . P ." with the local 3x3 at columns C-E, rows 3-5.
RING = [P("D5"), P("C4"), P("E4"), P("D3")]
MIDDLE = P("D4")


@pytest.mark.parametrize("sym", SYMMETRIES, ids=_ids)
def test_case_1_ring_around_a_live_dot_is_a_base(sym: tuple[bool, bool, bool]) -> None:
    board = Board(SIZE, SIZE)
    _play(board, [(BLUE, MIDDLE)], sym)
    _play(board, [(PINK, p) for p in RING[:3]], sym)
    assert board.score(PINK) == 0
    assert board.bases == []
    placement = board.place(transform(RING[3], sym, SIZE, SIZE), PINK)
    assert board.score(PINK) == 1
    assert board.score(BLUE) == 0
    assert placement.pink_gain == 1
    assert placement.captured == (transform(MIDDLE, sym, SIZE, SIZE),)
    [base] = board.bases
    assert base.owner is PINK
    assert set(base.ring) == {transform(p, sym, SIZE, SIZE) for p in RING}
    assert base.area == {transform(MIDDLE, sym, SIZE, SIZE)}
    expected = """
        . . . . . . .
        . . . . . . .
        . . . P . . .
        . . P b P . .
        . . . P . . .
        . . . . . . .
        . . . . . . .
    """
    assert pic(board) == transform_picture(expected, sym)


@pytest.mark.parametrize("sym", SYMMETRIES, ids=_ids)
def test_case_2_empty_ring_then_a_dot_played_into_it(sym: tuple[bool, bool, bool]) -> None:
    board = Board(SIZE, SIZE)
    _play(board, [(PINK, p) for p in RING], sym)
    middle = transform(MIDDLE, sym, SIZE, SIZE)
    # An empty ring: nothing drawn, nothing scored, the middle free (3.4).
    assert board.bases == []
    assert board.score(PINK) == 0
    assert board.is_free(middle)
    assert board.owner(middle) is None
    placement = board.place(middle, BLUE)
    assert board.score(PINK) == 1
    assert board.score(BLUE) == 0
    assert placement.pink_gain == 1
    assert placement.captured == (middle,)
    [base] = board.bases
    assert base.owner is PINK
    assert base.area == {middle}
    assert board.dot(middle) is BLUE
    assert not board.is_live(middle)
    expected = """
        . . . . . . .
        . . . . . . .
        . . . P . . .
        . . P b P . .
        . . . P . . .
        . . . . . . .
        . . . . . . .
    """
    assert pic(board) == transform_picture(expected, sym)


@pytest.mark.parametrize("sym", SYMMETRIES, ids=_ids)
def test_case_3_mover_base_first(sym: tuple[bool, bool, bool]) -> None:
    # ". P B . / P B P B / . P B ." at columns C-F, rows 3-5; Blue's last dot is D4.
    board = Board(SIZE, SIZE)
    _play(board, [(PINK, p) for p in RING], sym)
    _play(board, [(BLUE, P("E5")), (BLUE, P("F4")), (BLUE, P("E3"))], sym)
    assert board.score(PINK) == board.score(BLUE) == 0
    middle = transform(MIDDLE, sym, SIZE, SIZE)
    placement = board.place(middle, BLUE)
    assert board.score(BLUE) == 1
    assert board.score(PINK) == 0
    assert placement.captured == (transform(P("E4"), sym, SIZE, SIZE),)
    [base] = board.bases
    assert base.owner is BLUE
    assert set(base.ring) == {
        transform(p, sym, SIZE, SIZE) for p in (P("D4"), P("E5"), P("F4"), P("E3"))
    }
    assert board.is_live(middle)
    expected = """
        . . . . . . .
        . . . . . . .
        . . . P B . .
        . . P B p B .
        . . . P B . .
        . . . . . . .
        . . . . . . .
    """
    assert pic(board) == transform_picture(expected, sym)


@pytest.mark.parametrize("sym", SYMMETRIES, ids=_ids)
def test_outer_line_is_never_captured(sym: tuple[bool, bool, bool]) -> None:
    # The note under the worked cases: a dot on the outer line, walled in on every side the
    # board has, is not inside anything.
    board = Board(SIZE, SIZE)
    _play(board, [(BLUE, P("A4")), (BLUE, P("A1"))], sym)
    walls = ["A3", "B3", "B4", "B5", "A5", "A2", "B2", "B1"]
    _play(board, [(PINK, P(name)) for name in walls], sym)
    assert board.score(PINK) == 0
    assert board.bases == []
    assert board.is_live(transform(P("A4"), sym, SIZE, SIZE))
    assert board.is_live(transform(P("A1"), sym, SIZE, SIZE))
