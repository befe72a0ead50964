"""What a picture of a position shows, read off its pixels (not compared with golden files)."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from PIL import Image, ImageChops

from engine import Action, Board, Game, OffBoardError, Player, Point
from renderer import layout, render_png
from renderer.palette import (
    BLUE,
    BLUE_DARK,
    BLUE_FADED,
    COLOURS,
    INK,
    PAPER,
    PINK,
    PINK_DARK,
    PINK_FADED,
    mix,
)
from renderer.zoom import label_height_at
from tests.renderer.pixels import decode, near, pixel

P, B = Player.PINK, Player.BLUE


def play(width: int, height: int, moves: list[tuple[Player, str]], **kwargs: object) -> Game:
    game = Game(width, height, **kwargs)  # type: ignore[arg-type]
    for player, name in moves:
        game.apply(Action("dot", player, Point.parse(name)))
    return game


# A Pink ring of six dots around Blue's C3 and the free point D3, closed by D2.
RING = [(P, "C4"), (P, "D4"), (P, "B3"), (P, "E3"), (P, "C2")]
BASE = [(B, "C3"), *RING, (P, "D2")]


def off_grid(lay, name: str) -> tuple[int, int]:
    """A pixel inside the point's cell but off the grid lines and off any dot."""
    cx, cy = lay.centre(Point.parse(name))
    step = round(lay.radius + (lay.cell / 2 - lay.radius) / 2)
    return cx + step, cy + step


def test_a_dot_is_drawn_in_its_players_colour():
    game = play(7, 7, [(P, "B2"), (B, "E5")])
    image = decode(render_png(game, highlight_last=False))
    lay = layout(7, 7)
    assert near(pixel(image, lay.centre(Point.parse("B2"))), PINK)
    assert near(pixel(image, lay.centre(Point.parse("E5"))), BLUE)
    assert near(pixel(image, off_grid(lay, "C3")), PAPER, 0)


@pytest.mark.parametrize("highlight", [False, True])
def test_the_area_of_a_base_is_shaded_in_the_owners_colour(highlight):
    game = play(7, 7, BASE)
    assert game.board.owner("D3") is P and game.score(P) == 1
    image = decode(render_png(game, highlight_last=highlight))
    lay = layout(7, 7)
    shade = pixel(image, off_grid(lay, "D3"))
    colours = COLOURS[P]
    expected = mix(PAPER, PINK, colours.strong if highlight else colours.tint)
    assert near(shade, expected, 3)
    # The free point inside is shaded too, outside the base nothing is.
    assert near(pixel(image, off_grid(lay, "F3")), PAPER, 0)
    assert near(pixel(image, off_grid(lay, "A5")), PAPER, 0)


def test_the_bases_of_the_last_dot_are_shaded_more_strongly():
    game = play(7, 7, BASE)
    lay = layout(7, 7)
    strong = pixel(decode(render_png(game)), off_grid(lay, "D3"))
    normal = pixel(decode(render_png(game, highlight_last=False)), off_grid(lay, "D3"))
    assert sum(strong) < sum(normal) < sum(PAPER)


def test_the_ring_is_drawn_between_neighbouring_dots_of_the_chain():
    game = play(7, 7, BASE)
    image = decode(render_png(game, highlight_last=False))
    lay = layout(7, 7)
    for a, b in [("C4", "D4"), ("B3", "C4"), ("D4", "E3"), ("C2", "D2"), ("D2", "E3")]:
        (ax, ay), (bx, by) = lay.centre(Point.parse(a)), lay.centre(Point.parse(b))
        assert near(pixel(image, ((ax + bx) / 2, (ay + by) / 2)), PINK_DARK), (a, b)
    # No line where the chain has no link: C4 and C2 are not neighbours.
    (ax, ay), (bx, by) = lay.centre(Point.parse("B3")), lay.centre(Point.parse("D4"))
    assert not near(pixel(image, ((ax + bx) / 2, ay - 3)), PINK_DARK)


def test_a_blue_base_has_a_blue_ring_and_shade():
    game = play(7, 7, [(p.opponent, name) for p, name in BASE])
    image = decode(render_png(game, highlight_last=False))
    lay = layout(7, 7)
    (ax, ay), (bx, _) = lay.centre(Point.parse("C4")), lay.centre(Point.parse("D4"))
    assert near(pixel(image, ((ax + bx) / 2, ay)), BLUE_DARK)
    shade = pixel(image, off_grid(lay, "D3"))
    assert shade[2] > shade[0] and not near(shade, PAPER, 4)


def test_a_captured_dot_is_faded():
    game = play(7, 7, BASE)
    image = decode(render_png(game))
    lay = layout(7, 7)
    centre = pixel(image, lay.centre(Point.parse("C3")))
    assert near(centre, BLUE_FADED)
    assert not near(centre, BLUE, 30)
    # And a captured Pink dot in a Blue base.
    game = play(7, 7, [(p.opponent, name) for p, name in BASE])
    centre = pixel(decode(render_png(game)), lay.centre(Point.parse("C3")))
    assert near(centre, PINK_FADED)


