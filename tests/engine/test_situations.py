"""The situations players argue about, beyond the worked cases."""

from __future__ import annotations

import pytest

from engine import Board, Game, Point, StopNotAllowedError

from .helpers import (
    BLUE,
    PINK,
    SYMMETRIES,
    board_of,
    game_state,
    moves,
    pic,
    transform,
    transform_moves,
    transform_picture,
)

P = Point.parse


def _diamond(centre: str, radius: int, size: int = 11) -> list[str]:
    """The points at |dx| + |dy| == radius from ``centre``: a ring of diagonal links."""
    c = P(centre)
    return [
        Point(c.x + dx, c.y + dy).name
        for dx in range(-radius, radius + 1)
        for dy in range(-radius, radius + 1)
        if abs(dx) + abs(dy) == radius and 0 <= c.x + dx < size and 0 <= c.y + dy < size
    ]


def _within(centre: str, radius: int) -> set[Point]:
    c = P(centre)
    return {
        Point(c.x + dx, c.y + dy)
        for dx in range(-radius, radius + 1)
        for dy in range(-radius, radius + 1)
        if abs(dx) + abs(dy) <= radius
    }


def _pink(points: list[str]) -> str:
    return "P:" + " ".join(points)


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_diagonal_gap_holds_gap_of_two_leaks(sym: tuple[bool, bool, bool]) -> None:
    size = 8
    square = ["C3", "C4", "C5", "D5", "E5", "E4", "E3", "D3"]
    for missing, holds in (("C3", True), ("D3", False), ("E5", True), ("C4", False)):
        seq = moves("B:D4 " + _pink([s for s in square if s != missing]))
        board = Board.from_moves(transform_moves(seq, sym, size, size), size, size)
        assert board.score(PINK) == (1 if holds else 0), missing
        assert board.is_live(transform(P("D4"), sym, size, size)) is not holds


def test_empty_ring_takes_nothing_and_its_middle_is_free_for_both() -> None:
    board = board_of(7, 7, "P:D5 C4 E4 D3")
    assert board.bases == [] and board.score(PINK) == 0
    assert board.is_free("D4")
    mine = board.copy()
    mine.place("D4", PINK)
    assert mine.bases == [] and mine.is_live("D4")
    theirs = board.copy()
    theirs.place("D4", BLUE)
    assert theirs.score(PINK) == 1 and not theirs.is_live("D4")
    # The copies did not touch the original.
    assert board.is_free("D4")


def test_mover_first_in_a_game() -> None:
    # The third worked case, played as a game with turns.
    game = Game(7, 7)
    for name in ("D5", "E5", "C4", "F4", "E4", "E3", "D3"):
        game.place(name)
    assert game.to_move is BLUE
    game.place("D4")
    assert (game.score(PINK), game.score(BLUE)) == (0, 1)
    assert game.last_placement is not None
    assert [b.owner for b in game.last_placement.bases] == [BLUE]


def test_nested_empty_rings_the_innermost_takes() -> None:
    inner, outer = _diamond("F6", 1), _diamond("F6", 4)
    board = board_of(11, 11, _pink(inner + outer))
    assert board.bases == []
    placement = board.place("F6", BLUE)
    [base] = placement.bases
    assert base.owner is PINK and base.area == {P("F6")}
    assert set(base.ring) == {P(n) for n in inner}
    assert board.is_free("F8")  # between the rings: still free
    assert board.score(PINK) == 1
    # A dot between the rings is taken by the outer ring, which swallows the inner base.
    placement = board.place("F8", BLUE)
    [base] = placement.bases
    assert base.area == _within("F6", 3)
    assert board.score(PINK) == 2
    assert [set(b.ring) for b in board.bases] == [{P(n) for n in outer}]
    assert not any(board.is_live(n) for n in inner)


