"""One test (or a few) per numbered rule of RULES.md, named after the rule's number."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine import (
    NAMED_SIZES,
    Board,
    Game,
    GameOverError,
    InsideBaseError,
    InvalidPointError,
    NotYourTurnError,
    OccupiedError,
    OffBoardError,
    Player,
    Point,
    column_name,
    parse_size,
    sgf,
)

from .helpers import BLUE, PINK, board_of, moves, pic, rows

P = Point.parse

# A Pink ring of 4 dots around D4 (diagonal links) and a Blue dot for it to take.
DIAMOND = "P:D5 C4 E4 D3"


def _game_with(text: str, width: int = 10, height: int = 10, **kwargs: object) -> Game:
    """A game after the moves of ``text``, each made by the player named (turns checked)."""
    game = Game(width, height, **kwargs)  # type: ignore[arg-type]
    for player, point in moves(text):
        game.place(point, player)
    return game


# -- 1. Board and coordinates -----------------------------------------------------------


def test_rule_1_1_board_sizes() -> None:
    game = Game()
    assert (game.width, game.height) == (10, 10)
    for width, height in [(5, 5), (52, 52), (5, 52), (39, 32)]:
        assert (Game(width, height).width, Game(width, height).height) == (width, height)
    for width, height in [(4, 10), (10, 4), (53, 10), (10, 53), (0, 0)]:
        with pytest.raises(ValueError):
            Game(width, height)
    assert set(NAMED_SIZES) == {"10x10", "16x16", "20x20", "24x24", "30x30", "39x32"}
    for name, size in NAMED_SIZES.items():
        assert parse_size(name) == size
    with pytest.raises(ValueError):
        parse_size("4x4")
    with pytest.raises(ValueError):
        parse_size("big")


def test_rule_1_2_point_names() -> None:
    assert P("B7") == Point(1, 6)
    assert P("b7") == P("B 7") == P("  b 7 ") == Point(1, 6)
    assert P("A1") == Point(0, 0)
    assert P("Z1") == Point(25, 0)
    assert P("AA1") == Point(26, 0)
    assert P("AZ3") == Point(51, 2)
    assert Point(1, 6).name == "B7"
    assert [column_name(x) for x in (0, 25, 26, 27, 51)] == ["A", "Z", "AA", "AB", "AZ"]
    for x in range(52):
        for y in (0, 9, 51):
            assert P(Point(x, y).name) == Point(x, y)


@pytest.mark.parametrize("text", ["", "B", "7", "7B", "B0", "hello", "B-1", "B7.5", "ÄB7", "B 7 7"])
def test_rule_1_2_malformed_names_are_refused(text: str) -> None:
    with pytest.raises(InvalidPointError) as info:
        Point.parse(text, 10, 10)
    message = str(info.value)
    assert "B7" in message  # says what a point looks like
    assert "columns are A–J, rows 1–10" in message


def test_rule_1_2_off_the_board_message() -> None:
    with pytest.raises(OffBoardError) as info:
        Game().place("K3")
    assert str(info.value) == "K3 is off the board: columns are A–J, rows 1–10"
    with pytest.raises(OffBoardError) as info:
        Game(39, 32).place("AN1")
    assert str(info.value) == "AN1 is off the board: columns are A–AM, rows 1–32"
    with pytest.raises(OffBoardError):
        Game(39, 32).place("A33")
    assert Game(39, 32).board.is_free("AM32")


def test_rule_1_3_pink_moves_first() -> None:
    game = Game()
    assert game.to_move is PINK
    with pytest.raises(NotYourTurnError):
        game.place("A1", BLUE)
    game.place("A1", PINK)
    assert game.to_move is BLUE
    assert PINK.opponent is BLUE and BLUE.opponent is PINK
    assert (PINK.label, BLUE.label) == ("Pink", "Blue")


# -- 2. Moves ----------------------------------------------------------------------------


def test_rule_2_1_a_turn_is_one_dot_or_an_end() -> None:
    game = Game()
    game.place("C3")
    assert game.to_move is BLUE
    game.place("D4")
    assert game.to_move is PINK
    game.end()
    assert game.to_move is BLUE  # ending hands the turn over; no turn is skipped otherwise
    assert [a.kind for a in game.actions] == ["dot", "dot", "end"]


def test_rule_2_2_where_a_dot_may_go() -> None:
    board = board_of(7, 7, DIAMOND)
    middle = P("D4")
    # Inside an empty ring: free for both.
    assert board.is_free(middle)
    with pytest.raises(OccupiedError):
        board.place("D5", BLUE)
    with pytest.raises(OffBoardError):
        board.place("H1", BLUE)
    board.place(middle, BLUE)  # captured at once (4.4)
    with pytest.raises(OccupiedError):
        board.place(middle, PINK)
    # A base with empty points inside: nobody may play there (4.3).
    big = board_of(7, 7, "B:D4 P:D6 C5 B4 C3 D2 E3 F4 E5")
    assert big.bases and big.owner("D5") is PINK
    for player in Player:
        with pytest.raises(InsideBaseError):
            big.place("D5", player)
    assert not big.is_free("D5")


def test_rule_2_3_dots_are_never_removed() -> None:
    board = board_of(7, 7, "B:D4 P:D5 C4 E4 D3")
    assert board.dot("D4") is BLUE
    assert not board.is_live("D4")
    assert sorted(board.dots()) == sorted(
        [(P("D4"), BLUE)] + [(P(n), PINK) for n in ("D5", "C4", "E4", "D3")]
    )


# -- 3. Chains, rings and what is inside -------------------------------------------------


def test_rule_3_1_links_are_king_steps() -> None:
    # A ring of straight links around a 2x1 inside, and a ring of diagonal links: both close.
    straight = board_of(8, 8, "B:D4 P:C4 C5 D6 E5 E4 D3")
    assert straight.score(PINK) == 1
    diagonal = board_of(8, 8, "B:D4 P:D6 C5 B4 C3 D2 E3 F4 E5")
    assert diagonal.score(PINK) == 1
    # A knight's step is no link: the same shape with one dot moved a knight's step away
    # leaves a hole, and nothing is taken.
    broken = board_of(8, 8, "B:D4 P:D6 C5 B4 C3 D2 E3 F4 F6")
    assert broken.score(PINK) == 0


def test_rule_3_2_captured_dots_never_link() -> None:
    # Pink takes Blue's D5. Blue then builds D5-E6-F5-E4 around Pink's E5; with D5 captured
    # that is no ring, so E5 stays live.
    board = board_of(9, 9, "B:D5 P:C5 D6 D4 E5 B:E6 E4 F5")
    assert board.score(PINK) == 1
    assert board.score(BLUE) == 0
    assert board.is_live("E5")
    # With D5 live (no Pink base around it) the same Blue dots do take E5.
    control = board_of(9, 9, "B:D5 P:E5 B:E6 E4 F5")
    assert control.score(BLUE) == 1
    assert not control.is_live("E5")


def test_rule_3_3_diagonal_gap_holds_and_gap_of_two_leaks() -> None:
    square = ["C3", "C4", "C5", "D5", "E5", "E4", "E3", "D3"]
    # Without the corner C3, C4 and D3 are linked across the corner: the ring holds.
    corner = board_of(8, 8, "B:D4 P:" + " ".join(s for s in square if s != "C3"))
    assert corner.score(PINK) == 1
    # Without D3, C3 and E3 are two apart: D4 reaches the edge through D3.
    gap = board_of(8, 8, "B:D4 P:" + " ".join(s for s in square if s != "D3"))
    assert gap.score(PINK) == 0
    assert gap.bases == []
    assert gap.is_live("D4")


def test_rule_3_3_outer_line_is_never_inside() -> None:
    # Blue on A4 walled in by Pink on every side the board has.
    board = board_of(7, 7, "B:A4 P:A3 B3 B4 B5 A5")
    assert board.score(PINK) == 0
    assert board.is_live("A4")
    # A ring may run along the outer line and still take what is inside it.
    edge_ring = board_of(7, 7, "B:B2 P:A2 B3 C2 B1")
    assert edge_ring.score(PINK) == 1


def test_rule_3_3_no_dot_of_a_ring_is_inside_it() -> None:
    board = board_of(8, 8, "B:D4 " + DIAMOND)
    [base] = board.bases
    assert set(base.ring).isdisjoint(base.area)
    assert all(board.is_live(p) for p in base.ring)


def test_rule_3_3_a_point_sealed_by_the_rings_own_dots_is_inside() -> None:
    # The ring passes F5-E4-D5-E6 around E5 with the region on the far side; E5 cannot reach
    # the edge without stepping on those ring dots, so it is inside the ring and in the base.
    ring = "F5 E4 D5 E6 D7 C7 B6 B5 B4 C3 D2 E2 F2 G3 G4"
    board = board_of(9, 9, f"B:D3 P:{ring}")
    [base] = board.bases
    assert {P(n) for n in ring.split()} == set(base.ring)
    assert P("E5") in base.area
    assert board.owner("E5") is PINK
    assert not board.is_free("E5")


def test_rule_3_4_empty_ring() -> None:
    board = board_of(7, 7, DIAMOND)
    assert board.bases == []
    assert board.score(PINK) == board.score(BLUE) == 0
    assert board.is_free("D4")
    assert board.owner("D4") is None
    assert board.free_count == 49 - 4
    assert rows(board.picture())[3] == "..P.P.."
    # The owner of the ring may play inside it too; it changes nothing.
    own = board.copy()
    placement = own.place("D4", PINK)
    assert placement.bases == () and own.bases == [] and own.is_live("D4")


# -- 4. Capture --------------------------------------------------------------------------


def test_rule_4_1_ring_with_a_live_opponent_dot_becomes_a_base() -> None:
    # The area holds free points, the opponent's dot and Pink's own dot.
    board = board_of(9, 9, "B:C5 P:D4 P:B3 B4 B5 C6 D6 E6 F5 F4 F3 E2 D2 C2")
    assert board.score(PINK) == 1  # own dot D4 does not count (5.1)
    [base] = board.bases
    assert base.owner is PINK
    assert base.area == {Point(x, y) for x in (2, 3, 4) for y in (2, 3, 4)}
    assert board.owner("E3") is PINK and not board.is_free("E3")
    assert not board.is_live("D4")  # Pink's own dot inside is out of play too
    assert board.dot("D4") is PINK
    assert pic(board)[4:7] == [".Pb++P...", ".P+p+P...", ".P+++P..."]


def test_rule_4_1_one_dot_completes_two_bases() -> None:
    board = board_of(9, 9, "B:D5 F5 P:C5 D6 D4 F6 F4 G5")
    placement = board.place("E5", PINK)
    assert len(placement.bases) == 2
    assert board.score(PINK) == 2
    assert {frozenset(b.area) for b in board.bases} == {frozenset({P("D5")}), frozenset({P("F5")})}


def test_rule_4_2_the_smallest_ring() -> None:
    # A block of 3x3 Pink dots around Blue's middle: the ring is the 4 dots next to it, not
    # the 8 around it.
    board = board_of(7, 7, "B:D4 P:C3 C5 E3 E5 C4 D5 E4 D3")
    [base] = board.bases
    assert set(base.ring) == {P("C4"), P("D5"), P("E4"), P("D3")}
    assert board.is_live("C3") and board.is_live("E5")
    # A Pink dot linked to two neighbouring dots of the ring is part of the ring (a notch),
    # not inside it: taking it would enclose more.
    notch = board_of(9, 9, "B:D4 P:E5 P:B3 B4 B5 C6 D6 E6 F5 F4 F3 E2 D2 C2")
    [base] = notch.bases
    assert P("E5") in base.ring
    assert P("E5") not in base.area
    assert notch.is_live("E5")
    assert len(base.area) == 8


def test_rule_4_3_nobody_plays_inside_a_base() -> None:
    board = board_of(9, 9, "B:D5 P:C5 C4 D6 E5 E4 D3")
    assert board.owner("D4") is PINK
    for player in Player:
        with pytest.raises(InsideBaseError):
            board.place("D4", player)
    assert "+" in board.picture()


def test_rule_4_4_played_into_a_ring_and_the_order() -> None:
    board = board_of(7, 7, DIAMOND)
    placement = board.place("D4", BLUE)
    assert placement.bases[0].owner is PINK
    assert board.score(PINK) == 1
    # Mover first: Blue's dot in Pink's empty ring closes Blue's own ring around Pink's D5;
    # Blue's base is resolved and Pink's ring takes nothing (see also the third worked case).
    board = board_of(7, 7, DIAMOND + " B:C5 D6 E5")
    placement = board.place("D4", BLUE)
    assert [b.owner for b in placement.bases] == [BLUE]
    assert (board.score(PINK), board.score(BLUE)) == (0, 1)
    assert board.is_live("D4")
    assert not board.is_live("D5")


def test_rule_4_5_a_bigger_ring_takes_the_base() -> None:
    board = board_of(9, 9, "B:E5 P:D5 E6 F5 E4")
    assert board.score(PINK) == 1
    board = play_layer_two(board)
    assert board.score(PINK) == 0
    assert board.score(BLUE) == 4
    assert all(board.owner(p) is BLUE for p in ("E5", "D5", "E6", "F5", "E4"))
    assert [b.owner for b in board.bases] == [BLUE]


def play_layer_two(board: Board) -> Board:
    """Blue's diamond of radius 2 around E5."""
    for name in ("C5", "D6", "E7", "F6", "G5", "F4", "E3", "D4"):
        board.place(name, BLUE)
    return board


