"""Antialiased shapes, drawn once per size at 4x and scaled down, then pasted as masks.

Pillow draws lines and ellipses without antialiasing; drawing every picture at 4x and scaling
it down would cost several times the budget. Every shape in a picture is one of a few kinds
(a dot, a ring around a dot, a cross, or a ring's line between two neighbouring points, which
runs in one of four directions), so each is drawn smooth once and pasted where it is needed: a
paste with a mask is one C call that blends the colour over what is already there.

A shape of odd size ``2k+1`` has its middle on pixel ``k``, matching ``Layout.centre``.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

from renderer.palette import Rgb

SCALE = 4


def _half(reach: float) -> int:
    return math.ceil(reach) + 1


def _shrink(image: Image.Image) -> Image.Image:
    return image.reduce(SCALE)


@cache
def disc(radius: float) -> Image.Image:
    """The mask of a filled circle of ``radius`` pixels."""
    k = _half(radius)
    size = (2 * k + 1) * SCALE
    big = Image.new("L", (size, size), 0)
    middle = (k + 0.5) * SCALE
    r = radius * SCALE
    ImageDraw.Draw(big).ellipse((middle - r, middle - r, middle + r - 1, middle + r - 1), fill=255)
    return _shrink(big)


@cache
def ring(inner: float, outer: float) -> Image.Image:
    """The mask of a ring between radii ``inner`` and ``outer``."""
    k = _half(outer)
    size = (2 * k + 1) * SCALE
    big = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(big)
    middle = (k + 0.5) * SCALE
    for r, fill in ((outer * SCALE, 255), (inner * SCALE, 0)):
        draw.ellipse((middle - r, middle - r, middle + r - 1, middle + r - 1), fill=fill)
    return _shrink(big)


@cache
def dot(radius: float, fill: Rgb, rim: Rgb, rim_width: float) -> Image.Image:
    """The colours of a dot: ``fill`` inside a ``rim`` (paste it through ``disc(radius)``)."""
    k = _half(radius)
    size = (2 * k + 1) * SCALE
    big = Image.new("RGB", (size, size), rim)
    middle = (k + 0.5) * SCALE
    r = (radius - rim_width) * SCALE
    ImageDraw.Draw(big).ellipse((middle - r, middle - r, middle + r - 1, middle + r - 1), fill=fill)
    return _shrink(big)


@cache
def cross(half: float, width: float) -> Image.Image:
    """The mask of an X whose arms reach ``half`` pixels from the middle along each axis."""
    k = _half(half + width)
    size = (2 * k + 1) * SCALE
    big = Image.new("L", (size, size), 0)
    draw = ImageDraw.Draw(big)
    middle = (k + 0.5) * SCALE
    h = half * SCALE
    for sign in (1, -1):
        draw.line(
            ((middle - h, middle - sign * h), (middle + h, middle + sign * h)),
            fill=255,
            width=round(width * SCALE),
        )
    return _shrink(big)


@cache
def segment(dx: int, dy: int, cell: int, width: int) -> tuple[Image.Image, int, int]:
    """The mask of a ring's line from a point to its neighbour ``dx, dy`` cells away (pixel
    axes: x right, y down; ``dx >= 0``, and ``dy > 0`` when ``dx == 0``), with the offset of
    the mask's corner from the first point's pixel."""
    pad = _half(width / 2)
    w = abs(dx) * cell + 2 * pad + 1
    h = abs(dy) * cell + 2 * pad + 1
    ax = pad
    ay = pad if dy >= 0 else pad + cell
    big = Image.new("L", (w * SCALE, h * SCALE), 0)
    start = ((ax + 0.5) * SCALE, (ay + 0.5) * SCALE)
    end = ((ax + dx * cell + 0.5) * SCALE, (ay + dy * cell + 0.5) * SCALE)
    ImageDraw.Draw(big).line((start, end), fill=255, width=width * SCALE)
    return _shrink(big), -ax, -ay


@cache
def solid(size: tuple[int, int], colour: Rgb) -> Image.Image:
    """A block of one colour: pasting an image through a mask is about twice as fast in
    Pillow as filling a colour through it."""
    return Image.new("RGB", size, colour)
