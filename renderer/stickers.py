"""The sticker book as a picture: every sticker a card with a drawn emblem,
earned ones in colour with a count, missing ones as grey outlines.

The renderer knows no bot code: the caller passes ``(id, name, count)`` for each sticker, in book
order; the emblem is looked up by the id (``EMBLEMS``), and an id without one gets a plain
circle, so a sticker added later still shows. Drawn at 3x and reduced (antialiasing), then mapped
onto the pictures' fixed palette like every other picture: about 30 ms of CPU (``bench/render.py``),
so it is drawn on demand (``/stickers``), not after every move.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer.palette import (
    BLUE,
    BLUE_DARK,
    BLUE_FADED,
    BLUE_TINT,
    EDGE,
    GRID,
    INK,
    LABEL,
    PAPER,
    PINK,
    PINK_DARK,
    PINK_TINT,
    Rgb,
    to_palette,
)
from renderer.text import clean, fit, font, width_of, wrap

SCALE = 3
COLUMNS = 4
CARD_W, CARD_H = 200, 178
MARGIN = 16
TITLE_H = 56  # the title's band when the title takes one line
TITLE_SIZE = 26
TITLE_STEP = 34  # each more line of the title
NAME_SIZES = (17, 16, 15, 14)  # a sticker's name, at the largest size that fits its card
EMBLEM_R = 52  # the emblem's half-size in pixels
WHITE: Rgb = (255, 255, 255)

Point2 = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Pen:
    """Draws one emblem in unit coordinates (-1..1 across, y down) at a card's centre, in
    colour (``earned``) or as grey outlines."""

    draw: ImageDraw.ImageDraw
    cx: float
    cy: float
    r: float
    earned: bool

    def at(self, x: float, y: float) -> tuple[float, float]:
        """Unit coordinates in pixels of the big (3x) image."""
        return (self.cx + x * self.r) * SCALE, (self.cy + y * self.r) * SCALE

    def colour(self, who: str) -> tuple[Rgb, Rgb]:
        """The fill and line colour of ``"pink"``, ``"blue"``, ``"faded"`` or ``"ink"``."""
        if not self.earned:
            return PAPER, EDGE
        return {
            "pink": (PINK, PINK_DARK),
            "blue": (BLUE, BLUE_DARK),
            "faded": (BLUE_FADED, BLUE_FADED),
            "ink": (INK, INK),
            "grid": (GRID, GRID),
        }[who]

    def area(self, points: Sequence[Point2], who: str) -> None:
        """A base's shading (only in colour)."""
        if self.earned:
            tint = PINK_TINT if who == "pink" else BLUE_TINT
            self.draw.polygon([self.at(x, y) for x, y in points], fill=tint)

    def ring(self, points: Sequence[Point2], who: str, width: float = 3.0) -> None:
        """A closed ring of links through ``points``."""
        self.line([*points, points[0]], who, width)

    def line(self, points: Sequence[Point2], who: str, width: float = 3.0) -> None:
        """Links through ``points``, open."""
        _, line = self.colour(who)
        self.draw.line([self.at(x, y) for x, y in points], fill=line, width=round(width * SCALE))

    def dot(self, x: float, y: float, who: str, size: float = 0.13) -> None:
        """A dot; in grey, a hollow circle."""
        fill, rim = self.colour(who)
        px, py = self.at(x, y)
        radius = size * self.r * SCALE
        self.draw.ellipse(
            (px - radius, py - radius, px + radius, py + radius),
            fill=fill,
            outline=rim,
            width=round(1.6 * SCALE),
        )

    def dots(self, points: Sequence[Point2], who: str, size: float = 0.13) -> None:
        """A dot at each of ``points``."""
        for x, y in points:
            self.dot(x, y, who, size)

    def base(self, ring: Sequence[Point2], who: str, size: float = 0.13) -> None:
        """A base: its shaded area, its ring and a dot at each corner of the ring."""
        self.area(ring, who)
        self.ring(ring, who)
        self.dots(ring, who, size)


def _diamond(x: float, y: float, radius: float) -> list[Point2]:
    return [(x, y - radius), (x + radius, y), (x, y + radius), (x - radius, y)]


def _square(half: float) -> list[Point2]:
    return [
        (-half, -half), (0, -half), (half, -half), (half, 0),
        (half, half), (0, half), (-half, half), (-half, 0),
    ]  # fmt: skip


def _first_capture(pen: Pen) -> None:
    pen.base(_diamond(0, 0, 0.62), "pink", 0.16)
    pen.dot(0, 0, "blue", 0.16)


