"""One source for the options' words, and the engine's errors worded by their type and fields."""

from __future__ import annotations

import pickle
from datetime import UTC, datetime, timedelta

import pytest

from bot import text
from bot.cogs.options import (
    COLOUR_CHOICES,
    LEVEL_CHOICES,
    RULES_CHOICES,
    START_CHOICES,
    game_options,
)
from bot.error_words import error_message
from bot.games import GameOptions, GameView, Refusal
from bot.games.game_clock import GameClock
from bot.games.models import GameStatus
from bot.i18n import translate
from bot.option_words import TABLES, described, name_of, words_of
from engine import (
    Colour,
    EndReason,
    Game,
    Level,
    OptionError,
    Player,
    Point,
    Rules,
    Start,
    check_options,
    parse_size,
)

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("option", [Rules, Start, Colour, Level, EndReason])
def test_every_option_has_one_entry_that_reads_as_the_engines_english(option: type) -> None:
    assert [member for member, _ in described(option)] == list(option)
    for member in option:
        # The catalogue's English is the engine's: rewording one without the other fails here.
        assert words_of(member).description == member.description
    assert set(TABLES) == {Rules, Start, Colour, Level, EndReason}


def test_the_choices_read_the_table_within_discords_limits() -> None:
    assert [c.name for c in RULES_CHOICES] == [
        "standard: end and let the other play on",
        "grounding: a stop hands over ungrounded dots",
    ]
    assert [c.value for c in START_CHOICES] == [start.value for start in Start]
    assert [(c.name, c.value) for c in COLOUR_CHOICES] == [
        ("random", "random"),
        ("pink (moves first)", "pink"),
        ("blue", "blue"),
    ]
    assert LEVEL_CHOICES[2].name == "hard: thinks longer"
    for choices in (RULES_CHOICES, START_CHOICES, COLOUR_CHOICES, LEVEL_CHOICES):
        assert len(choices) <= 25 and all(len(c.name) <= 100 for c in choices)


def test_a_command_reads_its_options_into_the_engines_enums() -> None:
    options = game_options("10x10", "grounding", "cross", None, "pink", rated=True)
    assert options.rules is Rules.GROUNDING and options.start is Start.CROSS
    assert options.colour is Colour.PINK
    with pytest.raises(Refusal) as wrong:
        game_options("10x10", "chess", "empty", None, "random", rated=True)
    assert str(wrong.value) == "`chess` is not a rule set: choose standard or grounding"
    assert wrong.value.render("pl") == (
        "`chess` to nie zestaw zasad: wybierz standard or grounding"
    )


def test_stored_words_are_named_and_unknown_ones_kept() -> None:
    assert translate("pl", name_of("grounding", Rules)) == translate("pl", "grounding rules")
    assert name_of(EndReason.BOARD_FULL, EndReason) == "the board is full"
    assert name_of("something else", Start) == "something else"


def computer_view(game_clock: GameClock | None) -> GameView:
    return GameView(
        game_id=1, guild_id=1, channel_id=1, thread_id=None, message_id=None, pink_id=7,
        blue_id=-2, clock=timedelta(seconds=60), rated=False, status=GameStatus.RUNNING,
        game=Game(10, 10), deadline=None, created=NOW, started=NOW, finished=None, result=None,
        game_clock=game_clock, takebacks=True,
    )  # fmt: skip


def test_a_game_on_a_game_clock_is_described_with_its_game_clock() -> None:
    # /play-computer time:5+5: the game also has a move clock (the server's), which it ignores.
    view = computer_view(GameClock.parse("5+5"))
    described = text.describe_game_options(view.options, "en", with_takebacks=False)
    assert described == (
        "10×10, standard rules, game clock 5+5 (5 minutes each, 5 seconds more a move), unrated"
    )
    assert "zegar gry 5+5" in text.describe_game_options(view.options, "pl")
    plain = text.describe_game_options(computer_view(None).options, "en", with_takebacks=False)
    assert plain == "10×10, standard rules, 1 min a move, unrated"
    # A challenge that leaves the clock to the server names the server's clock when told it.
    challenge = GameOptions()
    assert "server's default clock" in text.describe_game_options(challenge)
    named = text.describe_game_options(challenge, server_clock=timedelta(minutes=2))
    assert named == "10×10, standard rules, 2 min a move, rated, no takebacks"
    game_clock = GameOptions(game_clock=GameClock.parse("5+5"))
    assert "game clock 5+5" in text.describe_game_options(game_clock, server_clock=timedelta(1))


def test_a_game_view_reads_its_status_as_an_enum_equal_to_the_stored_text() -> None:
    view = computer_view(None)
    assert view.is_running and view.status == "running"
    assert GameStatus("over") is GameStatus.OVER


def refused(action: object) -> Exception:
    try:
        action()  # type: ignore[operator]
    except ValueError as error:
        return error
    raise AssertionError("not refused")


def test_each_engine_error_is_worded_by_its_type_in_each_language() -> None:
    game = Game(10, 10, rules="grounding")
    game.place("C3")
    cases = [
        (refused(lambda: game.place("C3")), "C3 is already taken"),
        (refused(lambda: game.place("B", Player.BLUE)), None),
        (refused(lambda: game.place("D4", Player.PINK)), "it is Blue's turn, not Pink's"),
        (refused(game.end), None),
        (refused(lambda: game.place("Ｂ٧")), None),
        (refused(lambda: game.board.point((1, 2, 3))), None),  # type: ignore[arg-type]
        (refused(lambda: parse_size("3x3")), None),
        (refused(lambda: parse_size("big")), None),
        (refused(lambda: check_options(5, 5, "standard", "four-crosses")), None),
        (refused(lambda: Level.parse("godlike")), None),
    ]
    for error, english in cases:
        message = error_message(error)
        # The same English as the engine's own sentence, and a translation in every language.
        assert str(message) == str(error)
        if english is not None:
            assert str(error) == english
        for locale in ("pl", "ru", "uk"):
            assert translate(locale, message) != str(error), (locale, str(error))
    assert "Różowy" in translate("pl", error_message(cases[2][0]))
    # Words inside a sentence are translated too: the empty name, the kind of option.
    empty = refused(lambda: game.place(""))
    assert translate("uk", error_message(empty)).startswith("Порожня назва — не пункт")
    level = refused(lambda: Level.parse("x"))
    assert translate("uk", error_message(level)).startswith("`x` — не рівень")


def test_an_engine_error_keeps_its_fields_through_a_worker_process() -> None:
    game = Game(10, 10)
    game.place("C3")
    error = refused(lambda: game.place("C3"))
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error) and str(copy) == str(error)
    assert copy.point == Point.parse("C3")  # type: ignore[attr-defined]
    assert isinstance(refused(lambda: parse_size("3x3")), OptionError)


def test_a_refusal_made_of_options_says_it_in_the_readers_language() -> None:
    options = GameOptions(width=5, height=5, start=Start.FOUR_CROSSES)
    with pytest.raises(ValueError, match="four crosses") as wrong:
        check_options(options.width, options.height, options.rules, options.start)
    assert translate("ru", error_message(wrong.value)).startswith("четыре скреста")
