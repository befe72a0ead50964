"""The wording shared by the terminal and Discord (bot.text)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot import text
from bot.local import board_text
from engine import Game, Player

NAMES = {Player.PINK: "Pink", Player.BLUE: "Blue"}
PEOPLE = {Player.PINK: "<@1>", Player.BLUE: "<@2>"}


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0, "0 s"),
        (59.6, "1 min"),
        (61, "1 min 1 s"),
        (3600, "1 h"),
        (5400, "1 h 30 min"),
        (86400, "1 day"),
        (7 * 86400 + 3600, "7 days 1 h"),
        (-5, "0 s"),
    ],
)
def test_durations_read_naturally(seconds: float, shown: str) -> None:
    assert text.format_duration(timedelta(seconds=seconds)) == shown


def test_board_text_has_coordinates_with_row_one_at_the_bottom() -> None:
    game = Game(28, 5)
    game.place("AB1")
    game.place("A5")
    lines = board_text(game).splitlines()
    assert lines[0].split() == [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "AA", "AB"]
    assert lines[0] == lines[-1]
    assert lines[1].split()[:2] == ["5", "B"] and lines[5].split()[0] == "1"
    assert lines[5].split()[-1] == "P"
    # Every cell is in its column: the last column's letter sits above the last cell.
    assert lines[0].rstrip().endswith("AB") and len(lines[5]) == len(lines[0])


def test_action_and_turn_lines_name_people_but_not_colours_twice() -> None:
    game = Game(5, 5)
    for point in ("C4", "C3", "B3", "A1", "D3", "E1", "C2"):
        game.place(point)
    assert text.action_line(game, NAMES) == "Pink plays C2. Pink captures 1."
    assert text.action_line(game, PEOPLE) == "Pink (<@1>) plays C2. Pink captures 1."
    assert text.turn_line(game, NAMES) == "Blue to move."
    assert text.turn_line(game, PEOPLE, left="45 s") == "Blue to move: <@2> (45 s left)."
    assert text.scores_line(game) == "Pink 1 · Blue 0"


def test_end_confirmation_says_what_ending_means_under_each_rule_set() -> None:
    standard = Game(5, 5)
    assert "opponent may play on" in text.end_confirmation(standard, Player.PINK)
    standard.end()
    assert "finishes the game" in text.end_confirmation(standard, Player.BLUE)
    grounding = Game(7, 7, rules="grounding")
    assert text.end_confirmation(grounding, Player.PINK).startswith("You cannot stop yet")
    for point in ("A4", "G1", "B4", "G2", "D4", "G3", "E4", "G4", "E5", "G5"):
        grounding.place(point)
    prompt = text.end_confirmation(grounding, Player.PINK)
    assert "3 of your dots are not grounded" in prompt and "Pink 0 · Blue 3" in prompt
    assert "you would lose" in prompt
    assert text.play_on_line(standard, move_hint="`/move`", end_hint="`/end`").startswith(
        "Blue may play on alone"
    )


def test_long_lists_are_cut_to_fit_in_one_discord_message() -> None:
    lines = [f"#{n} " + "x" * 150 for n in range(30)]
    joined = text.join_lines(lines)
    assert len(joined) <= text.MESSAGE_LIMIT
    kept = joined.splitlines()
    assert kept[-1] == f"…and {30 - (len(kept) - 1)} more."
    assert kept[:-1] == lines[: len(kept) - 1]
    assert text.join_lines(["a", "b"]) == "a\nb"


def test_a_draw_is_a_sentence_too() -> None:
    game = Game(5, 5)
    game.end()
    game.end()
    assert game.result is not None and game.result.winner is None
    assert text.turn_line(game, NAMES) == "Draw 0–0 (both ended)."


def test_a_record_of_one_game_reads_in_the_singular() -> None:
    assert text.record_line(games=1, wins=1, losses=0, draws=0) == "1 game: 1 won, 0 lost, 0 drawn"
    assert text.record_line(games=2, wins=1, losses=1, draws=0).startswith("2 games:")
