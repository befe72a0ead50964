"""Game options from one source: the enums, their descriptions and one check."""

from __future__ import annotations

import pytest

from engine import (
    Colour,
    DotsError,
    EndReason,
    Game,
    Level,
    OptionError,
    Rules,
    Start,
    check_options,
    parse_size,
    start_dots,
)

# The words stored in the database and offered in the command schema: they must not change.
STORED = {
    Rules: ["standard", "grounding"],
    Start: ["empty", "cross", "double-cross", "triple-cross", "four-crosses"],
    Colour: ["pink", "blue", "random"],
    Level: ["easy", "medium", "hard"],
    EndReason: ["ended", "resigned", "time", "board full", "stop", "agreement"],
}


@pytest.mark.parametrize("kind", list(STORED))
def test_the_stored_words_are_the_values_in_order(kind: type[Rules]) -> None:
    assert [member.value for member in kind] == STORED[kind]
    for member in kind:
        assert member == member.value and str(member) == member.value
        assert kind.parse(f"  {member.value.upper()} ") is member


@pytest.mark.parametrize("kind", [Rules, Start, Colour, Level, EndReason])
def test_every_option_has_its_own_description(kind: type[Rules]) -> None:
    descriptions = [member.description for member in kind]
    assert all(descriptions) and len(set(descriptions)) == len(descriptions)


def test_descriptions_players_read() -> None:
    assert Rules.GROUNDING.description == "a stop hands over ungrounded dots"
    assert Colour.PINK.description == "Pink (moves first)"
    assert EndReason.TIME.description == "time ran out"
    assert Level.HARD.description.startswith("thinks longer")


@pytest.mark.parametrize(
    ("kind", "text", "message"),
    [
        (Rules, "chess", "`chess` is not a rule set: choose standard or grounding"),
        (Colour, "green", "`green` is not a colour: choose pink, blue or random"),
        (Level, "godlike", "`godlike` is not a level: choose easy, medium or hard"),
        (
            Start,
            "x",
            "`x` is not a start position: "
            "choose empty, cross, double-cross, triple-cross or four-crosses",
        ),
    ],
)
def test_an_unknown_option_is_refused_by_name(kind: type[Rules], text: str, message: str) -> None:
    with pytest.raises(OptionError) as refused:
        kind.parse(text)
    assert str(refused.value) == message
    assert isinstance(refused.value, DotsError) and isinstance(refused.value, ValueError)


def test_check_options_returns_the_enums() -> None:
    assert check_options(20, 20, "grounding", "four-crosses") == (
        Rules.GROUNDING,
        Start.FOUR_CROSSES,
    )


@pytest.mark.parametrize(
    ("width", "height", "rules", "start", "words"),
    [
        (4, 10, "standard", "empty", "5 to 52 points wide and high; 4x10 is not"),
        (10, 53, "standard", "empty", "10x53 is not"),
        (10, 10, "chess", "empty", "not a rule set"),
        (10, 10, "standard", "spiral", "not a start position"),
        (5, 5, "standard", "four-crosses", "four crosses do not fit on a 5x5 board"),
    ],
)
def test_check_options_refuses_with_a_message_for_players(
    width: int, height: int, rules: str, start: str, words: str
) -> None:
    with pytest.raises(OptionError, match=words):
        check_options(width, height, rules, start)
    with pytest.raises(OptionError, match=words):
        Game(width, height, rules=rules, start=start)


def test_four_crosses_fit_exactly_where_they_can_be_drawn() -> None:
    for size in range(5, 17):
        try:
            start_dots(Start.FOUR_CROSSES, size, size, seed=0)
        except OptionError:
            fits = False
        else:
            fits = True
        try:
            check_options(size, size, Rules.STANDARD, Start.FOUR_CROSSES)
        except OptionError:
            assert not fits
        else:
            assert fits


def test_a_game_keeps_its_options_as_enums() -> None:
    game = Game(10, 10, rules="grounding", start="cross")
    assert game.rules is Rules.GROUNDING and game.start is Start.CROSS
    game.resign(game.to_move)  # type: ignore[arg-type]
    assert game.result is not None and game.result.reason is EndReason.RESIGNED
    assert game.result.describe().endswith("(resignation)")


def test_a_size_out_of_range_is_an_option_error() -> None:
    with pytest.raises(OptionError, match="4x4 is not"):
        parse_size("4x4")


def test_only_a_random_start_needs_a_seed() -> None:
    assert [start for start in Start if start.is_random] == [Start.FOUR_CROSSES]
    for start in Start:
        once = Game(10, 10, start=start, seed=1).record.start_dots
        assert (once != Game(10, 10, start=start, seed=2).record.start_dots) == start.is_random
