"""The sticker book picture: earned stickers in colour with a count, missing ones grey."""

from __future__ import annotations

import io
from itertools import combinations

from PIL import Image, ImageChops

from renderer import palette
from renderer.stickers import (
    CARD_H,
    CARD_W,
    COLUMNS,
    EMBLEM_R,
    EMBLEMS,
    MARGIN,
    TITLE_H,
    TITLE_STEP,
    card_box,
    render_sticker_book,
)

from .pixels import decode, near

IDS = list(EMBLEMS)


def book(counts: dict[str, int], title: str = "Ada's stickers") -> Image.Image:
    return decode(
        render_sticker_book([(i, i.replace("_", " "), counts.get(i, 0)) for i in IDS], title)
    )


def card(image: Image.Image, index: int) -> Image.Image:
    return image.crop(card_box(index))


def emblem(image: Image.Image, index: int) -> Image.Image:
    left, top, right, _ = card_box(index)
    middle = (left + right) // 2
    return image.crop(
        (middle - EMBLEM_R - 4, top + 8, middle + EMBLEM_R + 4, top + 16 + 2 * EMBLEM_R)
    )


def colours_in(image: Image.Image) -> set[tuple[int, int, int]]:
    return {rgb for _, rgb in image.getcolors(maxcolors=1 << 16) or []}


def is_grey(rgb: tuple[int, int, int]) -> bool:
    """Paper, the grid's and the edge's blue-greys, label grey and the ramps between them."""
    return max(rgb) - min(rgb) <= 60 and min(rgb) >= 90


def test_a_png_on_the_fixed_palette_of_the_expected_size() -> None:
    data = render_sticker_book([(i, i, 1) for i in IDS], "x")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.mode == "P"
    rows = -(-len(IDS) // COLUMNS)
    assert image.size == (2 * MARGIN + COLUMNS * CARD_W, TITLE_H + rows * CARD_H + MARGIN)
    assert colours_in(image.convert("RGB")) <= set(palette.colours())


def test_earned_in_colour_and_missing_as_grey_outlines() -> None:
    image = book({"first_capture": 3, "comeback": 1})
    earned = {IDS.index("first_capture"), IDS.index("comeback")}
    for index in range(len(IDS)):
        found = colours_in(emblem(image, index))
        if index in earned:
            assert any(near(c, palette.PINK, 20) for c in found), IDS[index]
            assert any(near(c, palette.BLUE, 20) for c in found), IDS[index]
        else:
            assert all(is_grey(c) for c in found), (
                IDS[index],
                [c for c in found if not is_grey(c)],
            )
            # An outline, not a blank card.
            assert any(near(c, palette.EDGE, 8) for c in found), IDS[index]


def test_every_emblem_is_drawn_and_distinct() -> None:
    image = book(dict.fromkeys(IDS, 1))
    crops = [emblem(image, index) for index in range(len(IDS))]
    for a, b in combinations(range(len(IDS)), 2):
        assert ImageChops.difference(crops[a], crops[b]).getbbox() is not None, (IDS[a], IDS[b])
    grey = book({})
    for index in range(len(IDS)):
        assert ImageChops.difference(crops[index], emblem(grey, index)).getbbox() is not None


def test_the_count_is_written() -> None:
    one, two = book({"full_page": 1}), book({"full_page": 2})
    index = IDS.index("full_page")
    _, top, _, bottom = card_box(index)
    changed = ImageChops.difference(card(one, index), card(two, index)).getbbox()
    assert changed is not None
    # Only the count line under the name changed.
    assert changed[1] > bottom - top - 32
    others = [i for i in range(len(IDS)) if i != index]
    for i in others:
        assert ImageChops.difference(card(one, i), card(two, i)).getbbox() is None


def test_an_unknown_sticker_long_names_and_odd_titles_still_draw() -> None:
    data = render_sticker_book(
        [("from_a_later_version", "A sticker with a very long name indeed " * 3, 4)],
        "Zoë 🦊\u200b" + "x" * 200,
    )
    image = decode(data)
    # The name, then the unbroken run of x on a line of its own (cut only there).
    assert image.size[1] == TITLE_H + TITLE_STEP + CARD_H + MARGIN
    assert any(near(c, palette.PINK, 20) for c in colours_in(emblem(image, 0)))
    assert decode(render_sticker_book([], "empty")).size[0] == 2 * MARGIN + COLUMNS * CARD_W
