"""The terminal in-process: what a keyboard adds to a line, points off the board, answers of
no, a stop's crosses, games without moves, pictures never overwritten, the help and the
result said to the player, and a run of the computer's moves under one board."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import GameOptions, GameService
from bot.i18n import LOCALES
from bot.local import (
    BLUE_USER_ID,
    LOCAL_CHANNEL_ID,
    LOCAL_GUILD_ID,
    PINK_USER_ID,
    board_text,
    clean_line,
    help_text,
    legend,
)
from bot.local.board import initials
from bot.local.words import result_line
from engine import Game, Player, Point
from tests.bot.test_computer_local import run as run_computer
from tests.bot.test_local import run

COMPUTER_NAMES = {Player.PINK: "Pink", Player.BLUE: "Computer (hard)"}


async def running(tmp_path: Path) -> list[tuple[int, int]]:
    """The running local games: (id, count of actions)."""
    service = await GameService.open(tmp_path / "dots.sqlite3")
    try:
        views = await service.running_games(user_id=PINK_USER_ID, guild_id=LOCAL_GUILD_ID)
        return [(view.game_id, len(view.game.actions)) for view in views]
    finally:
        await service.close()


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("`C3`", "C3"),
        ("move `E5`", "move E5"),
        ("\x1b[A", ""),  # the up arrow in a terminal without line editing
        ("\x1b[AB7\x1b[D", "B7"),
        ("\x1bOPend", "end"),  # a function key
        ("B\x007\x7f", "B7"),
        ("  quit  ", "quit"),
    ],
)
def test_a_typed_line_loses_escape_sequences_and_discord_quotes(typed: str, meant: str) -> None:
    assert clean_line(typed) == meant


async def test_keys_and_quotes_are_neither_played_nor_echoed_raw(tmp_path: Path) -> None:
    _, printed, script = await run(tmp_path, ["`C3`", "\x1b[A", "\x1b[Azz", "quit"], size=(5, 5))
    assert "Pink plays C3." in printed
    assert script.prompts == ["Pink> ", "Blue> ", "Blue> ", "Blue> "]  # the arrow: no answer
    assert "Sorry: `zz` is not a point" in printed
    assert "\x1b" not in printed


async def test_row_zero_is_off_the_board_as_a_row_past_the_top_is(tmp_path: Path) -> None:
    _, printed, _ = await run(tmp_path, ["A0", "a 00", "A11", "quit"])
    assert "Sorry: A0 is off the board: columns are A–J, rows 1–10." in printed
    assert "Sorry: A00 is off the board: columns are A–J, rows 1–10." in printed
    assert "Sorry: A11 is off the board: columns are A–J, rows 1–10." in printed
    assert "not a point" not in printed


async def test_an_answer_of_no_says_what_was_kept(tmp_path: Path) -> None:
    _, printed, script = await run(tmp_path, ["E5", "end", "n", "resign", "", "quit"])
    assert "Not ended; your move." in printed
    assert "Not resigned; your move." in printed
    assert script.prompts[-1] == "Blue> "
    _, printed, _ = await run(
        tmp_path, ["A5", "B1", "end", "n", "quit"], new=True, rules="grounding", size=(5, 5)
    )
    assert "Not stopped; your move." in printed


# Pink's F6 is the one Pink dot not linked to the edge: a stop by Pink hands it over.
STOP_GAME = ["A4", "G1", "B4", "G2", "C4", "G3", "D4", "G4", "D5", "G5", "F6", "A1", "end", "y"]


async def test_the_text_board_crosses_the_dots_a_stop_hands_over(tmp_path: Path) -> None:
    _, printed, _ = await run(tmp_path, STOP_GAME, rules="grounding", size=(7, 7))
    preview, after = printed.split("really stop?", 1)[0], printed.split("Pink stops:", 1)[0]
    crossed = "6 . . . . . x ."
    for shown in (
        preview.rsplit("  A B C D E F G\n7", 1)[1],
        after.rsplit("  A B C D E F G\n7", 1)[1],
    ):
        assert crossed in shown
    assert printed.count("x: handed over by the stop") == 2  # the preview's legend, the stop's
    game = Game(7, 7, rules="grounding")
    assert "x" not in board_text(game) and "x:" not in legend()


async def test_a_game_left_without_moves_is_not_kept(tmp_path: Path) -> None:
    _, printed, _ = await run(tmp_path, ["quit"])
    assert "Game #1 had no moves: it is not kept." in printed and "is saved;" not in printed
    assert await running(tmp_path) == []
    # One left by a program that was killed before anyone moved is dropped, not offered.
    service = await GameService.open(tmp_path / "dots.sqlite3")
    try:
        await service.start_game(
            guild_id=LOCAL_GUILD_ID,
            channel_id=LOCAL_CHANNEL_ID,
            pink_id=PINK_USER_ID,
            blue_id=BLUE_USER_ID,
            options=GameOptions(rated=False),
        )
    finally:
        await service.close()
    _, printed, script = await run(tmp_path, ["C3", "quit"])
    assert not script.prompts[0].startswith("Continue")
    assert "New local game #3" in printed
    assert await running(tmp_path) == [(3, 1)]


async def test_a_picture_written_earlier_is_never_overwritten(tmp_path: Path) -> None:
    _, printed, _ = await run_computer(
        tmp_path, ["A1", "undo", "board", "J10", "quit"], computer="easy"
    )
    pics = sorted((tmp_path / "pics").glob("dots-game-1-*.png"))
    # 0, 1 and 2 moves; after undo, 0 moves again (the same picture, not written twice);
    # then another 1 and 2 moves beside the first ones.
    assert [p.name for p in pics] == [
        "dots-game-1-000.png",
        "dots-game-1-001-2.png",
        "dots-game-1-001.png",
        "dots-game-1-002-2.png",
        "dots-game-1-002.png",
    ]
    assert len({p.read_bytes() for p in pics}) == 5
    assert all(f"Picture: {p}" in printed for p in pics)


def test_the_help_says_who_types_the_commands_and_offers_undo_only_against_the_computer() -> None:
    at_one_keyboard, against = help_text(computer=False), help_text(computer=True)
    assert at_one_keyboard.startswith("Commands (the player to move types them):")
    assert "undo" not in at_one_keyboard
    assert against.startswith("Commands (type them on your turn):")
    assert "  undo            take back your last move and the computer's reply" in against
    for locale in LOCALES:
        assert help_text(locale, computer=True).count("\n") == against.count("\n"), locale


async def test_undo_at_one_keyboard_says_it_is_for_games_against_the_computer(
    tmp_path: Path,
) -> None:
    _, printed, _ = await run(tmp_path, ["E5", "F5", "undo", "quit"])
    assert "Sorry: moves are taken back only against the computer." in printed
    assert "unrated" not in printed


def won_game(winner: Player) -> Game:
    game = Game(5, 5)
    game.place("E5")
    game.resign(winner.opponent)
    return game


def test_against_the_computer_the_result_is_said_to_the_player() -> None:
    pink_wins, blue_wins = won_game(Player.PINK), won_game(Player.BLUE)
    said = result_line(pink_wins, COMPUTER_NAMES, computer=Player.BLUE)
    assert said == "Pink wins 0–0 (resignation). Well played: you beat Computer (hard)!"
    said = result_line(blue_wins, COMPUTER_NAMES, computer=Player.BLUE)
    assert said == (
        "Blue wins 0–0 (resignation). Computer (hard) wins this time: better luck in the next game!"
    )
    names = {Player.PINK: "Pink", Player.BLUE: "Blue"}
    assert result_line(blue_wins, names, computer=None).endswith("Well played, Blue!")


async def test_resigning_to_the_computer_does_not_congratulate_it(tmp_path: Path) -> None:
    _, printed, _ = await run_computer(tmp_path, ["C3", "resign", "y"], computer="easy")
    assert "Computer (easy) wins this time: better luck in the next game!" in printed
    assert "Well played" not in printed


async def test_a_run_of_the_computers_moves_is_said_once_under_one_board(tmp_path: Path) -> None:
    # On 5x5 the computer, left alone, surrounds Pink's C3 before it ends.
    _, printed, _ = await run_computer(tmp_path, ["C3", "end", "y"], computer="easy", size=(5, 5))
    after = printed.split("Pink ends and makes no more moves.", 1)[1]
    assert after.count("  A B C D E\n5") == 1
    assert after.count("Computer (easy) plays on alone: ") == 1
    assert "Computer (easy) ends and makes no more moves." in after
    assert "Game over." in after


@pytest.mark.parametrize("locale", LOCALES)
def test_the_board_writes_each_colour_by_its_initial_in_every_language(locale: str) -> None:
    letters = initials(locale)
    assert letters[Player.PINK] != letters[Player.BLUE]
    assert letters[Player.PINK].lower() != letters[Player.BLUE].lower()
    game = Game(5, 5)
    game.place("C3")
    game.place("A1")
    rows = board_text(game, last=Point.parse("A1"), locale=locale).splitlines()
    assert rows[3].split()[3] == letters[Player.PINK]
    assert rows[5].startswith(f"1[{letters[Player.BLUE]}]")
    said = legend(locale)
    assert said.startswith(f"{letters[Player.PINK]}/{letters[Player.BLUE]}: ")
    assert f"{letters[Player.PINK].lower()}/{letters[Player.BLUE].lower()}: " in said


@pytest.mark.parametrize(("locale", "pink", "blue"), [("pl", "R", "N"), ("ru", "Р", "С")])
def test_the_initials_are_the_translated_colours(locale: str, pink: str, blue: str) -> None:
    assert initials(locale) == {Player.PINK: pink, Player.BLUE: blue}
    assert legend(locale).startswith(f"{pink}/{blue}: ")