def test_the_outer_ring_takes_when_the_inner_is_not_around_the_dot() -> None:
    inner, outer = _diamond("F6", 1), _diamond("F6", 4)
    board = board_of(11, 11, _pink(inner + outer))
    board.place("F8", BLUE)
    [base] = board.bases
    assert base.area == _within("F6", 3)
    assert board.owner("F6") is PINK and not board.is_free("F6")


def test_one_dot_two_bases_with_a_shared_border() -> None:
    board = board_of(9, 9, "B:D5 F5 P:C5 C6 D7 D4 G5 G6 F7 F4 E5")
    assert board.bases == []
    placement = board.place("E6", PINK)
    assert len(placement.bases) == 2
    assert board.score(PINK) == 2
    areas = {frozenset(b.area) for b in board.bases}
    assert areas == {frozenset({P("D5"), P("D6")}), frozenset({P("F5"), P("F6")})}
    for base in board.bases:
        assert {P("E5"), P("E6")} <= set(base.ring)
    assert board.is_live("E5") and board.is_live("E6")
    assert pic(board)[1:6] == [
        ".........",
        "...P.P...",
        "..P+P+P..",
        "..PbPbP..",
        "...P.P...",
    ]


def test_one_dot_two_bases_with_a_shared_dot() -> None:
    board = board_of(9, 9, "B:D5 F5 P:C5 D6 D4 F6 F4 G5")
    placement = board.place("E5", PINK)
    assert len(placement.bases) == 2
    assert placement.captured == (P("D5"), P("F5"))
    assert board.score(PINK) == 2


def test_a_base_inside_a_bigger_empty_ring() -> None:
    board = board_of(11, 11, "B:F6 " + _pink(_diamond("F6", 1)))
    assert board.score(PINK) == 1
    board = board_of(11, 11, "B:F6 " + _pink(_diamond("F6", 1) + _diamond("F6", 4)))
    # The outer ring holds no live Blue dot (F6 is captured): an empty ring.
    assert len(board.bases) == 1
    assert board.score(PINK) == 1
    assert board.is_free("F8") and board.owner("F8") is None
    board.place("F8", BLUE)
    assert board.score(PINK) == 2
    assert len(board.bases) == 1
    assert board.bases[0].area == _within("F6", 3)


def test_an_empty_ring_inside_a_new_base_becomes_part_of_it() -> None:
    blue_ring = _diamond("F6", 1)
    board = board_of(11, 11, "B:" + " ".join(blue_ring))
    assert board.bases == [] and board.is_free("F6")
    for name in _diamond("F6", 3):
        board.place(name, PINK)
    [base] = board.bases
    assert base.owner is PINK
    assert base.area == _within("F6", 2)
    assert board.score(PINK) == 4
    assert board.owner("F6") is PINK
    assert not board.is_free("F6")
    assert not any(board.is_live(n) for n in blue_ring)


def test_bigger_ring_around_a_base_three_layers_picture() -> None:
    board = board_of(11, 11, "B:F6 " + _pink(_diamond("F6", 1)))
    for name in _diamond("F6", 2):
        board.place(name, BLUE)
    assert (board.score(PINK), board.score(BLUE)) == (0, 4)
    for name in _diamond("F6", 3):
        board.place(name, PINK)
    assert (board.score(PINK), board.score(BLUE)) == (9, 0)
    assert pic(board)[1:10] == [
        "...........",
        ".....P.....",
        "....PbP....",
        "...PbpbP...",
        "..PbpbpbP..",
        "...PbpbP...",
        "....PbP....",
        ".....P.....",
        "...........",
    ]


def test_captured_dots_never_form_rings() -> None:
    # Blue's four dots around E4 would be a ring, but Pink has already taken two of them.
    board = board_of(9, 9, "B:D4 F4 P:C4 D5 D3 G4 F5 F3 E4")
    assert board.score(PINK) == 2
    board.place("E5", BLUE)
    board.place("E3", BLUE)
    # D4-E5-F4-E3 around Pink's E4: D4 and F4 are captured, so no ring, nothing taken.
    assert board.score(BLUE) == 0
    assert board.is_live("E4")


