"""The game clock's times in the picture's header: drawn after each score,
only in the header, and the rest of the picture unchanged."""

from __future__ import annotations

import io
from datetime import timedelta

from PIL import Image, ImageChops

from engine import Game, Player
from renderer import render_png
from renderer.layout import layout


def image(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as opened:
        return opened.convert("RGB")


def changed_box(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(image(a), image(b)).getbbox()


def test_times_are_drawn_in_the_header_only() -> None:
    game = Game(10, 10)
    game.place("E5", Player.PINK)
    names = {Player.PINK: "alice", Player.BLUE: "bob"}
    plain = render_png(game, names=names, clock=timedelta(seconds=42))
    five = {Player.PINK: timedelta(minutes=4, seconds=45), Player.BLUE: timedelta(minutes=5)}
    timed = render_png(game, names=names, clock=timedelta(seconds=42), times=five)
    box = changed_box(plain, timed)
    assert box is not None
    header = layout(10, 10).header_height
    assert box[3] <= header  # nothing below the header moved
    # Another time for one player changes only that player's half of the header.
    later = {**five, Player.BLUE: timedelta(seconds=9)}
    box = changed_box(
        timed, render_png(game, names=names, clock=timedelta(seconds=42), times=later)
    )
    assert box is not None and box[3] <= header
    assert box[0] >= image(timed).width // 2 - 10
    # The same times give the same picture (pure).
    assert timed == render_png(game, names=names, clock=timedelta(seconds=42), times=five)