def _marker_pixels(lay, name: str) -> list[tuple[float, float]]:
    cx, cy = lay.centre(Point.parse(name))
    inner, outer = lay.marker_radii
    middle = (inner + outer) / 2
    diagonal = middle / 2**0.5
    return [
        (cx + dx * middle, cy + dy * middle) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ] + [(cx + dx * diagonal, cy + dy * diagonal) for dx in (1, -1) for dy in (1, -1)]


def test_the_last_dot_is_ringed():
    game = play(7, 7, [(P, "B2"), (B, "E5"), (P, "C6")])
    lay = layout(7, 7)
    image = decode(render_png(game))
    for at in _marker_pixels(lay, "C6"):
        assert near(pixel(image, at), INK, 40), at
    for at in _marker_pixels(lay, "B2"):
        assert not near(pixel(image, at), INK, 40)
    plain = decode(render_png(game, highlight_last=False))
    for at in _marker_pixels(lay, "C6"):
        assert not near(pixel(plain, at), INK, 40)


def test_an_empty_ring_is_not_drawn():
    ring = [(P, "C4"), (P, "B3"), (P, "D3"), (P, "C2")]
    game = play(5, 5, ring)
    assert game.board.is_free("C3") and not game.board.bases
    lay = layout(5, 5)
    image = decode(render_png(game, highlight_last=False))
    assert near(pixel(image, off_grid(lay, "C3")), PAPER, 0)
    (ax, ay), (bx, by) = lay.centre(Point.parse("C4")), lay.centre(Point.parse("D3"))
    assert not near(pixel(image, ((ax + bx) / 2, (ay + by) / 2)), PINK_DARK, 30)
    # Blue plays into it and is captured at once (rule 4.4): now the ring is drawn.
    game.apply(Action("dot", B, Point.parse("C3")))
    image = decode(render_png(game, highlight_last=False))
    assert near(pixel(image, ((ax + bx) / 2, (ay + by) / 2)), PINK_DARK)
    assert not near(pixel(image, off_grid(lay, "C3")), PAPER, 4)


def test_marks_are_crosses():
    game = play(7, 7, [(P, "B2"), (B, "E5")])
    lay = layout(7, 7)
    image = decode(render_png(game, marks=["B2", Point(3, 3)], highlight_last=False))
    for name in ("B2", "D4"):
        cx, cy = lay.centre(Point.parse(name))
        arm = lay.radius * 0.5
        assert near(pixel(image, (cx, cy)), INK, 40)
        assert near(pixel(image, (cx + arm, cy + arm)), INK, 60)
        assert near(pixel(image, (cx - arm, cy + arm)), INK, 60)
        assert not near(pixel(image, (cx + arm, cy)), INK, 60)
    with pytest.raises(OffBoardError):
        render_png(game, marks=["H1"])


def test_a_stop_marks_the_dots_it_handed_over():
    game = play(7, 7, [(P, name) for name in ("C3", "C4", "D4", "D3", "E5")], rules="grounding")
    game.apply(Action("end", P))
    assert game.handed_over
    lay = layout(7, 7)
    image = decode(render_png(game))
    for point in game.handed_over:
        assert near(pixel(image, lay.centre(point)), INK, 40)


def test_labels_name_every_column_and_row():
    for width, height in [(7, 5), (30, 28)]:
        lay = layout(width, height)
        game = Game(width, height)
        with_labels = decode(render_png(game))
        without = decode(render_png(game, labels=False))
        diff = ImageChops.difference(with_labels, without).convert("L")
        half = lay.cell * 0.4
        for x in range(width):
            for cx, cy in lay.column_label_centres(x):
                box = (round(cx - half), round(cy - half), round(cx + half), round(cy + half))
                assert diff.crop(box).getbbox() is not None, (width, height, x)
        for y in range(height):
            for cx, cy in lay.row_label_centres(y):
                box = (round(cx - half), round(cy - half), round(cx + half), round(cy + half))
                assert diff.crop(box).getbbox() is not None, (width, height, y)
        # Nothing but labels differs: the board itself is the same.
        board = (lay.left - 2, lay.top - 2, lay.right + 3, lay.bottom + 3)
        assert diff.crop(board).getbbox() is None


def test_labels_are_the_point_names_of_rule_1_2():
    # Two columns whose labels have the same letters are drawn alike: A and AA differ, and
    # the label of column 27 (AA) is wider than that of column 1 (A).
    lay = layout(30, 30)
    game = Game(30, 30)
    diff = ImageChops.difference(
        decode(render_png(game)), decode(render_png(game, labels=False))
    ).convert("L")
    half = lay.cell * 0.48

    def ink_width(x: int) -> int:
        cx, cy = lay.column_label_centres(x)[0]
        box = diff.crop((round(cx - half), round(cy - half), round(cx + half), round(cy + half)))
        found = box.getbbox()
        assert found is not None
        return found[2] - found[0]

    assert ink_width(26) > ink_width(0) * 1.5  # AA against A
    # Row 1 is at the bottom: the label beside the bottom row is "1", narrower than "30".
    bottom = lay.row_label_centres(0)[0]
    top = lay.row_label_centres(29)[0]
    assert bottom[1] > top[1]

    def row_width(centre: tuple[float, float]) -> int:
        cx, cy = centre
        box = diff.crop((round(cx - half), round(cy - half), round(cx + half), round(cy + half)))
        found = box.getbbox()
        assert found is not None
        return found[2] - found[0]

    assert row_width(top) > row_width(bottom) * 1.3