@pytest.mark.parametrize("sym", SYMMETRIES)
def test_outer_line_points_are_never_captured(sym: tuple[bool, bool, bool]) -> None:
    size = 6
    # Blue fills the whole first column and Pink walls it in from the inside.
    seq = moves("B:A1 A2 A3 A4 A5 A6 P:B1 B2 B3 B4 B5 B6")
    board = Board.from_moves(transform_moves(seq, sym, size, size), size, size)
    assert board.score(PINK) == board.score(BLUE) == 0
    assert board.bases == []
    expected = "\n".join("BP...." for _ in range(size))
    assert pic(board) == transform_picture(expected, sym)


def test_a_game_after_one_player_ends() -> None:
    game = Game(7, 7)
    game.place("A1")
    game.place("G7")
    game.end()  # Pink ends
    for name in ("B2", "C3", "D4", "E5"):
        assert game.to_move is BLUE
        game.place(name, BLUE)
    assert [a.player for a in game.actions[-4:]] == [BLUE] * 4
    assert not game.is_over
    game.end()
    assert game.is_over and game.result is not None and game.result.reason == "ended"


def test_the_game_ends_when_the_board_fills_even_after_an_end() -> None:
    game = Game(5, 5)
    game.place("C3")
    game.end()  # Blue ends at once; Pink fills the board alone
    while not game.is_over:
        assert game.to_move is PINK
        game.place(next(game.board.free_points()))
    assert game.result is not None and game.result.reason == "board full"
    assert game.board.free_count == 0


def test_stop_with_a_crossed_diagonal_link() -> None:
    game = Game(7, 7, rules="grounding")
    for name in ("A3", "B4", "B3", "C3", "C4", "A7", "A1", "G7", "A2", "G6"):
        game.place(name)
    assert game.to_move is PINK and game.dots_placed(PINK) == 5
    # C4 hangs on B3 by a diagonal link crossed by Blue's B4-C3: it is not grounded.
    preview = game.stop_preview()
    assert preview.allowed
    assert preview.dots == (P("C4"),)
    assert (preview.pink, preview.blue) == (0, 1)
    assert preview.loses
    game.end()
    assert game.handed_over == (P("C4"),)
    assert game.winner is BLUE
    assert game.result is not None and game.result.reason == "stop"


def test_stop_not_allowed_before_five_dots_and_nothing_changes() -> None:
    game = Game(7, 7, rules="grounding")
    for name in ("D4", "A1", "D5", "A2", "D3", "A3", "C4"):
        game.place(name)
    assert game.to_move is BLUE and game.dots_placed(BLUE) == 3
    preview = game.stop_preview()
    assert not preview.allowed and preview.reason
    before = game_state(game)
    with pytest.raises(StopNotAllowedError) as info:
        game.end()
    assert "5" in str(info.value)
    assert game_state(game) == before
    # Pink's preview (not her turn) shows her four ungrounded dots.
    pink = game.stop_preview(PINK)
    assert set(pink.dots) == {P("D4"), P("D5"), P("D3"), P("C4")}
    assert not pink.allowed  # four dots placed


def test_stop_that_hands_over_nothing_and_wins() -> None:
    game = Game(7, 7, rules="grounding")
    for name in ("D4", "A1", "D5", "A2", "D3", "A3", "C4", "A4", "E4"):
        game.place(name)
    game.place("A5")  # Blue
    # Pink's E4 closed no ring; Blue has every dot on the outer line. Blue stops next turn.
    game.place("G7")
    preview = game.stop_preview()
    assert preview.player is BLUE and preview.allowed
    assert preview.dots == ()
    assert not preview.loses
    game.end()
    assert game.is_over and game.winner is None
    assert game.result is not None and game.result.reason == "stop"


def test_standard_rules_have_no_stop_preview() -> None:
    game = Game()
    for name in ("A1", "A2", "B1", "B2", "C1", "C2", "D1", "D2", "E1", "E2"):
        game.place(name)
    assert not game.stop_preview().allowed
