"""The errors the engine raises, one class per cause; all are ValueErrors (RULES.md 1.2, 2.2).

Each error carries what went wrong as fields (the point, the board's size, the option and the
text given), so a reader in another language is told the same thing by the error's type and
fields; ``str(error)`` is the engine's English sentence, built from those fields.
"""

from __future__ import annotations

import enum
from typing import Protocol

from engine.names import describe_board as _board_words


class _Point(Protocol):
    """A point as the errors read it (``engine.point.Point``, which imports this module)."""

    @property
    def x(self) -> int: ...
    @property
    def y(self) -> int: ...
    @property
    def name(self) -> str: ...


class _Player(Protocol):
    """A player as the errors read it (``engine.point.Player``)."""

    @property
    def label(self) -> str: ...


class DotsError(ValueError):
    """Base of every refusal the engine makes; the message is written for players."""

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled with its fields (a search in a worker process may raise one): the
        subclasses' constructors take fields, not the message that ``args`` holds."""
        return _unpickle_error, (type(self), self.args, dict(self.__dict__))


def _unpickle_error(
    cls: type[DotsError], args: tuple[object, ...], fields: dict[str, object]
) -> DotsError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(fields)
    return error


class OptionError(DotsError):
    """A game option that is unknown or out of range: a size (rule 1.1), rules, a start that
    does not fit the board (rule 9), a colour or a level."""


class UnknownOptionError(OptionError):
    """Text that names no option of its kind: ``option`` is the enum (``Rules``, ``Start``,
    ``Colour``, ``Level``, ...), ``text`` the text given (at most 30 characters), ``listed``
    the choices as the message lists them (``"standard or grounding"`` unless given)."""

    def __init__(self, option: type[enum.StrEnum], text: str, listed: str | None = None) -> None:
        self.option = option
        self.text = text
        names = [member.value for member in option]
        if listed is None:
            listed = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
        self.listed = listed
        noun = str(getattr(option, "noun", option.__name__.lower)())
        super().__init__(f"`{text}` is not a {noun}: choose {listed}")

    @property
    def choices(self) -> tuple[enum.StrEnum, ...]:
        """The options of this kind, in their order."""
        return tuple(self.option)


class SizeFormatError(OptionError):
    """Text that is not a board size (``text``, at most 20 characters); ``foreign_digits``:
    its numbers are written with digits other than 0-9."""

    def __init__(self, text: str, *, foreign_digits: bool = False) -> None:
        self.text = text
        self.foreign_digits = foreign_digits
        if foreign_digits:
            super().__init__(
                f"`{text}` is not a board size: write the numbers with the digits 0-9, like 20x20"
            )
        else:
            super().__init__(f"`{text}` is not a board size: write it like 20x20")


class SizeRangeError(OptionError):
    """A board size outside rule 1.1: ``smallest`` to ``largest`` points a side."""

    def __init__(self, width: int, height: int, smallest: int, largest: int) -> None:
        self.width, self.height = width, height
        self.smallest, self.largest = smallest, largest
        super().__init__(
            f"a board is {smallest} to {largest} points wide and high; {width}x{height} is not"
        )


class StartFitError(OptionError):
    """A start that cannot be set up on a ``width`` x ``height`` board (four crosses, rule 9.2)."""

    def __init__(self, start: enum.StrEnum, width: int, height: int) -> None:
        self.start = start
        self.width, self.height = width, height
        super().__init__(
            f"four crosses do not fit on a {width}x{height} board: choose a bigger board"
        )


class PointMistake(enum.Enum):
    """What is wrong with a point name, for the words that say how to write one."""

    NOT_A_NAME = "not a name"  # not text at all
    NOT_A_PAIR = "not a pair"  # not text and not a pair of coordinates
    ROW_DIGITS = "row digits"  # the row written with digits other than 0-9
    # a letter of another script with no Latin twin (``Д5``): typed on another keyboard layout
    LATIN_LETTERS = "latin letters"
    LETTER_AND_NUMBER = "letter and number"  # any other text
    OFF_BOARD = "off board"  # a well-formed point that lies outside the board


