"""The pictures of a review: the graph of the estimate over a game, and a turning point's
position with the move played and the move preferred marked.

Drawn with the renderer's look (the paper, the players' colours, the bundled font) and mapped
onto the fixed palette. The graph is 720 px wide with text of 22 px or more, so it stays
readable when a phone shows it at half that width. The renderer knows no language: the
caller passes every word (``GraphWords``, the status line of a position).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import Game, Player, Point, Record
from renderer.layout import layout
from renderer.palette import (
    BLUE_TINT,
    COLOURS,
    EDGE,
    GRID,
    INK,
    LABEL,
    PAPER,
    PINK_TINT,
    to_palette,
)
from renderer.picture import Names, paint, scene_of
from renderer.png import compress_level, render_png
from renderer.text import clean, fit, font, width_of
from renderer.words import ENGLISH, Words

WIDTH = 720
HEIGHT = 420
TITLE = 26
LABEL_SIZE = 22
# The room left of the axis labels ("100%" right-aligned against the graph keeps this much
# paper before it).
EDGE_ROOM = 12
LABEL_GAP = 8
MARGIN_LEFT = round(EDGE_ROOM + width_of("100%", LABEL_SIZE) + LABEL_GAP)
MARGIN_RIGHT = 24
TOP = 52
BOTTOM = 70


@dataclass(frozen=True, slots=True)
class GraphWords:
    """The graph's words: its title (the players' names in it already) and the axis's."""

    title: str = "Pink's winning chance"
    moves: str = "move"


@dataclass(frozen=True, slots=True)
class Mark:
    """A move to mark on the graph: its number (1 = the first action) and its player."""

    move: int
    player: Player


