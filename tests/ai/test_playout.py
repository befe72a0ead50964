"""Playouts, candidates and the one-move looks: what the search is built on."""

from __future__ import annotations

import random

from ai.field import Field
from ai.playout import Policy, playout, urgent_answer
from ai.search import candidates
from ai.tactics import fill_alone, gains, threats
from engine import Board, Player, Point


def random_field(rng: random.Random, dots: int, size: int = 8) -> Field:
    """A field after ``dots`` random legal dots, alternating from Pink."""
    board = Board(size, size)
    player = Player.PINK
    for _ in range(dots):
        free = list(board.free_points())
        if not free:
            break
        board.place(rng.choice(free), player)
        player = player.opponent
    return Field.from_board(board)


def field_after(moves: list[tuple[Player, str]], size: int = 10) -> Field:
    """A field after the named dots."""
    return Field.from_board(Board.from_moves(moves, size, size))


RING = [(Player.PINK, p) for p in ("D5", "C4", "E4", "D3")]  # Pink's empty ring round D4


def test_playouts_never_throw_dots_into_rings() -> None:
    # Playing alone, the only way the idle opponent's score can rise is a dot played into one
    # of its rings (rule 4.4): the policy must never do that, urgent answers included.
    rng = random.Random(2)
    for n in range(40):
        field = random_field(rng, rng.randrange(10, 50))
        player = 1 + n % 2
        before = field.score[3 - player]
        policy = Policy(urgent=0.5 * (n % 3))
        playout(field, player, alone=True, rng=rng, policy=policy)
        assert field.score[3 - player] <= before
    field = field_after(RING, 7)
    playout(field, 2, alone=True, rng=random.Random(3), policy=Policy())
    assert field.score[1] == 0


def test_playout_alone_fills_every_safe_point_and_records_its_dots() -> None:
    field = Field(6, 6)
    played: list[int] = []
    moves = playout(field, 1, alone=True, rng=random.Random(4), policy=Policy(), played=played)
    assert moves == 36 and field.free == 0
    assert sorted(code >> 2 for code in played) == sorted(
        i for i in range(len(field.live)) if field.dot[i] == 1
    )
    assert {code & 3 for code in played} == {1}


def test_depth_caps_a_playout() -> None:
    field = Field(10, 10)
    moves = playout(field, 1, alone=False, rng=random.Random(5), policy=Policy(depth=7))
    assert moves == 7 and field.free == 93


def test_urgent_answers_take_first_then_block() -> None:
    # Blue's E5 walled in on three sides by Pink: E4 takes it.
    moves = [(Player.PINK, "E6"), (Player.BLUE, "E5"), (Player.PINK, "D5"), (Player.PINK, "F5")]
    field = field_after(moves)
    e4 = field.index(Point.parse("E4"))
    last = field.index(Point.parse("F5"))
    assert urgent_answer(field, last, 1) == e4  # Pink takes
    assert urgent_answer(field, last, 2) == e4  # Blue blocks, saving E5
    assert urgent_answer(field, field.index(Point.parse("E6")), 1) == -1  # E4 is not next to E6


def test_candidates_stay_near_the_dots_and_skip_suicide() -> None:
    field = field_after(RING)
    found = {Board(10, 10).point_at(i).name for i in candidates(field, 2)}
    assert "D4" not in found
    assert {"B2", "F6", "D7", "B4"} <= found
    assert "J10" not in found and "H4" not in found
    assert "D4" in {Board(10, 10).point_at(i).name for i in candidates(field, 1)}


def test_gains_threats_and_fill_alone() -> None:
    moves = [(Player.PINK, "E6"), (Player.BLUE, "E5"), (Player.PINK, "D5"), (Player.PINK, "F5")]
    field = field_after(moves)
    e4 = field.index(Point.parse("E4"))
    assert gains(field, 1, field.free_indices()) == {e4: 1}
    assert threats(field, 2) == {e4: 1}
    assert threats(field, 1) == {}
    # Filling alone, Pink takes E5 (Blue's only dot); Blue takes Pink's three inner dots.
    assert fill_alone(field, 1).score[1] == 1
    assert fill_alone(field, 2).score[2] == 3
