"""The refusals of the game service: one base class, one subclass per cause.

A refusal changes nothing. Its message is written for the player who asked: a
``bot.i18n.Message`` (or a catalogue constant), or the engine's error itself, which
``bot.error_words.error_message`` words by its type and fields. The adapter renders it in the
player's language with ``refusal.render(locale)``; ``str(error)`` is the English text.
"""

from __future__ import annotations

from bot.error_words import error_message
from bot.i18n import SOURCE, Text, translate
from engine import DotsError, GameOverError, NotYourTurnError


class Refusal(Exception):  # noqa: N818 (a refusal is not an error of the bot)
    """Base of every refusal; ``render(locale)`` is a message fit to show the player."""

    def __init__(self, message: Text | DotsError = "") -> None:
        self.message: Text = error_message(message) if isinstance(message, DotsError) else message
        super().__init__(str(message))

    def render(self, locale: str = SOURCE) -> str:
        """The message in ``locale``, looked up in the catalogue."""
        return translate(locale, self.message)


class NoSuchGame(Refusal):
    """No game has that id (or it is in another server)."""


class NoSuchChallenge(Refusal):
    """No challenge has that id."""


class NotYourGame(Refusal):
    """The user does not play in this game."""


class NotYourTurn(Refusal):
    """It is the other player's turn."""


class GameOver(Refusal):
    """The game is over (or was aborted): nothing more can be done in it."""


class NotYourChallenge(Refusal):
    """Only the challenged player may accept or decline; only the challenger may cancel."""


class ChallengeClosed(Refusal):
    """The challenge was already accepted, declined, cancelled or has expired."""


class CannotChallengeSelf(Refusal):
    """A player cannot challenge themselves."""


class CannotChallengeBot(Refusal):
    """Other bots cannot be challenged (the bot itself means a game against the computer)."""


class ChallengeExists(Refusal):
    """There is already an open challenge between these two players in this server."""


class OptionOutOfRange(Refusal):
    """A game option is out of range: size, rules, start, move clock or colour."""


class IllegalMove(Refusal):
    """The engine refused the move (a bad point, occupied, inside a base, stop too early)."""


class TooLateToAbort(Refusal):
    """A game can be aborted only before its first move."""


class GameChanged(Refusal):
    """The game changed under the action (another process wrote to it); look again and retry."""


class NotAgainstComputer(Refusal):
    """Taking moves back is only for unrated games against the computer."""


class NothingToUndo(Refusal):
    """There is no move of the player (and reply of the computer) to take back."""


def refusal_of(error: DotsError) -> Refusal:
    """The service's refusal of an action the engine refused, by the error's type: the game is
    over, not your turn, or an illegal move (its words chosen by ``error_message``)."""
    if isinstance(error, GameOverError):
        return GameOver(error)
    if isinstance(error, NotYourTurnError):
        return NotYourTurn(error)
    return IllegalMove(error)
