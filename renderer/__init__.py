"""Pictures of Dots positions: PNGs of a position and animated GIF replays (Pillow only)."""

from renderer.gif import render_gif
from renderer.layout import Layout, layout
from renderer.png import render_png

__all__ = ["Layout", "layout", "render_gif", "render_png"]
