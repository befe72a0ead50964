"""Text in the pictures: the bundled DejaVu Sans font, and names cut down to what it draws.

No system font is assumed: ``renderer/fonts/DejaVuSans.ttf`` ships with the package (licence
beside it). It covers Latin, Greek, Cyrillic and many signs, so players' names show as they are
written; a character it has no glyph for is folded to ASCII where it decomposes and shown as
``?`` otherwise. Without the file (a broken install), Pillow's built-in font is used.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_FILE = Path(__file__).with_name("fonts") / "DejaVuSans.ttf"
_SUBSTITUTES = {"\u00a0": " "}
# A private-use character: no font has a glyph for it, so it draws the "missing glyph" box.
_MISSING = "\ue000"


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The font at ``size`` pixels (cached: loading costs about a millisecond)."""
    if FONT_FILE.exists():
        return ImageFont.truetype(str(FONT_FILE), size)
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow < 10.1
        raise RuntimeError("the renderer needs Pillow >= 10.1 with FreeType")
    return loaded


@cache
def _drawable(char: str) -> bool:
    if " " <= char <= "~":
        return True
    if unicodedata.category(char).startswith(("C", "Z")) and char != " ":
        return False
    face = font(16)
    mask = face.getmask(char)
    return bytes(mask) != bytes(face.getmask(_MISSING)) or mask.size != face.getmask(_MISSING).size


def clean(text: str) -> str:
    """``text`` with every character the font cannot draw folded to ASCII or replaced by ``?``."""
    out = []
    for char in text:
        char = _SUBSTITUTES.get(char, char)
        if _drawable(char):
            out.append(char)
            continue
        folded = "".join(c for c in unicodedata.normalize("NFKD", char) if _drawable(c))
        out.append(folded or ("" if unicodedata.category(char).startswith(("M", "C")) else "?"))
    return "".join(out)


def fit(text: str, size: int, width: float) -> str:
    """``text`` cut with an ellipsis so that it is at most ``width`` pixels wide at ``size``."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


@lru_cache(maxsize=512)
def stamp(text: str, size: int, anchor: str = "lm") -> tuple[Image.Image, int, int]:
    """The antialiased mask of ``text`` and where its corner lies from the anchor point.

    Kept, since a game's header shows the same names and scores picture after picture and
    drawing text costs more than pasting it.
    """
    face = font(size)
    left, top, right, bottom = (round(v) for v in face.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, left, top
