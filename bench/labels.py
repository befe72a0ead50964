"""How tall the coordinates look on a phone: the height of a capital letter of the board's
labels, in device pixels, when the picture is shown 360 px wide (as Discord shows a picture on
a phone), for 10x10, 20x20 and 39x32; and of the zoomed view's labels (the point picker's and
the card's crop around the last move), which is the same for every board.

With --pictures DIR it also writes what a phone shows, 360 px wide: a 20x20 game's picture
with its header in English and in Russian, and the zoomed view of the point picker around its
last dot (``phone-20x20-en.png``, ``phone-20x20-ru.png``, ``phone-zoom.png``).

Run: python bench/labels.py [--width 360] [--pictures docs]
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.i18n import words
from engine import Player
from renderer import render_png
from renderer.demo import sample_game
from renderer.layout import layout
from renderer.zoom import ZOOM_WIDTH, label_height_at, window_around, zoom_label_height, zoom_png

SIZES = ((10, 10), (20, 20), (39, 32))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=360, help="the shown width (device px)")
    parser.add_argument("--pictures", type=Path, help="write the phone-width pictures here")
    arguments = parser.parse_args()
    shown = arguments.width
    if arguments.pictures is not None:
        write_pictures(arguments.pictures, shown)
    print(f"| board | picture width | label height at {shown} px | zoomed view |")
    print("|---|---|---|---|")
    zoomed = zoom_label_height(shown)
    for width, height in SIZES:
        lay = layout(width, height)
        print(
            f"| {width}x{height} | {lay.image_width} px | "
            f"{label_height_at(width, height, shown):.1f} px | {zoomed:.1f} px ({ZOOM_WIDTH} px) |"
        )


def write_pictures(folder: Path, shown: int) -> None:
    """The pictures of a 20x20 game a phone shows ``shown`` px wide (see the docstring)."""
    game = sample_game(20, 20, 155, seed=27)
    names = {Player.PINK: "alice", Player.BLUE: "bob"}
    for locale in ("en", "ru"):
        png = render_png(game, names=names, clock=42, words=words(locale))
        at_width(png, shown).save(folder / f"phone-20x20-{locale}.png", optimize=True)
    last = next(a.point for a in reversed(game.actions) if a.point is not None)
    png = render_png(game, names=names, clock=42)
    zoomed = zoom_png(png, 20, 20, window_around(last, 20, 20, 5, 4))
    at_width(zoomed, shown).save(folder / "phone-zoom.png", optimize=True)


def at_width(png: bytes, width: int) -> Image.Image:
    """``png`` scaled to ``width`` pixels wide, as a phone shows it."""
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        return image.resize((width, round(image.height * width / image.width)), Image.LANCZOS)


if __name__ == "__main__":
    main()