def test_rule_4_6_an_empty_ring_changes_nothing_else() -> None:
    board = board_of(7, 7, "P:D5 C4 E4")
    before = (board.score(PINK), board.score(BLUE), board.bases, board.free_count)
    placement = board.place("D3", PINK)
    assert placement.bases == () and placement.captured == ()
    assert placement.pink_gain == placement.blue_gain == 0
    assert (board.score(PINK), board.score(BLUE), board.bases) == before[:3]
    assert board.free_count == before[3] - 1


# -- 5. Score ----------------------------------------------------------------------------


def test_rule_5_1_score_counts_opponent_dots_only() -> None:
    # A ring around a 3x3 inside holding Blue's C3 and Pink's own D4.
    ring = "B3 B4 B5 C6 D6 E6 F5 F4 F3 E2 D2 C2"
    board = board_of(9, 9, f"B:C3 P:D4 P:{ring}")
    assert board.score(PINK) == 1
    assert board.score(BLUE) == 0
    [base] = board.bases
    assert len(base.area) == 9


def test_rule_5_2_three_layers() -> None:
    board = board_of(11, 11, "B:F6 P:E6 F7 G6 F5")
    assert (board.score(PINK), board.score(BLUE)) == (1, 0)
    for name in ("D6", "E7", "F8", "G7", "H6", "G5", "F4", "E5"):
        board.place(name, BLUE)
    # Blue's base swallows Pink's: Pink's 4 ring dots count for Blue, F6 for nobody.
    assert (board.score(PINK), board.score(BLUE)) == (0, 4)
    for name in ("C6", "D7", "E8", "F9", "G8", "H7", "I6", "H5", "G4", "F3", "E4", "D5"):
        board.place(name, PINK)
    # Pink's base swallows Blue's: F6 and Blue's 8 ring dots count for Pink.
    assert (board.score(PINK), board.score(BLUE)) == (9, 0)
    assert [b.owner for b in board.bases] == [PINK]
    # Released dots stay out of play.
    assert not any(board.is_live(n) for n in ("F6", "E6", "D6", "E5"))


