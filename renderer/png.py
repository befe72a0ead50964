"""A position as a PNG: the picture the bot posts after every move."""

from __future__ import annotations

import functools
import io
from collections.abc import Mapping, Sequence

from engine import Board, Game, Player, Point, StopPreview
from renderer.header import fitted
from renderer.layout import layout
from renderer.palette import to_palette
from renderer.picture import Clock, Names, paint, scene_of
from renderer.words import ENGLISH, Words

# zlib levels 1-3 cost about the same here (3 ms for 39x32) and 3 is the smallest of them;
# the size grows with the dots, and past about 800 dots level 5 keeps a 39x32 board under
# 60 KB (54 KB full) for 1.5 ms more. Level 6 and up cost twice as much for little.
COMPRESS_LEVEL = 3
CROWDED_LEVEL = 5
CROWDED_DOTS = 800


def compress_level(dots: int) -> int:
    """The zlib level for a picture of a board holding ``dots`` dots."""
    return CROWDED_LEVEL if dots > CROWDED_DOTS else COMPRESS_LEVEL


def render_png(
    position: Game | Board,
    *,
    names: Names = None,
    clock: Clock = None,
    marks: Sequence[Point | str] = (),
    highlight_last: bool = True,
    labels: bool = True,
    status: str | None = None,
    preview: StopPreview | None = None,
    words: Words = ENGLISH,
    times: Mapping[Player, Clock] | None = None,
) -> bytes:
    """The PNG of a game or a board.

    ``names`` are the players' names, Pink's first (or a dict by Player); ``clock`` is the time
    left to the player to move (seconds, a timedelta, or a text shown as it is); ``marks`` are
    points drawn with a cross (the dots a stop would hand over, rule 8.2); a game over by a stop
    marks the dots it handed over when no marks are given. ``highlight_last`` marks the last dot
    and emphasises the bases it made; ``labels`` draws the coordinates around the board.
    ``status`` replaces the line under the names (whose turn it is, or the result). The
    header grows to hold every word of it (``renderer.header``).
    ``preview`` draws what a stop would do now (``Game.stop_preview``): its dots crossed and
    the header marked as a preview. ``words`` are the header's words (``ENGLISH`` unless the
    caller passes its reader's language). ``times`` is each player's time left on a game clock
    (as ``clock``), shown after their score.

    Raises:
        InvalidPointError, OffBoardError: a mark that is not a point of this board.
    """
    board = position.board if isinstance(position, Game) else position
    lay = layout(board.width, board.height)
    scene_in = functools.partial(
        scene_of,
        position=position,
        names=names,
        clock=clock,
        marks=marks,
        highlight_last=highlight_last,
        status=status,
        words=words,
        times=times,
        preview=preview,
    )
    scene = scene_in(lay)
    grown = fitted(lay, [scene.header])  # room for every word of the header
    if grown != lay:
        lay, scene = grown, scene_in(grown)
    image = to_palette(paint(lay, scene, labels=labels))
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=compress_level(len(scene.dots)))
    return out.getvalue()
