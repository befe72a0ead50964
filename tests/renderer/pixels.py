"""Helpers for the renderer's tests: decode pictures and read their pixels."""

from __future__ import annotations

import io

from PIL import Image

Rgb = tuple[int, int, int]


def decode(data: bytes) -> Image.Image:
    """A PNG's pixels as RGB."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    return image.convert("RGB")


def pixel(image: Image.Image, at: tuple[float, float]) -> Rgb:
    """The RGB at the pixel nearest to ``at``."""
    value = image.getpixel((round(at[0]), round(at[1])))
    assert isinstance(value, tuple)
    return (int(value[0]), int(value[1]), int(value[2]))


def near(a: Rgb, b: Rgb, tolerance: int = 6) -> bool:
    """Whether two colours differ by at most ``tolerance`` in every channel."""
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))
