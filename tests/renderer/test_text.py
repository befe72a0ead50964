"""Names and clocks as the header shows them."""

from __future__ import annotations

from datetime import timedelta

from engine import Player
from renderer.picture import clock_text, name_pair
from renderer.text import clean, fit, font


def test_names_in_latin_greek_and_cyrillic_are_drawn_as_written():
    assert clean("Zoë Łukasz") == "Zoë Łukasz"
    assert clean("Дмитрий Кропкин") == "Дмитрий Кропкин"
    assert clean("Pink wins 5–3") == "Pink wins 5–3"


def test_letters_the_font_lacks_are_folded_or_replaced():
    assert clean("bob\u200b") == "bob"
    assert clean("Ann 🎲") == "Ann ?"
    # A CJK letter has no glyph in DejaVu Sans and does not decompose.
    assert clean("李") == "?"


def test_names_fall_back_to_the_colour_when_nothing_drawable_is_left():
    assert name_pair(None) == ("Pink", "Blue")
    assert name_pair(("李", "  Ada   Lovelace ")) == ("Pink", "Ada Lovelace")
    assert name_pair({Player.BLUE: "Bob"}) == ("Pink", "Bob")


def test_long_names_are_cut_to_fit():
    cut = fit("a very long name indeed, longer than any box", 16, 100)
    assert cut.endswith("…") and font(16).getlength(cut) <= 100
    assert fit("Ada", 16, 100) == "Ada"


def test_clock_text():
    assert clock_text(42) == "42 s"
    assert clock_text(timedelta(seconds=41.2)) == "42 s"
    assert clock_text(65) == "1:05"
    assert clock_text(-3) == "0 s"
    assert clock_text("your move") == "your move"
    assert clock_text(None) == ""
