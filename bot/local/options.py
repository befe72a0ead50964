"""The terminal's command line: ``dots-bot local`` options, their --help in the terminal's
language (the options' words from ``bot.option_words``) and ``LocalOptions``.

Options left out on the command line are None in ``LocalOptions``: they do not restrict which
saved game is offered, and a new game takes the defaults.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from ai import LEVELS
from bot import text
from bot.config import DEFAULT_DATABASE
from bot.games import (
    GameView,
    computer_id,
    is_computer,
)
from bot.i18n import (
    LOCALES,
    N_,
    SOURCE,
    Text,
    _,
    locale_from_environment,
    translate,
)
from bot.option_words import described
from engine import (
    Colour,
    Level,
    OptionError,
    Rules,
    Start,
    check_options,
    parse_size,
)

LOCAL_GUILD_ID = 1
LOCAL_CHANNEL_ID = 1
PINK_USER_ID = 1
BLUE_USER_ID = 2

DEFAULT_SIZE = (10, 10)


@dataclass(frozen=True, slots=True)
class LocalOptions:
    """What `dots-bot local` was asked for; None where an option was not given."""

    size: tuple[int, int] | None = None
    rules: Rules | None = None
    start: Start | None = None
    database: str = "dots.sqlite3"
    out: Path = Path("dots-pictures")
    new: bool = False
    computer: Level | None = None
    colour: Colour | None = None
    locale: str | None = None  # None: the terminal's (LANG, LC_MESSAGES)

    @property
    def width(self) -> int:
        """The width of a new game."""
        return (self.size or DEFAULT_SIZE)[0]

    @property
    def height(self) -> int:
        """The height of a new game."""
        return (self.size or DEFAULT_SIZE)[1]

    def conflicts(self, view: GameView) -> list[str]:
        """What about a saved local game contradicts the options given (empty: it fits)."""
        game = view.game
        found = []
        if self.size is not None and self.size != (game.width, game.height):
            found.append(f"--size {self.size[0]}x{self.size[1]}")
        if self.rules is not None and self.rules != game.rules:
            found.append(f"--rules {self.rules}")
        if self.start is not None and self.start != game.start:
            found.append(f"--start {self.start}")
        opponent = view.blue_id if view.pink_id == PINK_USER_ID else view.pink_id
        if self.computer is not None and opponent != computer_id(self.computer):
            found.append(f"--computer {self.computer}")
        you = view.player_of(PINK_USER_ID)
        colour = None if you is None else you.name.lower()
        chosen = None if self.colour in (None, Colour.RANDOM) else self.colour
        if is_computer(opponent) and chosen is not None and colour != chosen:
            found.append(f"--colour {self.colour}")
        return found


def size_argument(value: str) -> tuple[int, int]:
    """``--size``: a board size such as 20x20 (argparse reports a bad one as a usage error)."""
    try:
        return parse_size(value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `dots-bot local`; one left out takes its default for a new game and does
    not restrict which saved game is offered. The help is in the terminal's language."""
    parser.add_argument(
        "--size",
        type=size_argument,
        default=None,
        help=_say(N_("board size, e.g. 10x10 (default), 39x32")),
    )
    parser.add_argument(
        "--rules",
        default=None,
        choices=[rules.value for rules in Rules],
        help=_say(_("rule set: {choices} (default: standard)", choices=_described(Rules))),
    )
    parser.add_argument(
        "--start",
        default=None,
        choices=[start.value for start in Start],
        help=_say(_("starting position: {choices} (default: empty)", choices=_described(Start))),
    )
    parser.add_argument(
        "--db",
        default=None,
        help=_say(
            _(
                "SQLite file (default: DOTS_DATABASE if set, else {file})",
                file=DEFAULT_DATABASE,
            )
        ),
    )
    parser.add_argument(
        "--out", default="dots-pictures", help=_say(N_("folder for the PNG pictures"))
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help=_say(N_("start a new game even if one is unfinished")),
    )
    parser.add_argument(
        "--computer",
        choices=[level.value for level in Level],
        default=None,
        help=_say(
            _(
                "play against the computer at this level (unrated) instead of two at one "
                "keyboard; it thinks at most {seconds} s a move: {choices}",
                seconds=_seconds(max(level.max_seconds for level in LEVELS.values())),
                choices=_described(Level),
            )
        ),
    )
    parser.add_argument(
        "--colour",
        choices=[colour.value for colour in Colour],
        default=None,
        help=_say(
            _(
                "your colour against the computer: {choices} (default: pink)",
                choices=_described(Colour),
            )
        ),
    )
    parser.add_argument(
        "--lang",
        choices=list(LOCALES),
        default=None,
        help=_say(N_("the language of the game (default: the terminal's, from LANG)")),
    )


def _say(message: Text) -> str:
    """``message`` in the terminal's language (for --help, before --lang is read)."""
    return translate(locale_from_environment(), message)


def _seconds(seconds: float) -> str:
    """A number of seconds as the terminal's language writes it: ``1.5``, Polish ``1,5``."""
    written = f"{seconds:g}"
    return written if locale_from_environment() == SOURCE else written.replace(".", ",")


def _described(options: type[Rules | Start | Level | Colour]) -> str:
    """The choices with what each means, for --help: ``"easy: takes what it is given; ..."``.
    argparse formats help with %, so a literal % is doubled."""
    locale = locale_from_environment()
    return "; ".join(
        f"{option.value}: {translate(locale, entry.description)}"
        for option, entry in described(options)
    ).replace("%", "%%")


def options_from(args: argparse.Namespace, *, database: str) -> LocalOptions:
    """LocalOptions from parsed arguments.

    Raises:
        ValueError: a start that does not fit on the board (the engine's reason), or an option
            that names no choice (argparse refuses those first).
    """
    size = args.size if isinstance(args.size, tuple) else None
    if isinstance(args.size, str):  # a size given as text by a caller that skipped argparse
        size = parse_size(args.size)
    if args.start is not None:
        width, height = size or DEFAULT_SIZE
        try:
            check_options(width, height, args.rules or Rules.STANDARD, args.start)
        except OptionError as error:
            reason = translate(locale_from_environment(), text.error_message(error))
            raise ValueError(f"--start {args.start}: {reason}") from None
    return LocalOptions(
        size=size,
        rules=None if args.rules is None else Rules.parse(args.rules),
        start=None if args.start is None else Start.parse(args.start),
        database=args.db or database,
        out=Path(args.out),
        new=args.new,
        computer=None if args.computer is None else Level.parse(args.computer),
        colour=None if args.colour is None else Colour.parse(args.colour),
        locale=getattr(args, "lang", None),
    )
