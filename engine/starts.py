"""The starting positions of rule 9."""

from __future__ import annotations

import functools
import random

from engine.errors import StartFitError
from engine.options import Rules, Start, check_size
from engine.point import Player, Point

PINK, BLUE = Player.PINK, Player.BLUE

# Offsets from (w2, h2) in rule 9's coordinates: column from the left, row from the top.
_CROSS = ((PINK, -1, -1), (PINK, 0, 0), (BLUE, -1, 0), (BLUE, 0, -1))
_PATTERNS: dict[Start, tuple[tuple[Player, int, int], ...]] = {
    Start.CROSS: _CROSS,
    Start.DOUBLE_CROSS: (
        (PINK, -2, -1), (PINK, -1, 0), (PINK, 0, 0), (PINK, 1, -1),
        (BLUE, -2, 0), (BLUE, -1, -1), (BLUE, 0, -1), (BLUE, 1, 0),
    ),
    Start.TRIPLE_CROSS: (
        (PINK, -1, -1), (PINK, 0, 0), (PINK, 1, -1), (PINK, 0, 1),
        (BLUE, -1, 0), (BLUE, 0, -1), (BLUE, 0, -2), (BLUE, 1, 0),
    ),
}  # fmt: skip


def start_dots(
    start: Start | str, width: int, height: int, seed: int | None = None
) -> tuple[tuple[Player, Point], ...]:
    """The dots of start position ``start`` on a ``width`` x ``height`` board (rule 9).

    ``four-crosses`` draws its crosses with ``random.Random(seed)``.

    Raises:
        UnknownOptionError: an unknown start.
        StartFitError: four crosses that do not fit on the board.
    """
    start = Start.parse(start)
    if start is Start.EMPTY:
        return ()
    if start is Start.FOUR_CROSSES:
        return _four_crosses(width, height, random.Random(seed))
    return _placed(_PATTERNS[start], width // 2, height // 2, height)


def _placed(
    pattern: tuple[tuple[Player, int, int], ...], cx: int, cy: int, height: int
) -> tuple[tuple[Player, Point], ...]:
    return tuple((player, Point(cx + dx, height - 1 - (cy + dy))) for player, dx, dy in pattern)


def _four_crosses(width: int, height: int, rng: random.Random) -> tuple[tuple[Player, Point], ...]:
    """Four crosses at random centres in the central half, no two touching (rule 9.2).

    A depth-first search over the centres in a shuffled order: random for a seed, and quick to
    say when four crosses cannot fit at all.
    """
    # A cross around (cx, cy) covers columns cx-1..cx and rows cy-1..cy.
    xs = range(width // 4 + 1, width - width // 4)
    ys = range(height // 4 + 1, height - height // 4)
    centres = [(x, y) for x in xs for y in ys]
    rng.shuffle(centres)

    def apart(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return abs(a[0] - b[0]) >= 3 or abs(a[1] - b[1]) >= 3

    def extend(chosen: list[tuple[int, int]], start: int) -> list[tuple[int, int]] | None:
        if len(chosen) == 4:
            return chosen
        for k in range(start, len(centres)):
            candidate = centres[k]
            if all(apart(candidate, other) for other in chosen):
                found = extend([*chosen, candidate], k + 1)
                if found is not None:
                    return found
        return None

    found = extend([], 0)
    if found is None:
        raise StartFitError(Start.FOUR_CROSSES, width, height)
    dots: list[tuple[Player, Point]] = []
    for x, y in found:
        dots.extend(_placed(_CROSS, x, y, height))
    return tuple(dots)


def check_options(
    width: int, height: int, rules: Rules | str, start: Start | str
) -> tuple[Rules, Start]:
    """Check a new game's options (rules 1.1, 8 and 9) and return its rules and start.

    A start that cannot be set up on the board (four crosses on a tight board) is refused; the
    answer for each start and size is remembered, so asking again costs nothing.

    Raises:
        OptionError: the size is out of range (``SizeRangeError``), the rules or start are
            unknown (``UnknownOptionError``) or the start does not fit (``StartFitError``).
    """
    check_size(width, height)
    chosen_rules, chosen_start = Rules.parse(rules), Start.parse(start)
    if not _start_fits(chosen_start, width, height):
        raise StartFitError(chosen_start, width, height)
    return chosen_rules, chosen_start


@functools.lru_cache(maxsize=512)
def _start_fits(start: Start, width: int, height: int) -> bool:
    """Whether ``start`` can be set up on this board."""
    try:
        start_dots(start, width, height, seed=0)
    except StartFitError:
        return False
    return True
