"""Bad input: each refusal has its own error and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import (
    Board,
    DotsError,
    Game,
    GameOverError,
    IllegalMoveError,
    InsideBaseError,
    InvalidPointError,
    NoStopsError,
    NotYourTurnError,
    OccupiedError,
    OffBoardError,
    Point,
    PointMistake,
    Rules,
    StopNotAllowedError,
    UnknownOptionError,
)

from .helpers import BLUE, PINK, game_state, moves, state_of

BOARD = "columns are A–J, rows 1–10"


def _game() -> Game:
    """A running 10x10 game with a Pink base around D4 (D4 captured, C4... free inside)."""
    game = Game()
    # Pink rings Blue's D4 with a radius-2 diamond, so the base has empty points inside.
    for player, point in moves(
        "P:D6 B:D4 P:C5 B:J10 P:B4 B:J9 P:C3 B:J8 P:D2 B:J7 P:E3 B:J6 P:F4 B:J5 P:E5"
    ):
        game.place(point, player)
    assert game.score(PINK) == 1 and game.board.owner("D5") is PINK
    assert game.to_move is BLUE
    return game


def _refused(game: Game, action: Callable[[], object], error: type[Exception]) -> str:
    """Run ``action``; check it raises exactly ``error`` and the game is unchanged."""
    before = game_state(game)
    with pytest.raises(error) as info:
        action()
    assert game_state(game) == before
    assert isinstance(info.value, ValueError) and isinstance(info.value, DotsError)
    return str(info.value)


@pytest.mark.parametrize("text", ["hello", "7B", "B0", "", "  ", "B-7", "AAA1", "B1000", "B7!"])
def test_malformed_point(text: str) -> None:
    game = _game()
    message = _refused(game, lambda: game.place(text), InvalidPointError)
    assert not issubclass(InvalidPointError, IllegalMoveError)
    assert "is not a point" in message
    assert "like B7" in message and BOARD in message


@pytest.mark.parametrize(
    ("where", "name"),
    [("K3", "K3"), ("A11", "A11"), ("Z1", "Z1"), (Point(10, 0), "K1"), (Point(0, 10), "A11")],
)
def test_point_off_the_board(where: str | Point, name: str) -> None:
    game = _game()
    message = _refused(game, lambda: game.place(where), OffBoardError)
    assert message == f"{name} is off the board: {BOARD}"


@pytest.mark.parametrize("where", [Point(-1, 0), Point(0, -1)])
def test_negative_point_off_the_board(where: Point) -> None:
    game = _game()
    message = _refused(game, lambda: game.place(where), OffBoardError)
    assert message.endswith(f"is off the board: {BOARD}")


@pytest.mark.parametrize("name", ["D6", "J10", "D4"])  # a live dot, another, a captured dot
def test_occupied_point(name: str) -> None:
    game = _game()
    message = _refused(game, lambda: game.place(name), OccupiedError)
    assert message == f"{name} is already taken"


@pytest.mark.parametrize("name", ["D5", "C4", "E4", "D3"])
def test_point_inside_a_base(name: str) -> None:
    game = _game()
    message = _refused(game, lambda: game.place(name), InsideBaseError)
    assert message.startswith(f"{name} is inside a base")


def test_inside_own_base_also_refused() -> None:
    game = _game()
    game.place("J4")  # Blue
    assert game.to_move is PINK
    _refused(game, lambda: game.place("D5"), InsideBaseError)


def test_board_refusals_leave_the_board_unchanged() -> None:
    board = Board.from_moves(moves("B:D4 P:D6 C5 B4 C3 D2 E3 F4 E5"))
    for name, error in [
        ("K3", OffBoardError),
        ("x", InvalidPointError),
        ("D6", OccupiedError),
        ("D4", OccupiedError),
        ("D5", InsideBaseError),
    ]:
        before = state_of(board)
        with pytest.raises(error):
            board.place(name, BLUE)
        assert state_of(board) == before


def _over() -> Game:
    game = _game()
    game.end()
    game.end()
    assert game.is_over
    return game


@pytest.mark.parametrize(
    "act",
    [
        lambda g: g.place("H8"),
        lambda g: g.place("H8", PINK),
        lambda g: g.end(),
        lambda g: g.end(BLUE),
        lambda g: g.resign(PINK),
        lambda g: g.resign(BLUE),
        lambda g: g.time_out(),
    ],
)
def test_anything_after_the_game_is_over(act: Callable[[Game], object]) -> None:
    game = _over()
    message = _refused(game, lambda: act(game), GameOverError)
    assert "over" in message


def test_move_after_a_resignation_or_a_full_board() -> None:
    game = _game()
    game.resign(BLUE)
    _refused(game, lambda: game.place("H8"), GameOverError)
    small = Game(5, 5)
    while not small.is_over:
        small.place(next(small.board.free_points()))
    _refused(small, small.end, GameOverError)


def test_moving_out_of_turn() -> None:
    game = _game()  # Blue to move
    message = _refused(game, lambda: game.place("H8", PINK), NotYourTurnError)
    assert message == "it is Blue's turn, not Pink's"
    game.place("H8", BLUE)
    message = _refused(game, lambda: game.place("H7", BLUE), NotYourTurnError)
    assert message == "it is Pink's turn, not Blue's"


def test_ending_out_of_turn() -> None:
    game = _game()
    _refused(game, lambda: game.end(PINK), NotYourTurnError)
    game.end(BLUE)
    # Blue has ended: Pink plays alone, Blue may neither place nor end again.
    _refused(game, lambda: game.place("H8", BLUE), NotYourTurnError)
    _refused(game, lambda: game.end(BLUE), NotYourTurnError)


def test_stop_too_early() -> None:
    game = Game(rules="grounding")
    game.place("E5")
    message = _refused(game, game.end, StopNotAllowedError)
    assert "5" in message


def test_error_classes_are_separate() -> None:
    classes = [
        InvalidPointError,
        OffBoardError,
        OccupiedError,
        InsideBaseError,
        GameOverError,
        NotYourTurnError,
        StopNotAllowedError,
    ]
    assert len(set(classes)) == len(classes)
    for cls in classes:
        assert issubclass(cls, ValueError) and issubclass(cls, DotsError)
    for cls in classes[1:]:
        assert issubclass(cls, IllegalMoveError)
    for a in (OccupiedError, InsideBaseError, GameOverError, NotYourTurnError):
        for b in (OccupiedError, InsideBaseError, GameOverError, NotYourTurnError):
            assert a is b or not issubclass(a, b)


def test_each_refusal_carries_what_went_wrong_as_fields() -> None:
    game = _game()
    with pytest.raises(OccupiedError) as taken:
        game.place("D6")
    assert taken.value.point == Point.parse("D6")
    with pytest.raises(InsideBaseError) as inside:
        game.place("D5")
    assert inside.value.point == Point.parse("D5")
    with pytest.raises(OffBoardError) as off:
        game.place("K1")
    assert (off.value.point, off.value.width, off.value.height) == (Point(10, 0), 10, 10)
    with pytest.raises(InvalidPointError) as bad:
        game.place("Ｂ٧")
    assert (bad.value.text, bad.value.mistake) == ("B٧", PointMistake.ROW_DIGITS)
    assert bad.value.board == (10, 10)
    with pytest.raises(NotYourTurnError) as turn:
        game.place("A1", PINK)
    assert (turn.value.mover, turn.value.player) == (BLUE, PINK)
    grounding = Game(rules="grounding")
    with pytest.raises(StopNotAllowedError) as early:
        grounding.end()
    assert (early.value.needed, early.value.placed) == (5, 0)
    assert isinstance(Game().stop_preview().refusal, NoStopsError)
    with pytest.raises(UnknownOptionError) as unknown:
        Game(rules="chess")
    assert (unknown.value.option, unknown.value.text) == (Rules, "chess")
