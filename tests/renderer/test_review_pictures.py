"""The review's pictures: the graph of the estimate and a turning point's marked position."""

from __future__ import annotations

import io

from PIL import Image

from engine import Game, Player, Point
from renderer.layout import layout
from renderer.palette import BLUE_DARK, INK, PINK, PINK_TINT
from renderer.review import (
    BOTTOM,
    HEIGHT,
    MARGIN_LEFT,
    MARGIN_RIGHT,
    TOP,
    WIDTH,
    GraphWords,
    Mark,
    render_before,
    render_graph,
    render_position,
)


def rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_the_graph_is_wide_enough_for_a_phone_and_tints_each_players_side() -> None:
    # Pink far ahead at move 2, Blue far ahead at move 4.
    estimates = [0.5, 0.6, 0.95, 0.5, 0.05, 0.5]
    png = render_graph(
        estimates,
        captures=[(2, Player.PINK, 3)],
        marks=[Mark(4, Player.BLUE)],
        words=GraphWords("Ann vs Bob", "move"),
    )
    image = rgb(png)
    assert image.size == (WIDTH, HEIGHT)
    colours = {colour for _, colour in image.getcolors(1 << 16) or []}
    assert {PINK_TINT, PINK, INK, BLUE_DARK} <= colours  # the area, the capture, line, mark
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    half = (TOP + HEIGHT - BOTTOM) // 2
    pink_side = image.getpixel((left + (right - left) * 2 // 5, half - 40))
    blue_side = image.getpixel((left + (right - left) * 4 // 5 - 20, half + 40))
    assert pink_side == PINK_TINT
    assert blue_side[2] > blue_side[0] + 20  # Blue's tint


def test_a_turning_point_rings_the_move_played_and_marks_the_one_preferred() -> None:
    game = Game(10, 10)
    for name in ["E5", "F5", "E6"]:
        game.place(name)
    game.place("A1")  # Blue's move under review (the 4th action)
    png = render_before(game.record, 4, preferred=Point.parse("F6"), status="Move 4")
    image = rgb(png)
    lay = layout(10, 10)
    x, y = lay.centre(Point.parse("F6"))
    assert image.getpixel((x, y)) == INK  # the dot in the preferred point's middle
    x, y = lay.centre(Point.parse("A1"))
    reach = round(lay.radius * 1.35)
    ring = [image.getpixel((x + dx, y)) for dx in range(reach - 4, reach + 4)]
    assert BLUE_DARK in ring  # the played point ringed in the mover's colour
    assert render_position(game.record, status="Pink to play") != png


def test_the_axis_labels_keep_paper_between_them_and_the_left_edge() -> None:
    image = rgb(render_graph([0.5, 1.0, 0.0], words=GraphWords("Ann vs Bob", "move")))
    paper = image.getpixel((0, TOP))
    inked = [
        x
        for x in range(MARGIN_LEFT)
        for y in range(TOP - 20, HEIGHT - BOTTOM + 20)
        if image.getpixel((x, y)) != paper
    ]
    assert inked, "the labels are drawn"
    assert min(inked) >= 8  # "100%" does not touch the edge
