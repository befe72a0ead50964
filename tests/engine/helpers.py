"""A small language for engine tests: move lists, text pictures and the 8 board symmetries."""

from __future__ import annotations

from collections.abc import Iterable

from engine import Board, Game, Player, Point

PINK, BLUE = Player.PINK, Player.BLUE
_PLAYERS = {"P": PINK, "B": BLUE}

# (transpose, mirror left-right, mirror top-bottom): the 8 symmetries of the square.
SYMMETRIES: tuple[tuple[bool, bool, bool], ...] = tuple(
    (t, fx, fy) for t in (False, True) for fx in (False, True) for fy in (False, True)
)


def moves(text: str) -> list[tuple[Player, Point]]:
    """Read ``"P:C4 B3  B:C3"`` style move lists: a ``P:``/``B:`` switches the player.

    Each token is ``P:C4`` / ``B:C3`` or a bare point for the last player named.
    """
    result: list[tuple[Player, Point]] = []
    player: Player | None = None
    for token in text.split():
        if ":" in token:
            who, _, name = token.partition(":")
            player = _PLAYERS[who.upper()]
            if not name:
                continue
        else:
            name = token
        assert player is not None, f"no player before {token}"
        result.append((player, Point.parse(name)))
    return result


def play(board: Board, text: str) -> Board:
    """Place the moves of ``text`` on ``board`` in order and return it."""
    for player, point in moves(text):
        board.place(point, player)
    return board


def board_of(width: int, height: int, text: str) -> Board:
    """A fresh board with the moves of ``text`` placed."""
    return play(Board(width, height), text)


def rows(picture: str) -> list[str]:
    """A picture as a list of rows (top first) without spaces."""
    return [line.replace(" ", "") for line in picture.strip().splitlines() if line.strip()]


def pic(board: Board) -> list[str]:
    """The board's picture as rows without spaces (top row first)."""
    return rows(board.picture())


def picture_cells(picture: str) -> dict[Point, str]:
    """Every cell of a picture by point (row 1 is the picture's last line)."""
    lines = rows(picture)
    height = len(lines)
    return {
        Point(x, height - 1 - r): ch for r, line in enumerate(lines) for x, ch in enumerate(line)
    }


def transform(point: Point, sym: tuple[bool, bool, bool], width: int, height: int) -> Point:
    """``point`` of a ``width`` x ``height`` board under symmetry ``sym``."""
    transpose, flip_x, flip_y = sym
    x, y = point
    if transpose:
        x, y, width, height = y, x, height, width
    if flip_x:
        x = width - 1 - x
    if flip_y:
        y = height - 1 - y
    return Point(x, y)


def transformed_size(sym: tuple[bool, bool, bool], width: int, height: int) -> tuple[int, int]:
    """The board size under symmetry ``sym``."""
    return (height, width) if sym[0] else (width, height)


def transform_moves(
    seq: Iterable[tuple[Player, Point]], sym: tuple[bool, bool, bool], width: int, height: int
) -> list[tuple[Player, Point]]:
    """A move list under symmetry ``sym``."""
    return [(player, transform(point, sym, width, height)) for player, point in seq]


def transform_picture(picture: str, sym: tuple[bool, bool, bool]) -> list[str]:
    """A picture under symmetry ``sym``, as rows without spaces."""
    cells = picture_cells(picture)
    lines = rows(picture)
    height, width = len(lines), len(lines[0])
    new_w, new_h = transformed_size(sym, width, height)
    out = [["?"] * new_w for _ in range(new_h)]
    for point, ch in cells.items():
        q = transform(point, sym, width, height)
        out[new_h - 1 - q.y][q.x] = ch
    return ["".join(r) for r in out]


def state_of(board: Board) -> tuple[object, ...]:
    """Everything observable about a board, for before/after comparisons."""
    return (
        board.picture(),
        board.score(PINK),
        board.score(BLUE),
        board.free_count,
        sorted((b.owner, b.ring, tuple(sorted(b.area))) for b in board.bases),
    )


def game_state(game: Game) -> tuple[object, ...]:
    """Everything observable about a game, for before/after comparisons."""
    return (
        state_of(game.board),
        game.score(PINK),
        game.score(BLUE),
        game.to_move,
        game.is_over,
        game.result,
        game.ended,
        game.record,
        game.last_move,
    )
