"""SGF records as the Dots community tools write them (rule 10.2)."""

from __future__ import annotations

import pytest

from engine import DotsError, Game, Point, sgf

from .helpers import BLUE, PINK, moves, pic

P = Point.parse


def _same(a: Game, b: Game) -> None:
    assert a.board.picture() == b.board.picture()
    assert (a.score(PINK), a.score(BLUE)) == (b.score(PINK), b.score(BLUE))
    # The starting dots are a set (rule 9.3: they are not moves); SGF groups them by colour.
    assert set(a.record.start_dots) == set(b.record.start_dots)
    assert (a.width, a.height, a.rules, a.record.actions) == (
        b.width,
        b.height,
        b.rules,
        b.record.actions,
    )
    assert a.result == b.result
    assert a.to_move == b.to_move


def test_the_issue_example_pink_takes_the_middle() -> None:
    game = sgf.loads("(;GM[40]SZ[3:3]RU[russian];W[ba];W[cb];W[bc];B[bb];W[ab.abbccbba])")
    assert (game.width, game.height) == (3, 3)
    assert game.rules == "standard"
    assert pic(game.board) == [".P.", "PbP", ".P."]
    assert game.score(PINK) == 1 and game.score(BLUE) == 0
    assert [(a.player, a.point) for a in game.actions] == [
        (PINK, P("B3")),
        (PINK, P("C2")),
        (PINK, P("B1")),
        (BLUE, P("B2")),
        (PINK, P("A2")),
    ]


def test_zagram_like_record_with_setup_and_blue_first() -> None:
    # The cross of 39x32 as setup dots (Pink S17 T16, Blue S16 T17), then Blue moves first;
    # other properties are skipped, capture chains ignored.
    text = (
        "(;GM[40]FF[4]CA[UTF-8]SZ[39:32]RU[russian]TM[300]PW[ann]PB[bob]"
        "AW[sp][tq]AB[sq][tp]"
        ";B[uq];W[ro];B[up]BL[120];W[ur];B[vq];W[aa]"
        ";B[MF])"
    )
    game = sgf.loads(text)
    assert (game.width, game.height) == (39, 32)
    assert set(game.record.start_dots) == {
        (PINK, P("S17")),
        (PINK, P("T16")),
        (BLUE, P("S16")),
        (BLUE, P("T17")),
    }
    assert [(a.player, a.point.name if a.point else None) for a in game.actions] == [
        (BLUE, "U16"),
        (PINK, "R18"),
        (BLUE, "U17"),
        (PINK, "U15"),
        (BLUE, "V16"),
        (PINK, "A32"),
        (BLUE, "AM1"),
    ]
    assert game.board.dot("AM1") is BLUE
    assert game.board.dot("A32") is PINK
    assert not game.is_over


def test_capture_chains_are_ignored_and_a_capture_is_recomputed() -> None:
    # Blue D4 ringed by Pink D5 C4 E4 D3 on a 7x7 board; the chain text is nonsense on purpose.
    text = "(;GM[40]FF[4]SZ[7:7];B[dd];W[dc];W[cd];W[ed];W[de.zzzz])"
    game = sgf.loads(text)
    assert game.score(PINK) == 1
    assert not game.board.is_live("D4")


def test_dumps_form() -> None:
    game = Game(39, 32, start="cross")
    game.place("AM1")  # Pink
    game.place("A32")  # Blue
    text = sgf.dumps(game, pink="Ann]", blue="Bob")
    assert text.startswith("(;") and text.endswith(")")
    for part in ("FF[4]", "GM[40]", "SZ[39:32]", "PW[Ann\\]]", "PB[Bob]", ";W[MF]", ";B[aa]"):
        assert part in text
    assert "AW[sp][tq]" in text or "AW[tq][sp]" in text
    assert "AB[sq][tp]" in text or "AB[tp][sq]" in text
    assert "RE[" not in text  # the game is running


