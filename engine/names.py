"""The names of a board's columns and rows (rule 1.2): A..Z, AA, AB, ... and 1, 2, ...

Below both the points and the errors, which say what a board's points are called.
"""

from __future__ import annotations


def column_name(x: int) -> str:
    """The letters of 0-based column ``x``: A..Z, then AA, AB, ... as in a spreadsheet."""
    if x < 26:
        return chr(65 + x)
    return chr(64 + x // 26) + chr(65 + x % 26)


def column_index(letters: str) -> int:
    """The 0-based column of ``letters`` (``"A"`` is 0, ``"AA"`` is 26)."""
    letters = letters.upper()
    if len(letters) == 1:
        return ord(letters) - 65
    return (ord(letters[0]) - 64) * 26 + ord(letters[1]) - 65


def describe_board(width: int, height: int) -> str:
    """``"columns are A–J, rows 1–10"``: what the points of a board are called."""
    return f"columns are A–{column_name(width - 1)}, rows 1–{height}"
