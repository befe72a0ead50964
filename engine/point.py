"""Value types: players and points, and the point names of rule 1.2."""

from __future__ import annotations

import enum
import re
import unicodedata
from typing import NamedTuple

from engine.errors import (
    InvalidPointError,
    OffBoardError,
    PointMistake,
    SizeFormatError,
)
from engine.names import column_index, column_name
from engine.options import check_size

_NAME = re.compile(r"([A-Za-z]{1,2})\s*([0-9]{1,3})", re.ASCII)
_SIZE = re.compile(r"([0-9]{1,3})\s*[xX×*]\s*([0-9]{1,3})", re.ASCII)


def normalise(text: str) -> str:
    """``text`` as a player meant it: NFKC (full-width ``Ｂ７`` is ``B7``), without invisible
    characters (zero-width spaces and joiners, marks of direction, soft hyphens, variation
    selectors) and without whitespace at either end; every other space becomes a plain one.

    The invisible characters go first, so that what they held apart is composed as if they
    had never been typed (and normalising again changes nothing)."""
    text = "".join(
        char
        for char in text
        if unicodedata.category(char) != "Cf" and not "\ufe00" <= char <= "\ufe0f"
    )
    text = unicodedata.normalize("NFKC", text)
    return "".join(" " if char.isspace() else char for char in text).strip()


# Cyrillic letters drawn like Latin ones: a player on a Russian or Ukrainian keyboard types
# them for the letter they see (``В7`` for B7, ``20х20`` for 20x20). Each is read as its twin.
_CYRILLIC = "АВЕКМНОРСТУХІЅЈ"
_LATIN = "ABEKMHOPCTYXISJ"
LOOK_ALIKES: dict[str, str] = dict(
    zip(_CYRILLIC + _CYRILLIC.lower(), _LATIN + _LATIN.lower(), strict=True)
)
_LOOK_ALIKE_TABLE = str.maketrans(LOOK_ALIKES)


def normalise_point(text: str) -> str:
    """Typed point (or size) text as the engine reads it: ``normalise``, then every Cyrillic
    letter that looks like a Latin one (``LOOK_ALIKES``) as that letter; ``"В 7"`` is ``"B 7"``.
    The one normalisation of point text: every reader of a typed point goes through it."""
    return normalise(text).translate(_LOOK_ALIKE_TABLE)


def _foreign_letters(text: str) -> bool:
    """Whether ``text`` holds a letter of another script than Latin (``Д``, ``Ж``, ``λ``): one
    that a keyboard layout other than a Latin one types, and that has no Latin twin."""
    return any(
        char.isalpha() and not unicodedata.name(char, "").startswith("LATIN") for char in text
    )


def _foreign_digits(text: str) -> bool:
    """Whether ``text`` holds digits other than 0-9 (that NFKC did not map to them)."""
    return any(char.isdigit() and not "0" <= char <= "9" for char in text)


class Player(enum.IntEnum):
    """One of the two players; Pink moves first (rule 1.3)."""

    PINK = 1
    BLUE = 2

    @property
    def opponent(self) -> Player:
        """The other player."""
        return Player.BLUE if self is Player.PINK else Player.PINK

    @property
    def label(self) -> str:
        """The player's name as shown to people: ``"Pink"`` or ``"Blue"``."""
        return self.name.capitalize()

    @classmethod
    def parse(cls, text: str) -> Player:
        """Read ``"pink"``/``"blue"`` (any case).

        Raises:
            ValueError: for any other text.
        """
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"{text!r} is not a player: say pink or blue") from None


class Point(NamedTuple):
    """A point: ``x`` is the column from the left, ``y`` the row from the bottom, both 0-based."""

    x: int
    y: int

    @property
    def name(self) -> str:
        """The name of rule 1.2, e.g. ``"B7"``."""
        return f"{column_name(self.x)}{self.y + 1}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        """``Point.parse('B7')``; a point that has no name shows its coordinates."""
        if 0 <= self.x < 26 * 27 and 0 <= self.y < 999:
            return f"Point.parse({self.name!r})"
        return f"Point(x={self.x}, y={self.y})"

    @classmethod
    def parse(cls, text: str, width: int | None = None, height: int | None = None) -> Point:
        """Read a point name such as ``"B7"``, ``"b7"``, ``"B 7"`` or ``"Ｂ７"`` (rule 1.2).

        The text is normalised first (``normalise_point``): NFKC, no whitespace, no invisible
        characters, Cyrillic look-alikes (``В7``) read as their Latin twins. Letters must be
        A-Z and digits 0-9 after that.

        With ``width`` and ``height`` the point must also lie on that board.

        Raises:
            InvalidPointError: the text is not a point name (``mistake`` says why: letters of
                another script, digits other than 0-9, or no letter and number).
            OffBoardError: the point is not on the board of the given size.
        """
        if not isinstance(text, str):
            raise InvalidPointError(repr(text), PointMistake.NOT_A_NAME)
        shown = normalise(text)
        cleaned = normalise_point(shown)
        match = _NAME.fullmatch(cleaned)
        if match is None or int(match.group(2)) == 0:
            if _foreign_letters(cleaned):
                mistake = PointMistake.LATIN_LETTERS
            elif _foreign_digits(cleaned):
                mistake = PointMistake.ROW_DIGITS
            else:
                mistake = PointMistake.LETTER_AND_NUMBER
            raise InvalidPointError(shown[:20], mistake, width, height)
        point = cls(column_index(match.group(1)), int(match.group(2)) - 1)
        if width is not None and height is not None and not point.is_on(width, height):
            raise OffBoardError(point, width, height)
        return point

    def is_on(self, width: int, height: int) -> bool:
        """Whether the point lies on a board of this size."""
        return 0 <= self.x < width and 0 <= self.y < height


NAMED_SIZES: dict[str, tuple[int, int]] = {
    "10x10": (10, 10),
    "16x16": (16, 16),
    "20x20": (20, 20),
    "24x24": (24, 24),
    "30x30": (30, 30),
    "39x32": (39, 32),
}


def parse_size(text: str) -> tuple[int, int]:
    """Read a board size such as ``"20x20"``, ``"39 x 32"`` or ``"２０ｘ２０"`` (rule 1.1).

    The text is normalised as point names are (``normalise_point``: ``20х20`` with a Cyrillic
    х is 20x20); digits must then be 0-9.

    Raises:
        SizeFormatError: not a size.
        SizeRangeError: out of range.
    """
    cleaned = normalise_point(text or "")
    match = _SIZE.fullmatch(cleaned)
    if match is None:
        raise SizeFormatError(cleaned[:20], foreign_digits=_foreign_digits(cleaned))
    width, height = int(match.group(1)), int(match.group(2))
    check_size(width, height)
    return width, height