@pytest.mark.parametrize(
    ("finish", "result"),
    [
        (lambda g: g.resign(BLUE), "RE[W+R]"),
        (lambda g: g.resign(PINK), "RE[B+R]"),
        (lambda g: (g.end(), g.end()), "RE[W+1]"),
    ],
)
def test_results(finish: object, result: str) -> None:
    game = Game(7, 7)
    for player, point in moves("P:D5 B:D4 P:C4 B:A1 P:E4 B:A2 P:D3 B:A3"):
        game.place(point, player)
    finish(game)  # type: ignore[operator]
    text = sgf.dumps(game)
    assert result in text
    _same(sgf.loads(text), game)


def test_draw_result() -> None:
    game = Game()
    game.end()
    game.end()
    assert "RE[0]" in sgf.dumps(game)


def test_a_draw_by_agreement_reads_back_drawn_by_agreement() -> None:
    game = Game(7, 7)
    for player, point in moves("P:D5 B:D4 P:C4 B:A1 P:E4 B:A2 P:D3 B:A3"):
        game.place(point, player)
    game.agree_draw(BLUE)
    text = sgf.dumps(game)
    assert "RE[0]" in text and "XD[B]" in text
    again = sgf.loads(text)
    _same(again, game)
    assert again.result is not None and again.result.reason == "agreement"
    assert again.record.actions[-1] == game.record.actions[-1]


def test_another_tools_draw_on_an_unfinished_record_is_a_draw_by_agreement() -> None:
    again = sgf.loads("(;GM[40]SZ[7:7]RE[Draw];W[dc];B[dd])")
    assert again.result is not None and again.result.winner is None
    assert again.result.reason == "agreement"


def test_round_trip_with_ends_time_outs_and_grounding() -> None:
    game = Game(9, 9, start="double-cross")
    game.place("A1")
    game.time_out()  # Blue's time runs out: Blue has ended
    game.place("B1")
    game.place("C1")
    game.end()
    assert game.is_over
    _same(sgf.loads(sgf.dumps(game)), game)
    grounding = Game(9, 9, rules="grounding")
    for name in ("E5", "A1", "E6", "A2", "E4", "A3", "D5", "A4", "F5", "A5"):
        grounding.place(name)
    grounding.end()
    again = sgf.loads(sgf.dumps(grounding))
    assert again.rules == "grounding"
    _same(again, grounding)
    assert again.handed_over == grounding.handed_over


@pytest.mark.parametrize("seed", [1, 2])
def test_round_trip_four_crosses(seed: int) -> None:
    game = Game(20, 20, start="four-crosses", seed=seed)
    game.place("A1")
    _same(sgf.loads(sgf.dumps(game)), game)


def test_the_main_line_goes_on_in_the_first_variation() -> None:
    # SGF's main line is the first variation at each branch: W[dd] is its third move.
    game = sgf.loads("(;GM[40]SZ[5:5];W[bb];B[cc](;W[dd])(;W[ee]))")
    assert [a.point for a in game.actions] == [P("B4"), P("C3"), P("D2")]
    assert game.board.dot("E1") is None


def test_nested_variations_follow_the_first_branch_each_time() -> None:
    text = "(;GM[40]SZ[6:6];W[aa](;B[bb](;W[cc];B[dd])(;W[ee]))(;B[ff]))"
    game = sgf.loads(text)
    assert [a.point for a in game.actions] == [P("A6"), P("B5"), P("C4"), P("D3")]


def test_brackets_in_values_do_not_split_the_main_line() -> None:
    game = sgf.loads("(;GM[40]SZ[5:5]C[a (comment\\] with ; and )];W[bb];B[cc])")
    assert [a.point for a in game.actions] == [P("B4"), P("C3")]


def test_only_the_first_game_of_a_collection_is_read() -> None:
    game = sgf.loads("(;GM[40]SZ[5:5];W[bb])(;GM[40]SZ[5:5];W[cc])")
    assert [a.point for a in game.actions] == [P("B4")]


@pytest.mark.parametrize(
    "text",
    [
        "not sgf",
        "(;GM[1]SZ[9];B[aa])",  # Go, not Dots
        "(;GM[40]SZ[5:5];W[bb];B[bb])",  # the same point twice
        "(;GM[40]SZ[5:5];W[zz])",  # off the board
        "(;GM[40]SZ[x:5];W[aa])",
    ],
)
def test_bad_records(text: str) -> None:
    with pytest.raises(DotsError):
        sgf.loads(text)
