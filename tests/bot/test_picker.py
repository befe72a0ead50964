"""The point picker's geometry: tiles of 5x4 points, jump grids of at most 5x4 cells, and how
many clicks after Place a dot any point of a board takes."""

from __future__ import annotations

import pytest

from bot.cogs.picker import DIRECT_TILES, GRID_COLUMNS, GRID_ROWS, Tiles, window_label
from engine import NAMED_SIZES, Point, parse_size


def clicks_to(tiles: Tiles, start: tuple[int, int], point: Point) -> int:
    """The clicks a player makes from a picker opened on tile ``start`` to play ``point``,
    following the buttons the picker shows (see ``bot.cogs.picker``)."""
    target = tiles.of(point)
    if target == start:
        return 1
    if tiles.across * tiles.down <= DIRECT_TILES:
        return 2  # the other tiles are listed under the window
    i, j = start
    neighbours = {(i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)}
    if target in neighbours:
        return 2  # an arrow
    clicks, box = 1, (0, 0, tiles.across - 1, tiles.down - 1)  # Jump
    while True:
        cells = [cell for row in tiles.cells(*box) for cell in row]
        assert len(tiles.cells(*box)) <= GRID_ROWS
        assert all(len(row) <= GRID_COLUMNS for row in tiles.cells(*box))
        cell = next(c for c in cells if c[0] <= target[0] <= c[2] and c[1] <= target[1] <= c[3])
        clicks += 1
        if cell[:2] == cell[2:]:
            return clicks + 1  # the tile's window, then the point
        box = cell


@pytest.mark.parametrize("size", NAMED_SIZES)
def test_every_point_is_within_four_clicks_and_on_10x10_within_two(size: str) -> None:
    width, height = parse_size(size)
    tiles = Tiles(width, height)
    worst = max(
        clicks_to(tiles, start, Point(x, y))
        for start in [(0, 0), (tiles.across - 1, tiles.down - 1), (tiles.across // 2, 0)]
        for x in range(width)
        for y in range(height)
    )
    assert worst <= (2 if (width, height) == (10, 10) else 4), (size, worst)


def test_the_jump_grid_covers_the_board_once() -> None:
    tiles = Tiles(39, 32)
    covered = [
        (i, j)
        for row in tiles.cells(0, 0, tiles.across - 1, tiles.down - 1)
        for a, b, c, d in row
        for i in range(a, c + 1)
        for j in range(b, d + 1)
    ]
    assert sorted(covered) == sorted((i, j) for i in range(8) for j in range(8))


def test_tiles_are_cut_at_the_edge_and_named_by_their_corners() -> None:
    tiles = Tiles(10, 10)
    assert (tiles.across, tiles.down) == (2, 3)
    assert window_label(tiles.window(1, 2)) == "F9–J10"
    assert window_label(tiles.window(0, 0)) == "A1–E4"
