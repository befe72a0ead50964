"""Terminal mode: two players at one keyboard, or one against the computer (``--computer``),
over the same GameService and database.

The two local players are fixed pseudo users (ids 1 and 2) in a pseudo server (id 1); Discord
ids are snowflakes far above these, so local games never mix with a server's games or ratings.
Against the computer the player is user 1 and the computer its negative pseudo id. Each action
prints a text board and writes the picture as a PNG whose path is printed.

Options left out on the command line are None in ``LocalOptions``: they do not restrict which
saved game is offered, and a new game takes the defaults.

The package: ``options`` (the command line), ``game`` (the game at the keyboard and
``play_local``), ``interrupts`` (Ctrl-C and reading lines), ``board`` (the text board and its
legend, with the colours' initials of the game's language), ``words`` (the help, typed lines
cleaned, and what the terminal says beyond ``bot.text``), ``review`` (the review offered at the
end of a game) and ``puzzle`` (the ``puzzle`` command).
"""

from __future__ import annotations

from bot.local.board import board_text, legend
from bot.local.game import NAMES, SORRY, LocalGame, play_local
from bot.local.interrupts import Interrupts, Read, Write
from bot.local.options import (
    BLUE_USER_ID,
    DEFAULT_SIZE,
    LOCAL_CHANNEL_ID,
    LOCAL_GUILD_ID,
    PINK_USER_ID,
    LocalOptions,
    add_arguments,
    options_from,
    size_argument,
)
from bot.local.words import clean_line, help_text

__all__ = [
    "BLUE_USER_ID",
    "DEFAULT_SIZE",
    "LOCAL_CHANNEL_ID",
    "LOCAL_GUILD_ID",
    "NAMES",
    "PINK_USER_ID",
    "SORRY",
    "Interrupts",
    "LocalGame",
    "LocalOptions",
    "Read",
    "Write",
    "add_arguments",
    "board_text",
    "clean_line",
    "help_text",
    "legend",
    "options_from",
    "play_local",
    "size_argument",
]
