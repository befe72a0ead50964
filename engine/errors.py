"""The errors the engine raises, one class per cause; all are ValueErrors (RULES.md 1.2, 2.2)."""

from __future__ import annotations


class DotsError(ValueError):
    """Base of every refusal the engine makes; the message is written for players."""


class OptionError(DotsError):
    """A game option that is unknown or out of range: a size (rule 1.1), rules, a start that
    does not fit the board (rule 9), a colour or a level."""


class InvalidPointError(DotsError):
    """A point name that is not a point at all (rule 1.2), e.g. ``"hello"`` or ``"7B"``."""


class IllegalMoveError(DotsError):
    """A move that the rules forbid (rule 2.2 and the turn order of rule 6)."""


class OffBoardError(IllegalMoveError, InvalidPointError):
    """A well-formed point that lies outside this board (rules 1.2, 2.2)."""


class OccupiedError(IllegalMoveError):
    """The point already holds a dot (rule 2.2)."""


class InsideBaseError(IllegalMoveError):
    """The point lies inside a base, so nobody may play there (rules 2.2, 4.3)."""


class GameOverError(IllegalMoveError):
    """The game is over (rule 6.3): no action can be taken."""


class NotYourTurnError(IllegalMoveError):
    """It is the other player's turn (rules 2.1, 6.2)."""


class StopNotAllowedError(IllegalMoveError):
    """A stop under grounding rules before the player has placed five dots (rule 8.2)."""
