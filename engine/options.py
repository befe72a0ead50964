"""A game's options, named once: rules, starts, colours, the computer's levels, end reasons.

Each is a ``StrEnum`` whose values are the words stored in the database and offered as slash
command and command-line choices; ``description`` is what a player reads beside the choice.
``check_options`` is the one check of a new game's size, rules and start.
"""

from __future__ import annotations

import enum
from typing import Self

from engine.errors import SizeRangeError, UnknownOptionError

MIN_SIZE = 5
MAX_SIZE = 52


class _Option(enum.StrEnum):
    """An option chosen by name; ``parse`` reads the name and refuses any other text."""

    @classmethod
    def noun(cls) -> str:
        """What one of these is called in a message, e.g. ``"rule set"``."""
        return cls.__name__.lower()

    @property
    def description(self) -> str:
        """The player-facing description shown beside the choice."""
        return self.value

    @classmethod
    def choices(cls) -> str:
        """The names to choose from as a phrase: ``"standard or grounding"``."""
        names = [member.value for member in cls]
        return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]

    @classmethod
    def parse(cls, text: str) -> Self:
        """The option named ``text`` (any case, spaces around ignored).

        Raises:
            UnknownOptionError: no option of this kind has that name.
        """
        try:
            return cls(str(text).strip().lower())
        except ValueError:
            raise UnknownOptionError(cls, str(text).strip()[:30]) from None


class Rules(_Option):
    """The rule sets: standard (both end) or grounding (a stop, rule 8)."""

    STANDARD = "standard"
    GROUNDING = "grounding"

    @classmethod
    def noun(cls) -> str:
        """What a rule set is called in a message."""
        return "rule set"

    @property
    def description(self) -> str:
        """What the rules mean for a player, in a few words."""
        return _RULES[self]


class Start(_Option):
    """The starting positions of rule 9."""

    EMPTY = "empty"
    CROSS = "cross"
    DOUBLE_CROSS = "double-cross"
    TRIPLE_CROSS = "triple-cross"
    FOUR_CROSSES = "four-crosses"

    @classmethod
    def noun(cls) -> str:
        """What a start is called in a message."""
        return "start position"

    @property
    def description(self) -> str:
        """The start in a few words."""
        return _STARTS[self]

    @property
    def is_random(self) -> bool:
        """Whether the start is drawn at random, so that a game needs a seed to place it."""
        return self is Start.FOUR_CROSSES


class Colour(_Option):
    """The colour a player asks for at a challenge; ``RANDOM`` is drawn at the start."""

    PINK = "pink"
    BLUE = "blue"
    RANDOM = "random"

    @property
    def description(self) -> str:
        """The colour as a player reads it, e.g. ``"Pink (moves first)"``."""
        return _COLOURS[self]


class Level(_Option):
    """The computer's levels of play."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"

    @property
    def description(self) -> str:
        """How the level plays, in a few words."""
        return _LEVELS[self]


class EndReason(_Option):
    """Why a game ended (rules 6, 7.2 and 8.2)."""

    ENDED = "ended"
    RESIGNED = "resigned"
    TIME = "time"
    BOARD_FULL = "board full"
    STOP = "stop"
    AGREEMENT = "agreement"  # a draw both players agreed to

    @classmethod
    def noun(cls) -> str:
        """What an end reason is called in a message."""
        return "reason a game ends"

    @property
    def description(self) -> str:
        """The reason as a result says it: ``"Pink wins 5–3 (both ended)"``."""
        return _REASONS[self]


_RULES = {
    Rules.STANDARD: "end and let the other play on",
    Rules.GROUNDING: "a stop hands over ungrounded dots",
}
_STARTS = {
    Start.EMPTY: "an empty board",
    Start.CROSS: "one cross in the centre",
    Start.DOUBLE_CROSS: "two crosses side by side in the centre",
    Start.TRIPLE_CROSS: "three crosses in the centre",
    Start.FOUR_CROSSES: "four crosses at random in the central half",
}
_COLOURS = {
    Colour.PINK: "Pink (moves first)",
    Colour.BLUE: "Blue",
    Colour.RANDOM: "a random colour",
}
_LEVELS = {
    Level.EASY: "takes what it is given",
    Level.MEDIUM: "sees your threats coming",
    Level.HARD: "thinks longer",
}
_REASONS = {
    EndReason.ENDED: "both ended",
    EndReason.RESIGNED: "resignation",
    EndReason.TIME: "time ran out",
    EndReason.BOARD_FULL: "the board is full",
    EndReason.STOP: "a stop",
    EndReason.AGREEMENT: "by agreement",
}


def check_size(width: int, height: int, smallest: int = MIN_SIZE) -> None:
    """Refuse a board size outside rule 1.1 (``smallest`` lowers the minimum for analysis).

    Raises:
        SizeRangeError: the size is out of range.
    """
    if not (smallest <= width <= MAX_SIZE and smallest <= height <= MAX_SIZE):
        raise SizeRangeError(width, height, MIN_SIZE, MAX_SIZE)
