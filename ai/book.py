"""A small opening book for the standard starts (rule 9): cross, double cross, triple cross,
and four crosses.

Our own: every line was found by our own search, hard searching 600 iterations a move on
20x20 (``python bench/ai.py --derive-book 600`` prints them; its output is pasted below). A line is
the moves after the start on that reference board (Pink first, rule 9.3) and the book's
answer. A position is matched by its shape, not by its board: every dot relative to the
centre of the start's dots, under the eight rotations and reflections of the square, so a line
serves every board size and every orientation of the same shape.

Four crosses are placed at random (rule 9.2), so no line can name them. By a simple principle
the book answers there as on a single cross: each cross with the dots within two points of it
is looked up in the cross lines, the cross nearest the last dot (or, before any move, the
board's centre) first. Any answer that is taken or would be thrown into a ring is not played.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import Game, Point, Start
from engine.starts import start_dots

REFERENCE = 20
DEPTH = 6  # no line is longer
# Moves after the start on the 20x20 reference board -> the book's answer.
# Printed by ``python bench/ai.py --derive-book 600`` (hard, 600 iterations a move, seed 1);
# the comments are the search's own estimate of the mover's winning chance.
LINES: dict[Start, dict[str, str]] = {
    Start.CROSS: {
        "": "I13",  # 0.65
        "I13": "K9",  # 0.56
        "I13 K9": "L12",  # 0.58
    },
    Start.DOUBLE_CROSS: {
        "": "H12",  # 0.58
        "H12": "J12",  # 0.50
        "H12 J12": "J8",  # 0.63
    },
    Start.TRIPLE_CROSS: {
        "": "M11",  # 0.69
        "M11": "J7",  # 0.64
        "M11 J7": "J9",  # 0.69
    },
}

Shape = frozenset[tuple[int, int, int]]
# The eight symmetries of the square as matrices (a, b) -> (xx a + xy b, yx a + yy b).
_SYMMETRIES = (
    (1, 0, 0, 1),
    (-1, 0, 0, 1),
    (1, 0, 0, -1),
    (-1, 0, 0, -1),
    (0, 1, 1, 0),
    (0, -1, 1, 0),
    (0, 1, -1, 0),
    (0, -1, -1, 0),
)


def _turn(symmetry: tuple[int, int, int, int], a: int, b: int) -> tuple[int, int]:
    xx, xy, yx, yy = symmetry
    return xx * a + xy * b, yx * a + yy * b


def _centre(points: Iterable[Point]) -> tuple[int, int] | None:
    """Twice the centre of ``points`` (an integer point or half-point), None if it is not."""
    points = list(points)
    xs = [p.x for p in points]
    ys = [p.y for p in points]
    if not xs or (2 * sum(xs)) % len(xs) or (2 * sum(ys)) % len(ys):
        return None
    return 2 * sum(xs) // len(xs), 2 * sum(ys) // len(ys)


def _shape(dots: Iterable[tuple[int, Point]], centre: tuple[int, int]) -> Shape:
    """The dots as (player, 2x, 2y) relative to ``centre`` (twice the centre)."""
    return frozenset((player, 2 * p.x - centre[0], 2 * p.y - centre[1]) for player, p in dots)


def _table() -> dict[Shape, tuple[int, int]]:
    """Every line's shape, in all eight symmetries, to its answer (relative, doubled)."""
    table: dict[Shape, tuple[int, int]] = {}
    for start, lines in LINES.items():
        dots = [(int(player), point) for player, point in start_dots(start, REFERENCE, REFERENCE)]
        centre = _centre(p for _, p in dots)
        assert centre is not None
        for played, answer in lines.items():
            moves = [Point.parse(name) for name in played.split()]
            line = dots + [(1 + k % 2, point) for k, point in enumerate(moves)]
            shape = _shape(line, centre)
            reply = Point.parse(answer)
            target = (2 * reply.x - centre[0], 2 * reply.y - centre[1])
            for symmetry in _SYMMETRIES:
                turned = frozenset((pl, *_turn(symmetry, a, b)) for pl, a, b in shape)
                # A position symmetric in itself keeps its first answer (the line's own).
                table.setdefault(turned, _turn(symmetry, *target))
    return table


TABLE = _table()


def book_move(game: Game) -> Point | None:
    """The book's answer for the player to move in ``game``, or None (out of the book)."""
    if game.to_move is None or len(game.actions) > DEPTH:
        return None
    if any(a.kind != "dot" for a in game.actions):
        return None
    start_points = [p for _, p in game.record.start_dots]
    if not start_points:
        return None
    dots = [(int(player), p) for player, p in game.record.start_dots]
    dots += [(int(a.player), a.point) for a in game.actions if a.point is not None]
    if game.start is Start.FOUR_CROSSES:
        groups = _crosses(game, dots)
    else:
        centre = _centre(start_points)
        groups = [(centre, dots)] if centre is not None else []
    for centre, local in groups:
        target = TABLE.get(_shape(local, centre))
        if target is None:
            continue
        x2, y2 = target[0] + centre[0], target[1] + centre[1]
        point = Point(x2 // 2, y2 // 2)
        board = game.board
        if 0 <= point.x < board.width and 0 <= point.y < board.height and board.is_free(point):
            trial = board.copy()
            trial.place(point, game.to_move)
            if trial.is_live(point):
                return point
    return None


def _blocks(points: list[Point]) -> list[list[Point]]:
    """``points`` in groups of king-linked points (the crosses of a four-crosses start, which
    never touch: rule 9.2)."""
    left = set(points)
    groups = []
    while left:
        stack = [left.pop()]
        group = []
        while stack:
            p = stack.pop()
            group.append(p)
            for q in [q for q in left if abs(q.x - p.x) <= 1 and abs(q.y - p.y) <= 1]:
                left.discard(q)
                stack.append(q)
        groups.append(sorted(group))
    return sorted(groups)


def _crosses(
    game: Game, dots: list[tuple[int, Point]]
) -> list[tuple[tuple[int, int], list[tuple[int, Point]]]]:
    """Four crosses: each cross's centre (doubled) and the dots within two points of it,
    nearest the last dot (or the board's centre) first."""
    groups = []
    for cross in _blocks([p for _, p in game.record.start_dots]):
        centre = _centre(cross)
        if centre is None:
            return []
        local = [
            (player, p)
            for player, p in dots
            if abs(2 * p.x - centre[0]) <= 5 and abs(2 * p.y - centre[1]) <= 5
        ]
        groups.append((centre, local))
    moves = [a.point for a in game.actions if a.point is not None]
    # Twice the last dot, or twice the board's centre.
    focus = (2 * moves[-1].x, 2 * moves[-1].y) if moves else (game.width - 1, game.height - 1)
    groups.sort(key=lambda g: abs(g[0][0] - focus[0]) + abs(g[0][1] - focus[1]))
    return groups
