"""The pictures of a game for the adapters: one place that calls the renderer.

Rendering takes tens of milliseconds on big boards; the Discord adapter calls these through
``asyncio.to_thread`` so the event loop never waits on Pillow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timedelta

from engine import Game, Player, Point, StopPreview
from renderer import render_gif, render_png
from renderer.words import ENGLISH, Words


def game_png(
    game: Game,
    names: Mapping[Player, str],
    *,
    clock: timedelta | str | None = None,
    marks: Iterable[Point] = (),
    preview: StopPreview | None = None,
    times: Mapping[Player, timedelta] | None = None,
    words: Words = ENGLISH,
) -> bytes:
    """The current position as PNG bytes, with names, the time left and crosses on ``marks``;
    with ``preview``, what that stop would do (its dots crossed, a header saying so);
    ``times``: each player's time left on a game clock, in the header; the header in
    ``words`` (``bot.i18n.words(locale)``)."""
    return render_png(
        game,
        names=dict(names),
        clock=clock,
        marks=tuple(marks),
        highlight_last=True,
        preview=preview,
        words=words,
        times=times,
    )


def game_gif(game: Game, names: Mapping[Player, str], words: Words = ENGLISH) -> bytes:
    """The game's replay, move by move, as an animated GIF (its headers in ``words``)."""
    return render_gif(game, names=dict(names), words=words)
