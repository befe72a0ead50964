"""The colours of the pictures, and the fixed 255-colour palette every picture is stored in.

Pink and Blue were chosen to stay apart for colour-blind players: a light warm pink against a
deep blue differ in lightness as well as in hue, and under the Machado 2009 simulations of
deuteranopia and protanopia the pink turns greyish-beige while the blue stays blue
(``bench/render.py`` prints the CIEDE2000 distances; ``tests/renderer`` checks them).

Pictures are drawn in RGB and then mapped onto one fixed palette, so a PNG is stored as small
8-bit palette data and every frame of a GIF shares one colour table. The palette holds the key
colours exactly and ramps between the colours that meet at an antialiased edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from PIL import Image

Rgb = tuple[int, int, int]


def mix(under: Rgb, over: Rgb, amount: float) -> Rgb:
    """``over`` laid on ``under`` with opacity ``amount`` (0..1)."""
    return (
        round(under[0] + (over[0] - under[0]) * amount),
        round(under[1] + (over[1] - under[1]) * amount),
        round(under[2] + (over[2] - under[2]) * amount),
    )


PAPER: Rgb = (251, 248, 241)
GRID: Rgb = (212, 222, 236)
EDGE: Rgb = (160, 178, 204)
LABEL: Rgb = (104, 112, 128)
INK: Rgb = (30, 34, 44)

PINK: Rgb = (255, 111, 145)  # #FF6F91
PINK_DARK: Rgb = (222, 64, 108)  # ring lines and the rim of a dot
BLUE: Rgb = (32, 70, 184)  # #2046B8
BLUE_DARK: Rgb = (20, 46, 132)

# Opacity of a base's shading, normal and for the bases the last dot made.
TINT = 0.26
TINT_STRONG = 0.42
PINK_TINT_ALPHA = TINT
BLUE_TINT_ALPHA = TINT * 0.8  # blue is darker than pink: a lighter wash looks as strong

PINK_TINT: Rgb = mix(PAPER, PINK, PINK_TINT_ALPHA)
BLUE_TINT: Rgb = mix(PAPER, BLUE, BLUE_TINT_ALPHA)
PINK_TINT_STRONG: Rgb = mix(PAPER, PINK, TINT_STRONG)
BLUE_TINT_STRONG: Rgb = mix(PAPER, BLUE, TINT_STRONG * 0.8)

# Captured dots: the colour washed towards the paper, drawn without a rim.
PINK_FADED: Rgb = mix(PAPER, PINK, 0.5)
BLUE_FADED: Rgb = mix(PAPER, BLUE, 0.38)


@dataclass(frozen=True, slots=True)
class Colours:
    """One player's colours: a dot, its rim and ring lines, a captured dot, a base's shading
    (opacity of ``dot`` over the paper; ``strong`` for the bases the last dot made)."""

    dot: Rgb
    dark: Rgb
    faded: Rgb
    tint: float
    strong: float


# Keyed by the player's number (Player.PINK == 1, Player.BLUE == 2).
COLOURS: dict[int, Colours] = {
    1: Colours(PINK, PINK_DARK, PINK_FADED, PINK_TINT_ALPHA, TINT_STRONG),
    2: Colours(BLUE, BLUE_DARK, BLUE_FADED, BLUE_TINT_ALPHA, TINT_STRONG * 0.8),
}

TRANSPARENT = 255  # the palette index kept free for the unchanged pixels of a GIF frame
# Fills the unused entries: a colour no picture contains, so no pixel is ever mapped to one.
_UNUSED: Rgb = (0, 255, 0)

_KEYS: tuple[Rgb, ...] = (
    PAPER, GRID, EDGE, LABEL, INK,
    PINK, PINK_DARK, PINK_FADED, PINK_TINT, PINK_TINT_STRONG,
    BLUE, BLUE_DARK, BLUE_FADED, BLUE_TINT, BLUE_TINT_STRONG,
    mix(PINK_TINT, GRID, 0.5), mix(BLUE_TINT, GRID, 0.5),
    mix(PINK_TINT_STRONG, GRID, 0.5), mix(BLUE_TINT_STRONG, GRID, 0.5),
    (255, 255, 255),
)  # fmt: skip

# Pairs of colours that meet at antialiased edges: each gets a ramp between them.
_RAMPS: tuple[tuple[Rgb, Rgb, int], ...] = (
    (PAPER, GRID, 3),
    (PAPER, EDGE, 4),
    (PAPER, LABEL, 8),
    (PAPER, INK, 10),
    (PAPER, PINK, 8),
    (PAPER, PINK_DARK, 8),
    (PAPER, PINK_FADED, 4),
    (PAPER, BLUE, 8),
    (PAPER, BLUE_DARK, 8),
    (PAPER, BLUE_FADED, 5),
    (PAPER, PINK_TINT_STRONG, 4),
    (PAPER, BLUE_TINT_STRONG, 4),
    (PINK, PINK_DARK, 3),
    (BLUE, BLUE_DARK, 3),
    (PINK_TINT, PINK_DARK, 8),
    (PINK_TINT, BLUE_FADED, 5),
    (PINK_TINT, INK, 8),
    (PINK_TINT_STRONG, PINK_DARK, 6),
    (PINK_TINT_STRONG, BLUE_FADED, 4),
    (BLUE_TINT, BLUE_DARK, 8),
    (BLUE_TINT, PINK_FADED, 5),
    (BLUE_TINT, INK, 8),
    (BLUE_TINT_STRONG, BLUE_DARK, 6),
    (BLUE_TINT_STRONG, PINK_FADED, 4),
    (GRID, PINK_DARK, 4),
    (GRID, BLUE_DARK, 4),
    (GRID, INK, 4),
    (PINK_DARK, INK, 3),
    (BLUE_DARK, INK, 3),
    (PINK_DARK, BLUE_DARK, 3),
    (PAPER, (255, 255, 255), 1),
)


@cache
def colours() -> tuple[Rgb, ...]:
    """The palette's colours in index order (at most 255; index 255 stays free)."""
    seen: dict[Rgb, None] = dict.fromkeys(_KEYS)
    for start, end, steps in _RAMPS:
        for k in range(1, steps + 1):
            seen.setdefault(mix(start, end, k / (steps + 1)), None)
    result = tuple(seen)
    if len(result) > TRANSPARENT:  # pragma: no cover - a guard on the table above
        raise AssertionError(f"the palette needs {len(result)} colours, more than 255")
    return result


@cache
def palette_image() -> Image.Image:
    """A 1x1 palette image holding the fixed palette (for ``Image.quantize``)."""
    flat: list[int] = []
    for colour in colours():
        flat.extend(colour)
    flat.extend(_UNUSED * (256 - len(colours())))
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def palette_bytes() -> bytes:
    """The palette as 768 bytes of RGB (a GIF's colour table)."""
    flat = bytearray()
    for colour in colours():
        flat.extend(colour)
    flat.extend(bytes(_UNUSED) * (256 - len(colours())))
    return bytes(flat)


def to_palette(image: Image.Image) -> Image.Image:
    """An RGB picture mapped onto the fixed palette (nearest colour, no dithering)."""
    return image.quantize(palette=palette_image(), dither=Image.Dither.NONE)