def test_rule_5_3_higher_score_wins_equal_is_a_draw() -> None:
    game = _game_with("P:D5 B:D4 P:C4 B:A1 P:E4 B:A2 P:D3")
    assert game.score(PINK) == 1
    game.end()
    game.end()
    assert game.result is not None
    assert game.winner is PINK
    assert (game.result.pink, game.result.blue, game.result.reason) == (1, 0, "ended")
    assert game.result.describe() == "Pink wins 1–0 (both ended)"
    draw = Game()
    draw.end()
    draw.end()
    assert draw.is_over and draw.winner is None
    assert draw.result is not None and draw.result.describe() == "Draw 0–0 (both ended)"


# -- 6. Ending ---------------------------------------------------------------------------


def test_rule_6_1_ending_is_final_but_keeps_the_score() -> None:
    game = _game_with("P:D5 B:D4 P:C4 B:A1 P:E4 B:A2 P:D3 B:A3")
    game.end(PINK)
    assert not game.is_over
    assert game.ended == {PINK}
    assert game.score(PINK) == 1
    assert game.to_move is BLUE
    with pytest.raises(NotYourTurnError):
        game.place("H8", PINK)
    with pytest.raises(NotYourTurnError):
        game.end(PINK)


def test_rule_6_2_the_other_plays_alone_and_rings_still_take() -> None:
    game = _game_with("P:D5 B:A1 P:C4 B:A2 P:E4 B:A3 P:D3 B:A4")
    game.end(PINK)
    for name in ("H8", "H7", "H6"):
        assert game.to_move is BLUE
        game.place(name, BLUE)
    game.place("D4", BLUE)  # into Pink's empty ring
    assert game.score(PINK) == 1
    assert game.to_move is BLUE
    game.end(BLUE)
    assert game.is_over and game.winner is PINK


