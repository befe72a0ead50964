"""How long the event loop stalls while pictures render: a thread versus the picture pool.

Issue 12 moved the pictures and GIF replays off the event loop's process (``bot.pictures``,
a pool of worker processes, as the computer's search). This measures what that buys: while a
GIF replay of a full 39x32 game and PNGs of a 39x32 mid-game render, the ticker of
``bench/think_lag.py`` (wake every 10 ms, do a handler's piece of work, a round trip through a
thread) notes the loop's stalls and how much slower the other players' work gets. Rendering
(1) in ``asyncio.to_thread`` (as before issue 12) and (2) in ``bot.pictures.Pictures``.
Run: python bench/picture_lag.py [--pngs N]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from think_lag import TICK, p99, ticking, work

from bot.pictures import Pictures, game_gif, game_png
from engine import Game, Player
from renderer.demo import sample_game

NAMES = {Player.PINK: "Pink player", Player.BLUE: "Blue player"}


async def measure(
    render: Callable[[Game, bool], Awaitable[bytes]], jobs: list[tuple[Game, bool]]
) -> tuple[float, float, float, float]:
    """(seconds for all the jobs, worst stall, p99 stall, mean work seconds) while ``render``
    renders ``jobs`` (a game, and whether it is a GIF) one after another."""

    async def run() -> None:
        for game, gif in jobs:
            await render(game, gif)

    elapsed, late, spent, _ = await ticking(run)
    return elapsed, max(late), p99(late), sum(spent) / len(spent)


async def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pngs", type=int, default=20, help="PNGs of a 39x32 mid-game")
    args = parser.parse_args()
    mid = sample_game(39, 32, 700, seed=11)
    full = sample_game(39, 32, 10_000, seed=11)
    jobs = [(full, True)] + [(mid, False)] * args.pngs
    pool = Pictures()
    await pool.png(mid, NAMES)  # start a worker outside the timing

    async def in_thread(game: Game, gif: bool) -> bytes:
        if gif:
            return await asyncio.to_thread(game_gif, game, NAMES)
        return await asyncio.to_thread(game_png, game, NAMES)

    async def in_pool(game: Game, gif: bool) -> bytes:
        return await (pool.gif(game, NAMES) if gif else pool.png(game, NAMES))

    idle = sorted(work() for _ in range(50))[25]
    print(
        f"event loop while a GIF of a full 39x32 game ({len(full.actions)} actions) and "
        f"{args.pngs} PNGs of a 39x32 mid-game render, one after another"
    )
    print(f"handler work on an idle loop: {idle * 1000:.1f} ms")
    print(f"{'where':<8} {'seconds':>8} {'worst stall':>12} {'p99 stall':>10} {'slowdown':>9}")
    for where, render in (("thread", in_thread), ("pool", in_pool)):
        elapsed, worst, p99, spent = await measure(render, jobs)
        print(
            f"{where:<8} {elapsed:>8.2f} {worst * 1000:>9.0f} ms {p99 * 1000:>7.0f} ms "
            f"{spent / idle:>8.1f}x"
        )
    pool.close()
    print(f"(the ticker asks to wake every {TICK * 1000:.0f} ms)")


if __name__ == "__main__":
    asyncio.run(main())
