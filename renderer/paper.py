"""The part of a picture that depends only on the board's size: paper, grid and coordinates.

Drawn once per size and kept (4 bytes a pixel: 3.5 MB for 39x32, 7 MB for 52x52), so a picture
of a move starts from a copy.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine import column_name
from renderer.layout import Layout
from renderer.palette import EDGE, GRID, LABEL, PAPER, Rgb
from renderer.text import font


@lru_cache(maxsize=8)
def paper(lay: Layout, labels: bool = True) -> Image.Image:
    """The empty board of layout ``lay`` (RGB); shared, so copy or crop it before drawing."""
    image = Image.new("RGB", lay.size, PAPER)
    draw = ImageDraw.Draw(image)
    # A faint line under the header.
    draw.line(((0, lay.header_height - 1), (lay.image_width, lay.header_height - 1)), fill=GRID)
    for x in range(lay.width):
        px = lay.left + x * lay.cell
        colour = EDGE if x in (0, lay.width - 1) else GRID
        draw.line(((px, lay.top), (px, lay.bottom)), fill=colour)
    for y in range(lay.height):
        py = lay.top + y * lay.cell
        colour = EDGE if y in (0, lay.height - 1) else GRID
        draw.line(((lay.left, py), (lay.right, py)), fill=colour)
    # The outer lines again, so that the inner lines do not cross them in the lighter colour.
    draw.rectangle((lay.left, lay.top, lay.right, lay.bottom), outline=EDGE)
    if labels:
        face = font(lay.label_size)
        for x in range(lay.width):
            for centre in lay.column_label_centres(x):
                draw.text(centre, column_name(x), font=face, fill=LABEL, anchor="mm")
        for y in range(lay.height):
            for centre in lay.row_label_centres(y):
                draw.text(centre, str(y + 1), font=face, fill=LABEL, anchor="mm")
    return image


@lru_cache(maxsize=8)
def tinted(lay: Layout, labels: bool, colour: Rgb, alpha: float) -> Image.Image:
    """The empty board washed with ``colour`` at opacity ``alpha``: what a base's area shows.

    Shading the area of a base is then one copy through the ring's polygon. A per-channel
    lookup table is an exact alpha blend, and remaking a layer costs about a millisecond, so
    few are kept.
    """
    lut = [round(v + (c - v) * alpha) for c in colour for v in range(256)]
    return paper(lay, labels).point(lut)
