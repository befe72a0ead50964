"""The options of a new game as slash-command choices, and their conversion to GameOptions.

The choices derive from the engine's option enums (``engine.options``), named and described by
``bot.option_words``: one source per fact. Discord shows at most 25 choices of at most 100
characters; each list is checked against those limits when the module loads.

Shared by /challenge, /play-computer and /dots-admin (the clock).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from discord import app_commands

from bot import text
from bot.error_words import error_message
from bot.games import MAX_CLOCK, MIN_CLOCK, GameOptions, Refusal
from bot.games.game_clock import GameClock
from bot.i18n import N_, _, ngettext
from bot.option_words import described
from engine import NAMED_SIZES, Colour, Level, OptionError, Rules, Start, parse_size

CHOICES_LIMIT = 25  # Discord's most choices for one option
CHOICE_NAME_LIMIT = 100  # and the longest name of a choice


def _checked(choices: list[app_commands.Choice[Any]]) -> list[app_commands.Choice[Any]]:
    """``choices``, refused at import when Discord would refuse them at the sync."""
    if len(choices) > CHOICES_LIMIT or any(len(c.name) > CHOICE_NAME_LIMIT for c in choices):
        raise ValueError(f"choices beyond Discord's limits: {[c.name for c in choices]}")
    return choices


def _named(option: type[Rules | Start | Level]) -> list[app_commands.Choice[Any]]:
    """``"name: description"`` choices (the translator translates each part)."""
    return _checked(
        [
            app_commands.Choice(name=f"{entry.name}: {entry.description}", value=member.value)
            for member, entry in described(option)
        ]
    )


SIZE_CHOICES = _checked([app_commands.Choice(name=name, value=name) for name in NAMED_SIZES])
RULES_CHOICES = _named(Rules)
START_CHOICES = _checked(
    [app_commands.Choice(name=entry.name, value=start.value) for start, entry in described(Start)]
)
CLOCK_CHOICES = _checked(
    [
        app_commands.Choice(name=name, value=int(clock.total_seconds()))
        for name, clock in text.CLOCK_CHOICES.items()
    ]
)
# Random first (the default), then the colours as a player reads them, e.g. "pink (moves first)".
COLOUR_CHOICES = _checked(
    [
        app_commands.Choice(name=entry.name, value=colour.value)
        for colour, entry in sorted(described(Colour), key=lambda pair: pair[0] != Colour.RANDOM)
    ]
)
LEVEL_CHOICES = _named(Level)

# The options of a new game, shared by /challenge and /play-computer.
OPTION_DESCRIPTIONS = {
    "size": N_("Board size (default 10x10)"),
    "rules": N_("Standard (default) or grounding rules"),
    "start": N_("Starting position (default: empty board)"),
    "clock": N_("Time for each move (default: the server's default clock)"),
    "colour": N_("Your colour (Pink moves first; default random)"),
    "time": N_("A game clock instead: total minutes + seconds a move, e.g. 5+5, 10+0, 3d+1d"),
}
TAKEBACKS_DESCRIPTION = N_("Allow takebacks by consent (default: only in unrated games)")
OPTION_CHOICES: dict[str, list[Any]] = {
    "size": SIZE_CHOICES,
    "rules": RULES_CHOICES,
    "start": START_CHOICES,
    "clock": CLOCK_CHOICES,
    "colour": COLOUR_CHOICES,
}


def size_option(value: str) -> tuple[int, int]:
    """The board size a ``size`` option names (any WxH within rule 1.1, not only the choices).

    Raises:
        Refusal: not a size, or out of range.
    """
    try:
        return parse_size(value)
    except OptionError as error:
        raise Refusal(error) from None


def clock_option(seconds: int | None) -> timedelta | None:
    """The move clock a ``clock`` option gives, checked against 30 seconds to 7 days.

    Raises:
        Refusal: out of range (also a number too large for a duration).
    """
    if seconds is None:
        return None
    if not MIN_CLOCK.total_seconds() <= seconds <= MAX_CLOCK.total_seconds():
        raise Refusal(
            _(
                "a move clock is {least} to {most}",
                least=_("{s} s", s=round(MIN_CLOCK.total_seconds())),
                most=ngettext("{n} day", "{n} days", MAX_CLOCK.days),
            )
        )
    return timedelta(seconds=seconds)


# -- game clocks ---

BOTH_CLOCKS = N_(
    "choose either a clock per move (`clock`) or a game clock (`time`), not both: "
    "a game clock replaces the clock per move"
)


def time_option(value: str | None) -> GameClock | None:
    """The game clock a ``time`` option gives (``"5+5"``: 5 minutes each, 5 seconds a move).

    Raises:
        Refusal: not a game clock, or out of range (the parser's message says how to write it).
    """
    if value is None:
        return None
    try:
        return GameClock.parse(value[:60])
    except OptionError as error:
        message = error_message(error)
        # "'x' is not a game clock: ...": say which option, so the answer reads as a sentence.
        if str(message)[0].isalpha():
            raise Refusal(message) from None
        raise Refusal(_("time: {problem}", problem=message)) from None


def game_options(
    size: str,
    rules: str,
    start: str,
    clock: int | None,
    colour: str,
    *,
    rated: bool,
    time: str | None = None,
    takebacks: bool | None = None,
) -> GameOptions:
    """The GameOptions that a command's options ask for (``time``: a game clock, which
    replaces the clock per move; ``takebacks``: None for the default, see GameOptions).

    Raises:
        Refusal: a size or clock out of range, both a move clock and a game clock, or rules,
            a start or a colour that the engine does not know.
    """
    width, height = size_option(size)
    game_clock = time_option(time)
    if game_clock is not None and clock is not None:
        raise Refusal(BOTH_CLOCKS)
    try:
        chosen = Rules.parse(rules), Start.parse(start), Colour.parse(colour)
    except OptionError as error:
        raise Refusal(error) from None
    return GameOptions(
        width=width,
        height=height,
        rules=chosen[0],
        start=chosen[1],
        clock=clock_option(clock),
        colour=chosen[2],
        rated=rated,
        game_clock=game_clock,
        takebacks=takebacks,
    )
