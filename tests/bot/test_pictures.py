"""Pictures rendered in worker processes: the same bytes as in-process, and a
worker that dies costs no picture."""

from __future__ import annotations

import os
import signal

from bot.pictures import Pictures, game_gif, game_png
from engine import Game, Player, Point

NAMES = {Player.PINK: "alice", Player.BLUE: "bob"}


def small_game() -> Game:
    game = Game(10, 10)
    for name in ("E5", "F5", "E6", "F6"):
        game.place(Point.parse(name))
    return game


async def test_the_pool_renders_what_the_renderer_does() -> None:
    pictures = Pictures(workers=1)
    try:
        game = small_game()
        png = await pictures.png(game, NAMES, clock="1 min", marks=[Point.parse("A1")])
        assert png == game_png(game, NAMES, clock="1 min", marks=[Point.parse("A1")])
        assert await pictures.gif(game, NAMES) == game_gif(game, NAMES)
    finally:
        pictures.close()


async def test_a_dead_worker_costs_no_picture() -> None:
    pictures = Pictures(workers=1)
    try:
        game = small_game()
        await pictures.png(game, NAMES)
        pool = pictures._pool
        assert pool is not None
        for pid in list(pool._processes):  # the worker dies (killed, out of memory...)
            os.kill(pid, signal.SIGKILL)
        assert await pictures.png(game, NAMES) == game_png(game, NAMES)
        # A new pool serves the next picture.
        assert await pictures.png(game, NAMES) == game_png(game, NAMES)
        assert pictures._pool is not None and pictures._pool is not pool
    finally:
        pictures.close()
