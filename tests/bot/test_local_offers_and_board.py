"""The terminal in-process: which saved game the terminal offers, its words (plurals,
no markdown), the board's legend and last-move mark, and what the repository ships."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from bot import text
from bot.local import LocalOptions, add_arguments, board_text, help_text, legend
from engine import Colour, Game, Level, Player, Point, Rules, Start
from tests.bot.test_computer_local import run as run_computer
from tests.bot.test_local import run

ROOT = Path(__file__).resolve().parents[2]


# Offer exactly what the saved message promises, and nothing that contradicts options.


async def test_several_saved_games_are_listed_and_chosen_by_number(
    tmp_path: Path,
) -> None:
    await run(tmp_path, ["A1", "quit"], size=(5, 5))
    await run(tmp_path, ["B2", "C3", "quit"], new=True, rules="grounding", size=(6, 6))
    _, printed, script = await run(tmp_path, ["7", "#1", "board", "quit"])
    assert "Saved local games:" in printed
    assert (
        "  #1: 5×5, standard rules, start: empty, two players at one keyboard, 1 move so far\n"
        "  #2: 6×6, grounding rules, start: empty, two players at one keyboard, 2 moves so far\n"
    ) in printed
    assert script.prompts[0] == "Continue which? Its number (Enter: #2; n: a new game): "
    assert "Sorry: `7` is not one of these games" in printed
    assert script.prompts[2] == "Blue> "  # game #1, where Blue is to move
    assert "Game #1 (5×5, standard rules" in printed
    # Enter takes the latest; n starts a new game.
    _, _, script = await run(tmp_path, ["", "quit"])
    assert script.prompts[1] == "Pink> "  # game #2, where Pink is to move
    _, printed, _ = await run(tmp_path, ["n", "quit"])
    assert "New local game #3: 10×10, standard rules, start: empty" in printed


async def test_a_level_or_colour_that_contradicts_the_saved_game(
    tmp_path: Path,
) -> None:
    await run_computer(tmp_path, ["E5", "quit"], computer="easy", size=(5, 5))
    for options, asked in (
        ({"computer": "medium"}, "--computer medium"),
        ({"computer": "easy", "colour": "blue"}, "--colour blue"),
        ({"size": (6, 6), "start": "cross"}, "--size 6x6 --start cross"),
    ):
        _, printed, script = await run_computer(tmp_path, ["quit"], new=False, **options)
        assert not script.prompts[0].startswith("Continue"), options
        assert "Saved local game #1 (5×5, standard rules, start: empty, you (Pink) against " in (
            printed
        )
        assert f"is not offered: you asked for {asked}." in printed
    # An option that agrees with the game does not hide it; `--colour random` fits any colour.
    _, printed, _ = await run_computer(tmp_path, ["n", "quit"], computer="easy", colour="random")
    assert "  #1: 5×5, standard rules, start: empty, you (Pink) against Computer (easy)" in printed
    # --new never offers one.
    _, printed, script = await run_computer(tmp_path, ["quit"], new=True, computer="easy")
    assert script.prompts == ["Pink> "] and "not offered" not in printed


def test_options_left_out_do_not_restrict_the_offer() -> None:
    options = LocalOptions()
    assert (options.size, options.rules, options.start, options.computer, options.colour) == (
        None,
        None,
        None,
        None,
        None,
    )
    assert (options.width, options.height) == (10, 10)  # a new game's default


def test_the_command_line_choices_are_the_engine_options() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    choices = {action.dest: action.choices for action in parser._actions if action.choices}
    assert choices == {
        "rules": [o.value for o in Rules],
        "start": [o.value for o in Start],
        "computer": [o.value for o in Level],
        "colour": [o.value for o in Colour],
        "lang": ["en", "pl", "ru", "uk"],
    }
    assert Level.HARD.description in " ".join(parser.format_help().split())


# One place that knows plurals; no Discord markdown in the terminal.


@pytest.mark.parametrize(
    ("n", "shown"), [(0, "0 dots"), (1, "1 dot"), (2, "2 dots"), (21, "21 dots")]
)
def test_plural_chooses_the_form_by_the_count(n: int, shown: str) -> None:
    assert text.plural(n, "{n} dot", "{n} dots") == shown


def test_counts_of_one_in_the_shared_sentences() -> None:
    game = Game(7, 7, rules="grounding")
    for point in ("A4", "G1", "B4", "G2", "C4", "G3", "D4", "G4", "D5", "G5", "F6", "A1"):
        game.place(point)
    preview = game.stop_preview(Player.PINK)
    assert preview.dots == (Point.parse("F6"),)  # the one Pink dot not linked to the edge
    prompt = text.end_confirmation(game, Player.PINK, preview)
    assert "1 of your dots is not grounded and would be handed over (marked with a cross)" in (
        prompt
    )
    game.end()  # Pink stops: F6 is handed over
    assert text.action_line(game, {Player.PINK: "Pink", Player.BLUE: "Blue"}) == (
        "Pink stops: 1 dot that is not grounded is handed over."
    )
    assert text.describe_local_game(game, opponent="two players").endswith("13 moves so far")
    assert text.describe_local_game(Game(5, 5), opponent="x", moves=True).endswith("0 moves so far")


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("**Warning: you would lose the game.**", "Warning: you would lose the game."),
        ("a *word* and ~~this~~ or ||that||", "a word and this or that"),
        ("type `undo` or `E5`", "type `undo` or `E5`"),  # code spans still read as "type this"
        ("Picture: out/__pycache__/dots_game_1.png", "Picture: out/__pycache__/dots_game_1.png"),
        ("10*10 and 2 * 3", "10*10 and 2 * 3"),
    ],
)
def test_plain_strips_discord_emphasis_only(written: str, shown: str) -> None:
    assert text.plain(written) == shown


async def test_everything_the_terminal_prints_is_plain(tmp_path: Path) -> None:
    pink = ["C3", "A5", "B5", "C5", "D5"]
    blue = ["A1", "B1", "C1", "D1", "E1"]
    moves = [m for pair in zip(pink, blue, strict=True) for m in pair]
    _, printed, _ = await run(
        tmp_path, [*moves, "end", "n", "quit"], rules="grounding", size=(5, 5)
    )
    assert "Warning: you would lose the game." in printed
    assert "**" not in printed
    assert "1 of your dots is not grounded" in printed


# The board's legend and last move; help, README, .gitignore, the rules in the repo.


def test_the_board_marks_the_last_dot_and_keeps_its_columns() -> None:
    game = Game(28, 5)
    game.place("C3")
    game.place("AB1")
    game.place("B3")
    lines = board_text(game, last=text.last_dot(game)).splitlines()
    assert lines[3] == "3  . [P] P" + "  ." * 25
    assert board_text(game).splitlines()[3] == "3  .  P  P" + "  ." * 25
    game.place("AB2")  # the last column: the bracket goes past it
    lines = board_text(game, last=text.last_dot(game)).splitlines()
    assert lines[4].endswith(" [B]") and lines[5].endswith("  B")
    assert text.last_dot(Game(5, 5)) is None


def test_the_legend_names_every_symbol_of_the_board() -> None:
    symbols = set("".join(Game(5, 5).board.picture().split())) | set("PBpb+-")
    said = legend()
    for symbol in sorted(symbols):
        assert symbol in said, symbol
    assert "[ ]" in said


async def test_every_board_in_the_terminal_has_the_legend_and_the_mark(
    tmp_path: Path,
) -> None:
    _, printed, _ = await run(tmp_path, ["C3", "D4", "board", "quit"], size=(5, 5))
    boards = printed.count("  A B C D E\n5 ")
    assert boards == 4 and printed.count(legend()) == 4
    assert "4 . . .[B]." in printed and "3 . .[P]. ." in printed


def test_help_and_the_readme_list_every_command() -> None:
    commands = re.findall(r"^  (\w+)", help_text(computer=True), re.MULTILINE)
    assert "undo" in commands and "quit" in commands
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Play in your terminal", 1)[1].split("\n## ", 1)[0]
    for command in commands:
        if command != "B7":
            assert f"`{command}`" in section, command


def test_the_pictures_folder_is_ignored_by_git() -> None:
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split()
    assert f"{LocalOptions().out.as_posix()}/" in ignored


def test_the_rules_in_the_repository_are_the_specification() -> None:
    spec = ROOT.parent / "shared" / "RULES.md"
    if not spec.exists():
        pytest.skip(f"no specification beside this clone ({spec}) to compare docs/RULES.md with")
    assert (ROOT / "docs" / "RULES.md").read_bytes() == spec.read_bytes()


def test_the_readme_links_only_files_a_clone_has() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)\)", readme)
    local = [t for t in targets if not re.match(r"\w+:", t)]
    assert "docs/RULES.md" in local
    for target in local:
        path = (ROOT / target).resolve()
        assert path.is_relative_to(ROOT) and path.exists(), target
