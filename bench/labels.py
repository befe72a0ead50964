"""How tall the coordinates look on a phone: the height of a capital letter of the board's
labels, in device pixels, when the picture is shown 360 px wide (as Discord shows a picture on
a phone), for 10x10, 20x20 and 39x32; and of the zoomed view's labels (the point picker's and
the card's crop around the last move), which is the same for every board.

Run: python bench/labels.py [--width 360]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from renderer.layout import layout
from renderer.zoom import ZOOM_WIDTH, label_height_at, zoom_label_height

SIZES = ((10, 10), (20, 20), (39, 32))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=360, help="the shown width (device px)")
    shown = parser.parse_args().width
    print(f"| board | picture width | label height at {shown} px | zoomed view |")
    print("|---|---|---|---|")
    zoomed = zoom_label_height(shown)
    for width, height in SIZES:
        lay = layout(width, height)
        print(
            f"| {width}x{height} | {lay.image_width} px | "
            f"{label_height_at(width, height, shown):.1f} px | {zoomed:.1f} px ({ZOOM_WIDTH} px) |"
        )


if __name__ == "__main__":
    main()
