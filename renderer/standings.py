"""A tournament's standings as a picture: a title and a table, drawn with the renderer's font.

The caller gives the words (already in the reader's language): a title, the column headings
and one row of cells per player. The picture is 720 pixels wide, so a phone showing it at
360 pixels still draws its 26-pixel cells at 13: readable. The name column takes what the
number columns leave, and a name too long for it is cut with an ellipsis.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderer.text import clean, fit, font

WIDTH = 720
MARGIN = 24
TITLE_SIZE = 34
CELL_SIZE = 26
ROW_HEIGHT = 44
GAP = 18  # between columns
PAPER = (250, 248, 242)
INK = (40, 40, 48)
RULE = (200, 196, 186)
STRIPE = (240, 236, 226)
ACCENT = (222, 78, 140)  # the renderer's pink: the leader's row
MAX_ROWS = 64  # a picture this long is still one a phone scrolls through


def standings_png(
    title: str, headings: Sequence[str], rows: Sequence[Sequence[str]], *, name_column: int = 1
) -> bytes:
    """The standings picture (PNG): ``title`` above a table of ``headings`` and ``rows`` (at
    most ``MAX_ROWS``; the caller says what is left out). Column ``name_column`` is the
    players' names, left-aligned and cut to fit; the others are right-aligned numbers."""
    rows = [list(r) for r in rows[:MAX_ROWS]]
    cell = font(CELL_SIZE)
    count = len(headings)
    widths = [0.0] * count
    for line in [list(headings), *rows]:
        for index, value in enumerate(line[:count]):
            if index != name_column:
                widths[index] = max(widths[index], cell.getlength(clean(value)))
    name_width = WIDTH - 2 * MARGIN - sum(widths) - GAP * (count - 1)
    widths[name_column] = max(name_width, 80.0)
    height = MARGIN * 2 + TITLE_SIZE + 20 + ROW_HEIGHT * (len(rows) + 1)
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = ImageDraw.Draw(image)
    title_face = font(TITLE_SIZE)
    draw.text((MARGIN, MARGIN), fit(clean(title), TITLE_SIZE, WIDTH - 2 * MARGIN), fill=INK,
              font=title_face)  # fmt: skip
    top = MARGIN + TITLE_SIZE + 20
    for number, line in enumerate([list(headings), *rows]):
        y = top + number * ROW_HEIGHT
        if number == 1:
            draw.rectangle((MARGIN - 8, y, WIDTH - MARGIN + 8, y + ROW_HEIGHT), fill=STRIPE)
            draw.rectangle((MARGIN - 8, y, MARGIN - 4, y + ROW_HEIGHT), fill=ACCENT)
        elif number > 1 and number % 2 == 1:
            draw.rectangle((MARGIN - 8, y, WIDTH - MARGIN + 8, y + ROW_HEIGHT), fill=STRIPE)
        x = float(MARGIN)
        for index, value in enumerate(line[:count]):
            text = clean(value)
            if index == name_column:
                text = fit(text, CELL_SIZE, widths[index])
                draw.text((x, y + 8), text, fill=INK, font=cell)
            else:
                draw.text((x + widths[index] - cell.getlength(text), y + 8), text, fill=INK,
                          font=cell)  # fmt: skip
            x += widths[index] + GAP
        if number == 0:
            draw.line((MARGIN - 8, y + ROW_HEIGHT - 2, WIDTH - MARGIN + 8, y + ROW_HEIGHT - 2),
                      fill=RULE, width=2)  # fmt: skip
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()
