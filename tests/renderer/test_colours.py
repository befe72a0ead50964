"""Pink and Blue stay apart for colour-blind players (Machado 2009 simulation, CIEDE2000)."""

from __future__ import annotations

import pytest

from renderer import palette
from tests.renderer.colourblind import delta_e, distance, lab, simulate


def test_ciede2000_matches_published_test_data():
    # Sharma, Wu and Dalal (2005), pairs 1, 7 and 17.
    assert delta_e((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e((50, 0, 0), (50, -1, 2)) == pytest.approx(2.3669, abs=1e-4)
    assert delta_e((50, 2.5, 0), (73, 25, -18)) == pytest.approx(27.1492, abs=1e-4)


def test_the_simulations_confuse_what_they_should():
    red, green = (220, 40, 40), (90, 140, 30)
    # Red and green are far apart for normal sight but close for the red-green blind.
    assert distance(red, green) > 40
    assert distance(red, green, "deuteranopia") < distance(red, green) / 2
    assert distance(red, green, "protanopia") < distance(red, green) / 2
    # Grey stays grey.
    assert simulate((128, 128, 128), "deuteranopia") == pytest.approx((128, 128, 128), abs=1)
    assert lab((255, 255, 255)) == pytest.approx((100, 0, 0), abs=0.01)


@pytest.mark.parametrize("vision", ["normal", "deuteranopia", "protanopia", "tritanopia"])
def test_pink_and_blue_stay_apart(vision):
    assert distance(palette.PINK, palette.BLUE, vision) > 25
    assert distance(palette.PINK_DARK, palette.BLUE_DARK, vision) > 20  # rings, rims
    assert distance(palette.PINK_FADED, palette.BLUE_FADED, vision) > 12
    assert distance(palette.PINK_TINT, palette.BLUE_TINT, vision) > 6
    for colour in (palette.PINK, palette.BLUE):
        assert distance(colour, palette.PAPER, vision) > 20
    # A captured dot stands out from the shading of the base that took it.
    assert distance(palette.BLUE_FADED, palette.PINK_TINT, vision) > 8
    assert distance(palette.PINK_FADED, palette.BLUE_TINT, vision) > 8


def test_the_palette_holds_every_key_colour_exactly():
    colours = palette.colours()
    assert len(colours) <= palette.TRANSPARENT
    for colour in (palette.PAPER, palette.PINK, palette.BLUE, palette.INK, palette.GRID):
        assert colour in colours