def test_every_size_renders_within_the_width_bounds():
    sizes = [(n, n) for n in range(5, 53)] + [(52, 5), (5, 52), (39, 32), (40, 8), (23, 17)]
    for width, height in sizes:
        lay = layout(width, height)
        board = Board(width, height)
        board.place(Point(width - 1, height - 1), P)
        image = Image.open(io.BytesIO(render_png(board)))
        assert image.size == lay.size and image.mode == "P"
        assert lay.image_width <= 1600, (width, height)
        assert lay.left - lay.label_gap > 0 and lay.right + lay.label_gap < lay.image_width
        assert lay.bottom + lay.label_gap < lay.image_height
        # The top right dot is drawn where the layout says.
        assert near(image.convert("RGB").getpixel(lay.centre(Point(width - 1, height - 1))), PINK)
    assert layout(10, 10).image_width >= 480


def test_neighbouring_dots_do_not_touch():
    for n in (5, 10, 24, 52):
        lay = layout(n, n)
        assert 2 * lay.radius + 2 < lay.cell
        board = Board(n, n)
        board.place("A1", P)
        board.place("B1", B)
        image = decode(render_png(board))
        (ax, ay), (bx, _) = lay.centre(Point(0, 0)), lay.centre(Point(1, 0))
        gap = pixel(image, ((ax + bx) / 2, ay - 2))
        assert near(gap, PAPER, 0)


def test_the_header_shows_names_scores_turn_and_clock():
    game = play(7, 7, BASE)
    lay = layout(7, 7)
    header = (0, 0, lay.image_width, lay.header_height)

    def top(**kwargs: object) -> Image.Image:
        return decode(render_png(game, **kwargs)).crop(header)  # type: ignore[arg-type]

    plain = top()
    named = top(names=("Ada", "Bartosz"))
    other = top(names={Player.PINK: "Ada", Player.BLUE: "Zed"})
    timed = top(names=("Ada", "Bartosz"), clock=timedelta(seconds=42))
    assert ImageChops.difference(plain, named).getbbox() is not None
    # On the first line only Blue's half changes (the second names the player to move, Blue).
    first_line = (0, 0, lay.image_width, round(lay.header_size * 1.5))
    changed = ImageChops.difference(named.crop(first_line), other.crop(first_line)).getbbox()
    assert changed is not None and changed[0] >= lay.image_width // 2 - 20
    timed_diff = ImageChops.difference(named, timed).getbbox()
    assert timed_diff is not None and timed_diff[1] > lay.header_size  # the second line only
    assert top(clock=42) == top(clock="42 s")
    told = top(status="A stop now hands 3 dots to Blue")
    told_diff = ImageChops.difference(plain, told).getbbox()
    assert told_diff is not None and told_diff[1] > lay.header_size
    game.apply(Action("resign", B))
    assert ImageChops.difference(top(), plain).getbbox() is not None


def test_a_board_renders_with_scores_only():
    board = Board(7, 7)
    for player, name in BASE:
        board.place(name, player)
    lay = layout(7, 7)
    image = decode(render_png(board))
    assert near(pixel(image, lay.centre(Point.parse("C3"))), BLUE_FADED)
    for at in _marker_pixels(lay, "D2"):
        assert not near(pixel(image, at), INK, 40)


def test_a_20x20_pictures_labels_read_on_a_phone_as_10x10s_do():
    # Shown 360 px wide (a phone): a capital of the labels is 8 px tall or more up to 20x20,
    # and a bigger board's labels take more of their cell (never less readable on the way).
    heights = [label_height_at(n, n, 360) for n in range(10, 21)]
    assert min(heights) >= 8.0, heights
    assert layout(20, 20).label_size > layout(10, 10).label_size * layout(20, 20).cell / 52


@pytest.mark.parametrize("size", [(20, 20), (26, 26), (27, 27), (39, 32), (52, 52)])
def test_neighbouring_column_labels_never_touch(size):
    width, height = size
    lay = layout(width, height)
    game = Game(width, height)
    diff = ImageChops.difference(
        decode(render_png(game)), decode(render_png(game, labels=False))
    ).convert("L")
    (_, cy), _ = lay.column_label_centres(0)
    band = diff.crop((0, round(cy - lay.label_size), lay.image_width, round(cy + lay.label_size)))
    inked = [band.crop((x, 0, x + 1, band.height)).getbbox() is not None for x in range(band.width)]
    for x in range(width - 1):
        left = round(lay.column_label_centres(x)[0][0])
        right = round(lay.column_label_centres(x + 1)[0][0])
        assert not all(inked[left:right]), (size, x)