class InvalidPointError(DotsError):
    """A point name that is not a point at all (rule 1.2), e.g. ``"hello"`` or ``"7B"``.

    ``text`` is what was given as it is shown (at most 20 characters; empty for an empty name),
    ``mistake`` what is wrong with it, ``width``/``height`` the board when it is known.
    """

    def __init__(
        self,
        text: str,
        mistake: PointMistake = PointMistake.LETTER_AND_NUMBER,
        width: int | None = None,
        height: int | None = None,
    ) -> None:
        self.text, self.mistake = text, mistake
        self.width, self.height = width, height
        super().__init__(self._english())

    @property
    def board(self) -> tuple[int, int] | None:
        """The board's ``(width, height)`` when it is known."""
        return None if self.width is None or self.height is None else (self.width, self.height)

    def _english(self) -> str:
        if self.mistake is PointMistake.NOT_A_NAME:
            return f"{self.text} is not a point name"
        if self.mistake is PointMistake.NOT_A_PAIR:
            return f"{self.text} is not a point: name one like B7"
        shown = f"`{self.text}`" if self.text else "An empty name"
        hint = f" ({_board_words(*self.board)})" if self.board and all(self.board) else ""
        if self.mistake is PointMistake.ROW_DIGITS:
            how = "write the row number with the digits 0-9"
        elif self.mistake is PointMistake.LATIN_LETTERS:
            how = "write the column with Latin letters (switch the keyboard layout)"
        else:
            how = "a point is a column letter and a row number"
        return f"{shown} is not a point: {how}, like B7{hint}"


class IllegalMoveError(DotsError):
    """A move that the rules forbid (rule 2.2 and the turn order of rule 6)."""


class OffBoardError(IllegalMoveError, InvalidPointError):
    """A well-formed point that lies outside this board (rules 1.2, 2.2): ``point`` and the
    board's ``width`` and ``height``."""

    def __init__(self, point: _Point, width: int, height: int) -> None:
        self.point = point
        shown = point.name if point.x >= 0 and point.y >= 0 else f"({point.x}, {point.y})"
        self.text, self.mistake = shown, PointMistake.OFF_BOARD
        self.width, self.height = width, height
        ValueError.__init__(self, f"{shown} is off the board: {_board_words(width, height)}")


class OccupiedError(IllegalMoveError):
    """The point already holds a dot (rule 2.2)."""

    def __init__(self, point: _Point) -> None:
        self.point = point
        super().__init__(f"{point.name} is already taken")


class InsideBaseError(IllegalMoveError):
    """The point lies inside a base, so nobody may play there (rules 2.2, 4.3)."""

    def __init__(self, point: _Point) -> None:
        self.point = point
        super().__init__(f"{point.name} is inside a base: nobody may play there")


class GameOverError(IllegalMoveError):
    """The game is over (rule 6.3): no action can be taken (the message is always the same;
    it may be passed, as the computer player does)."""

    def __init__(self, message: str = "the game is over") -> None:
        super().__init__(message)


class NotYourTurnError(IllegalMoveError):
    """It is the other player's turn (rules 2.1, 6.2): ``mover`` is to move, not ``player``."""

    def __init__(self, mover: _Player, player: _Player) -> None:
        self.mover, self.player = mover, player
        super().__init__(f"it is {mover.label}'s turn, not {player.label}'s")


class StopNotAllowedError(IllegalMoveError):
    """A stop under grounding rules before the player has placed ``needed`` dots (rule 8.2):
    they have placed ``placed``."""

    def __init__(self, needed: int, placed: int) -> None:
        self.needed, self.placed = needed, placed
        super().__init__(
            f"a stop is allowed once you have placed {needed} dots (you have placed {placed})"
        )


class NoStopsError(StopNotAllowedError):
    """A stop asked for under rules that have none (stops are rule 8's, grounding only)."""

    def __init__(self) -> None:
        self.needed, self.placed = 0, 0
        ValueError.__init__(self, "stops are part of the grounding rules only")
