"""What the terminal reads and says beyond the shared sentences of ``bot.text``: a typed line
cleaned of what a keyboard or Discord habits add, the help, a point off the board, the result
and a run of the computer's moves.
"""

from __future__ import annotations

import re

from bot import text
from bot.error_words import board_message
from bot.games import MoveOutcome, computer_name
from bot.i18n import N_, SOURCE, Message, Text, _, translate
from engine import Game, InvalidPointError, OffBoardError, Player, PointMistake

HEADING_AT_ONE_KEYBOARD = N_("Commands (the player to move types them):")
HEADING_AGAINST_COMPUTER = N_("Commands (type them on your turn):")
COMMANDS = N_("""\
  B7 or move B7   place a dot (column letter, row number; row 1 is at the bottom)
  end             end: you make no more moves (asks to confirm; under grounding rules a stop)
  resign          resign: your opponent wins (asks to confirm)
  board           show the board again""")
UNDO = N_("  undo            take back your last move and the computer's reply")
PUZZLE = N_("  puzzle          a puzzle to solve at your level (the game waits)")
LAST_COMMANDS = N_("""\
  help            this list
  quit            leave (so do Ctrl-D and Ctrl-C); the game is saved and `{command}`
                  offers to continue it""")

# What a terminal without line editing puts into a line: escape sequences (the arrow keys'
# ESC [ A, function keys' ESC O P, ...) and other control characters.
_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|O.|[@-_]?)|[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# A row 0 (``A0``): a well-formed name that lies off every board.
_ROW_ZERO = re.compile(r"[A-Za-z]{1,2}\s*0+")


def help_text(locale: str = SOURCE, *, computer: bool, command: str = "dots-bot local") -> str:
    """The commands: against the computer ``undo`` too, and who types them; ``command``: how
    to start the terminal again, as it was started."""
    heading = HEADING_AGAINST_COMPUTER if computer else HEADING_AT_ONE_KEYBOARD
    last = Message(LAST_COMMANDS, {"command": command})
    parts = [heading, COMMANDS, *([UNDO] if computer else []), PUZZLE, last]
    return "\n".join(translate(locale, part) for part in parts)


def clean_line(line: str) -> str:
    """A typed line as the player meant it: no escape sequences or control characters (never
    echoed back raw), no Discord code quotes (`` `B7` `` is ``B7``), no spaces at either end."""
    return _ESCAPES.sub("", line).replace("`", "").strip()


def point_error(error: ValueError, game: Game) -> Text:
    """What is wrong with a point typed in ``game``: a row 0 is off the board, as row 11 of a
    10-row board is (the engine calls it not a point); otherwise the engine's error's words."""
    if (
        isinstance(error, InvalidPointError)
        and not isinstance(error, OffBoardError)
        and error.mistake is PointMistake.LETTER_AND_NUMBER
        and _ROW_ZERO.fullmatch(error.text)
    ):
        return _(
            "{point} is off the board: {board}",
            point=error.text.replace(" ", "").upper(),
            board=board_message(game.width, game.height),
        )
    return text.error_message(error)


def result_line(
    game: Game, names: dict[Player, str], *, computer: Player | None, locale: str = SOURCE
) -> str:
    """The result; against the computer the player is congratulated when they win, and told
    the computer won when it did (at one keyboard, the winner by colour)."""
    result = game.result
    assert result is not None
    if computer is None or result.winner is None:
        return text.result_line(result, names, locale=locale)
    said, name = text.describe_result(result, locale=locale), names[computer]
    if result.winner is computer:
        message = _(
            "{result}. {name} wins this time: better luck in the next game!", result=said, name=name
        )
    else:
        message = _("{result}. Well played: you beat {name}!", result=said, name=name)
    return translate(locale, message)


def run_line(outcomes: tuple[MoveOutcome, ...], names: dict[Player, str], locale: str) -> str:
    """A run of the computer's moves in one go: the dots it played on alone before its last
    action (``"Computer (easy) plays on alone: D5, E6 (captures 2)."``), then that action."""
    last = outcomes[-1]
    said = text.action_line(last.view.game, names, locale=locale)
    dots = text.run_dots(outcomes[:-1], locale)
    computer = (
        last.view.to_move_id if last.action is None else last.view.user_of(last.action.player)
    )
    if not dots or computer is None:
        return said
    alone = _(
        "{name} plays on alone: {dots}.", name=computer_name(computer, locale), dots=", ".join(dots)
    )
    return translate(locale, alone) + " " + said
