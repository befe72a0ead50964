"""The terminal's text board and its legend, in the game's language.

A dot is the initial of its colour's name (``P``/``B``, Polish ``R``/``N``, Russian and
Ukrainian ``Р``/``С``), a captured dot that letter in lower case, ``+``/``-`` an empty point
inside a Pink/Blue base, ``.`` a free point, ``x`` a dot that a stop hands over (or would, in a
stop's preview); the last dot is in brackets, ``[P]``. Column letters and row numbers stay the
Latin ones that a point is typed with.
"""

from __future__ import annotations

from collections.abc import Collection

from bot import text
from bot.i18n import SOURCE, _, translate
from engine import Game, Player, Point, column_name

CROSS = "x"


def initials(locale: str = SOURCE) -> dict[Player, str]:
    """The letter of each colour's dots: the initial of its name in ``locale``."""
    return {player: text.label(player, locale)[:1].upper() for player in Player}


def legend(locale: str = SOURCE, *, crosses: bool = False) -> str:
    """What the board's symbols mean, with the colours' initials of ``locale``."""
    letters = initials(locale)
    said = translate(
        locale,
        _(
            "{pink}/{blue}: Pink's/Blue's dots · {pink_captured}/{blue_captured}: captured · "
            "+/-: inside a Pink/Blue base · .: free · [ ]: last dot",
            pink=letters[Player.PINK],
            blue=letters[Player.BLUE],
            pink_captured=letters[Player.PINK].lower(),
            blue_captured=letters[Player.BLUE].lower(),
        ),
    )
    if crosses:
        said += " · " + translate(locale, _("{cross}: handed over by the stop", cross=CROSS))
    return said


def board_text(
    game: Game,
    *,
    last: Point | None = None,
    crosses: Collection[Point] = (),
    locale: str = SOURCE,
) -> str:
    """The board as text with column letters and row numbers (row 1 at the bottom); the dot
    at ``last`` in brackets, the dots in ``crosses`` (handed over by a stop) as ``x``."""
    board = game.board
    letters = initials(locale)
    symbols = {
        "P": letters[Player.PINK],
        "B": letters[Player.BLUE],
        "p": letters[Player.PINK].lower(),
        "b": letters[Player.BLUE].lower(),
    }
    rows = [row.split() for row in board.picture().splitlines()]
    width = max(len(column_name(x)) for x in range(board.width)) + 1
    number_width = len(str(board.height))
    header = " " * number_width + "".join(column_name(x).rjust(width) for x in range(board.width))
    lines = [header]
    for index, row in enumerate(rows):
        y = board.height - 1 - index
        shown = [
            CROSS if Point(x, y) in crosses else symbols.get(cell, cell)
            for x, cell in enumerate(row)
        ]
        cells = [cell.rjust(width) for cell in shown]
        if last is not None and last.y == y:
            # Each cell has at least one space before it: the brackets take the space before the
            # marked cell and the one before the next cell, so every column stays in place.
            x = last.x
            cells[x] = cells[x][:-2] + "[" + cells[x][-1]
            if x + 1 < len(cells):
                cells[x + 1] = "]" + cells[x + 1][1:]
            else:
                cells[x] += "]"
        lines.append(f"{y + 1:>{number_width}}{''.join(cells)}")
    lines.append(header)
    return "\n".join(lines)
