"""The rules of capture on a padded board's arrays (engine/rings.py), which Board and the
computer's Field both call: rings closed, a dot played into a ring, base scoring."""

from __future__ import annotations

from engine import Board, Player, Point
from engine.rings import (
    BORDER,
    RUNS,
    Geometry,
    area_inside,
    claim,
    closed_rings,
    geometry,
    inside_of,
    ring_around,
)

from .helpers import picture_cells

# A Pink diamond round a Blue dot, its east point still free.
DIAMOND = """
. . . . .
. . P . .
. P B . .
. . P . .
. . . . .
"""


def arrays(picture: str) -> tuple[Geometry, bytearray, bytearray]:
    """The geometry, the live dots and the dots of a picture of live dots only."""
    cells = picture_cells(picture)
    width = 1 + max(p.x for p in cells)
    height = 1 + max(p.y for p in cells)
    geo = geometry(width, height)
    live, dot = geo.padding[:], geo.padding[:]
    for point, mark in cells.items():
        if mark in "PB":
            live[index(geo, point)] = dot[index(geo, point)] = 1 if mark == "P" else 2
    return geo, live, dot


def index(geo: Geometry, point: Point | str) -> int:
    """The array index of ``point`` (as ``Board.index``)."""
    point = Point.parse(point) if isinstance(point, str) else point
    return (geo.height - point.y) * geo.stride + point.x + 1


def indices(geo: Geometry, names: str) -> set[int]:
    """The array indices of the points named."""
    return {index(geo, name) for name in names.split()}


def test_one_geometry_per_size_laid_out_as_the_board() -> None:
    geo = geometry(5, 4)
    assert geometry(5, 4) is geo
    board = Board(5, 4)
    assert geo.stride == board.stride == 7 and geo.cells == 7 * 6
    on_board = {board.index(p) for p in board.points()}
    assert {i for i in range(geo.cells) if geo.padding[i] != BORDER} == on_board
    assert {i for i in range(geo.cells) if geo.edge[i]} == {
        board.index(p) for p in board.points() if p.x in (0, 4) or p.y in (0, 3)
    }
    assert geo.orth == (-7, 1, 7, -1)
    assert geo.dirs == (-7, -6, 1, 8, 7, 6, -1, -8)


def test_a_dot_closing_a_ring_round_an_opponents_dot_yields_the_base() -> None:
    geo, live, _ = arrays(DIAMOND)
    i = index(geo, "D3")
    live[i] = 1
    [(ring, area)] = list(closed_rings(geo, live, i, 1))
    assert set(ring) == indices(geo, "C4 D3 C2 B3")
    assert area == indices(geo, "C3")


def test_an_empty_ring_is_no_base() -> None:
    geo, live, _ = arrays(DIAMOND.replace("B", "."))
    i = index(geo, "D3")
    live[i] = 1
    assert list(closed_rings(geo, live, i, 1)) == []


def test_the_shared_rings_are_the_boards_bases() -> None:
    board = Board(5, 5)
    for name in ("C4", "B3", "C2"):
        board.place(name, Player.PINK)
    board.place("C3", Player.BLUE)
    geo = geometry(5, 5)
    live = bytearray(board.live_at(i) for i in range(geo.cells))
    i = index(geo, "D3")
    live[i] = 1
    [(ring, area)] = list(closed_rings(geo, live, i, 1))
    [base] = board.place("D3", Player.PINK).bases
    assert set(ring) == {board.index(p) for p in base.ring}
    assert area == {board.index(p) for p in base.area}


def test_a_dot_played_into_an_empty_ring_is_taken() -> None:
    geo, live, _ = arrays("""
        . . . . .
        . . P . .
        . P B P .
        . . P . .
        . . . . .
    """)
    taken = ring_around(geo, live, index(geo, "C3"), 2)
    assert taken is not None
    ring, area = taken
    assert set(ring) == indices(geo, "C4 D3 C2 B3")
    assert area == indices(geo, "C3")


def test_a_dot_with_a_way_out_is_not_taken() -> None:
    geo, live, _ = arrays(DIAMOND)
    assert ring_around(geo, live, index(geo, "C3"), 2) is None


def test_a_ring_holding_another_live_dot_of_the_player_takes_nothing() -> None:
    geo, live, _ = arrays("""
        . . . . . .
        . . P P . .
        . P B . P .
        . . P P . .
        . . . . . .
    """)
    live[index(geo, "D3")] = 2
    assert ring_around(geo, live, index(geo, "D3"), 2) is None


def test_claiming_scores_the_opponents_dots_and_takes_the_free_points() -> None:
    geo, live, dot = arrays("""
        . . . . . .
        . . B B . .
        . B P . B .
        . . B B . .
        . . . . . .
    """)
    owners = bytearray(geo.cells)
    score = [0, 0, 0]
    area = frozenset(indices(geo, "C3 D3"))
    assert claim(2, area, live=live, dot=dot, owners=owners, score=score) == 1
    assert score == [0, 0, 1]
    assert all(owners[c] == 2 and not live[c] for c in area)
    # Pink takes the base and more: the Pink dot inside is no longer counted for Blue.
    bigger = area | indices(geo, "C4 D4 B3 E3 C2 D2")
    assert claim(1, bigger, live=live, dot=dot, owners=owners, score=score) == 0
    assert score == [0, 6, 0]
    assert all(owners[c] == 1 and not live[c] for c in bigger)


def test_the_inside_of_a_ring_flooded_from_a_seed_is_what_cannot_step_out() -> None:
    geo, live, _ = arrays("""
        . . . . . . .
        . . P P P . .
        . P . P . P .
        . . P . P . .
        . . . P . . .
        . . . . . . .
    """)
    ring = (
        index(geo, "C5"), index(geo, "D5"), index(geo, "E5"), index(geo, "F4"),
        index(geo, "E3"), index(geo, "D2"), index(geo, "C3"), index(geo, "B4"),
    )  # fmt: skip
    assert area_inside(geo, live, ring, index(geo, "C4")) == frozenset(inside_of(ring, geo.stride))


def test_runs_of_own_neighbours() -> None:
    assert RUNS[0] == 0 and RUNS[0b0000_0111] == 1 and RUNS[0b0000_0101] == 1
    assert RUNS[0b0001_0001] == 2 and RUNS[0b1010_1010] == 4 and RUNS[0xFF] == 0
    assert RUNS[0b0101_0101] == 0  # N, E, S and W are linked across the corners
