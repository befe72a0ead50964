"""The starting positions of rule 9."""

from __future__ import annotations

import random

from engine.point import Player, Point

START_NAMES = ("empty", "cross", "double-cross", "triple-cross", "four-crosses")

PINK, BLUE = Player.PINK, Player.BLUE

# Offsets from (w2, h2) in rule 9's coordinates: column from the left, row from the top.
_CROSS = ((PINK, -1, -1), (PINK, 0, 0), (BLUE, -1, 0), (BLUE, 0, -1))
_PATTERNS: dict[str, tuple[tuple[Player, int, int], ...]] = {
    "cross": _CROSS,
    "double-cross": (
        (PINK, -2, -1), (PINK, -1, 0), (PINK, 0, 0), (PINK, 1, -1),
        (BLUE, -2, 0), (BLUE, -1, -1), (BLUE, 0, -1), (BLUE, 1, 0),
    ),
    "triple-cross": (
        (PINK, -1, -1), (PINK, 0, 0), (PINK, 1, -1), (PINK, 0, 1),
        (BLUE, -1, 0), (BLUE, 0, -1), (BLUE, 0, -2), (BLUE, 1, 0),
    ),
}  # fmt: skip

_DRAWS = 1000


def start_dots(
    start: str, width: int, height: int, seed: int | None = None
) -> tuple[tuple[Player, Point], ...]:
    """The dots of start position ``start`` on a ``width`` x ``height`` board (rule 9).

    ``four-crosses`` draws its crosses with ``random.Random(seed)``.

    Raises:
        ValueError: an unknown start, or four crosses that do not fit on the board.
    """
    if start == "empty":
        return ()
    w2, h2 = width // 2, height // 2
    if start in _PATTERNS:
        return _placed(_PATTERNS[start], w2, h2, height)
    if start == "four-crosses":
        return _four_crosses(width, height, random.Random(seed))
    raise ValueError(f"`{start}` is not a start position")


def _placed(
    pattern: tuple[tuple[Player, int, int], ...], cx: int, cy: int, height: int
) -> tuple[tuple[Player, Point], ...]:
    return tuple((player, Point(cx + dx, height - 1 - (cy + dy))) for player, dx, dy in pattern)


def _four_crosses(width: int, height: int, rng: random.Random) -> tuple[tuple[Player, Point], ...]:
    """Four crosses at random centres in the central half, no two touching (rule 9.2)."""
    # A cross around (cx, cy) covers columns cx-1..cx and rows cy-1..cy.
    xs = range(width // 4 + 1, width - width // 4)
    ys = range(height // 4 + 1, height - height // 4)
    for _ in range(_DRAWS):
        centres: list[tuple[int, int]] = []
        for _ in range(_DRAWS):
            cx, cy = rng.choice(xs), rng.choice(ys)
            if all(abs(cx - ox) >= 3 or abs(cy - oy) >= 3 for ox, oy in centres):
                centres.append((cx, cy))
                if len(centres) == 4:
                    dots: list[tuple[Player, Point]] = []
                    for x, y in centres:
                        dots.extend(_placed(_CROSS, x, y, height))
                    return tuple(dots)
    raise ValueError(f"four crosses do not fit on a {width}x{height} board: choose a bigger board")
