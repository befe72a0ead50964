"""Text in the pictures: Pillow's built-in scalable font, and names cut down to what it can draw.

No system font is assumed. ``ImageFont.load_default(size=...)`` (Pillow >= 10.1) gives a
FreeType font that covers printable ASCII and a few signs, so other letters are folded to ASCII
where they decompose (é -> e) and shown as ``?`` otherwise.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache

from PIL import Image, ImageDraw, ImageFont

# Characters the built-in font draws besides printable ASCII (checked against Pillow 13).
_EXTRA = set("©«°±´·»‘’“”…‹›⁄™")
_SUBSTITUTES = {"–": "-", "—": "-", "−": "-", "×": "x", "\u00a0": " "}


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """The built-in font at ``size`` pixels (cached: loading costs about a millisecond)."""
    loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow < 10.1
        raise RuntimeError("the renderer needs Pillow >= 10.1 with FreeType")
    return loaded


def _drawable(char: str) -> bool:
    return " " <= char <= "~" or char in _EXTRA


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
