"""The opening book: its lines answered on the reference board, on other sizes, turned, and
on four crosses; hard plays them at once, the lower levels do not use them."""

from __future__ import annotations

import pytest

import ai
from ai.book import LINES, REFERENCE, book_move
from engine import Game, Player, Point, Start
from engine.starts import start_dots

CASES = [(start, played) for start, lines in LINES.items() for played in lines]


def moved(game: Game, names: list[Point]) -> Game:
    """``game`` after the dots ``names``, alternating from the player to move."""
    for point in names:
        game.place(point)
    return game


def line(played: str) -> list[Point]:
    return [Point.parse(name) for name in played.split()]


def test_every_standard_start_has_lines() -> None:
    assert {Start.CROSS, Start.DOUBLE_CROSS, Start.TRIPLE_CROSS} <= {s for s, _ in CASES}
    assert all("" in LINES[start] for start in LINES)  # the first move of each


@pytest.mark.parametrize(("start", "played"), CASES)
def test_the_book_answers_its_lines_on_the_reference_board(start: Start, played: str) -> None:
    game = moved(Game(REFERENCE, REFERENCE, start=start), line(played))
    assert book_move(game) == Point.parse(LINES[start][played])


@pytest.mark.parametrize(("start", "played"), CASES)
@pytest.mark.parametrize(("width", "height"), [(15, 12), (39, 32)])
def test_a_line_is_answered_on_any_board_where_the_start_fits(
    start: Start, played: str, width: int, height: int
) -> None:
    here = start_dots(start, width, height)[0][1]
    there = start_dots(start, REFERENCE, REFERENCE)[0][1]
    dx, dy = here.x - there.x, here.y - there.y
    shifted = [Point(p.x + dx, p.y + dy) for p in line(played)]
    answer = Point.parse(LINES[start][played])
    game = moved(Game(width, height, start=start), shifted)
    assert book_move(game) == Point(answer.x + dx, answer.y + dy)


@pytest.mark.parametrize(("start", "played"), CASES)
@pytest.mark.parametrize("turns", [1, 2, 3])
@pytest.mark.parametrize("mirror", [False, True])
def test_a_line_turned_or_mirrored_is_answered_alike(
    start: Start, played: str, turns: int, mirror: bool
) -> None:
    def turn(p: Point) -> Point:
        for _ in range(turns):
            p = Point(p.y, REFERENCE - 1 - p.x)
        return Point(REFERENCE - 1 - p.x, p.y) if mirror else p

    dots = tuple((player, turn(p)) for player, p in start_dots(start, REFERENCE, REFERENCE))
    game = moved(Game(REFERENCE, REFERENCE, start_dots=dots), [turn(p) for p in line(played)])
    answer = book_move(game)
    assert answer is not None
    # The position with its answer is the line with its answer, seen turned: the very point
    # turned, or one that the position's own symmetry makes the same.
    reference = moved(Game(REFERENCE, REFERENCE, start=start), line(played))
    expected = Point.parse(LINES[start][played])
    assert canonical(game, answer) == canonical(reference, expected)


def canonical(game: Game, answer: Point) -> tuple[tuple[int, int, int], ...]:
    """The game's dots and ``answer`` (as a dot of the player to move, 3), the same for
    every rotation, reflection and shift of them."""
    dots = [(int(player), p.x, p.y) for player, p in game.record.start_dots]
    dots += [(int(a.player), a.point.x, a.point.y) for a in game.actions if a.point is not None]
    dots.append((3, answer.x, answer.y))
    forms = []
    for xx, xy, yx, yy in [
        (1, 0, 0, 1), (-1, 0, 0, 1), (1, 0, 0, -1), (-1, 0, 0, -1),
        (0, 1, 1, 0), (0, -1, 1, 0), (0, 1, -1, 0), (0, -1, -1, 0),
    ]:  # fmt: skip
        turned = [(pl, xx * x + xy * y, yx * x + yy * y) for pl, x, y in dots]
        low_x = min(x for _, x, _ in turned)
        low_y = min(y for _, _, y in turned)
        forms.append(tuple(sorted((pl, x - low_x, y - low_y) for pl, x, y in turned)))
    return min(forms)


def test_out_of_the_book_there_is_no_answer() -> None:
    assert book_move(Game(REFERENCE, REFERENCE)) is None  # the empty start
    game = Game(REFERENCE, REFERENCE, start=Start.CROSS)
    game.place("A1")  # no line goes there
    assert book_move(game) is None
    game.end()  # an end is not a dot: out of the book
    assert book_move(game) is None


def doubled_centre(points: list[Point]) -> tuple[int, int]:
    """Twice the centre of ``points``."""
    return sum(2 * p.x for p in points) // len(points), sum(2 * p.y for p in points) // len(points)


@pytest.mark.parametrize("seed", range(4))
def test_four_crosses_are_answered_as_one_cross(seed: int) -> None:
    game = Game(REFERENCE, REFERENCE, start=Start.FOUR_CROSSES, seed=seed)
    answer = book_move(game)
    assert answer is not None and game.board.is_free(answer)
    cross = Game(REFERENCE, REFERENCE, start=Start.CROSS)
    expected = book_move(cross)
    assert expected is not None
    cx, cy = doubled_centre([p for _, p in cross.record.start_dots])
    offset = (2 * expected.x - cx, 2 * expected.y - cy)
    # The answer stands to one of the four crosses (2x2 blocks that never touch) as the
    # cross's answer stands to the cross.
    dots = [p for _, p in game.record.start_dots]
    crosses = {
        frozenset(q for q in dots if abs(q.x - p.x) <= 1 and abs(q.y - p.y) <= 1) for p in dots
    }
    assert len(crosses) == 4
    offsets = set()
    for block in crosses:
        bx, by = doubled_centre(list(block))
        offsets.add((2 * answer.x - bx, 2 * answer.y - by))
    assert offset in offsets


def test_hard_plays_the_book_at_once_and_the_lower_levels_search() -> None:
    game = Game(REFERENCE, REFERENCE, start=Start.CROSS)
    decision = ai.choose(game, "hard", seed=1)
    assert decision.point == Point.parse(LINES[Start.CROSS][""])
    assert decision.iterations == 0
    assert ai.choose(game, "medium", seed=1, iterations=20, max_seconds=60).iterations == 20
    assert game.to_move is Player.PINK and not game.actions
