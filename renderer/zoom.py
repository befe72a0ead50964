"""A zoomed view of a window of the board, readable on a phone: the window's part of a game's
picture, enlarged to ``ZOOM_WIDTH`` pixels, with the window's column letters above it and its
row numbers on its left in large type (the point picker's and ``/board around:``'s picture).

Also the label height a reader sees: the height of the coordinates in device pixels when a
picture is shown ``width`` pixels wide on a phone (``label_height_at``)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import Point, column_name
from renderer.layout import layout
from renderer.text import font

ZOOM_WIDTH = 480  # pixels: a phone shows it about 360 wide, so 0.75 of each pixel
BAND = 44  # the height of the letters' band and the width of the numbers' band
LABEL_SIZE = 30
INK = (40, 40, 40)
PAPER = (250, 248, 240)
PHONE_WIDTH = 360


@dataclass(frozen=True, slots=True)
class Window:
    """The points of columns ``x0..x1`` and rows ``y0..y1`` (0-based, inclusive)."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def columns(self) -> int:
        """How many columns the window shows."""
        return self.x1 - self.x0 + 1

    @property
    def rows(self) -> int:
        """How many rows the window shows."""
        return self.y1 - self.y0 + 1

    def __contains__(self, point: object) -> bool:
        return (
            isinstance(point, Point)
            and self.x0 <= point.x <= self.x1
            and self.y0 <= point.y <= self.y1
        )


def zoom_png(picture: bytes, width: int, height: int, window: Window) -> bytes:
    """The part of ``picture`` (a game's PNG of a ``width`` x ``height`` board, as
    ``render_png`` draws it) that shows ``window``, half a cell around, enlarged to
    ``ZOOM_WIDTH`` pixels wide, with the window's coordinates in bands above and left."""
    lay = layout(width, height)
    half = lay.cell // 2 + 1
    left, top = lay.centre(Point(window.x0, window.y1))
    right, bottom = lay.centre(Point(window.x1, window.y0))
    box = (left - half, top - half, right + half + 1, bottom + half + 1)
    with Image.open(io.BytesIO(picture)) as image:
        crop = image.convert("RGB").crop(box)
    inner = ZOOM_WIDTH - BAND
    scale = inner / crop.width
    crop = crop.resize((inner, round(crop.height * scale)), Image.Resampling.LANCZOS)
    out = Image.new("RGB", (ZOOM_WIDTH, crop.height + BAND), PAPER)
    out.paste(crop, (BAND, BAND))
    draw = ImageDraw.Draw(out)
    type_face = font(LABEL_SIZE)
    for x in range(window.x0, window.x1 + 1):
        cx = BAND + (lay.centre(Point(x, 0))[0] - box[0] + 0.5) * scale
        draw.text((cx, BAND / 2), column_name(x), fill=INK, font=type_face, anchor="mm")
    for y in range(window.y0, window.y1 + 1):
        cy = BAND + (lay.centre(Point(0, y))[1] - box[1] + 0.5) * scale
        draw.text((BAND / 2, cy), str(y + 1), fill=INK, font=font(LABEL_SIZE - 6), anchor="mm")
    buffer = io.BytesIO()
    out.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


def label_height_at(width: int, height: int, shown_width: int = PHONE_WIDTH) -> float:
    """The height in device pixels of the board's coordinate labels when its picture is shown
    ``shown_width`` pixels wide (a phone shows a picture about 360 wide): the labels' height
    in the picture (the font's cap height at ``label_size``) scaled to that width."""
    lay = layout(width, height)
    return cap_height(lay.label_size) * shown_width / lay.image_width


def zoom_label_height(shown_width: int = PHONE_WIDTH) -> float:
    """The height in device pixels of a zoomed view's column letters shown ``shown_width``
    pixels wide (the same for every board: the view is always ``ZOOM_WIDTH`` wide)."""
    return cap_height(LABEL_SIZE) * shown_width / ZOOM_WIDTH


def cap_height(size: int) -> float:
    """The height in pixels of a capital letter of the pictures' font at ``size``."""
    _left, top, _right, bottom = font(size).getbbox("E", anchor="ls")
    return bottom - top


def window_around(point: Point, width: int, height: int, columns: int = 9, rows: int = 7) -> Window:
    """The window of ``columns`` x ``rows`` points centred on ``point`` as nearly as the
    board's edges allow (the whole board's side when it is smaller)."""
    columns, rows = min(columns, width), min(rows, height)
    x0 = min(max(point.x - columns // 2, 0), width - columns)
    y0 = min(max(point.y - rows // 2, 0), height - rows)
    return Window(x0, y0, x0 + columns - 1, y0 + rows - 1)
