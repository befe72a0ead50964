"""The options of a new game as slash-command choices, and their conversion to GameOptions.

The choices derive from the engine's option enums (``engine.options``): one source per fact.

Shared by /challenge, /play-computer and /dots-admin (the clock).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from discord import app_commands

from bot import text
from bot.games import MAX_CLOCK, MIN_CLOCK, GameOptions, Refusal
from bot.games.game_clock import GameClock
from bot.i18n import N_, _, ngettext
from engine import NAMED_SIZES, Colour, Level, OptionError, Rules, Start, parse_size

SIZE_CHOICES = [app_commands.Choice(name=name, value=name) for name in NAMED_SIZES]
RULES_CHOICES = [
    app_commands.Choice(name=f"{rules}: {rules.description}", value=rules.value) for rules in Rules
]
START_CHOICES = [app_commands.Choice(name=start.value, value=start.value) for start in Start]
CLOCK_CHOICES = [
    app_commands.Choice(name=name, value=int(clock.total_seconds()))
    for name, clock in text.CLOCK_CHOICES.items()
]
# Random first (the default), then the colours as a player reads them, e.g. "pink (moves first)".
COLOUR_CHOICES = [
    app_commands.Choice(
        name=colour.value if colour is Colour.RANDOM else colour.description.lower(),
        value=colour.value,
    )
    for colour in sorted(Colour, key=lambda colour: colour is not Colour.RANDOM)
]
LEVEL_CHOICES = [
    app_commands.Choice(name=f"{level}: {level.description}", value=level.value) for level in Level
]

# The options of a new game, shared by /challenge and /play-computer.
OPTION_DESCRIPTIONS = {
    "size": "Board size (default 10x10)",
    "rules": "Standard (default) or grounding rules",
    "start": "Starting position (default: empty board)",
    "clock": "Time for each move (default: the server's default clock)",
    "colour": "Your colour (Pink moves first; default random)",
    "time": "A game clock instead: total minutes + seconds a move, e.g. 5+5, 10+0, 3d+1d",
}
TAKEBACKS_DESCRIPTION = "Allow takebacks by consent (default: only in unrated games)"
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
    except ValueError as error:
        raise Refusal(str(error)) from None


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
        message = getattr(error, "message", str(error))
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
        Refusal: a size or clock out of range, or both a move clock and a game clock.
    """
    width, height = size_option(size)
    game_clock = time_option(time)
    if game_clock is not None and clock is not None:
        raise Refusal(BOTH_CLOCKS)
    return GameOptions(
        width=width,
        height=height,
        rules=rules,
        start=start,
        clock=clock_option(clock),
        colour=colour,  # type: ignore[arg-type]
        rated=rated,
        game_clock=game_clock,
        takebacks=takebacks,
    )
