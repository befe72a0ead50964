"""Taking moves back: ``Game.pop`` and ``Board.undo`` by journal.

Random games are pushed to their end, then popped one action at a time; after every pop the
game must be exactly the game replayed from the shortened record, down to the engine's arrays.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import Action, Board, Game, Player, Point, Record

from .helpers import BLUE, PINK, board_of, game_state, rows

SETTINGS = settings(deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow])


def full_state(game: Game) -> tuple[object, ...]:
    """Everything about a game, what players see and the board's internal arrays alike."""
    board = game.board
    return (
        game_state(game),
        tuple(sorted(board.free_points())),
        tuple(sorted(board.grounded(PINK))),
        tuple(sorted(board.grounded(BLUE))),
        game.handed_over,
        game.dots_placed(PINK),
        game.dots_placed(BLUE),
        game.last_placement,
        game.actions,
        bytes(board._live),
        bytes(board._dot),
        bytes(board._owner),
        tuple(board._chain),
        tuple(board._score),
    )


def random_action(rng: random.Random, game: Game, recent: list[Point]) -> None:
    """Take one legal action at random: mostly a dot near the last ones, now and then an end,
    a time-out or a resignation."""
    mover = game.to_move
    assert mover is not None
    roll = rng.random()
    if roll < 0.01:
        game.resign(rng.choice([PINK, BLUE]))
        return
    if roll < 0.03 and (game.stop_preview(mover).allowed or game.rules == "standard"):
        game.end(mover)
        return
    if roll < 0.035:
        game.time_out()
        return
    board = game.board
    near = [
        Point(c.x + dx, c.y + dy)
        for c in recent[-4:]
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if board.is_free(Point(c.x + dx, c.y + dy))
    ]
    point = (
        rng.choice(near) if near and rng.random() < 0.8 else rng.choice(list(board.free_points()))
    )
    game.place(point, mover)
    recent.append(point)


def replayed(record: Record, actions: int) -> Game:
    """The game of ``record``'s first ``actions`` actions, rebuilt from scratch."""
    return Game.replay(
        Record(
            record.width,
            record.height,
            record.rules,
            record.start,
            record.start_dots,
            record.actions[:actions],
        )
    )


@SETTINGS
@given(
    width=st.integers(5, 14),
    height=st.integers(5, 14),
    rules=st.sampled_from(["standard", "grounding"]),
    start=st.sampled_from(["empty", "cross", "double-cross", "triple-cross"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_popping_every_action_gives_back_each_earlier_game(
    width: int, height: int, rules: str, start: str, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game(width, height, rules=rules, start=start)
    states = [full_state(game)]
    recent: list[Point] = []
    while not game.is_over:
        random_action(rng, game, recent)
        states.append(full_state(game))
    record = game.record
    for count in range(len(record.actions), 0, -1):
        popped = game.pop()
        assert popped == record.actions[count - 1]
        assert full_state(game) == states[count - 1]
        assert full_state(game) == full_state(replayed(record, count - 1))
    with pytest.raises(IndexError):
        game.pop()


@SETTINGS
@given(
    size=st.integers(6, 16),
    rules=st.sampled_from(["standard", "grounding"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_game_played_on_after_pops_is_the_game_of_its_record(
    size: int, rules: str, seed: int
) -> None:
    rng = random.Random(seed)
    game = Game(size, size, rules=rules)
    recent: list[Point] = []
    for _ in range(3):
        while not game.is_over:
            random_action(rng, game, recent)
        for _ in range(rng.randrange(1, len(game.actions) + 1)):
            game.pop()
        recent = [a.point for a in game.actions if a.point is not None]
        assert full_state(game) == full_state(Game.replay(game.record))
    while not game.is_over:
        random_action(rng, game, recent)
    assert full_state(game) == full_state(Game.replay(game.record))


def test_undo_gives_back_a_capture() -> None:
    # Pink surrounds a Blue dot; undoing Pink's last dot frees it again.
    board = board_of(5, 5, "P:C4 B:C3 P:B3 P:C2")
    before = board.picture()
    board.place("D3", PINK)
    assert board.score(PINK) == 1 and board.owner("C3") is PINK and len(board.bases) == 1
    assert board.undo() == Point.parse("D3")
    assert board.picture() == before
    assert (board.score(PINK), board.owner("C3"), board.bases, board.free_count) == (
        0,
        None,
        [],
        21,
    )
    assert board.is_free("D3") and board.is_live("C3")


def test_undo_of_a_dot_played_into_an_empty_ring() -> None:
    board = board_of(5, 5, "P:C4 P:B3 P:D3 P:C2")
    board.place("C3", BLUE)  # rule 4.4: Pink's empty ring becomes a base around it
    assert board.score(PINK) == 1
    board.undo()
    assert rows(board.picture()) == rows(board_of(5, 5, "P:C4 P:B3 P:D3 P:C2").picture())
    assert board.score(PINK) == 0 and board.is_free("C3") and board.owner("C3") is None


def test_pop_takes_back_the_end_of_a_game() -> None:
    game = Game(10, 10, rules="grounding")
    for name in ("A1", "J10", "A2", "J9", "A3", "J8", "A4", "J7", "E5", "F5"):
        game.place(name)
    game.end()
    assert game.is_over and game.result is not None and game.handed_over == (Point.parse("E5"),)
    assert game.pop() == Action("end", PINK)
    assert not game.is_over and game.to_move is PINK and game.handed_over == ()
    assert (game.score(PINK), game.score(BLUE)) == (0, 0)
    game.resign(BLUE)
    assert game.pop() == Action("resign", BLUE) and game.result is None
    assert game.pop() == Action("dot", BLUE, Point.parse("F5"))
    assert game.to_move is BLUE and game.dots_placed(BLUE) == 4
    assert game.last_move == Point.parse("E5")


def test_a_copy_keeps_its_own_journal() -> None:
    board = Board(6, 6)
    board.place("A1", PINK)
    copy = board.copy()
    copy.place("B2", BLUE)
    assert copy.undo() == Point.parse("B2") and copy.undo() == Point.parse("A1")
    assert board.dot("A1") is PINK and board.dot("B2") is None and not list(copy.dots())
    assert board.undo() == Point.parse("A1")


def test_pop_with_nothing_to_take_back() -> None:
    game = Game(10, 10, start="cross")
    with pytest.raises(IndexError):
        game.pop()
    assert len(list(game.board.dots())) == 4
    with pytest.raises(IndexError):
        Board(5, 5).undo()


@pytest.mark.parametrize("player", list(Player))
def test_pop_after_a_time_out(player: Player) -> None:
    game = Game(10, 10)
    if player is BLUE:
        game.place("E5")
    game.time_out()
    game.pop()
    assert game.to_move is player and not game.ended