def render_graph(
    estimates: Sequence[float],
    *,
    captures: Sequence[tuple[int, Player, int]] = (),
    marks: Sequence[Mark] = (),
    words: GraphWords = GraphWords(),
) -> bytes:
    """The PNG of Pink's winning chance after each action (``estimates[0]``: the start): the
    area above one half in Pink's tint, below in Blue's; ``captures`` (move, player, dots) as
    dots of the capturing player's colour with their count on the line; ``marks`` (the
    turning points) as numbered ticks under the graph."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = MARGIN_LEFT, WIDTH - MARGIN_RIGHT, TOP, HEIGHT - BOTTOM
    moves = max(1, len(estimates) - 1)

    def x_of(move: float) -> float:
        return left + (right - left) * move / moves

    def y_of(chance: float) -> float:
        return bottom - (bottom - top) * min(1.0, max(0.0, chance))

    half = y_of(0.5)
    points = [(x_of(n), y_of(e)) for n, e in enumerate(estimates)]
    if len(points) == 1:
        points.append((x_of(1), points[0][1]))
    # The areas between the curve and one half: Pink's above, Blue's below.
    draw.polygon([(left, half), *[(x, min(y, half)) for x, y in points], (points[-1][0], half)],
                 fill=PINK_TINT)  # fmt: skip
    draw.polygon([(left, half), *[(x, max(y, half)) for x, y in points], (points[-1][0], half)],
                 fill=BLUE_TINT)  # fmt: skip
    for chance in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = y_of(chance)
        draw.line([(left, y), (right, y)], fill=EDGE if chance == 0.5 else GRID, width=2)
        _text(
            draw, f"{round(chance * 100)}%", LABEL_SIZE, (left - LABEL_GAP, y), LABEL, anchor="rm"
        )
    step = _tick_step(moves)
    for move in range(0, moves + 1, step):
        x = x_of(move)
        draw.line([(x, bottom), (x, bottom + 6)], fill=EDGE, width=2)
        _text(draw, str(move), LABEL_SIZE, (x, bottom + 10), LABEL, anchor="mt")
    _text(draw, clean(words.moves), LABEL_SIZE, (right, HEIGHT - 6), LABEL, anchor="rb")
    draw.line(points, fill=INK, width=3, joint="curve")
    for move, player, dots in captures:
        x, y = x_of(move), y_of(estimates[min(move, len(estimates) - 1)])
        colours = COLOURS[player]
        draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=colours.dot, outline=colours.dark, width=2)
        _text(draw, str(dots), 18, (x, y - 12), colours.dark, anchor="mb")
    for mark in marks:
        x = x_of(mark.move)
        colour = COLOURS[mark.player].dark
        draw.line([(x, top), (x, bottom)], fill=colour, width=1)
        draw.polygon([(x, bottom - 2), (x - 8, bottom + 12), (x + 8, bottom + 12)], fill=colour)
    title = fit(clean(words.title), TITLE, WIDTH - 2 * 16)
    _text(draw, title, TITLE, (16, TOP // 2), INK, anchor="lm")
    return _png(image, 0)


def render_turning_point(
    game: Game,
    *,
    played: Point,
    preferred: Point | None,
    names: Names = None,
    status: str | None = None,
    words: Words = ENGLISH,
) -> bytes:
    """The PNG of the position before a move: the point played ringed in its player's colour,
    the point preferred ringed in ink with a dot in its middle; ``status`` replaces the line
    under the names (what happened, in the reader's language)."""
    board = game.board
    lay = layout(board.width, board.height)
    scene = scene_of(lay, game, names=names, highlight_last=False, status=status, words=words)
    image = paint(lay, scene)
    draw = ImageDraw.Draw(image)
    reach = lay.radius * 1.35
    width = max(3, round(lay.cell * 0.12))
    mover = game.to_move or Player.PINK
    x, y = lay.centre(played)
    draw.ellipse((x - reach, y - reach, x + reach, y + reach),
                 outline=COLOURS[mover].dark, width=width)  # fmt: skip
    if preferred is not None and preferred != played:
        x, y = lay.centre(preferred)
        draw.ellipse((x - reach, y - reach, x + reach, y + reach), outline=INK, width=width)
        dot = lay.radius * 0.35
        draw.ellipse((x - dot, y - dot, x + dot, y + dot), fill=INK)
    return _png(image, len(scene.dots))


def render_before(
    record: Record,
    move: int,
    *,
    preferred: Point | None,
    names: Names = None,
    status: str | None = None,
    words: Words = ENGLISH,
) -> bytes:
    """``render_turning_point`` of the position before action ``move`` (1 = the first) of the
    game ``record`` describes (a small picklable input for a worker process).

    Raises:
        DotsError: the record holds an illegal action.
        ValueError: action ``move`` is no dot.
    """
    game = Game.at_start(record)
    for action in record.actions[: move - 1]:
        game.apply(action)
    played = record.actions[move - 1].point
    if played is None:
        raise ValueError(f"action {move} is no dot")
    return render_turning_point(
        game, played=played, preferred=preferred, names=names, status=status, words=words
    )


def render_position(record: Record, *, status: str, words: Words = ENGLISH) -> bytes:
    """The PNG of the position ``record`` ends at, ``status`` under the names (a puzzle's
    goal); a small picklable input for a worker process.

    Raises:
        DotsError: the record holds an illegal action.
    """
    return render_png(Game.replay(record), status=status, words=words)


def _tick_step(moves: int) -> int:
    for step in (5, 10, 20, 50, 100, 200):
        if moves / step <= 8:
            return step
    return 500


def _text(
    draw: ImageDraw.ImageDraw,
    text: str,
    size: int,
    at: tuple[float, float],
    colour: tuple[int, int, int],
    *,
    anchor: str,
) -> None:
    draw.text(at, text, font=font(size), fill=colour, anchor=anchor)


def _png(image: Image.Image, dots: int) -> bytes:
    out = io.BytesIO()
    to_palette(image).save(out, format="PNG", compress_level=compress_level(dots))
    return out.getvalue()
