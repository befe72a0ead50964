"""A point typed on a Russian or Ukrainian keyboard: Cyrillic letters drawn like Latin ones are
read as those letters; a letter with no Latin twin is refused with a hint to switch layouts."""

from __future__ import annotations

import string
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import Game, InvalidPointError, Point, PointMistake, parse_size
from engine.point import LOOK_ALIKES, normalise, normalise_point

# Each look-alike a player types for the Latin letter they see, in both cases.
TWINS = [
    ("А", "A"), ("В", "B"), ("Е", "E"), ("К", "K"), ("М", "M"), ("Н", "H"), ("О", "O"),
    ("Р", "P"), ("С", "C"), ("Т", "T"), ("У", "Y"), ("Х", "X"), ("І", "I"), ("Ѕ", "S"),
    ("Ј", "J"),
]  # fmt: skip


@pytest.mark.parametrize(("cyrillic", "latin"), TWINS)
@pytest.mark.parametrize("case", [str.upper, str.lower])
def test_a_cyrillic_look_alike_is_read_as_its_latin_twin(
    cyrillic: str, latin: str, case: Callable[[str], str]
) -> None:
    typed = case(cyrillic) + "7"
    assert typed[0] != latin and typed[0] != latin.lower()  # really another character
    assert Point.parse(typed) == Point.parse(latin + "7")
    assert Point.parse(typed, 26, 26) == Point.parse(latin + "7")


def test_every_look_alike_is_tested_in_both_cases() -> None:
    assert {c for c, _ in TWINS} | {c.lower() for c, _ in TWINS} == set(LOOK_ALIKES)


@pytest.mark.parametrize(
    ("typed", "name"),
    [("В7", "B7"), ("Е5", "E5"), ("С3", "C3"), ("А1", "A1"), ("Н8", "H8"), ("К2", "K2"),
     ("М4", "M4"), ("О6", "O6"), ("Р3", "P3"), ("Т2", "T2"), ("Х9", "X9"), ("І9", "I9"),
     ("в7", "B7"), ("е 5", "E5"), ("ｃ3", "C3"), ("АА3", "AA3"), ("Ва12", "BA12")],
)  # fmt: skip
def test_points_players_type_on_a_cyrillic_keyboard(typed: str, name: str) -> None:
    assert Point.parse(typed).name == name


def test_a_game_takes_a_point_typed_in_cyrillic() -> None:
    game = Game(10, 10)
    game.place("С3")  # Cyrillic Es
    assert game.board.dot("C3") is not None


def test_a_size_typed_with_a_cyrillic_x_is_read() -> None:
    assert parse_size("20х20") == (20, 20)
    assert parse_size("39 Х 32") == (39, 32)


@pytest.mark.parametrize("typed", ["Д5", "Ж3", "ж3", "Б7", "Ї2", "ВД5", "Λ4", "Д"])
def test_a_letter_with_no_latin_twin_asks_for_latin_letters(typed: str) -> None:
    with pytest.raises(InvalidPointError) as refused:
        Point.parse(typed, 10, 10)
    error = refused.value
    assert error.mistake is PointMistake.LATIN_LETTERS
    assert error.text == typed  # shown as typed, not as read
    assert error.board == (10, 10)
    assert "Latin letters (switch the keyboard layout)" in str(error)


@pytest.mark.parametrize("typed", ["é5", "ß7", "B-7", "В0", "hello"])
def test_latin_mistakes_keep_their_own_hint(typed: str) -> None:
    with pytest.raises(InvalidPointError) as refused:
        Point.parse(typed)
    assert refused.value.mistake is PointMistake.LETTER_AND_NUMBER


@given(st.text())
def test_normalising_twice_changes_nothing(text: str) -> None:
    once = normalise_point(text)
    assert normalise_point(once) == once
    assert normalise(normalise(text)) == normalise(text)


@given(st.text(alphabet=string.ascii_letters + string.digits + " "))
def test_latin_input_is_left_as_it_is(text: str) -> None:
    assert normalise_point(text) == text.strip()


@given(st.text(alphabet=[*LOOK_ALIKES, *string.ascii_letters, *string.digits]))
def test_no_look_alike_is_left_after_normalising(text: str) -> None:
    read = normalise_point(text)
    assert read.isascii()
    assert read == "".join(LOOK_ALIKES.get(char, char) for char in text)
