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


# Words that are only a dash stay at the end of their line (as Polish, Russian and Ukrainian
# typesetting wants). Words without a letter or digit (the "·" between a replay's move and who
# has ended) go to the start of the next line with the word they lead, and so does a count
# with what it counts ("6 точок").
_DASHES = frozenset("-–—")


def _words(text: str) -> list[str]:
    """``text``'s words, each glued to the punctuation and counts that must not be parted
    from it at the end of a line."""
    tokens = text.split()
    words: list[str] = []
    lead = ""
    for n, token in enumerate(tokens):
        after = tokens[n + 1] if n + 1 < len(tokens) else ""
        if words and not lead and all(char in _DASHES for char in token):
            words[-1] += " " + token
        elif not any(char.isalnum() for char in token) or (
            token.isdigit() and any(char.isalpha() for char in after)
        ):
            lead += token + " "
        else:
            words.append(lead + token)
            lead = ""
    if lead:
        if words:
            words[-1] += " " + lead.rstrip()
        else:
            words.append(lead.rstrip())
    return words


@lru_cache(maxsize=2048)
def width_of(text: str, size: int) -> float:
    """How wide ``text`` is at ``size``, in pixels (kept: a game's pictures measure the same
    names and sentences again and again, at about 20 µs a measure)."""
    return font(size).getlength(text)


@lru_cache(maxsize=512)
def wrap(text: str, size: int, width: float) -> tuple[str, ...]:
    """``text`` broken at spaces into lines at most ``width`` pixels wide at ``size`` (none for
    no text). Joined with spaces, the lines are the text with its runs of spaces made one; only
    a word wider than a whole line is cut, with an ellipsis (``fit``)."""
    if width_of(text, size) <= width and "  " not in text.strip():
        return (text.strip(),) if text.strip() else ()
    lines: list[str] = []
    for word in _words(text):
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and width_of(joined, size) <= width:
            lines[-1] = joined
        else:
            lines.append(word)
    return tuple(fit(line, size, width) for line in lines)


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