def test_rule_6_3_over_when_both_ended() -> None:
    game = Game()
    game.place("A1")
    game.end()
    assert not game.is_over
    game.place("B2")
    assert not game.is_over
    game.end()
    assert game.is_over and game.to_move is None
    assert game.result is not None and game.result.reason == "ended"


def test_rule_6_3_over_when_no_free_point_is_left() -> None:
    # Blue's C3 inside a Pink base with the empty C4 beside it: C4 is not free, so the board
    # is full before every point holds a dot.
    game = Game(5, 5)
    for name in ("B3", "C3", "B4", "A1", "C5", "A2", "D4", "A3", "D3", "A4", "C2"):
        game.place(name)
    assert game.board.owner("C4") is PINK
    while not game.is_over:
        assert game.board.free_count > 0
        point = next(game.board.free_points())
        game.place(point)
    assert game.board.free_count == 0
    assert game.result is not None and game.result.reason == "board full"
    assert game.board.dot("C4") is None


def test_rule_6_4_resign() -> None:
    game = _game_with("P:D5 B:D4 P:C4 B:A1 P:E4 B:A2 P:D3")
    assert game.score(PINK) == 1
    game.resign(PINK)  # at any time, even on the other's turn
    assert game.is_over and game.winner is BLUE
    assert game.result is not None and game.result.reason == "resigned"
    with pytest.raises(GameOverError):
        game.resign(BLUE)


