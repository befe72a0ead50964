"""The pictures of a game for the adapters: one place that calls the renderer.

Rendering takes tens of milliseconds on big boards (a replay's GIF seconds), all of it holding
the interpreter, so a thread would still delay every other game's answers. The Discord adapter
renders through ``Pictures`` (``PICTURES``): a pool of worker processes, like the computer's
search, so one busy game does not delay another's first answer. The terminal mode calls
``game_png`` / ``game_gif`` directly, in its own process.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from datetime import timedelta
from functools import partial
from typing import TypedDict, Unpack

from bot.games.workers import new_pool, run_or_thread, shut
from engine import Game, Player, Point, Record, StopPreview
from renderer import render_gif, render_png
from renderer.words import ENGLISH, Words


class PngOptions(TypedDict, total=False):
    """What ``game_png`` draws besides the position and the names (see there)."""

    clock: timedelta | str | None
    marks: Iterable[Point]
    preview: StopPreview | None
    times: Mapping[Player, timedelta] | None
    words: Words


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


def _png_of_record(
    record: Record, names: Mapping[Player, str], **options: Unpack[PngOptions]
) -> bytes:
    """In a worker: ``game_png`` of the game ``record`` describes."""
    return game_png(Game.replay(record), names, **options)


def _gif_of_record(record: Record, names: Mapping[Player, str], words: Words) -> bytes:
    """In a worker: ``game_gif`` of the game ``record`` describes."""
    return game_gif(Game.replay(record), names, words)


def default_workers() -> int:
    """One worker per core but one (left to the event loop), at least one, at most four."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


def _ignore_interrupts() -> None:
    """In a worker: ignore Ctrl-C (the parent decides what it means and stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _ready() -> None:
    """In a worker: nothing (``Pictures.warm`` sends it to start the workers)."""


class Pictures:
    """Renders pictures in a pool of ``workers`` processes, started on first use.

    The 'spawn' start method, as for the computer's search: forking a process that runs
    database threads is unsafe. A pool whose worker died is replaced, and that one picture is
    rendered in a thread instead, so a picture is never lost. A game goes to a worker as its
    record, replayed there: a pickle of the record costs 0.3 ms for 350 moves of 20x20, of the
    game itself (its board) ten times as much, on the event loop (``bench/picture_lag.py``).
    """

    def __init__(self, *, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: Executor | None = None

    async def png(
        self, game: Game, names: Mapping[Player, str], **options: Unpack[PngOptions]
    ) -> bytes:
        """``game_png`` rendered in a worker process."""
        # The options travel pickled: the iterables as a tuple and a dict.
        if "marks" in options:
            options["marks"] = tuple(options["marks"])
        times = options.get("times")
        if times is not None:
            options["times"] = dict(times)
        return await self._render(partial(_png_of_record, game.record, dict(names), **options))

    async def gif(
        self, game: Game, names: Mapping[Player, str], *, words: Words = ENGLISH
    ) -> bytes:
        """``game_gif`` rendered in a worker process."""
        return await self._render(partial(_gif_of_record, game.record, dict(names), words))

    def warm(self) -> None:
        """Start the workers now, in the background (a worker takes a second or two to start
        and import the renderer: better at start-up than before the first picture)."""
        pool = self._executor()
        for _ in range(self.workers):
            pool.submit(_ready)

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = new_pool(
                processes=True,
                workers=self.workers,
                name="pictures",
                initializer=_ignore_interrupts,
            )
        return self._pool

    async def _render(self, call: Callable[[], bytes]) -> bytes:
        return await run_or_thread(self._executor(), call, restart=self.close)

    def close(self) -> None:
        """Stop the workers (renders under way are dropped); the next render starts anew."""
        pool, self._pool = self._pool, None
        shut(pool)


# The process's picture pool: shared by every bot in it (tests run many), stopped at exit.
PICTURES = Pictures()
