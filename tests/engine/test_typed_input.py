"""Typed points and sizes are normalised before they are read."""

from __future__ import annotations

import pytest

from engine import Game, InvalidPointError, OptionError, Point, parse_size
from engine.point import normalise


@pytest.mark.parametrize(
    "text",
    [
        "Ｂ７",  # full-width letter and digit
        "ｂ７",
        "B\u200b7",  # zero-width space
        "\u200dB7\u2060",  # zero-width joiner, word joiner
        "\ufeffB7",  # byte order mark
        "B\u00ad7",  # soft hyphen
        "\u200eB7\u200f",  # marks of direction
        "B7\ufe0f",  # variation selector
        " B\t7\n",
        "B\u30007",  # ideographic space
    ],
)
def test_point_names_are_normalised(text: str) -> None:
    assert Point.parse(text) == Point(1, 6)
    assert Point.parse(text, 10, 10) == Point(1, 6)


def test_a_game_takes_a_full_width_point() -> None:
    game = Game(10, 10)
    game.place("Ｅ５")
    assert game.board.dot("E5") is not None and game.last_move == Point(4, 4)


@pytest.mark.parametrize("text", ["é5", "B-7", "ß7", "B 7 7 7", "Б7", "B7.", "B", "7", "\u200b"])
def test_anything_else_is_not_a_point(text: str) -> None:
    with pytest.raises(InvalidPointError, match="is not a point") as refused:
        Point.parse(text)
    assert "\u200b" not in str(refused.value)


def test_digits_of_other_scripts_are_refused_with_a_hint() -> None:
    with pytest.raises(InvalidPointError, match="digits 0-9") as refused:
        Point.parse("B٧")  # Arabic-Indic seven: NFKC does not make it a 7
    assert str(refused.value).startswith("`B٧` is not a point")


def test_the_message_shows_what_was_read() -> None:
    with pytest.raises(InvalidPointError) as refused:
        Point.parse("\u200bB-7\u200b", 10, 10)
    assert str(refused.value) == (
        "`B-7` is not a point: a point is a column letter and a row number, like B7 "
        "(columns are A–J, rows 1–10)"
    )


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("１０x１０", (10, 10)),
        ("１０ｘ１０", (10, 10)),
        ("39 × 32", (39, 32)),
        ("２０＊２０", (20, 20)),
        ("20x20\u200b", (20, 20)),
    ],
)
def test_sizes_in_full_width_digits_are_read(text: str, size: tuple[int, int]) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["٢٠x٢٠", "२०x२०", "১০x১০"])
def test_digits_nfkc_does_not_map_are_refused_clearly(text: str) -> None:
    # Python's int() would read these; a size is read the same way wherever it is typed.
    with pytest.raises(OptionError, match="write the numbers with the digits 0-9"):
        parse_size(text)


def test_a_normalised_size_is_still_checked_against_rule_1_1() -> None:
    with pytest.raises(OptionError, match="4x4 is not"):
        parse_size("４x４")


def test_normalise_keeps_visible_text() -> None:
    assert normalise(" Ｂ\u200b７\u3000é ") == "B7 é"