def test_a_draw_by_agreement_ends_the_game_drawn_whatever_the_score() -> None:
    game = _game_with("P:D5 B:D4 P:C4 B:A1 P:E4 B:A2 P:D3")
    assert game.score(PINK) == 1
    game.agree_draw(BLUE)  # Blue accepts Pink's offer, on its own turn or not
    assert game.is_over and game.winner is None
    assert game.result is not None and game.result.reason == "agreement"
    assert game.result.describe() == "Draw 1–0 (by agreement)"
    assert game.actions[-1].kind == "draw"
    game.pop()  # undone by its journal like any action
    assert not game.is_over and game.score(PINK) == 1
    game.agree_draw(PINK)
    with pytest.raises(GameOverError):
        game.agree_draw(BLUE)


# -- 7. Clock (the engine's part: whose clock runs, and what a time-out is) --------------


def test_rule_7_1_the_clock_follows_the_player_to_move() -> None:
    game = Game()
    game.place("A1")
    game.end()  # Blue ends
    assert game.to_move is PINK
    game.place("B1")
    assert game.to_move is PINK  # still Pink's clock: Pink plays alone


def test_rule_7_2_a_time_out_is_an_end() -> None:
    game = _game_with("P:D5 B:D4 P:C4 B:A1 P:E4 B:A2 P:D3")
    game.time_out()  # Blue's time runs out
    assert not game.is_over and game.ended == {BLUE} and game.to_move is PINK
    game.place("H8")
    game.time_out()
    assert game.is_over
    assert game.result is not None
    assert (game.result.reason, game.winner) == ("time", PINK)


def test_rule_7_2_a_time_out_is_a_stop_under_grounding_rules() -> None:
    game = Game(9, 9, rules="grounding")
    for name in ("E5", "A1", "E6", "A2", "E4", "A3", "D5", "A4", "F5"):
        game.place(name)
    game.time_out()  # Blue: every Blue dot is on the outer line, nothing handed over
    assert game.is_over and game.handed_over == ()
    assert game.result is not None and game.result.reason == "time"


# -- 8. Grounding rules ------------------------------------------------------------------


