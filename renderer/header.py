"""The header above the board, laid out in lines: the names with their scores, then the status.

Nothing in a header is cut to fit. The status line (whose turn it is, the result, a stop's
preview, a replay's move) wraps onto as many lines as it needs; two names that do not fit side
by side go on a line each. The layout grows to hold them (``fitted``): a picture's header is as
tall as its words need, in any language and on any board from 5x5 up.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine import Player
from renderer.layout import ROW_STEP, Layout, layout
from renderer.text import fit, width_of, wrap

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Header:
    """The lines above the board: names and scores, and whose turn it is or the result."""

    names: tuple[str, str]
    scores: tuple[int, int]
    status: str = ""
    status_player: Player | None = None
    # Each player's time left on a game clock ("4:59"), shown after their score.
    times: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class HeaderText:
    """A header's words as they are drawn: the names (in ``name_rows`` lines: 1, side by side,
    or 2, Pink's above Blue's) and the status in lines."""

    names: tuple[str, str]
    stacked: bool
    status: tuple[str, ...]


def swatch_room(lay: Layout) -> float:
    """The width the status line's colour dot takes before its text."""
    return lay.status_size


def name_x(lay: Layout, column: float) -> float:
    """Where a name starts, after its player's colour dot at ``column``."""
    return column + lay.header_size * 1.07


def _score_text(header: Header, n: int) -> tuple[str, str]:
    return str(header.scores[n]), f"  {header.times[n]}" if header.times else ""


def _widest_score(lay: Layout) -> str:
    """As wide as the highest score this board allows: the names' arrangement then does not
    change in the course of a game as the scores grow."""
    return "0" * len(str(lay.width * lay.height))


def name_room(lay: Layout, header: Header, n: int, *, stacked: bool, score: str = "") -> float:
    """The width player ``n``'s name may take (by the score ``score`` when given)."""
    shown, time = _score_text(header, n)
    width = lay.image_width - 2 * lay.header_left
    column = width if stacked else width / 2
    taken = name_x(lay, 0) + width_of((score or shown) + time, lay.header_size) + lay.header_size
    return column - taken


def _side_by_side(lay: Layout, header: Header) -> bool:
    widest = _widest_score(lay)
    return all(
        width_of(header.names[n], lay.header_size)
        <= name_room(lay, header, n, stacked=False, score=max(widest, str(header.scores[n])))
        for n in (0, 1)
    )


def status_room(lay: Layout) -> float:
    """The width each line of the status may take."""
    return lay.image_width - 2 * lay.header_left - swatch_room(lay)


def rows_needed(lay: Layout, header: Header) -> tuple[int, int]:
    """The lines ``header`` needs: (names, status)."""
    names = 1 if _side_by_side(lay, header) else 2
    return names, max(1, len(wrap(header.status, lay.status_size, status_room(lay))))


def fitted(lay: Layout, headers: Iterable[Header]) -> Layout:
    """The layout of ``lay``'s board with room for every one of ``headers`` uncut (a replay's
    frames share one layout, so it fits the most lines any of them needs)."""
    names, status = 1, 1
    for header in headers:
        needs = rows_needed(lay, header)
        names, status = max(names, needs[0]), max(status, needs[1])
    return layout(lay.width, lay.height, name_rows=names, status_rows=status)


def header_text(lay: Layout, header: Header) -> HeaderText:
    """The words of ``header`` as they are drawn in ``lay`` (a layout ``fitted`` to it draws
    every word; a smaller one cuts the last line it has with an ellipsis)."""
    stacked = lay.name_rows > 1
    names = []
    for n in (0, 1):
        room = name_room(lay, header, n, stacked=stacked)
        name = header.names[n]
        names.append(
            name if width_of(name, lay.header_size) <= room else fit(name, lay.header_size, room)
        )
    lines = list(wrap(header.status, lay.status_size, status_room(lay)))
    if len(lines) > lay.status_rows:
        rest = " ".join(lines[lay.status_rows - 1 :])
        lines = [*lines[: lay.status_rows - 1], fit(rest, lay.status_size, status_room(lay))]
    return HeaderText((names[0], names[1]), stacked, tuple(lines))


def name_middles(lay: Layout) -> tuple[int, ...]:
    """The heights of the middles of the names' lines."""
    size = lay.header_size
    first = size * 0.45 + size * 0.65
    return tuple(round(first + row * size * ROW_STEP) for row in range(lay.name_rows))


def status_middles(lay: Layout) -> tuple[int, ...]:
    """The heights of the middles of the status's lines."""
    size, small = lay.header_size, lay.status_size
    first = name_middles(lay)[-1] + size * 0.7 + small * 0.75
    return tuple(round(first + row * small * ROW_STEP) for row in range(lay.status_rows))


def status_top(lay: Layout) -> int:
    """Where the names' part of the header ends and the status's begins."""
    return (name_middles(lay)[-1] + status_middles(lay)[0]) // 2


def status_box(lay: Layout) -> Box:
    """The strip of the header that holds the status lines (below the names and scores)."""
    return (0, status_top(lay), lay.image_width, lay.header_height)
