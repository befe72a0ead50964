"""The engine's refusals in the reader's language, chosen by the error's type and fields.

The engine writes its errors in English (``str(error)``) and carries what went wrong as fields
(``OccupiedError.point``, ``OffBoardError.width``, ``UnknownOptionError.option``, ...).
``error_message`` reads those fields, never the English text, into a catalogue ``Message``, so
rewording an engine sentence cannot silently lose its translation.
"""

from __future__ import annotations

from bot.i18n import N_, Message, Text, _
from bot.option_words import words_of
from engine import (
    Colour,
    GameOverError,
    InsideBaseError,
    InvalidPointError,
    Level,
    NoStopsError,
    NotYourTurnError,
    OccupiedError,
    OffBoardError,
    PointMistake,
    Rules,
    SizeFormatError,
    SizeRangeError,
    Start,
    StartFitError,
    StopNotAllowedError,
    UnknownOptionError,
    column_name,
)

# What each kind of option is called in "`x` is not a {noun}: choose {choices}".
_NOUNS = {
    Rules: N_("rule set"),
    Start: N_("start position"),
    Colour: N_("colour"),
    Level: N_("level"),
}
_COLOURS = {1: N_("Pink"), 2: N_("Blue")}


def board_message(width: int, height: int) -> Message:
    """What the points of a board are called: ``"columns are A–J, rows 1–10"``."""
    return _("columns are A–{last}, rows 1–{height}", last=column_name(width - 1), height=height)


def error_message(error: BaseException) -> Text:
    """The catalogue entry that says what ``error`` (an engine error, or an error of the bot's
    own that carries a ``message``) means; any other error's English text as it is."""
    if isinstance(error, OffBoardError):
        return _(
            "{point} is off the board: {board}",
            point=error.text,
            board=board_message(error.width, error.height),
        )
    if isinstance(error, InvalidPointError):
        return _point_message(error)
    if isinstance(error, OccupiedError):
        return _("{point} is already taken", point=error.point.name)
    if isinstance(error, InsideBaseError):
        return _("{point} is inside a base: nobody may play there", point=error.point.name)
    if isinstance(error, GameOverError):
        return N_("the game is over")
    if isinstance(error, NotYourTurnError):
        return _(
            "it is {mover}'s turn, not {player}'s",
            mover=Message(_COLOURS[error.mover]),
            player=Message(_COLOURS[error.player]),
        )
    if isinstance(error, NoStopsError):
        return N_("stops are part of the grounding rules only")
    if isinstance(error, StopNotAllowedError):
        return _(
            "a stop is allowed once you have placed {n} dots (you have placed {placed})",
            n=error.needed,
            placed=error.placed,
        )
    return _option_message(error)


# How to write a point, by the mistake made and whether the board is known (then named).
_HOW_TO_WRITE = {
    (PointMistake.ROW_DIGITS, True): N_(
        "{shown} is not a point: write the row number with the digits 0-9, like B7 ({board})"
    ),
    (PointMistake.ROW_DIGITS, False): N_(
        "{shown} is not a point: write the row number with the digits 0-9, like B7"
    ),
    (PointMistake.LATIN_LETTERS, True): N_(
        "{shown} is not a point: write the column with Latin letters (switch the keyboard "
        "layout), like B7 ({board})"
    ),
    (PointMistake.LATIN_LETTERS, False): N_(
        "{shown} is not a point: write the column with Latin letters (switch the keyboard "
        "layout), like B7"
    ),
    (PointMistake.LETTER_AND_NUMBER, True): N_(
        "{shown} is not a point: a point is a column letter and a row number, like B7 ({board})"
    ),
    (PointMistake.LETTER_AND_NUMBER, False): N_(
        "{shown} is not a point: a point is a column letter and a row number, like B7"
    ),
}


def _point_message(error: InvalidPointError) -> Text:
    if error.mistake is PointMistake.NOT_A_NAME:
        return _("{shown} is not a point name", shown=error.text)
    if error.mistake is PointMistake.NOT_A_PAIR:
        return _("{shown} is not a point: name one like B7", shown=error.text)
    shown: Text = f"`{error.text}`" if error.text else Message(N_("An empty name"))
    board = error.board if error.board and all(error.board) else None
    fields: dict[str, Text] = {"shown": shown}
    if board is not None:
        fields["board"] = board_message(*board)
    return Message(_HOW_TO_WRITE[error.mistake, board is not None], fields)


def _option_message(error: BaseException) -> Text:
    if isinstance(error, UnknownOptionError):
        noun = _NOUNS.get(error.option)  # type: ignore[arg-type]
        if noun is None:
            return str(error)
        return _(
            "{shown} is not a {noun}: choose {choices}",
            shown=f"`{error.text}`",
            noun=Message(noun),
            choices=error.listed,
        )
    if isinstance(error, SizeFormatError):
        if error.foreign_digits:
            return _(
                "{shown} is not a board size: write the numbers with the digits 0-9, like 20x20",
                shown=f"`{error.text}`",
            )
        return _("{shown} is not a board size: write it like 20x20", shown=f"`{error.text}`")
    if isinstance(error, SizeRangeError):
        return _(
            "a board is {smallest} to {largest} points wide and high; {size} is not",
            smallest=error.smallest,
            largest=error.largest,
            size=f"{error.width}x{error.height}",
        )
    if isinstance(error, StartFitError):
        return _(
            "four crosses do not fit on a {width}x{height} board: choose a bigger board",
            width=error.width,
            height=error.height,
        )
    message = getattr(error, "message", None)
    if isinstance(message, Message | str) and message:
        return message
    return str(error)


__all__ = ["board_message", "error_message", "words_of"]