def _big_capture(pen: Pen) -> None:
    pen.base(_square(0.78), "pink")
    pen.dots([(0, 0), (-0.36, -0.36), (0.36, -0.36), (-0.36, 0.36), (0.36, 0.36)], "blue")


def _double_base(pen: Pen) -> None:
    left, right = _diamond(-0.46, 0, 0.46), _diamond(0.46, 0, 0.46)
    pen.base(left, "pink")
    pen.base(right, "pink")
    pen.dots([(-0.46, 0), (0.46, 0)], "blue")
    # The one dot that closed both, marked as the last move is.
    pen.dot(0, 0, "ink", 0.22)
    pen.dot(0, 0, "pink", 0.13)


def _bigger_ring(pen: Pen) -> None:
    outer, inner = _diamond(0, 0, 0.9), _diamond(0, 0, 0.4)
    pen.base(outer, "pink")
    pen.ring(inner, "faded", 2.0)
    pen.dots(inner, "faded", 0.11)
    pen.dot(0, 0, "pink", 0.11)


def _empty_ring_trap(pen: Pen) -> None:
    pen.base(_square(0.62), "pink")
    pen.line([(0.95, -0.95), (0.22, -0.22)], "ink", 2.5)
    pen.line([(0.22, -0.22), (0.22, -0.5)], "ink", 2.5)
    pen.line([(0.22, -0.22), (0.5, -0.22)], "ink", 2.5)
    pen.dot(0, 0, "blue", 0.15)


def _comeback(pen: Pen) -> None:
    pen.line([(-0.9, -0.9), (-0.9, 0.9), (0.9, 0.9)], "ink", 2.0)
    blue = [(-0.75, 0.1), (-0.3, -0.25), (0.2, -0.05), (0.75, 0.2)]
    pink = [(-0.75, 0.6), (-0.3, 0.5), (0.2, -0.1), (0.75, -0.7)]
    pen.line(blue, "blue", 3.0)
    pen.line(pink, "pink", 3.5)
    pen.dot(*blue[-1], "blue", 0.13)
    pen.dot(*pink[-1], "pink", 0.16)


def _win_after_stop(pen: Pen) -> None:
    octagon = [(0.38, -0.92), (0.92, -0.38), (0.92, 0.38), (0.38, 0.92),
               (-0.38, 0.92), (-0.92, 0.38), (-0.92, -0.38), (-0.38, -0.92)]  # fmt: skip
    pen.area(octagon, "blue")
    pen.ring(octagon, "blue", 4.0)
    pen.line([(-0.45, 0.02), (-0.12, 0.38), (0.5, -0.35)], "ink", 5.0)


def _full_page(pen: Pen) -> None:
    for k in range(6):
        x = -0.9 + k * 0.36
        pen.line([(x, -0.72), (x, 0.72)], "grid", 1.0)
    for k in range(5):
        y = -0.72 + k * 0.36
        pen.line([(-0.9, y), (0.9, y)], "grid", 1.0)
    pen.ring([(-0.9, -0.72), (0.9, -0.72), (0.9, 0.72), (-0.9, 0.72)], "ink", 2.0)
    pink = [(-0.54, -0.36), (-0.18, -0.36), (0.18, 0), (0.54, 0.36), (-0.54, 0.36), (0.54, -0.72)]
    blue = [(-0.18, 0), (0.18, -0.36), (-0.54, 0), (0.18, 0.36), (0.54, 0), (-0.9, 0.72)]
    pen.dots(pink, "pink", 0.1)
    pen.dots(blue, "blue", 0.1)


def _tournament_win(pen: Pen) -> None:
    # A cup: a pink bowl of dots on a stem, a blue dot on each handle.
    bowl = [(-0.6, -0.6), (0.6, -0.6), (0.42, 0.0), (0.0, 0.24), (-0.42, 0.0)]
    pen.base(bowl, "pink", 0.12)
    pen.line([(0.0, 0.24), (0.0, 0.62)], "ink", 3.0)
    pen.line([(-0.36, 0.7), (0.36, 0.7)], "ink", 3.0)
    pen.dots([(-0.84, -0.42), (0.84, -0.42)], "blue", 0.12)


def _unknown(pen: Pen) -> None:
    pen.ring([(0.0, -0.8), (0.8, 0.0), (0.0, 0.8), (-0.8, 0.0)], "ink", 2.0)
    pen.dot(0, 0, "pink", 0.2)