def test_rule_8_1_grounded_and_the_crossed_diagonal() -> None:
    board = board_of(7, 7, "P:A3 B3 C4 B:A5 B4")
    assert board.is_grounded("A3") and board.is_grounded("B3") and board.is_grounded("C4")
    assert board.is_grounded("B4")
    board.place("C3", BLUE)  # crosses Pink's B3-C4 link, and is crossed by it
    assert board.is_grounded("B3")
    assert not board.is_grounded("C4")
    assert not board.is_grounded("C3")
    assert board.is_grounded("B4")
    assert board.ungrounded(PINK) == [P("C4")]
    assert board.ungrounded(BLUE) == [P("C3")]
    # A captured dot is not grounded, and a free point is not.
    taken = board_of(7, 7, "B:B2 P:A2 B3 C2 B1")
    assert not taken.is_grounded("B2")
    assert not taken.is_grounded("E5")


def test_rule_8_2_stop_hands_over_the_ungrounded_dots() -> None:
    game = Game(9, 9, rules="grounding")
    for name in ("E5", "A1", "E6", "A2", "E4", "A3", "D5", "A4"):
        game.place(name)
    preview = game.stop_preview()
    assert not preview.allowed  # Pink has placed 4 dots
    game.place("F5")
    game.place("A5")
    preview = game.stop_preview()
    assert preview.allowed and preview.player is PINK
    assert set(preview.dots) == {P(n) for n in ("E5", "E6", "E4", "D5", "F5")}
    assert (preview.pink, preview.blue) == (0, 5)
    assert preview.loses
    assert not game.is_over  # a preview changes nothing
    game.end()
    assert game.is_over
    assert set(game.handed_over) == set(preview.dots)
    assert (game.score(PINK), game.score(BLUE)) == (0, 5)
    assert game.result is not None
    assert (game.result.reason, game.winner) == ("stop", BLUE)


# -- 9. Starting positions ---------------------------------------------------------------


def _from_top(x: int, row: int, height: int) -> Point:
    return Point(x, height - 1 - row)


def test_rule_9_1_cross() -> None:
    game = Game(39, 32, start="cross")
    dots = {(player, point.name) for player, point in game.record.start_dots}
    assert dots == {(PINK, "S17"), (PINK, "T16"), (BLUE, "S16"), (BLUE, "T17")}
    for player, name in dots:
        assert game.board.dot(name) is player and game.board.is_live(name)
    w2, h2 = 5, 5
    small = Game(10, 10, start="cross")
    assert set(small.record.start_dots) == {
        (PINK, _from_top(w2 - 1, h2 - 1, 10)),
        (PINK, _from_top(w2, h2, 10)),
        (BLUE, _from_top(w2 - 1, h2, 10)),
        (BLUE, _from_top(w2, h2 - 1, 10)),
    }


@pytest.mark.parametrize("size", [(10, 10), (39, 32), (15, 11)])
def test_rule_9_2_double_and_triple_cross(size: tuple[int, int]) -> None:
    width, height = size
    w2, h2 = width // 2, height // 2

    def at(dx: int, dy: int) -> Point:
        return _from_top(w2 + dx, h2 + dy, height)

    double = Game(width, height, start="double-cross")
    assert set(double.record.start_dots) == {
        (PINK, at(-2, -1)), (PINK, at(-1, 0)), (PINK, at(0, 0)), (PINK, at(1, -1)),
        (BLUE, at(-2, 0)), (BLUE, at(-1, -1)), (BLUE, at(0, -1)), (BLUE, at(1, 0)),
    }  # fmt: skip
    triple = Game(width, height, start="triple-cross")
    assert set(triple.record.start_dots) == {
        (PINK, at(-1, -1)), (PINK, at(0, 0)), (PINK, at(1, -1)), (PINK, at(0, 1)),
        (BLUE, at(-1, 0)), (BLUE, at(0, -1)), (BLUE, at(0, -2)), (BLUE, at(1, 0)),
    }  # fmt: skip
    for game in (double, triple):
        assert game.score(PINK) == game.score(BLUE) == 0
        assert all(game.board.is_live(p) for _, p in game.record.start_dots)