# By the sticker's stored id (bot.games.stickers.Sticker; a test checks they match).
EMBLEMS: dict[str, Callable[[Pen], None]] = {
    "first_capture": _first_capture,
    "big_capture": _big_capture,
    "double_base": _double_base,
    "bigger_ring": _bigger_ring,
    "empty_ring_trap": _empty_ring_trap,
    "comeback": _comeback,
    "win_after_stop": _win_after_stop,
    "full_page": _full_page,
    "tournament_win": _tournament_win,
}


def card_box(index: int, title_h: int = TITLE_H) -> tuple[int, int, int, int]:
    """The pixel box of the ``index``-th card of the book (left, top, right, bottom), below a
    title band ``title_h`` pixels high."""
    row, col = divmod(index, COLUMNS)
    left = MARGIN + col * CARD_W
    top = title_h + row * CARD_H
    return left + 6, top + 6, left + CARD_W - 6, top + CARD_H - 6


def title_lines(title: str, tally: str) -> tuple[str, ...]:
    """The title's lines: all of it, beside the tally at the right (a wider title wraps)."""
    room = 2 * MARGIN + COLUMNS * CARD_W - 2 * (MARGIN + 6) - width_of(tally, 18) - 24
    return wrap(clean(title), TITLE_SIZE, room) or ("",)


def name_lines(name: str) -> tuple[int, tuple[str, ...]]:
    """A sticker's name on its card: the font size and the lines (one line at the largest size
    that fits, else two lines at the smallest)."""
    room = CARD_W - 12 - 16
    shown = clean(name)
    for size in NAME_SIZES:
        if width_of(shown, size) <= room:
            return size, (shown,)
    size = NAME_SIZES[-1]
    lines = wrap(shown, size, room)
    if len(lines) > 2:
        lines = (lines[0], fit(" ".join(lines[1:]), size, room))
    return size, lines


def render_sticker_book(
    stickers: Sequence[tuple[str, str, int]],
    title: str,
    *,
    tally: str = "{have} of {total}",
    missing: str = "not yet",
) -> bytes:
    """The PNG of a sticker book: ``stickers`` are ``(id, name, count)`` in book order (a count
    of 0 is a sticker not earned yet), ``title`` the line at the top (the player's name), whole
    (it wraps, and the band above the cards grows). ``tally`` says how many kinds are earned
    (``{have}``, ``{total}``) and ``missing`` is written under a sticker not earned yet: both
    in the reader's language."""
    have = sum(1 for _, _, count in stickers if count > 0)
    counted = clean(tally.format(have=have, total=len(stickers)))
    heading = title_lines(title, counted)
    title_h = TITLE_H + (len(heading) - 1) * TITLE_STEP
    rows = max(1, -(-len(stickers) // COLUMNS))
    width = 2 * MARGIN + COLUMNS * CARD_W
    height = title_h + rows * CARD_H + MARGIN
    big = Image.new("RGB", (width * SCALE, height * SCALE), PAPER)
    draw = ImageDraw.Draw(big)
    for index, (sticker_id, _, count) in enumerate(stickers):
        left, top, right, bottom = card_box(index, title_h)
        earned = count > 0
        draw.rounded_rectangle(
            (left * SCALE, top * SCALE, right * SCALE, bottom * SCALE),
            radius=12 * SCALE,
            fill=WHITE if earned else PAPER,
            outline=GRID if earned else EDGE,
            width=(2 if earned else 1) * SCALE,
        )
        pen = Pen(draw, (left + right) / 2, top + 12 + EMBLEM_R, EMBLEM_R, earned)
        EMBLEMS.get(sticker_id, _unknown)(pen)
    image = big.reduce(SCALE)
    text = ImageDraw.Draw(image)
    first = TITLE_H // 2 + 2
    for n, line in enumerate(heading):
        at = (MARGIN + 6, first + n * TITLE_STEP)
        text.text(at, line, font=font(TITLE_SIZE), fill=INK, anchor="lm")
    text.text((width - MARGIN - 6, first), counted, font=font(18), fill=LABEL, anchor="rm")
    for index, (_, name, count) in enumerate(stickers):
        left, top, right, bottom = card_box(index, title_h)
        middle = (left + right) / 2
        size, lines = name_lines(name)
        earned = count > 0
        for n, line in enumerate(lines):
            y = bottom - 40 - (len(lines) - 1 - n) * (size + 2)
            text.text(
                (middle, y), line, font=font(size), fill=INK if earned else LABEL, anchor="mm"
            )
        below = f"× {count}" if earned else clean(missing)
        colour = PINK_DARK if earned else EDGE
        text.text((middle, bottom - 17), below, font=font(15), fill=colour, anchor="mm")
    out = io.BytesIO()
    to_palette(image).save(out, format="PNG", compress_level=3)
    return out.getvalue()