@pytest.mark.parametrize("seed", range(8))
def test_rule_9_2_four_crosses(seed: int) -> None:
    width, height = 39, 32
    game = Game(width, height, start="four-crosses", seed=seed)
    dots = game.record.start_dots
    assert len(dots) == 16
    assert sum(1 for p, _ in dots if p is PINK) == 8
    # Group into crosses: each is a 2x2 block, Pink on one diagonal and Blue on the other.
    points = {p: player for player, p in dots}
    corners = [
        p
        for p in points
        if Point(p.x + 1, p.y) in points
        and Point(p.x, p.y + 1) in points
        and Point(p.x + 1, p.y + 1) in points
    ]
    assert len(corners) == 4
    for c in corners:
        # Rule 9.1 with rows from the top: Pink top-left and bottom-right.
        assert points[Point(c.x, c.y + 1)] is PINK and points[Point(c.x + 1, c.y)] is PINK
        assert points[c] is BLUE and points[Point(c.x + 1, c.y + 1)] is BLUE
    for a in corners:
        for b in corners:
            if a != b:
                # no two touching: their 2x2 blocks are not neighbours
                assert abs(a.x - b.x) >= 3 or abs(a.y - b.y) >= 3
    for p in points:
        assert width // 4 <= p.x < width - width // 4
        row = height - 1 - p.y
        assert height // 4 <= row < height - height // 4
    assert Game(width, height, start="four-crosses", seed=seed).record == game.record
    assert Game.replay(game.record).record.start_dots == dots


def test_rule_9_3_starting_dots_are_not_moves() -> None:
    game = Game(start="cross")
    assert game.actions == ()
    assert game.to_move is PINK
    assert game.last_move is None
    assert game.dots_placed(PINK) == game.dots_placed(BLUE) == 0
    assert game.board.free_count == 100 - 4


# -- 10. Game records --------------------------------------------------------------------


def test_rule_10_1_replay_reproduces_the_position() -> None:
    game = _game_with("P:B3 B:B2 P:A2 B:H9 P:C2 B:H8 P:B1", start="cross")
    assert game.score(PINK) == 1
    game.end()
    game.place("J1")
    game.resign(PINK)
    again = Game.replay(game.record)
    assert again.board.picture() == game.board.picture()
    assert again.result == game.result
    assert again.record == game.record
    assert again.score(PINK) == game.score(PINK) == 1


def test_rule_10_2_sgf_form() -> None:
    game = _game_with("P:B3 B:B2 P:A2 B:H9 P:C2 B:H8 P:B1", start="cross")
    game.resign(BLUE)
    text = sgf.dumps(game, pink="Ann", blue="Bob")
    for part in ("FF[4]", "GM[40]", "SZ[10:10]", "PW[Ann]", "PB[Bob]", "RE[W+R]", "AW[", "AB["):
        assert part in text
    # Pink is W: her first dot B3 is column b, row 10 - 3 = 7 from the top (0-based): "bh".
    assert ";W[bh]" in text
    assert ";B[bi]" in text
    again = sgf.loads(text)
    assert again.board.picture() == game.board.picture()
    assert again.winner is PINK


def test_pictures_read_like_the_game() -> None:
    """The picture language of ``Board.picture`` that the other tests rely on."""
    board = board_of(5, 5, "B:C3 P:C4 B2 D2 C2 P:B3 D3")
    assert pic(board) == [".....", "..P..", ".PbP.", ".PPP.", "....."]


def test_every_numbered_rule_has_a_test() -> None:
    """The project's copy of the rules (docs/RULES.md) against the test names above."""
    rules = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
    numbers = set(re.findall(r"^- \*\*(\d+)\.(\d+)", rules.read_text(encoding="utf-8"), re.M))
    assert len(numbers) >= 32  # the regex still finds them all
    names = set(globals())
    missing = [
        f"{a}.{b}"
        for a, b in sorted(numbers)
        if not any(n.startswith(f"test_rule_{a}_{b}_") for n in names)
    ]
    assert missing == []


def test_rule_9_2_four_crosses_that_cannot_fit_are_refused() -> None:
    with pytest.raises(ValueError, match="four crosses do not fit"):
        Game(5, 5, start="four-crosses", seed=1)
    for seed in range(5):
        assert len(Game(10, 10, start="four-crosses", seed=seed).record.start_dots) == 16
